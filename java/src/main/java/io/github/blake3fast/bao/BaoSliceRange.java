package io.github.blake3fast.bao;

/**
 * The groups a slice of {@code [start, start + count)} holds, by the spec's rules: a count of 0
 * counts as 1 (the group holding start is included), a start at or past the end takes the
 * final group, and the range is capped at the end (permissive bounds, as the reference).
 */
final class BaoSliceRange {
  final long firstGroup;
  final long lastGroup;

  BaoSliceRange(BaoTree tree, long start, long count) {
    long lastByte = count == 0 ? start : (start + count - 1 < start ? Long.MAX_VALUE : start + count - 1);
    firstGroup = start < tree.length ? start / tree.groupLen : tree.groups - 1;
    lastGroup = Math.max(firstGroup, lastByte < tree.length ? lastByte / tree.groupLen : tree.groups - 1);
  }

  static void check(long start, long count) {
    if (start < 0 || count < 0) {
      throw new IllegalArgumentException("slice start and count must not be negative: " + start + ", " + count);
    }
  }
}
