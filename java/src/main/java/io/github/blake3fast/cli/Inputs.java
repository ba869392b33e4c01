package io.github.blake3fast.cli;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import java.io.IOException;
import java.io.InputStream;
import java.io.FileInputStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;

/**
 * Opens and hashes one input: a file, or standard input for {@code -}. Failures carry the
 * official tool's message.
 *
 * <p>A file that turns out to be small (up to {@link #SMALL} bytes) is read whole and hashed in
 * one call, which is the cheapest path for the many-small-files case; a larger regular file goes
 * through {@link Blake3Hasher#updateFile}, which reads it in parallel; anything that keeps
 * delivering bytes past the small buffer (a pipe, a device) is streamed.
 */
final class Inputs {
  /** A failure to open or read an input, with the message b3sum prints for it. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;

    Failure(String message) {
      super(message, null, false, false);
    }
  }

  static final int SMALL = 64 * 1024;
  /** Output lengths up to this are computed in one shot for small files. */
  private static final int ONE_SHOT_OUT = 1024;

  private final InputStream stdin;
  private final byte[] key;
  private final String context;
  /** Threads for one large file; 0 lets the library choose (all cores). */
  private final int threads;
  private final byte[] small = new byte[SMALL + 1];

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

  /**
   * Hashes the named input; its output is readable from {@code seek} on. {@code want} is how
   * many output bytes will be read, or -1 if that is not known.
   */
  HashOutput hash(String name, long seek, long want) throws Failure {
    try {
      if (name.equals("-")) {
        if (key != null) {
          throw new Failure("Cannot open `-` in keyed mode");
        }
        return HashOutput.of(newHasher().update(stdin).xof(), seek);
      }
      check(name);
      // A FileInputStream opens with less machinery than a FileChannel, which shows when a
      // cold JVM hashes many small files.
      try (FileInputStream in = new FileInputStream(name)) {
        int n = 0;
        for (int r; n < small.length && (r = in.read(small, n, small.length - n)) > 0; ) {
          n += r;
        }
        if (n <= SMALL) {
          return oneShot(n, seek, want);
        }
        if (in.getChannel().size() <= SMALL) { // a pipe, a device, /proc: read on as a stream
          Blake3Hasher h = newHasher();
          h.update(small, 0, n);
          h.update(in);
          return HashOutput.of(h.xof(), seek);
        }
      }
      // A large regular file: read again by the library, in parallel.
      Blake3Hasher h = newHasher();
      if (threads > 0) {
        h.updateFile(Path.of(name), threads);
      } else {
        h.updateFile(Path.of(name));
      }
      return HashOutput.of(h.xof(), seek);
    } catch (IOException e) {
      throw new Failure(OsErrors.describe(e));
    } catch (InvalidPathException e) {
      throw new Failure(OsErrors.text(22));
    }
  }

  /** The output of the first n bytes of the small buffer, all of the input. */
  private HashOutput oneShot(int n, long seek, long want) {
    if (seek == 0 && want >= 0 && want <= ONE_SHOT_OUT) {
      int outLen = (int) Math.max(want, 32);
      if (key == null && context == null && outLen == 32) {
        return HashOutput.of(Blake3.hash(small, 0, n));
      }
      byte[] input = Arrays.copyOf(small, n);
      if (key != null) {
        return HashOutput.of(Blake3.keyedHash(key, input, outLen));
      }
      if (context != null) {
        return HashOutput.of(Blake3.deriveKey(context, input, outLen));
      }
      return HashOutput.of(Blake3.hash(input, outLen));
    }
    return HashOutput.of(newHasher().update(small, 0, n).xof(), seek);
  }

  /**
   * Refuses a name the way open(2) would where Java's handling differs: the empty name (Java
   * reads it as the current directory) and a trailing slash after something that is not a
   * directory (Java drops the slash).
   */
  private static void check(String name) throws IOException, Failure {
    if (name.isEmpty()) {
      throw new Failure(OsErrors.NOT_FOUND);
    }
    if (name.endsWith("/")) {
      BasicFileAttributes attrs = Files.readAttributes(Path.of(name), BasicFileAttributes.class);
      if (!attrs.isDirectory()) {
        throw new Failure(OsErrors.NOT_A_DIRECTORY);
      }
    }
  }
}
