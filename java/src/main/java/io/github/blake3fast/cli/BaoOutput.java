package io.github.blake3fast.cli;

import io.github.blake3fast.internal.FileOutput;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.Path;

/**
 * Where a bao command's bytes go. Standard output gets verified bytes as they come, which is
 * what streaming is for: a failure leaves what was written so far. A named file appears whole
 * or not at all ({@link FileOutput}): written beside it under a temporary name and moved into
 * place by {@link #finish}, after the last byte was verified; abandoned by {@link #close}
 * otherwise.
 */
final class BaoOutput implements Closeable {
  private static final int BUFFER = 1 << 20;

  /** Null for standard output. */
  private final FileOutput file;
  private final OutputStream stream;

  private BaoOutput(FileOutput file, OutputStream stream) {
    this.file = file;
    this.stream = stream;
  }

  /** The named file ({@code name} null: standard output, which is flushed, never closed). */
  static BaoOutput open(Path name, OutputStream stdout) throws IOException {
    if (name == null) {
      return new BaoOutput(null, new BufferedOutputStream(new FilterOutputStream(stdout) {
        @Override
        public void write(byte[] b, int off, int len) throws IOException {
          out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
          flush();
        }
      }, BUFFER));
    }
    FileOutput f = FileOutput.open(name);
    return new BaoOutput(f, new BufferedOutputStream(Channels.newOutputStream(f.channel()), BUFFER));
  }

  OutputStream stream() {
    return stream;
  }

  /** Everything is written and verified: flush, and put a file in place. */
  void finish() throws IOException {
    stream.flush();
    if (file != null) {
      file.commit();
    }
  }

  /**
   * Abandons a file not finished: its temporary file is deleted, the old file left as it was.
   * Standard output gets what its buffer holds, verified bytes all, even after a failure.
   */
  @Override
  public void close() throws IOException {
    if (file != null) {
      file.close();
      return;
    }
    try {
      stream.flush();
    } catch (IOException e) {
      // the reader went away, or the command failed writing: the failure reported says so
    }
  }
}
