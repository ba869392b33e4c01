package io.github.blake3fast.bao;

import io.github.blake3fast.bao.Blake3BaoException.Kind;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Cuts a slice out of a combined encoding or an outboard and its content: the header, then for
 * each group of the range the parents on the way to it not yet written, then the group. Reads
 * O(log n) parents plus the range; nothing is verified here (the slice's reader verifies), and
 * a lying header only makes reads fail at the end of the source.
 */
final class BaoSlicer {
  private BaoSlicer() {}

  static void extract(BaoLayout layout, long start, long count, OutputStream out) throws IOException {
    BaoTree tree = layout.tree;
    BaoSliceRange range = new BaoSliceRange(tree, start, count);
    out.write(BaoTree.header(tree.length));
    long[] wroteFirst = new long[65];
    long[] wroteCount = new long[65];
    byte[] parent = new byte[BaoTree.PARENT_LEN];
    byte[] group = new byte[tree.groupSize(range.firstGroup) == 0 ? 0 : tree.groupLen];
    for (long g = range.firstGroup; g <= range.lastGroup; g++) {
      long f = 0;
      long c = tree.groups;
      int d = 0;
      while (c > 1) {
        if (wroteFirst[d] != f || wroteCount[d] != c) {
          if (!layout.readParent(f, d, parent)) {
            throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside a parent node at depth " + d
                + " (its header says " + tree.length + " bytes)");
          }
          out.write(parent);
          wroteFirst[d] = f;
          wroteCount[d] = c;
        }
        long left = BaoTree.leftGroups(c);
        if (g < f + left) {
          c = left;
        } else {
          f += left;
          c -= left;
        }
        d++;
      }
      int size = tree.groupSize(g);
      if (!layout.readGroup(g, d, group, 0, size)) {
        throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside chunk group " + g
            + " (its header says " + tree.length + " bytes)");
      }
      out.write(group, 0, size);
    }
  }
}
