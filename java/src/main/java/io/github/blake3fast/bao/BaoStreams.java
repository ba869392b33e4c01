package io.github.blake3fast.bao;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * {@link Blake3Bao}'s encoders whose output is a stream, which cannot seek: the outboard is
 * built first where it can be read back (in memory, or in a temporary file when large), then
 * streamed out, interleaved with the content for the combined encoding. A stream's content is
 * spooled first too, since the header that leads the encoding holds its length.
 */
final class BaoStreams {
  private BaoStreams() {}

  /** Outboards up to this size are built in memory. */
  private static final long IN_MEMORY = 1L << 30;

  /** Encodes everything {@code input} delivers, spooled first, to {@code out}. */
  static byte[] fromStream(int groupLog, InputStream input, OutputStream out, boolean combined) throws IOException {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(out, "out");
    BaoSpool[] spool = new BaoSpool[1];
    try {
      return write(groupLog, BaoSpool.content(input, spool), out, combined);
    } finally {
      if (spool[0] != null) {
        spool[0].close();
      }
    }
  }

  /** Encodes {@code content} to {@code out}; returns the root hash. */
  static byte[] write(int groupLog, BaoContent content, OutputStream out, boolean combined) throws IOException {
    BaoTree tree = new BaoTree(content.length, groupLog);
    if (combined) {
      tree.encodedSize(); // ArithmeticException before any work if no file could hold it
    }
    long size = tree.outboardSize();
    BaoSpool spool = null;
    try {
      BaoSink sink;
      BaoInput outboard;
      if (size <= Integer.MAX_VALUE - 16 && size <= IN_MEMORY) {
        BaoSink.Array a = new BaoSink.Array((int) size);
        sink = a;
        outboard = BaoInput.of(a.bytes, 0, a.bytes.length);
      } else {
        spool = BaoSpool.tempFile();
        sink = new BaoSink.Channel(spool.channel());
        outboard = BaoInput.of(spool.channel());
      }
      byte[] hash = new BaoEncoder(tree, content, sink, false).encode();
      OutputStream buffered = new BufferedOutputStream(out, 1 << 20);
      if (combined) {
        BaoEncoder.interleave(tree, outboard, content.input(), buffered);
      } else {
        copy(outboard, size, buffered);
      }
      buffered.flush();
      return hash;
    } finally {
      if (spool != null) {
        spool.close();
      }
    }
  }

  private static void copy(BaoInput outboard, long size, OutputStream out) throws IOException {
    byte[] b = new byte[(int) Math.min(size, 1 << 20)];
    for (long at = 0; at < size; at += b.length) {
      int n = (int) Math.min(b.length, size - at);
      if (!outboard.readFully(at, b, 0, n)) {
        throw new IOException("the temporary outboard file shrank");
      }
      out.write(b, 0, n);
    }
  }
}
