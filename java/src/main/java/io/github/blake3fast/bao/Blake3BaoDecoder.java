package io.github.blake3fast.bao;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Decodes a Bao encoding (combined, or content plus outboard) and verifies it as it reads:
 * bytes come out only once their chunk (or chunk group) and every parent above it hash up to
 * the root hash given at construction. A mismatch throws a {@link Blake3BaoException} that
 * names the node; after one, every read throws it again.
 *
 * <p>The decoder seeks ({@link #seek(long)}): reading then verifies only the parents on the
 * way to the new position, not what lies before it. The content length is never exposed
 * before the final chunk is verified, as the Bao specification requires: {@link #length()}
 * verifies it first, and so does reading at or past the end before reporting end of stream.
 * From a stream source (an {@link InputStream}) the decoder reads forward only: seeking
 * backwards, or asking for the length and then reading on, fails with an {@link IOException}.
 *
 * <p>Create one with {@link Blake3Bao#decoder}. One thread at a time; {@link #close()} closes
 * the sources it was given.
 */
public final class Blake3BaoDecoder extends InputStream {
  private final byte[] hash;
  private final int groupLog;
  private final BaoInput encoding;
  private final BaoInput outboard;
  private final Closeable[] sources;

  private BaoTree tree;
  private BaoVerifier verifier;
  private boolean forwardOnly;
  /** The verified bytes: a window (direct, for the native engine to read in place) or one group. */
  private java.nio.ByteBuffer buf;
  private java.nio.ByteBuffer window;
  private byte[] group;
  private long bufStart = -1;
  private int bufLen;
  private long pos;
  private boolean finalVerified;
  private IOException failure;
  private boolean closed;

  Blake3BaoDecoder(byte[] hash, int groupLog, BaoInput encodingOrContent, BaoInput outboard,
      Closeable... sources) {
    this.hash = hash.clone();
    this.groupLog = groupLog;
    this.encoding = encodingOrContent;
    this.outboard = outboard;
    this.sources = sources;
  }

  private BaoVerifier verifier() throws IOException {
    if (verifier == null) {
      BaoLayout layout;
      if (outboard == null) {
        tree = BaoHeader.read(encoding, groupLog, true);
        layout = new BaoLayout.Interleaved(tree, encoding);
      } else {
        tree = BaoHeader.read(outboard, groupLog, false);
        layout = new BaoLayout.Outboard(tree, encoding, outboard);
      }
      forwardOnly = layout.forwardOnly();
      verifier = new BaoVerifier(tree, layout, hash);
    }
    return verifier;
  }

  private void ensureOpen() throws IOException {
    if (closed) {
      throw new IOException("the decoder is closed");
    }
    if (failure != null) {
      throw failure;
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  /**
   * Reads verified bytes, as {@link InputStream#read(byte[], int, int)} does.
   *
   * @throws IllegalArgumentException if {@code b} is the array this decoder reads its encoding,
   *     content or outboard from (what it wrote would be read back as encoding still to verify)
   */
  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (encoding.readsFrom(b) || (outboard != null && outboard.readsFrom(b))) {
      // Bytes written there would be read back as encoding still to verify: refused, as the
      // decoder never returns a byte that is not the hash's.
      throw new IllegalArgumentException("the array read into is the one this decoder reads its encoding from");
    }
    ensureOpen();
    if (len == 0) {
      return 0;
    }
    try {
      if (!buffered() && !load()) {
        return -1;
      }
      int at = (int) (pos - bufStart);
      int n = Math.min(len, bufLen - at);
      buf.get(at, b, off, n);
      pos += n;
      return n;
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  private boolean buffered() {
    return bufStart >= 0 && pos >= bufStart && pos < bufStart + bufLen;
  }

  /** Verifies what holds byte {@code pos} into the buffer; false at the (verified) end. */
  private boolean load() throws IOException {
    BaoVerifier v = verifier();
    if (pos >= tree.length) {
      verifyFinal();
      return false;
    }
    long g = pos / tree.groupLen;
    int log = BaoHeader.windowLog(groupLog);
    long c = 1L << log;
    long s = g & -c;
    if (log > 0 && (s + c) * tree.groupLen <= tree.length && (!forwardOnly || g == s)) {
      int len = (int) (c * tree.groupLen);
      if (window == null) {
        window = java.nio.ByteBuffer.allocateDirect(len);
      }
      bufStart = -1;
      buf = window;
      v.subtree(s, log, window);
      bufStart = s * tree.groupLen;
      bufLen = len;
      if (s + c == tree.groups) {
        finalVerified = true;
      }
    } else {
      loadGroup(g);
    }
    return true;
  }

  private void loadGroup(long g) throws IOException {
    int size = tree.groupSize(g);
    if (group == null || group.length < size) {
      group = new byte[size];
    }
    bufStart = -1;
    buf = java.nio.ByteBuffer.wrap(group);
    bufLen = verifier.group(g, group);
    bufStart = g * tree.groupLen;
    if (g == tree.groups - 1) {
      finalVerified = true;
    }
  }

  private void verifyFinal() throws IOException {
    if (!finalVerified) {
      loadGroup(tree.groups - 1);
    }
  }

  /**
   * Moves to byte {@code position} of the content; the next read verifies what it needs there.
   * Past the end, the next read verifies the final chunk, then reports the end of the stream.
   *
   * @param position the new position, at least 0
   * @throws IOException if the decoder is closed or failed before
   */
  public void seek(long position) throws IOException {
    if (position < 0) {
      throw new IllegalArgumentException("position must not be negative: " + position);
    }
    ensureOpen();
    pos = position;
  }

  /** {@return the position of the next byte read} */
  public long position() {
    return pos;
  }

  /**
   * The content length, once verified: verifies the final chunk (and the parents above it)
   * first, reading it from the source if it was not read yet.
   *
   * @return the verified content length in bytes
   * @throws IOException if verification fails ({@link Blake3BaoException}) or reading does
   */
  public long length() throws IOException {
    ensureOpen();
    try {
      verifier();
      verifyFinal();
      return tree.length;
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  /**
   * Skips up to {@code n} bytes: moves the position like {@link #seek(long)}, after verifying
   * the chunk before the new position (or, past the end, the final chunk), so that the count
   * returned is a verified one.
   *
   * @param n how many bytes to skip
   * @return how many were skipped: fewer only at the verified end
   * @throws IOException if verification fails ({@link Blake3BaoException}) or reading does
   */
  @Override
  public long skip(long n) throws IOException {
    ensureOpen();
    if (n <= 0) {
      return 0;
    }
    long target = pos + n < 0 ? Long.MAX_VALUE : pos + n;
    try {
      verifier();
      if (target > tree.length) {
        verifyFinal();
        target = Math.max(pos, tree.length);
      } else {
        long keep = pos;
        pos = target - 1;
        if (!buffered()) {
          load();
        }
        pos = keep;
      }
      long skipped = target - pos;
      pos = target;
      return skipped;
    } catch (IOException e) {
      failure = e;
      throw e;
    }
  }

  /** {@return how many verified bytes can be read without reading the source} */
  @Override
  public int available() {
    return buffered() ? (int) (bufStart + bufLen - pos) : 0;
  }

  /** Closes the sources the decoder was created with. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    IOException first = null;
    for (Closeable c : sources) {
      try {
        if (c != null) {
          c.close();
        }
      } catch (IOException e) {
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
