package io.github.blake3fast;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The input an encoder hashes, by position, from any thread: an array (hashed in place) or a
 * file (read into a buffer of the reading thread, direct when the kernel reads those, so that
 * the bytes are copied once, from the page cache).
 */
abstract class BaoContent {
  final long length;

  BaoContent(long length) {
    this.length = length;
  }

  /**
   * Values of {@code count} whole groups from group {@code first}, into {@code out[outOff..]}.
   * Returns a buffer whose first bytes are those groups' content (the calling thread's, valid
   * until its next call), for an encoder that writes the content too.
   */
  abstract ByteBuffer groupCvs(Kernel k, long first, int count, int groupLog, byte[] out, int outOff)
      throws IOException;

  /** Exactly {@code len} bytes from {@code pos}. */
  abstract void read(long pos, byte[] b, int off, int len) throws IOException;

  /** A reader for sequential copying (the combined encoding). */
  abstract BaoInput input();

  static final class Array extends BaoContent {
    private final ByteBuffer buf;

    /** A heap buffer with an accessible array, or a direct one. */
    Array(ByteBuffer buf) {
      super(buf.remaining());
      this.buf = buf.slice();
    }

    @Override
    ByteBuffer groupCvs(Kernel k, long first, int count, int groupLog, byte[] out, int outOff) {
      int off = (int) (first * (Spec.CHUNK_LEN << groupLog));
      int len = count * (Spec.CHUNK_LEN << groupLog);
      if (buf.hasArray()) {
        BaoHashing.groupCvs(k, buf.array(), buf.arrayOffset() + off, count, groupLog, first, out, outOff);
      } else if (buf.isDirect() && k.supportsDirect()) {
        BaoHashing.groupCvs(k, buf, off, count, groupLog, first, out, outOff);
      } else {
        byte[] copy = new byte[len];
        buf.get(off, copy);
        BaoHashing.groupCvs(k, copy, 0, count, groupLog, first, out, outOff);
      }
      return buf.slice(off, len);
    }

    @Override
    void read(long pos, byte[] b, int off, int len) {
      buf.get((int) pos, b, off, len);
    }

    @Override
    BaoInput input() {
      return BaoInput.of(buf);
    }
  }

  static final class File extends BaoContent {
    private final FileChannel ch;
    private final ThreadLocal<ByteBuffer> direct = new ThreadLocal<>();
    private final ThreadLocal<byte[]> heap = new ThreadLocal<>();

    File(FileChannel ch, long length) {
      super(length);
      this.ch = ch;
    }

    @Override
    ByteBuffer groupCvs(Kernel k, long first, int count, int groupLog, byte[] out, int outOff) throws IOException {
      int len = count * (Spec.CHUNK_LEN << groupLog);
      long pos = first * (Spec.CHUNK_LEN << groupLog);
      if (k.supportsDirect()) {
        ByteBuffer b = direct.get();
        if (b == null || b.capacity() < len) {
          b = ByteBuffer.allocateDirect(len);
          direct.set(b);
        }
        b.clear().limit(len);
        fill(b, pos);
        BaoHashing.groupCvs(k, b, 0, count, groupLog, first, out, outOff);
        return b;
      } else {
        byte[] a = heap.get();
        if (a == null || a.length < len) {
          a = new byte[len];
          heap.set(a);
        }
        read(pos, a, 0, len);
        BaoHashing.groupCvs(k, a, 0, count, groupLog, first, out, outOff);
        return ByteBuffer.wrap(a);
      }
    }

    private void fill(ByteBuffer b, long pos) throws IOException {
      long at = pos;
      while (b.hasRemaining()) {
        int n = ch.read(b, at);
        if (n < 0) {
          throw shrank(at);
        }
        at += n;
      }
    }

    private IOException shrank(long at) {
      return new IOException("the input file shrank while being encoded: it ends at byte " + at + ", not "
          + length);
    }

    @Override
    void read(long pos, byte[] b, int off, int len) throws IOException {
      fill(ByteBuffer.wrap(b, off, len), pos);
    }

    @Override
    BaoInput input() {
      return BaoInput.of(ch);
    }
  }
}
