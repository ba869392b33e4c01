package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3Hazmat;

/**
 * The shape of a Bao tree over an input of a given length: its leaves are groups of
 * {@code 2^groupLog} chunks (one chunk in Bao itself), the BLAKE3 tree above them, and where
 * each node lies in the combined and the outboard encodings (both pre-order, behind an 8-byte
 * length header). Positions are computed, never searched for, so that a decoder can seek and a
 * slice can be cut with O(log n) reads.
 *
 * <p>A node is named by its first group and its depth (the root has depth 0). The parents that
 * precede it in pre-order are its ancestors and every parent wholly to its left; the subtrees
 * to its left are complete, of the sizes of the bits of its first group, so they hold
 * {@code first - bitCount(first)} parents.
 */
final class BaoTree {
  static final int HEADER_LEN = 8;
  static final int PARENT_LEN = 64;
  /** Groups larger than 2^16 chunks (64 MiB) would make every buffer that large. */
  static final int MAX_GROUP_LOG = 16;

  final long length;
  final int groupLog;
  final int groupLen;
  final long groups;

  BaoTree(long length, int groupLog) {
    this.length = length;
    this.groupLog = groupLog;
    this.groupLen = Blake3Hazmat.CHUNK_LEN << groupLog;
    this.groups = length == 0 ? 1 : (length - 1) / groupLen + 1;
  }

  /** Bytes in group g: the last may be short (or empty, for the empty input). */
  int groupSize(long g) {
    return g < groups - 1 ? groupLen : (int) (length - g * groupLen);
  }

  /** Groups in the left child of a node of {@code count} (more than one) groups. */
  static long leftGroups(long count) {
    return Long.highestOneBit(count - 1);
  }

  /** The depth of group g's leaf: how many parents lie above it. */
  int depth(long g) {
    long start = 0;
    long count = groups;
    int d = 0;
    while (count > 1) {
      long left = leftGroups(count);
      if (g < start + left) {
        count = left;
      } else {
        start += left;
        count -= left;
      }
      d++;
    }
    return d;
  }

  static long parentsBefore(long first, int depth) {
    return first - Long.bitCount(first) + depth;
  }

  /** Bytes of an outboard: the header and one parent per group but one. */
  long outboardSize() {
    return HEADER_LEN + PARENT_LEN * (groups - 1);
  }

  /** Bytes of the combined encoding; ArithmeticException if no file could be that long. */
  long encodedSize() {
    return Math.addExact(outboardSize(), length);
  }

  long outboardParentPos(long first, int depth) {
    return HEADER_LEN + PARENT_LEN * parentsBefore(first, depth);
  }

  long combinedParentPos(long first, int depth) {
    return Math.addExact(outboardParentPos(first, depth), Math.multiplyExact(first, groupLen));
  }

  /** Whether group g is full-size (every group is but the last, which may be short). */
  boolean full(long g) {
    return groupSize(g) == groupLen;
  }

  /** The length header's 8 bytes, little-endian. */
  static byte[] header(long length) {
    byte[] h = new byte[HEADER_LEN];
    for (int i = 0; i < HEADER_LEN; i++) {
      h[i] = (byte) (length >>> (8 * i));
    }
    return h;
  }

  /** The length a header holds, as an unsigned value in a long (negative above 2^63 - 1). */
  static long parseHeader(byte[] h) {
    long v = 0;
    for (int i = HEADER_LEN - 1; i >= 0; i--) {
      v = (v << 8) | (h[i] & 0xff);
    }
    return v;
  }
}
