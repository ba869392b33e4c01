package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3Hazmat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The input an encoder hashes, by position, from any thread: an array or a buffer (hashed in
 * place) or a file (read into a direct buffer of the reading thread with positional reads, so
 * that the bytes are copied once, from the page cache, for the native engine to read where they
 * are).
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
  abstract ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff) throws IOException;

  /** Exactly {@code len} bytes from {@code pos}. */
  abstract void read(long pos, byte[] b, int off, int len) throws IOException;

  /** A reader for sequential copying (the combined encoding). */
  abstract BaoInput input();

  static final class Array extends BaoContent {
    private final ByteBuffer buf;

    /** Any buffer's remaining bytes: heap (read-only too) or direct. */
    Array(ByteBuffer buf) {
      super(buf.remaining());
      this.buf = buf.slice();
    }

    @Override
    ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff) {
      int off = (int) (first * (Blake3Hazmat.CHUNK_LEN << groupLog));
      int len = count * (Blake3Hazmat.CHUNK_LEN << groupLog);
      ByteBuffer groups = buf.slice(off, len);
      BaoHashing.groupCvs(groups, groupLog, first, out, outOff);
      return groups.rewind();
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

    File(FileChannel ch, long length) {
      super(length);
      this.ch = ch;
    }

    @Override
    ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff) throws IOException {
      int len = count * (Blake3Hazmat.CHUNK_LEN << groupLog);
      long pos = first * (Blake3Hazmat.CHUNK_LEN << groupLog);
      ByteBuffer b = direct.get();
      if (b == null || b.capacity() < len) {
        b = ByteBuffer.allocateDirect(len);
        direct.set(b);
      }
      b.clear().limit(len);
      fill(b, pos);
      BaoHashing.groupCvs(b.flip(), groupLog, first, out, outOff);
      return b.clear();
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
