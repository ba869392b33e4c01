package io.github.blake3fast;

import java.util.Arrays;

/**
 * The chaining values of a {@link TreeState}: one per complete subtree left of chunk
 * {@code chunks}, merged lazily. Before a value for chunk {@code c} is pushed, the stack is
 * merged down to {@code bitCount(c)} entries, which are then exactly the complete subtrees left
 * of {@code c}: merging earlier could make a parent of what turns out to be the root.
 *
 * <p>A stack may also start at a chunk other than 0 (a subtree for {@link Blake3Hazmat}). It
 * then holds only values of subtrees that start at or after {@code startChunk}: a run starting
 * at chunk {@code base} counts like a tree of its own until it reaches
 * {@code base + lowestOneBit(base)}, where it is one complete subtree whose sibling lies to the
 * left of the start; that value is frozen (never merged again) and a new run begins.
 */
final class CvStack {
  /** The state's key array, shared: the state rewrites it in place on a reset. */
  private final int[] key;
  private int flags;
  /** Allocated at the first push: most hashers see less than a buffer of input and need none. */
  private int[] stack;
  private final int stackWords;
  private int depth;
  /** Chunks whose chaining values are on the stack: the next value starts at this chunk. */
  private long chunks;
  private final long startChunk;
  /** Where the current run of mergeable values starts; values below {@code frozen} never merge. */
  private long base;
  private int frozen;

  CvStack(int[] key, int flags, long startChunk) {
    this.key = key;
    this.flags = flags;
    this.startChunk = startChunk;
    // Frozen values have strictly growing sizes and the run after them shrinking ones.
    this.stackWords = 8 * (startChunk == 0 ? Spec.MAX_DEPTH + 1 : 2 * Spec.MAX_DEPTH + 2);
    this.chunks = startChunk;
    this.base = startChunk;
  }

  /** A copy of {@code o} that merges with {@code key}, the copied state's own key array. */
  CvStack(CvStack o, int[] key) {
    this.key = key;
    flags = o.flags;
    stackWords = o.stackWords;
    stack = o.stack == null ? null : o.stack.clone();
    depth = o.depth;
    chunks = o.chunks;
    startChunk = o.startChunk;
    base = o.base;
    frozen = o.frozen;
  }

  /** Goes back to {@code saved}, taking over its array; allocates nothing. */
  void restore(CvStack saved) {
    stack = saved.stack;
    depth = saved.depth;
    chunks = saved.chunks;
    base = saved.base;
    frozen = saved.frozen;
  }

  void reset(int flags) {
    this.flags = flags;
    depth = 0;
    chunks = startChunk;
    base = startChunk;
    frozen = 0;
  }

  long chunks() {
    return chunks;
  }

  long startChunk() {
    return startChunk;
  }

  int depth() {
    return depth;
  }

  /**
   * Pushes {@code count} values that a kernel returned for {@code n} chunks starting at chunk
   * {@code chunks}: the maximal aligned subtrees, left to right.
   */
  void pushAll(int[] cvs, int cvOff, int count, long n) {
    for (int i = 0; i < count; i++) {
      long size = Spec.subtreeChunks(chunks, n);
      push(cvs, cvOff + 8 * i, size);
      n -= size;
    }
  }

  /**
   * Pushes the CV of a subtree of {@code n} chunks that starts at chunk {@code chunks} and is
   * aligned there (n is a power of two dividing the counter), merging lazily first. Input must
   * be known to follow it.
   */
  void push(int[] cv, int cvOff, long n) {
    merge();
    if (stack == null) {
      stack = new int[stackWords];
    }
    System.arraycopy(cv, cvOff, stack, 8 * depth, 8);
    depth++;
    chunks += n;
  }

  /**
   * Merges the stack down to the complete subtrees left of chunk {@code chunks}: one per set
   * bit (of the run's own count, after the frozen values). Only valid when input is known to
   * follow them, which is why it is done lazily.
   */
  void merge() {
    long run = chunks - base;
    if (base != 0 && run == Long.lowestOneBit(base)) {
      // The run is one complete subtree whose sibling lies before the start: freeze it.
      mergeDownTo(frozen + 1);
      frozen++;
      base = chunks;
      run = 0;
    }
    mergeDownTo(frozen + Long.bitCount(run));
  }

  private void mergeDownTo(int keep) {
    while (depth > keep) {
      depth--;
      int at = 8 * (depth - 1);
      // Parent of the two top entries, which lie next to each other: the 16-word block.
      Compress.parentCv(key, flags, stack, at, stack, at);
    }
  }

  /**
   * After {@link #merge}, with at least one value on the stack and the CV of the last chunk in
   * {@code r[16, 24)} (the right half of a parent block): folds the stack from the top without
   * changing it, each parent's left half a stack entry, and leaves the root node in {@code r}:
   * the key in [0, 8), the block in [8, 24).
   */
  void foldRoot(int[] r) {
    for (int i = depth - 1; i > 0; i--) {
      System.arraycopy(stack, 8 * i, r, 8, 8);
      Compress.parentCv(key, flags, r, 8, r, 16);
    }
    System.arraycopy(stack, 0, r, 8, 8);
    System.arraycopy(key, 0, r, 0, 8);
  }

  /**
   * The canonical subtree values of the range that ends with the last chunk, whose CV is at
   * {@code lastCv[lastOff]} (see {@link TreeState#subtreeCvs}). The stack stays as it is.
   */
  int[] subtreeCvs(int[] lastCv, int lastOff) {
    merge(); // the last chunk follows everything on the stack
    int[] s = new int[8 * (depth + 1)];
    if (depth > 0) {
      System.arraycopy(stack, 0, s, 0, 8 * depth);
    }
    System.arraycopy(lastCv, lastOff, s, 8 * depth, 8);
    int d = depth + 1;
    long run = chunks + 1 - base;
    int keep;
    if (base != 0 && run == Long.lowestOneBit(base)) {
      keep = frozen + 1;
    } else {
      keep = frozen + Long.bitCount(run);
      if (base == 0 && keep == 1 && run > 1) {
        keep = 2;
      }
    }
    while (d > keep) {
      d--;
      int at = 8 * (d - 1);
      Compress.parentCv(key, flags, s, at, s, at);
    }
    return d == depth + 1 ? s : Arrays.copyOf(s, 8 * d);
  }
}
