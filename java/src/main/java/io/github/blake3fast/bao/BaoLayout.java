package io.github.blake3fast.bao;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * Where a decoder finds the nodes of a Bao tree: at their pre-order positions in a combined
 * encoding, in an outboard and the content beside it, or one after another in a slice (which
 * holds only the nodes on the way to its range, in the order a decoder visits them). Each read
 * says false if the source ends before the node does.
 */
abstract class BaoLayout {
  final BaoTree tree;

  BaoLayout(BaoTree tree) {
    this.tree = tree;
  }

  abstract boolean readParent(long first, int depth, byte[] b) throws IOException;

  abstract boolean readGroup(long g, int depth, byte[] b, int off, int len) throws IOException;

  /**
   * The complete subtree of {@code 2^log} whole groups from {@code first} (at {@code depth}):
   * its content into {@code content} and its parents, in pre-order, into {@code parents}.
   */
  abstract boolean readSubtree(long first, int depth, int log, ByteBuffer content, byte[] parents) throws IOException;

  /** Whether nodes must be read in pre-order (a stream or a slice): no going back. */
  abstract boolean forwardOnly();

  /** A combined encoding, or a slice: parents and groups interleaved in pre-order. */
  static class Interleaved extends BaoLayout {
    final BaoInput in;
    private byte[] region;

    Interleaved(BaoTree tree, BaoInput in) {
      super(tree);
      this.in = in;
    }

    long parentPos(long first, int depth) {
      return tree.combinedParentPos(first, depth);
    }

    @Override
    boolean readParent(long first, int depth, byte[] b) throws IOException {
      return in.readFully(parentPos(first, depth), b, 0, BaoTree.PARENT_LEN);
    }

    @Override
    boolean readGroup(long g, int depth, byte[] b, int off, int len) throws IOException {
      return in.readFully(parentPos(g, depth), b, off, len);
    }

    @Override
    boolean readSubtree(long first, int depth, int log, ByteBuffer content, byte[] parents) throws IOException {
      int count = 1 << log;
      int len = count * tree.groupLen + BaoTree.PARENT_LEN * (count - 1);
      if (region == null || region.length < len) {
        region = new byte[len];
      }
      if (!in.readFully(parentPos(first, depth), region, 0, len)) {
        return false;
      }
      split(log, new int[3], content, parents);
      return true;
    }

    /** Pre-order region -> content and parents; at = {region, content, parents} offsets. */
    private void split(int log, int[] at, ByteBuffer content, byte[] parents) {
      if (log == 0) {
        content.put(at[1], region, at[0], tree.groupLen);
        at[0] += tree.groupLen;
        at[1] += tree.groupLen;
        return;
      }
      System.arraycopy(region, at[0], parents, at[2], BaoTree.PARENT_LEN);
      at[0] += BaoTree.PARENT_LEN;
      at[2] += BaoTree.PARENT_LEN;
      split(log - 1, at, content, parents);
      split(log - 1, at, content, parents);
    }

    @Override
    boolean forwardOnly() {
      return in.forwardOnly();
    }
  }

  /** A slice: the nodes it holds follow one another, whatever their place in the whole tree. */
  static final class Slice extends Interleaved {
    private long next = BaoTree.HEADER_LEN;

    Slice(BaoTree tree, BaoInput in) {
      super(tree, in);
    }

    @Override
    long parentPos(long first, int depth) {
      return next;
    }

    @Override
    boolean readParent(long first, int depth, byte[] b) throws IOException {
      next += BaoTree.PARENT_LEN;
      return in.readFully(next - BaoTree.PARENT_LEN, b, 0, BaoTree.PARENT_LEN);
    }

    @Override
    boolean readGroup(long g, int depth, byte[] b, int off, int len) throws IOException {
      next += len;
      return in.readFully(next - len, b, off, len);
    }

    @Override
    boolean readSubtree(long first, int depth, int log, ByteBuffer content, byte[] parents) {
      throw new UnsupportedOperationException("a slice is read node by node");
    }

    @Override
    boolean forwardOnly() {
      return true;
    }
  }

  /** Content plus outboard: groups at their offsets in the content, parents in the outboard. */
  static final class Outboard extends BaoLayout {
    private final BaoInput content;
    private final BaoInput outboard;

    Outboard(BaoTree tree, BaoInput content, BaoInput outboard) {
      super(tree);
      this.content = content;
      this.outboard = outboard;
    }

    @Override
    boolean readParent(long first, int depth, byte[] b) throws IOException {
      return outboard.readFully(tree.outboardParentPos(first, depth), b, 0, BaoTree.PARENT_LEN);
    }

    @Override
    boolean readGroup(long g, int depth, byte[] b, int off, int len) throws IOException {
      return content.readFully(g * tree.groupLen, b, off, len);
    }

    @Override
    boolean readSubtree(long first, int depth, int log, ByteBuffer contentOut, byte[] parents) throws IOException {
      int count = 1 << log;
      return outboard.readFully(tree.outboardParentPos(first, depth), parents, 0,
          BaoTree.PARENT_LEN * (count - 1))
          && content.readFully(first * tree.groupLen, contentOut.duplicate().clear().limit(count * tree.groupLen));
    }

    @Override
    boolean forwardOnly() {
      return content.forwardOnly() || outboard.forwardOnly();
    }
  }
}
