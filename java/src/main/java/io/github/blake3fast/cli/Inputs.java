package io.github.blake3fast.cli;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import io.github.blake3fast.Blake3OutputReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens and hashes one input: a file, or standard input for {@code -}. Regular files go through
 * {@link Blake3Hasher#updateFile}, which reads large files in parallel; pipes and devices are
 * read as streams. Failures carry the official tool's message.
 */
final class Inputs {
  /** A failure to open or read an input, with the message b3sum prints for it. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message, null, false, false);
    }
  }

  private final InputStream stdin;
  private final byte[] key;
  private final String context;
  /** Threads for one large file; 0 lets the library choose (all cores). */
  private final int threads;

  Inputs(InputStream stdin, byte[] key, String context, int threads) {
    this.stdin = stdin;
    this.key = key;
    this.context = context;
    this.threads = threads;
  }

  private Blake3Hasher newHasher() {
    if (key != null) {
      return Blake3.newKeyedHasher(key);
    }
    if (context != null) {
      return Blake3.newDeriveKeyHasher(context);
    }
    return Blake3.newHasher();
  }

  /** Hashes the named input; the reader is at output position 0. */
  Blake3OutputReader hash(String name) throws Failure {
    Blake3Hasher h = newHasher();
    try {
      if (name.equals("-")) {
        if (key != null) {
          throw new Failure("Cannot open `-` in keyed mode");
        }
        h.update(stdin);
      } else {
        Path path = open(name);
        if (threads > 0) {
          h.updateFile(path, threads);
        } else {
          h.updateFile(path);
        }
      }
    } catch (IOException e) {
      throw new Failure(OsErrors.describe(e));
    }
    return h.xof();
  }

  /**
   * The path of a name, refused the way open(2) refuses it where Java's path handling would
   * differ: the empty name, and a trailing slash after something that is not a directory.
   */
  private static Path open(String name) throws IOException, Failure {
    if (name.isEmpty()) {
      throw new Failure(OsErrors.NOT_FOUND);
    }
    Path path;
    try {
      path = Path.of(name);
    } catch (InvalidPathException e) {
      throw new Failure(OsErrors.text(22));
    }
    if (name.endsWith("/")) {
      BasicFileAttributes attrs = Files.readAttributes(path, BasicFileAttributes.class);
      if (!attrs.isDirectory()) {
        throw new Failure(OsErrors.NOT_A_DIRECTORY);
      }
    }
    return path;
  }
}
