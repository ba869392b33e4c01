package io.github.blake3fast.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;

/**
 * {@code --check}: reads checkfiles line by line and verifies each listed file. Results go to
 * stdout ({@code name: OK}, {@code name: FAILED}, {@code name: FAILED (error)}), malformed lines
 * to stderr; a checkfile that cannot be opened or is not UTF-8 ends the run.
 */
final class Checker {
  private final Inputs inputs;
  private final Out out;
  private final InputStream stdin;
  private final boolean quiet;
  private final long seek;

  Checker(Inputs inputs, Out out, InputStream stdin, boolean quiet, long seek) {
    this.inputs = inputs;
    this.out = out;
    this.stdin = stdin;
    this.quiet = quiet;
    this.seek = seek;
  }

  /** Checks every line of one checkfile; returns false if anything failed. */
  boolean checkFile(String name) throws Fatal {
    boolean ok = true;
    InputStream in = null;
    try {
      in = open(name);
      ByteArrayOutputStream line = new ByteArrayOutputStream(256);
      byte[] buf = new byte[1 << 16];
      int n;
      while ((n = in.read(buf)) > 0) {
        int start = 0;
        for (int i = 0; i < n; i++) {
          if (buf[i] == '\n') {
            line.write(buf, start, i + 1 - start);
            ok &= checkLine(line.toByteArray());
            line.reset();
            start = i + 1;
          }
        }
        line.write(buf, start, n - start);
      }
      if (line.size() > 0) {
        ok &= checkLine(line.toByteArray());
      }
    } catch (IOException e) {
      throw new Fatal(OsErrors.describe(e));
    } finally {
      if (in != null && in != stdin) {
        try {
          in.close();
        } catch (IOException e) {
          // nothing was written to it
        }
      }
    }
    return ok;
  }

  private InputStream open(String name) throws IOException, Fatal {
    if (name.equals("-")) {
      return stdin;
    }
    if (name.isEmpty()) {
      throw new Fatal(OsErrors.NOT_FOUND);
    }
    Path path = Path.of(name);
    if (Files.isDirectory(path)) {
      Files.newInputStream(path).close(); // permission errors first, as open(2) reports them
      throw new Fatal(OsErrors.IS_A_DIRECTORY);
    }
    if (name.endsWith("/")) {
      Files.readAttributes(path, java.nio.file.attribute.BasicFileAttributes.class);
      throw new Fatal(OsErrors.NOT_A_DIRECTORY);
    }
    return Files.newInputStream(path);
  }

  private boolean checkLine(byte[] bytes) throws Fatal {
    String text = decode(bytes);
    CheckLine line;
    try {
      line = CheckLine.parse(text);
    } catch (CheckLine.Malformed e) {
      out.error(e.getMessage());
      return false;
    }
    byte[] found = new byte[CheckLine.HASH_LEN];
    try {
      inputs.hash(line.path, seek, CheckLine.HASH_LEN).read(found, 0, found.length);
    } catch (Inputs.Failure e) {
      out.print(line.shownName);
      out.print(": FAILED (");
      out.print(e.getMessage());
      out.print(")\n");
      return false;
    }
    if (MessageDigest.isEqual(found, line.expected)) {
      if (!quiet) {
        out.print(line.shownName);
        out.print(": OK\n");
      }
      return true;
    }
    out.print(line.shownName);
    out.print(": FAILED\n");
    return false;
  }

  private static String decode(byte[] bytes) throws Fatal {
    CharsetDecoder d = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try {
      return d.decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      throw new Fatal("stream did not contain valid UTF-8");
    }
  }
}
