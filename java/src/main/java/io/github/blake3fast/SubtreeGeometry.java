package io.github.blake3fast;

/**
 * The shape rules of {@link Blake3Hazmat}: where a subtree or piece may start, how long a subtree
 * may be there (with messages that name the rule an argument broke), and which canonical
 * subtrees a piece is cut into.
 */
final class SubtreeGeometry {
  private SubtreeGeometry() {}

  static void checkOffset(long inputOffset) {
    if (inputOffset < 0) {
      throw new IllegalArgumentException("input offset must not be negative: " + inputOffset);
    }
    if (inputOffset % Spec.CHUNK_LEN != 0) {
      throw new IllegalArgumentException("input offset " + inputOffset + " is not on a chunk boundary (a multiple of "
          + Spec.CHUNK_LEN + "); the nearest are " + inputOffset / Spec.CHUNK_LEN * Spec.CHUNK_LEN + " and "
          + (inputOffset / Spec.CHUNK_LEN + 1) * Spec.CHUNK_LEN);
    }
  }

  static void checkSubtree(long inputOffset, long length) {
    checkOffset(inputOffset);
    if (length <= 0) {
      throw new IllegalArgumentException("a subtree has at least one byte: " + length);
    }
    if (inputOffset != 0 && length > Long.lowestOneBit(inputOffset)) {
      throw new IllegalArgumentException("a subtree at offset " + inputOffset + " is at most "
          + Long.lowestOneBit(inputOffset) + " bytes long (maxSubtreeLength), not " + length
          + "; hash this range as a piece (hashPiece) or split it");
    }
  }

  /** See {@link Blake3Hazmat#leftSubtreeLength(long)}. */
  static long leftChild(long subtreeLength) {
    if (subtreeLength <= Spec.CHUNK_LEN) {
      throw new IllegalArgumentException("a subtree of at most one chunk has no children: " + subtreeLength);
    }
    long chunks = (subtreeLength - 1) / Spec.CHUNK_LEN + 1;
    return Long.highestOneBit(chunks - 1) * Spec.CHUNK_LEN;
  }

  /**
   * Chunks in the next canonical subtree of a piece at chunk c with n chunks left: the largest
   * aligned one, except that a piece at chunk 0 that is a power of two splits in halves (it may
   * be the whole input, whose root has no chaining value to give).
   */
  static long canonicalSize(long c, long n) {
    return mayBeWholeInput(c, n) ? n / 2 : Spec.subtreeChunks(c, n);
  }

  /** How many canonical subtrees a piece at chunk c with n chunks has: see {@link #canonicalSize}. */
  static int canonicalCount(long c, long n) {
    return mayBeWholeInput(c, n) ? 2 : Spec.subtreeCount(c, n);
  }

  private static boolean mayBeWholeInput(long c, long n) {
    return c == 0 && n > 1 && Long.bitCount(n) == 1;
  }
}
