package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3Hazmat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The input an encoder hashes, by position, from any thread: an array or a buffer (hashed in
 * place) or a file (read into the caller's direct buffer with positional reads, so that the
 * bytes are copied once, from the page cache, for the native engine to read where they are).
 */
abstract class BaoContent {
  final long length;

  BaoContent(long length) {
    this.length = length;
  }

  /**
   * Values of {@code count} whole groups from group {@code first}, into {@code out[outOff..]}.
   * Returns a buffer whose first bytes are those groups' content, for an encoder that writes
   * the content too: a view of an array or buffer, or {@code room} (a direct buffer of at least
   * those bytes, which a file's are read into; see {@link #readsInto}).
   */
  abstract ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff, ByteBuffer room)
      throws IOException;

  /** Whether {@link #groupCvs} reads the groups into the caller's room (else it may be null). */
  abstract boolean readsInto();

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
    boolean readsInto() {
      return false;
    }

    @Override
    ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff, ByteBuffer room) {
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

    File(FileChannel ch, long length) {
      super(length);
      this.ch = ch;
    }

    @Override
    boolean readsInto() {
      return true;
    }

    @Override
    ByteBuffer groupCvs(long first, int count, int groupLog, byte[] out, int outOff, ByteBuffer room)
        throws IOException {
      int len = count * (Blake3Hazmat.CHUNK_LEN << groupLog);
      long pos = first * (Blake3Hazmat.CHUNK_LEN << groupLog);
      ByteBuffer b = room.clear().limit(len);
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
