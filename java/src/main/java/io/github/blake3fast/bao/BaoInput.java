package io.github.blake3fast.bao;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;

/**
 * Where a Bao decoder or slice extractor reads an encoding, an outboard or content: by absolute
 * position, whatever the source. Each read is exact: {@link #readFully} loops over short reads
 * (the spec's "short read" pitfall) and says false if the source ends first, so that the caller
 * can name what was cut off.
 */
abstract class BaoInput {
  /** Reads exactly {@code len} bytes from {@code pos}; false if the source ends before. */
  abstract boolean readFully(long pos, byte[] b, int off, int len) throws IOException;

  /**
   * Fills {@code dst} (position to limit) from {@code pos}; false if the source ends before.
   * This default goes through an array; sources that can read into the buffer itself do.
   */
  boolean readFully(long pos, ByteBuffer dst) throws IOException {
    byte[] a = new byte[dst.remaining()];
    if (!readFully(pos, a, 0, a.length)) {
      return false;
    }
    dst.put(a);
    return true;
  }

  /** Whether the source reads forward only (a stream): earlier positions are gone. */
  boolean forwardOnly() {
    return false;
  }

  /** Whether this input reads its bytes from {@code array} (then nothing may be written into it). */
  boolean readsFrom(byte[] array) {
    return false;
  }

  static BaoInput of(byte[] a, int off, int len) {
    return new Slice(ByteBuffer.wrap(a, off, len).slice());
  }

  static BaoInput of(ByteBuffer b) {
    return new Slice(b.slice());
  }

  static BaoInput of(SeekableByteChannel ch) {
    return new Channel(ch);
  }

  static BaoInput of(InputStream in) {
    return new Stream(in);
  }

  private static final class Slice extends BaoInput {
    private final ByteBuffer buf;

    Slice(ByteBuffer buf) {
      this.buf = buf;
    }

    @Override
    boolean readsFrom(byte[] array) {
      return buf.hasArray() && buf.array() == array;
    }

    @Override
    boolean readFully(long pos, byte[] b, int off, int len) {
      if (pos < 0 || pos > buf.limit() - (long) len) {
        return false;
      }
      buf.get((int) pos, b, off, len);
      return true;
    }

    @Override
    boolean readFully(long pos, ByteBuffer dst) {
      int len = dst.remaining();
      if (pos < 0 || pos > buf.limit() - (long) len) {
        return false;
      }
      dst.put(buf.duplicate().position((int) pos).limit((int) pos + len));
      return true;
    }
  }

  /**
   * A channel, read through a small cache: a decoder asks for 64-byte parents and 1 KiB chunks
   * in order, and one system call per node would cost more than the hashing.
   */
  private static final class Channel extends BaoInput {
    private static final int CACHE = 64 << 10;
    private final SeekableByteChannel ch;
    private final ByteBuffer cache = ByteBuffer.allocate(CACHE);
    private long cacheStart = -1;

    Channel(SeekableByteChannel ch) {
      this.ch = ch;
    }

    @Override
    boolean readFully(long pos, byte[] b, int off, int len) throws IOException {
      if (pos < 0) {
        return false;
      }
      while (len > 0) {
        if (cacheStart >= 0 && pos >= cacheStart && pos < cacheStart + cache.limit()) {
          int at = (int) (pos - cacheStart);
          int n = Math.min(len, cache.limit() - at);
          cache.get(at, b, off, n);
          pos += n;
          off += n;
          len -= n;
        } else if (len >= CACHE / 2) {
          int n = read(ByteBuffer.wrap(b, off, len), pos);
          if (n < 0) {
            return false;
          }
          pos += n;
          off += n;
          len -= n;
        } else {
          cache.clear();
          cacheStart = -1;
          int n = read(cache, pos);
          cache.flip();
          if (n < 0) {
            return false;
          }
          cacheStart = pos;
        }
      }
      return true;
    }

    @Override
    boolean readFully(long pos, ByteBuffer dst) throws IOException {
      if (dst.remaining() < CACHE / 2 || pos < 0) {
        return super.readFully(pos, dst);
      }
      int want = dst.remaining();
      return read(dst, pos) == want;
    }

    /** Reads what the channel gives at pos (at least one byte unless it ended: -1). */
    private int read(ByteBuffer dst, long pos) throws IOException {
      int total = 0;
      while (dst.hasRemaining()) {
        int n;
        if (ch instanceof FileChannel) {
          n = ((FileChannel) ch).read(dst, pos + total);
        } else {
          ch.position(pos + total);
          n = ch.read(dst);
        }
        if (n < 0) {
          break;
        }
        total += n;
      }
      return total == 0 && dst.hasRemaining() ? -1 : total;
    }
  }

  private static final class Stream extends BaoInput {
    private final InputStream in;
    private long at;
    private byte[] skipBuf;

    Stream(InputStream in) {
      this.in = in;
    }

    @Override
    boolean forwardOnly() {
      return true;
    }

    @Override
    boolean readFully(long pos, byte[] b, int off, int len) throws IOException {
      if (pos < at) {
        throw new IOException("a stream cannot go back to byte " + pos + " of the encoding (it is at byte " + at
            + "): decode from a file, a channel or an array to seek backwards");
      }
      while (at < pos) {
        if (skipBuf == null) {
          skipBuf = new byte[8192];
        }
        int n = in.read(skipBuf, 0, (int) Math.min(skipBuf.length, pos - at));
        if (n < 0) {
          return false;
        }
        at += n;
      }
      while (len > 0) {
        int n = in.read(b, off, len);
        if (n < 0) {
          return false;
        }
        at += n;
        off += n;
        len -= n;
      }
      return true;
    }
  }
}
