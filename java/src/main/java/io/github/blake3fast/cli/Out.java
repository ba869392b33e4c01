package io.github.blake3fast.cli;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard output and standard error with the official tool's ordering: stdout is
 * line-buffered, stderr is not. Complete lines are gathered in a buffer and written in bulk;
 * before anything goes to stderr, the complete lines written so far go out, and a partial line
 * stays behind, as a line-buffered stream would keep it. So {@code 2>&1} interleaves the same.
 */
final class Out {
  private static final int LIMIT = 1 << 16;
  private final PrintStream out;
  private final PrintStream err;
  private byte[] buf = new byte[8192];
  private int len;

  Out(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  void print(String s) {
    write(s.getBytes(StandardCharsets.UTF_8));
  }

  void write(byte[] b) {
    write(b, 0, b.length);
  }

  void write(byte[] b, int off, int n) {
    if (len + n > buf.length) {
      if (len + n <= LIMIT) {
        buf = java.util.Arrays.copyOf(buf, Math.max(len + n, Math.min(LIMIT, 2 * buf.length)));
      } else {
        flushAll();
        if (n > LIMIT) {
          out.write(b, off, n);
          return;
        }
      }
    }
    System.arraycopy(b, off, buf, len, n);
    len += n;
  }

  /** Writes {@code b3sum: message} and a newline to stderr, after the complete lines of stdout. */
  void error(String message) {
    errorRaw("b3sum: " + message + "\n");
  }

  /** Writes text to stderr as it is, after the complete lines of stdout. */
  void errorRaw(String text) {
    flushLines();
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    err.write(b, 0, b.length);
    err.flush();
  }

  private void flushLines() {
    int last = len - 1;
    while (last >= 0 && buf[last] != '\n') {
      last--;
    }
    if (last < 0) {
      return;
    }
    out.write(buf, 0, last + 1);
    out.flush();
    System.arraycopy(buf, last + 1, buf, 0, len - last - 1);
    len -= last + 1;
  }

  void flushAll() {
    if (len > 0) {
      out.write(buf, 0, len);
      len = 0;
    }
    out.flush();
  }

  /** True once writing to stdout has failed (a closed pipe, a full disk). */
  boolean broken() {
    return out.checkError();
  }
}
