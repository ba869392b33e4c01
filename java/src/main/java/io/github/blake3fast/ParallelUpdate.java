package io.github.blake3fast;

import io.github.blake3fast.internal.Parallel;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

/**
 * Large updates hashed in parallel for a {@link TreeState}: the whole chunks are cut at aligned
 * power-of-two boundaries, each piece is hashed on its own thread into its own chaining values,
 * and the values are pushed in order. The result is the sequential one.
 */
final class ParallelUpdate {
  private ParallelUpdate() {}

  /**
   * Task size bounds for parallel hashing, in chunks: the upper one keeps one kernel call per
   * task and a task within the L2 cache; the lower one keeps a task long enough for the widest
   * kernel and its parent batching. In between, at least 4 tasks per thread.
   */
  static final int MIN_TASK_CHUNKS = 128;
  static final int MAX_TASK_CHUNKS = 1024;

  /** Each thread's room for a task's chaining values (a subclass, not a lambda: see Parallel). */
  private static final ThreadLocal<int[]> TASK_SCRATCH = new ThreadLocal<>() {
    @Override
    protected int[] initialValue() {
      return new int[TreeState.CV_SCRATCH_WORDS];
    }
  };

  /**
   * Adds len bytes from {@code arr} or {@code bb} (absolute index off) to {@code state}, hashing
   * the whole chunks among them in parallel tasks on {@code executor} and this thread. Does not
   * move the buffer's position. If it throws, the state is as before the call and no task is
   * running.
   */
  static void update(TreeState state, byte[] arr, ByteBuffer bb, int off, int len, Executor executor, int helpers) {
    if (len < Parallel.MIN_LEN || helpers < 1) {
      state.absorb(arr, bb, off, len);
      return;
    }
    // A failure (the executor's, a task's) leaves the state as it was: the caller may catch it
    // and go on with update(). Saving costs a copy of at most the buffer, against >= 1 MiB.
    TreeState before = state.copy();
    try {
      int head = state.hashBufferFilledFrom(arr, bb, off);
      off += head;
      len -= head;
      int whole = (len - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN; // the last chunk may end the input
      hashWholeChunks(state, arr, bb, off, whole, executor, helpers);
      state.absorb(arr, bb, off + whole, len - whole);
    } catch (Throwable t) {
      state.restore(before);
      throw t;
    }
  }

  /**
   * Hashes len bytes (whole chunks, not ending the input) in tasks: the first runs up to the
   * next multiple of the task size, the others are aligned subtrees of that size (the last may
   * be shorter). Each task's values go to its own place; they are pushed in order afterwards.
   */
  private static void hashWholeChunks(TreeState state, byte[] arr, ByteBuffer bb, int off, int len,
      Executor executor, int helpers) {
    final long first = state.chunkCount();
    final long n = len / Spec.CHUNK_LEN;
    final long size = taskChunks(n, helpers + 1);
    final long firstEnd = Math.min(first + n, (first + size) & -size);
    final int tasks = 1 + (int) ((first + n - firstEnd + size - 1) / size);
    final int[] at = new int[tasks + 1]; // first value of each task, in values
    for (int t = 0; t < tasks; t++) {
      long s = taskStart(t, first, firstEnd, size);
      at[t + 1] = at[t] + Spec.subtreeCount(s, taskEnd(t, first, firstEnd, size, n) - s);
    }
    final int[] cvs = new int[8 * at[tasks]];
    final boolean direct = arr == null && bb.isDirect() && state.kernel().supportsDirect();
    // An anonymous class, not a lambda: see Parallel.ThreadPerTask.
    Parallel.runUnchecked(tasks, executor, helpers, new Parallel.Task() {
      @Override
      public void run(int t) {
        long s = taskStart(t, first, firstEnd, size);
        int from = off + (int) ((s - first) * Spec.CHUNK_LEN);
        int bytes = (int) ((taskEnd(t, first, firstEnd, size, n) - s) * Spec.CHUNK_LEN);
        int[] scratch = TASK_SCRATCH.get();
        int count;
        if (arr != null || direct) {
          count = state.hashDetached(arr, bb, from, bytes, s, scratch);
        } else {
          byte[] copy = new byte[bytes]; // a read-only heap or, for the Java kernel, direct buffer
          bb.get(from, copy, 0, bytes);
          count = state.hashDetached(copy, null, 0, bytes, s, scratch);
        }
        System.arraycopy(scratch, 0, cvs, 8 * at[t], 8 * count);
      }
    });
    for (int t = 0; t < tasks; t++) {
      long s = taskStart(t, first, firstEnd, size);
      state.pushAll(cvs, 8 * at[t], at[t + 1] - at[t], taskEnd(t, first, firstEnd, size, n) - s);
    }
  }

  private static long taskStart(int t, long first, long firstEnd, long size) {
    return t == 0 ? first : firstEnd + (t - 1) * size;
  }

  private static long taskEnd(int t, long first, long firstEnd, long size, long n) {
    return Math.min(first + n, t == 0 ? firstEnd : firstEnd + t * size);
  }

  /** A power-of-two task size: several tasks per thread, within the bounds. */
  static long taskChunks(long n, int threads) {
    long want = Long.highestOneBit(Math.max(1, n / (4L * threads)));
    return Math.max(MIN_TASK_CHUNKS, Math.min(MAX_TASK_CHUNKS, want));
  }

  /** A scratch array for {@link TreeState#hashDetached}, one per thread. */
  static int[] taskScratch() {
    return TASK_SCRATCH.get();
  }
}
