package io.github.blake3fast.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard output and standard error with the official tool's ordering: stdout is
 * line-buffered, stderr is not. Complete lines are gathered in a buffer and written in bulk;
 * before anything goes to stderr, the complete lines written so far go out, and a partial line
 * stays behind, as a line-buffered stream would keep it. So {@code 2>&1} interleaves the same.
 *
 * <p>A failed write to stdout (a full disk, a closed pipe) throws {@link Lost} from whichever
 * call wrote, and the run ends there, as the official tool's does; from then on stdout is
 * dropped. The official tool writes every line as it is printed and so fails earlier, but
 * since complete lines go out before any stderr message, the messages printed before the
 * failure are the same.
 */
final class Out {
  private static final int LIMIT = 1 << 16;
  private final OutputStream out;
  private final OutputStream err;
  private byte[] buf = new byte[8192];
  private int len;
  private IOException lost;

  /** Standard output could not be written: what was printed is lost. */
  static final class Lost extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Lost(IOException cause) {
      super(cause.getMessage(), cause, false, false);
    }

    IOException reason() {
      return (IOException) getCause();
    }
  }

  Out(OutputStream out, OutputStream err) {
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
    if (lost != null) {
      return;
    }
    if (len + n > buf.length) {
      if (len + n <= LIMIT) {
        buf = java.util.Arrays.copyOf(buf, Math.max(len + n, Math.min(LIMIT, 2 * buf.length)));
      } else {
        flushAll();
        if (n > LIMIT) {
          emit(b, off, n);
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
    try {
      err.write(b, 0, b.length);
      err.flush();
    } catch (IOException e) {
      // Nowhere is left to report it; every message on stderr comes with a failing status.
    }
  }

  private void flushLines() {
    int last = len - 1;
    while (last >= 0 && buf[last] != '\n') {
      last--;
    }
    if (last < 0) {
      return;
    }
    emit(buf, 0, last + 1);
    System.arraycopy(buf, last + 1, buf, 0, len - last - 1);
    len -= last + 1;
  }

  void flushAll() {
    int n = len;
    len = 0;
    emit(buf, 0, n);
  }

  /** Writes and flushes to stdout, or throws {@link Lost}. */
  private void emit(byte[] b, int off, int n) {
    if (lost != null) {
      return;
    }
    try {
      if (n > 0) {
        out.write(b, off, n);
      }
      out.flush();
      // A PrintStream keeps its errors to itself; a caller of B3sum.run may pass one.
      if (out instanceof PrintStream && ((PrintStream) out).checkError()) {
        throw new IOException("write error (the PrintStream does not say which)");
      }
    } catch (IOException e) {
      lost = e;
      len = 0;
      throw new Lost(e);
    }
  }
}
