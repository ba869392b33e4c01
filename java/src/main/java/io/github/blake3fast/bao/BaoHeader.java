package io.github.blake3fast.bao;

import io.github.blake3fast.bao.Blake3BaoException.Kind;
import java.io.IOException;

/** Reads and sanity-checks the length header of an encoding, outboard or slice. */
final class BaoHeader {
  private BaoHeader() {}

  /**
   * The tree a header announces. The length stays unverified (callers must not expose it
   * before the final group is verified); refused here only when no encoding could have it.
   */
  static BaoTree read(BaoInput in, int groupLog, boolean combined) throws IOException {
    byte[] h = new byte[BaoTree.HEADER_LEN];
    if (!in.readFully(0, h, 0, h.length)) {
      throw new Blake3BaoException(Kind.TRUNCATED, "the encoding ends inside its 8-byte length header");
    }
    long length = BaoTree.parseHeader(h);
    if (length < 0) {
      throw new Blake3BaoException(Kind.LENGTH, "the length header says " + Long.toUnsignedString(length)
          + " bytes, more than any encoding this decoder reads (2^63 - 1)");
    }
    BaoTree tree = new BaoTree(length, groupLog);
    if (combined) {
      try {
        tree.encodedSize();
      } catch (ArithmeticException e) {
        throw new Blake3BaoException(Kind.LENGTH, "the length header says " + length
            + " bytes, whose encoding would be longer than any file");
      }
    }
    return tree;
  }

  /** Window of the batched paths: about 1 MiB of groups, as a power of two (0: one group). */
  static int windowLog(int groupLog) {
    return Math.max(0, 10 - groupLog);
  }
}
