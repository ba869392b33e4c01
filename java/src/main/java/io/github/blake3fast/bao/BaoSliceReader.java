package io.github.blake3fast.bao;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * Decodes a slice: the bytes of {@code [start, start + count)} (capped at the end of the
 * content), each group released only once verified against the root hash. A slice holds only
 * the nodes on the way to its range, in the order they are visited, so it is read straight
 * through; a slice cut for another range fails as the first node out of place.
 */
final class BaoSliceReader extends InputStream {
  private final byte[] hash;
  private final int groupLog;
  private final BaoInput in;
  private final InputStream source;
  private final long start;
  private final long end;

  private BaoVerifier verifier;
  private BaoTree tree;
  private long next;
  private long last;
  private byte[] buf;
  private int bufOff;
  private int bufEnd;
  private IOException failure;

  BaoSliceReader(byte[] hash, int groupLog, InputStream slice, long start, long count) {
    this.hash = hash.clone();
    this.groupLog = groupLog;
    this.source = slice;
    this.in = BaoInput.of(slice);
    this.start = start;
    this.end = start + count < start ? Long.MAX_VALUE : start + count;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    if (failure != null) {
      throw failure;
    }
    if (len == 0) {
      return 0;
    }
    try {
      while (bufOff == bufEnd) {
        if (!nextGroup()) {
          return -1;
        }
      }
    } catch (IOException e) {
      failure = e;
      throw e;
    }
    int n = Math.min(len, bufEnd - bufOff);
    System.arraycopy(buf, bufOff, b, off, n);
    bufOff += n;
    return n;
  }

  private boolean nextGroup() throws IOException {
    if (verifier == null) {
      tree = BaoHeader.read(in, groupLog, false);
      BaoSliceRange r = new BaoSliceRange(tree, start, end - start);
      next = r.firstGroup;
      last = r.lastGroup;
      verifier = new BaoVerifier(tree, new BaoLayout.Slice(tree, in), hash);
    }
    if (next > last) {
      return false;
    }
    if (buf == null || buf.length < tree.groupSize(next)) {
      buf = new byte[tree.groupSize(next)];
    }
    int size = verifier.group(next, buf);
    long groupStart = next * tree.groupLen;
    bufOff = (int) Math.min(size, Math.max(0, start - groupStart));
    bufEnd = (int) Math.max(bufOff, Math.min(size, end - groupStart));
    next++;
    return true;
  }

  @Override
  public void close() throws IOException {
    source.close();
  }
}
