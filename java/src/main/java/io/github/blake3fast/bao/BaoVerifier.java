package io.github.blake3fast.bao;

import io.github.blake3fast.bao.Blake3BaoException.Kind;
import java.io.IOException;

/**
 * Verifies a Bao tree top-down against its root hash, node by node: a parent is trusted only
 * once it hashes to the value its own (trusted) parent holds, a group only once it hashes to
 * the value its trusted parent holds. The verified path from the root to the last node reached
 * is kept, so that reading on (or seeking nearby) re-reads no parent, and a slice, whose
 * parents appear once each, is read exactly once.
 *
 * <p>Whole windows of groups are verified in batches (their group values in one batched call,
 * their stored parents' values in another) and then checked top-down, in pre-order, exactly as
 * node by node: the first node whose value does not match is the one reported.
 */
final class BaoVerifier {
  private static final int MAX_DEPTH = 64;

  final BaoTree tree;
  private final BaoLayout layout;

  private final long[] first = new long[MAX_DEPTH + 1];
  private final long[] count = new long[MAX_DEPTH + 1];
  /** The trusted value of the node at each depth of the path (the root hash at depth 0). */
  private final byte[][] cv = new byte[MAX_DEPTH + 1][];
  /** The node's verified parent block, or null if not read yet. */
  private final byte[][] block = new byte[MAX_DEPTH + 1][];
  private int known = 1;
  /** A window's stored parents, its group values and its parents' values (subtree's scratch). */
  private byte[] parents;
  private byte[] groupCvs;
  private byte[] parentCvs;

  BaoVerifier(BaoTree tree, BaoLayout layout, byte[] rootHash) {
    this.tree = tree;
    this.layout = layout;
    first[0] = 0;
    count[0] = tree.groups;
    cv[0] = rootHash.clone();
  }

  private boolean contains(int d, long f, long c) {
    return first[d] <= f && f + c <= first[d] + count[d];
  }

  /** Walks down to the node of {@code c} groups from {@code f}, verifying parents; returns its depth. */
  private int descend(long f, long c) throws IOException {
    int d = 0;
    while (d + 1 < known && contains(d + 1, f, c)) {
      d++;
    }
    while (first[d] != f || count[d] != c) {
      if (block[d] == null) {
        byte[] b = new byte[BaoTree.PARENT_LEN];
        if (!layout.readParent(first[d], d, b)) {
          throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside the parent node " + parentName(d));
        }
        byte[] got = d == 0 ? BaoHashing.rootParent(b, 0) : BaoHashing.parentCv(b, 0);
        if (!BaoHashing.sameCv(got, 0, cv[d], 0)) {
          throw parentMismatch(first[d], count[d], d);
        }
        block[d] = b;
      }
      long left = BaoTree.leftGroups(count[d]);
      boolean goLeft = f < first[d] + left;
      first[d + 1] = goLeft ? first[d] : first[d] + left;
      count[d + 1] = goLeft ? left : count[d] - left;
      cv[d + 1] = java.util.Arrays.copyOfRange(block[d], goLeft ? 0 : 32, goLeft ? 32 : 64);
      block[d + 1] = null;
      known = d + 2;
      d++;
    }
    return d;
  }

  private String parentName(int d) {
    return parentName(first[d], count[d], d);
  }

  private String parentName(long f, long c, int d) {
    return (d == 0 ? "at the root" : "at depth " + d) + ", above bytes " + f * tree.groupLen + " to "
        + Math.min(tree.length, (f + c) * tree.groupLen);
  }

  private Blake3BaoException parentMismatch(long f, long c, int d) {
    return new Blake3BaoException(Kind.PARENT, "parent node " + parentName(f, c, d) + " does not match the hash");
  }

  private String groupName(long g) {
    return (tree.groupLog == 0 ? "chunk " : "chunk group ") + g + " (bytes " + g * tree.groupLen + " to "
        + (g * tree.groupLen + tree.groupSize(g)) + ")";
  }

  /** Reads and verifies group g into {@code b[0..]}; returns its length. */
  int group(long g, byte[] b) throws IOException {
    int d = descend(g, 1);
    int size = tree.groupSize(g);
    if (!layout.readGroup(g, d, b, 0, size)) {
      throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside " + groupName(g));
    }
    byte[] got = tree.groups == 1 ? BaoHashing.soleGroupHash(b, 0, size)
        : BaoHashing.groupCv(b, 0, size, g * tree.groupLen);
    if (!BaoHashing.sameCv(got, 0, cv[d], 0)) {
      throw new Blake3BaoException(Kind.CHUNK, groupName(g) + " does not match the hash");
    }
    return size;
  }

  /**
   * Reads and verifies the complete subtree of {@code 2^log} whole groups from {@code f} (log
   * > 0) into {@code content[0..]}.
   */
  void subtree(long f, int log, java.nio.ByteBuffer content) throws IOException {
    int c = 1 << log;
    int d = descend(f, c);
    if (parents == null || parents.length != BaoTree.PARENT_LEN * (c - 1)) {
      // Kept from window to window: a file's windows would otherwise allocate an eighth of its size.
      parents = new byte[BaoTree.PARENT_LEN * (c - 1)];
      groupCvs = new byte[BaoHashing.CV_LEN * c];
      parentCvs = new byte[BaoHashing.CV_LEN * (c - 1)];
    }
    if (!layout.readSubtree(f, d, log, content, parents)) {
      throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside the subtree of bytes "
          + f * tree.groupLen + " to " + (f + c) * tree.groupLen);
    }
    BaoHashing.groupCvs(content.slice(0, c * tree.groupLen), tree.groupLog, f, groupCvs, 0);
    BaoHashing.parentCvs(parents, 0, c - 1, parentCvs, 0);
    if (d == 0) {
      System.arraycopy(BaoHashing.rootParent(parents, 0), 0, parentCvs, 0, 32);
    }
    check(cv[d], 0, log, 0, 0, f, d, groupCvs, parents, parentCvs);
  }

  /** Node i of level j of the subtree (its parent block number p), expected value exp[expOff..]. */
  private void check(byte[] exp, int expOff, int j, int i, int p, long f, int d, byte[] groupCvs, byte[] parents,
      byte[] parentCvs) throws IOException {
    if (j == 0) {
      if (!BaoHashing.sameCv(groupCvs, BaoHashing.CV_LEN * i, exp, expOff)) {
        throw new Blake3BaoException(Kind.CHUNK, groupName(f + i) + " does not match the hash");
      }
      return;
    }
    if (!BaoHashing.sameCv(parentCvs, BaoHashing.CV_LEN * p, exp, expOff)) {
      throw parentMismatch(f + ((long) i << j), 1L << j, d);
    }
    int half = 1 << (j - 1);
    check(parents, BaoTree.PARENT_LEN * p, j - 1, 2 * i, p + 1, f, d + 1, groupCvs, parents, parentCvs);
    check(parents, BaoTree.PARENT_LEN * p + 32, j - 1, 2 * i + 1, p + half, f, d + 1, groupCvs, parents, parentCvs);
  }
}
