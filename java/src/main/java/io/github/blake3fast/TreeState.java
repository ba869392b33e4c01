package io.github.blake3fast;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.concurrent.Executor;

/**
 * The tree driver: everything a streaming hasher remembers, and the one place the BLAKE3 tree
 * is built in Java, whatever the kernel.
 *
 * <p>Input is gathered in {@code buf}, which always starts on a chunk boundary (chunk
 * {@code chunks}). Whole chunks are handed to the kernel only when at least one more byte is
 * known to follow, because the last chunk may be the root and must be finalized differently.
 * The kernel returns one chaining value per maximal aligned power-of-two subtree; they go on
 * the CV stack, which is merged lazily: before a value for chunk {@code c} is pushed, the stack
 * is merged down to {@code bitCount(c)} entries, which are then exactly the complete subtrees
 * left of {@code c}.
 *
 * <p>A state may also start at a chunk other than 0 (a subtree for {@link Blake3Hazmat}). Its
 * stack then holds only values of subtrees that start at or after {@code startChunk}: a run
 * starting at chunk {@code base} counts like a tree of its own until it reaches
 * {@code base + lowestOneBit(base)}, where it is one complete subtree whose sibling lies to the
 * left of the start; that value is frozen (never merged again) and a new run begins.
 *
 * <p>Large updates may be hashed in parallel ({@link #updateParallel}): the whole chunks are cut
 * at aligned power-of-two boundaries, each piece is hashed on its own thread into its own
 * chaining values, and the values are pushed in order. The result is the sequential one.
 */
final class TreeState {
  /** Room for the subtree CVs of one slice (at most 2 x 22 for 4 MiB) and the Java kernel's work area. */
  private static final int CV_SCRATCH_WORDS = 8 * 128;

  private static final byte[] NO_BYTES = new byte[0];

  /** The buffer a stream gets when it outgrows its first chunk (see {@link #makeRoom}). */
  private static final int MID_BUFFER = 16 * Spec.CHUNK_LEN;

  /**
   * Small updates whose length is a multiple of 8 up to this are copied as longs: for 64 bytes
   * that takes 1.9 ns against 3.2 ns through System.arraycopy's stub call, and streaming 1 MiB
   * in 64-byte updates got about 5% faster (JDK 17, JMH StreamBench, both engines).
   */
  private static final int SMALL_COPY = 64;
  private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final Kernel kernel;
  private final int[] key = new int[8];
  private int flags;

  /**
   * Task size bounds for parallel hashing, in chunks: the upper one keeps one kernel call per
   * task and a task within the L2 cache; the lower one keeps a task long enough for the widest
   * kernel and its parent batching. In between, at least 4 tasks per thread.
   */
  static final int MIN_TASK_CHUNKS = 128;
  static final int MAX_TASK_CHUNKS = 1024;

  private static final ThreadLocal<int[]> TASK_SCRATCH = ThreadLocal.withInitial(() -> new int[CV_SCRATCH_WORDS]);

  /** Allocated at the first push: most hashers see less than a buffer of input and need none. */
  private int[] stack;
  private final int stackWords;
  private int depth;
  /** Chunks whose chaining values are on the stack; buf[0] is the first byte of the next one. */
  private long chunks;
  /** The chunk this state starts at: 0 except for a subtree state. */
  private final long startChunk;
  /** Where the current run of mergeable values starts; values below {@code frozen} never merge. */
  private long base;
  private int frozen;
  private byte[] buf;
  private int bufLen;
  private int[] cvScratch;

  /** The root node, filled by {@link #computeRoot}: cv in [0, 8), block words in [8, 24). */
  private final int[] root = new int[24];
  private int rootBlockLen;
  private int rootFlags;

  TreeState(Kernel kernel, int[] key, int flags) {
    this(kernel, key, flags, 0);
  }

  /** A state whose first byte is chunk {@code startChunk} of the whole input (a subtree). */
  TreeState(Kernel kernel, int[] key, int flags, long startChunk) {
    this.kernel = kernel;
    System.arraycopy(key, 0, this.key, 0, 8);
    this.flags = flags;
    this.startChunk = startChunk;
    // Frozen values have strictly growing sizes and the run after them shrinking ones.
    this.stackWords = 8 * (startChunk == 0 ? Spec.MAX_DEPTH + 1 : 2 * Spec.MAX_DEPTH + 2);
    this.chunks = startChunk;
    this.base = startChunk;
  }

  private TreeState(TreeState o) {
    kernel = o.kernel;
    System.arraycopy(o.key, 0, key, 0, 8);
    flags = o.flags;
    stackWords = o.stackWords;
    stack = o.stack == null ? null : o.stack.clone();
    depth = o.depth;
    chunks = o.chunks;
    startChunk = o.startChunk;
    base = o.base;
    frozen = o.frozen;
    buf = o.buf == null ? null : o.buf.clone();
    bufLen = o.bufLen;
  }

  TreeState copy() {
    return new TreeState(this);
  }

  /**
   * Goes back to the input of {@code saved}, a {@link #copy()} of this state made earlier,
   * taking over its arrays: undoes a call that failed halfway. Allocates nothing, so that it
   * cannot fail itself (the failure may be an OutOfMemoryError).
   */
  void restore(TreeState saved) {
    stack = saved.stack;
    depth = saved.depth;
    chunks = saved.chunks;
    base = saved.base;
    frozen = saved.frozen;
    buf = saved.buf;
    bufLen = saved.bufLen;
  }

  Kernel kernel() {
    return kernel;
  }

  /** Starts over with another key and mode (lets a one-shot reuse a per-thread state). */
  void reset(int[] key, int flags) {
    System.arraycopy(key, 0, this.key, 0, 8);
    this.flags = flags;
    reset();
  }

  void reset() {
    depth = 0;
    chunks = startChunk;
    base = startChunk;
    frozen = 0;
    bufLen = 0;
  }

  /** Bytes added since the start (or the last reset). */
  long length() {
    return (chunks - startChunk) * Spec.CHUNK_LEN + bufLen;
  }

  void update(byte[] in, int off, int len) {
    byte[] b = buf;
    int at = bufLen;
    if (b != null && len <= b.length - at) {
      // The common small update: it fits, so nothing is hashed (a full buffer waits for more).
      if (len <= SMALL_COPY && (len & 7) == 0) {
        for (int i = 0; i < len; i += 8) {
          LONGS.set(b, at + i, (long) LONGS.get(in, off + i));
        }
      } else {
        System.arraycopy(in, off, b, at, len);
      }
      bufLen = at + len;
      return;
    }
    absorb(in, null, off, len);
  }

  void update(ByteBuffer src) {
    int pos = src.position();
    int len = src.remaining();
    if (src.hasArray()) {
      absorb(src.array(), null, src.arrayOffset() + pos, len);
    } else {
      absorb(null, src, pos, len);
    }
    src.position(pos + len);
  }

  /** Takes len bytes from exactly one of {@code arr} or {@code bb} (absolute index off). */
  private void absorb(byte[] arr, ByteBuffer bb, int off, int len) {
    if (len == 0) {
      return;
    }
    if (buf == null) {
      buf = new byte[Math.min(Spec.CHUNK_LEN, kernel.bufferSize())];
    }
    // Can the kernel read this source itself? If not (a read-only heap buffer, or a direct
    // buffer for the Java kernel), every byte goes through buf.
    boolean readable = arr != null || (bb.isDirect() && kernel.supportsDirect());
    while (len > 0) {
      if (bufLen == buf.length) {
        makeRoom(); // full, and more input follows
      }
      if (bufLen == 0 && readable && len > buf.length) {
        // Hash whole chunks straight from the input, keeping the last (maybe final) chunk back.
        int whole = (len - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN;
        hashWholeChunks(arr, bb, off, whole);
        off += whole;
        len -= whole;
      }
      int take = Math.min(len, buf.length - bufLen);
      copyIn(arr, bb, off, take);
      off += take;
      len -= take;
    }
  }

  /**
   * Room in a full buffer, when more input follows. A hasher starts with one chunk of buffer
   * (small hashers stay small); a stream that outgrows it gets {@link #MID_BUFFER} bytes, and
   * one that outgrows that too gets the kernel's size, so that small updates reach the kernel
   * in the large batches its fast paths need while a stream of a few KiB never holds 64 KiB.
   * Growing copies rather than hashes what is buffered: then a stream of small updates is
   * hashed in whole aligned subtrees of the kernel's size (chunks 0-63, 64-127, ...), each
   * one kernel subtree with one tree above it, not three.
   */
  private void makeRoom() {
    int target = kernel.bufferSize();
    if (buf.length < target) {
      buf = Arrays.copyOf(buf, buf.length < MID_BUFFER ? Math.min(MID_BUFFER, target) : target);
    } else {
      hashWholeChunks(buf, null, 0, bufLen);
      bufLen = 0;
    }
  }

  private void copyIn(byte[] arr, ByteBuffer bb, int off, int len) {
    if (arr != null) {
      System.arraycopy(arr, off, buf, bufLen, len);
    } else {
      bb.get(off, buf, bufLen, len);
    }
    bufLen += len;
  }

  /** Hashes len bytes (a multiple of the chunk length) that are known not to end the input. */
  private void hashWholeChunks(byte[] arr, ByteBuffer bb, int off, int len) {
    if (cvScratch == null) {
      cvScratch = new int[CV_SCRATCH_WORDS];
    }
    while (len > 0) {
      int piece = Math.min(len, Kernel.MAX_CALL);
      int count = arr != null
          ? kernel.hashSubtrees(arr, off, piece, key, chunks, flags, cvScratch, 0)
          : kernel.hashSubtrees(bb, off, piece, key, chunks, flags, cvScratch, 0);
      pushAll(cvScratch, 0, count, piece / Spec.CHUNK_LEN);
      off += piece;
      len -= piece;
    }
  }

  /**
   * Pushes {@code count} values that a kernel returned for {@code n} chunks starting at chunk
   * {@code chunks}: the maximal aligned subtrees, left to right.
   */
  private void pushAll(int[] cvs, int cvOff, int count, long n) {
    for (int i = 0; i < count; i++) {
      long size = Spec.subtreeChunks(chunks, n);
      pushSubtree(cvs, cvOff + 8 * i, size);
      n -= size;
    }
  }

  /**
   * Pushes the CV of a subtree of {@code n} chunks that starts at chunk {@code chunks} and is
   * aligned there (n is a power of two dividing the counter), merging lazily first. Input must
   * be known to follow it.
   */
  void pushSubtree(int[] cv, int cvOff, long n) {
    mergeStack();
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
  private void mergeStack() {
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
      Compress.compressWords(key, 0, stack, at, 0, Spec.BLOCK_LEN, flags | Spec.PARENT, stack, at, false);
    }
  }

  /**
   * Describes the root node in {@link #root}. Buffered chunks before the last one are hashed
   * first: they cannot be the root, and this changes how the state is held, not what it means.
   */
  private void computeRoot() {
    hashAllButLastChunk();
    mergeStack(); // the last chunk follows everything on the stack
    int[] r = root;
    System.arraycopy(key, 0, r, 0, 8);
    int blocks = bufLen == 0 ? 1 : (bufLen + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    for (int b = 0; b < blocks - 1; b++) {
      Compress.compressBlock(r, 0, buf, Spec.BLOCK_LEN * b, chunks,
          flags | (b == 0 ? Spec.CHUNK_START : 0), r, 0);
    }
    int lastLen = bufLen - Spec.BLOCK_LEN * (blocks - 1);
    for (int i = 0; i < 16; i++) {
      r[8 + i] = buf == null ? 0 : Compress.partialWord(buf, Spec.BLOCK_LEN * (blocks - 1), lastLen, i);
    }
    int lastFlags = flags | Spec.CHUNK_END | (blocks == 1 ? Spec.CHUNK_START : 0);
    if (depth == 0) {
      // A single chunk (chunk 0: any earlier one would be on the stack) is the root itself.
      rootBlockLen = lastLen;
      rootFlags = lastFlags;
      return;
    }
    // The last chunk's CV goes to r[16..24) (the right half of a parent block), then the stack
    // is folded from the top without being changed: each parent's left half is a stack entry.
    Compress.compressWords(r, 0, r, 8, chunks, lastLen, lastFlags, r, 16, false);
    for (int i = depth - 1; i > 0; i--) {
      System.arraycopy(stack, 8 * i, r, 8, 8);
      Compress.compressWords(key, 0, r, 8, 0, Spec.BLOCK_LEN, flags | Spec.PARENT, r, 16, false);
    }
    System.arraycopy(stack, 0, r, 8, 8);
    System.arraycopy(key, 0, r, 0, 8);
    rootBlockLen = Spec.BLOCK_LEN;
    rootFlags = flags | Spec.PARENT;
  }

  /** Writes outLen bytes of the root output from position 0; the state stays usable. */
  void finish(byte[] out, int outOff, int outLen) {
    if (depth == 0 && kernel.hashesWhole(bufLen, outLen)) {
      // All input is still in the buffer: one kernel call hashes it, root included.
      kernel.hashWhole(buf == null ? NO_BYTES : buf, 0, bufLen, key, flags, out, outOff, outLen);
      return;
    }
    computeRoot();
    if (outLen == Spec.OUT_LEN) {
      // The first 32 bytes are the root's chaining value: one Java compression, no allocation.
      Compress.compressWords(root, 0, root, 8, 0, rootBlockLen, rootFlags | Spec.ROOT, root, 0, false);
      for (int i = 0; i < 8; i++) {
        Compress.putWord(out, outOff + 4 * i, root[i]);
      }
    } else {
      output().read(kernel, 0, out, outOff, outLen);
    }
  }

  /** Hashes the buffered chunks before the last one, which then starts the buffer. */
  private void hashAllButLastChunk() {
    if (bufLen > Spec.CHUNK_LEN) {
      int lastStart = (bufLen - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN;
      hashWholeChunks(buf, null, 0, lastStart);
      System.arraycopy(buf, lastStart, buf, 0, bufLen - lastStart);
      bufLen -= lastStart;
    }
  }

  /** A detached copy of the root node, for extendable output. */
  OutputNode output() {
    computeRoot();
    return new OutputNode(Arrays.copyOfRange(root, 0, 8), Arrays.copyOfRange(root, 8, 24), rootBlockLen, rootFlags);
  }

  // ---- Subtree states (Blake3Hazmat) ----------------------------------------------------

  /**
   * The chaining values of everything added, as the canonical subtrees of the range: the
   * maximal aligned power-of-two subtrees from the start, left to right, except that a range
   * starting at chunk 0 never becomes one subtree (it might be the whole input, whose top node
   * is the root): a power-of-two count there gives its two halves. 8 words per value; none for
   * an empty range. The state stays usable.
   */
  int[] subtreeCvs() {
    if (length() == 0) {
      return new int[0];
    }
    hashAllButLastChunk();
    mergeStack(); // the last chunk follows everything on the stack
    int[] s = new int[8 * (depth + 1)];
    if (depth > 0) {
      System.arraycopy(stack, 0, s, 0, 8 * depth);
    }
    lastChunkCv(s, 8 * depth);
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
      Compress.compressWords(key, 0, s, at, 0, Spec.BLOCK_LEN, flags | Spec.PARENT, s, at, false);
    }
    return d == depth + 1 ? s : Arrays.copyOf(s, 8 * d);
  }

  /** The non-root chaining value of the buffered last chunk (1 to 1024 bytes) at chunk {@code chunks}. */
  private void lastChunkCv(int[] out, int outOff) {
    System.arraycopy(key, 0, out, outOff, 8);
    int blocks = bufLen == 0 ? 1 : (bufLen + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    for (int b = 0; b < blocks - 1; b++) {
      Compress.compressBlock(out, outOff, buf, Spec.BLOCK_LEN * b, chunks,
          flags | (b == 0 ? Spec.CHUNK_START : 0), out, outOff);
    }
    int lastLen = bufLen - Spec.BLOCK_LEN * (blocks - 1);
    int[] block = new int[16];
    for (int i = 0; i < 16; i++) {
      block[i] = Compress.partialWord(buf, Spec.BLOCK_LEN * (blocks - 1), lastLen, i);
    }
    int lastFlags = flags | Spec.CHUNK_END | (blocks == 1 ? Spec.CHUNK_START : 0);
    Compress.compressWords(out, outOff, block, 0, chunks, lastLen, lastFlags, out, outOff, false);
  }

  /** The input so far if it is at most one chunk from chunk 0, else null. */
  byte[] soleChunk() {
    if (startChunk != 0 || chunks != 0 || bufLen > Spec.CHUNK_LEN) {
      return null;
    }
    return buf == null ? new byte[0] : Arrays.copyOf(buf, bufLen);
  }

  // ---- Parallel hashing ---------------------------------------------------------------

  /**
   * Adds len bytes from {@code arr} or {@code bb} (absolute index off), hashing the whole
   * chunks among them in parallel tasks on {@code executor} and this thread. Does not move the
   * buffer's position. If it throws, the state is as before the call and no task is running.
   */
  void updateParallel(byte[] arr, ByteBuffer bb, int off, int len, Executor executor, int helpers) {
    if (len < Parallel.MIN_LEN || helpers < 1) {
      absorb(arr, bb, off, len);
      return;
    }
    // A failure (the executor's, a task's) leaves the state as it was: the caller may catch it
    // and go on with update(). Saving costs a copy of at most the buffer, against >= 1 MiB.
    TreeState before = copy();
    try {
      addParallel(arr, bb, off, len, executor, helpers);
    } catch (Throwable t) {
      restore(before);
      throw t;
    }
  }

  private void addParallel(byte[] arr, ByteBuffer bb, int off, int len, Executor executor, int helpers) {
    if (buf == null) {
      buf = new byte[Math.min(Spec.CHUNK_LEN, kernel.bufferSize())];
    }
    if (bufLen == buf.length) {
      makeRoom();
    }
    if (bufLen > 0) {
      // Fill the buffer (len is far larger), then hash it: the rest starts on a chunk boundary.
      int head = buf.length - bufLen;
      copyIn(arr, bb, off, head);
      off += head;
      len -= head;
      hashWholeChunks(buf, null, 0, bufLen);
      bufLen = 0;
    }
    int whole = (len - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN; // the last chunk may end the input
    hashWholeChunksParallel(arr, bb, off, whole, executor, helpers);
    copyIn(arr, bb, off + whole, len - whole);
  }

  /**
   * Hashes len bytes (whole chunks, not ending the input) in tasks: the first runs up to the
   * next multiple of the task size, the others are aligned subtrees of that size (the last may
   * be shorter). Each task's values go to its own place; they are pushed in order afterwards.
   */
  private void hashWholeChunksParallel(byte[] arr, ByteBuffer bb, int off, int len, Executor executor, int helpers) {
    final long first = chunks;
    final long n = len / Spec.CHUNK_LEN;
    final long size = taskChunks(n, helpers + 1);
    final long firstEnd = Math.min(first + n, (first + size) & -size);
    final int tasks = 1 + (int) ((first + n - firstEnd + size - 1) / size);
    final int[] at = new int[tasks + 1]; // first value of each task, in values
    for (int t = 0; t < tasks; t++) {
      long s = taskStart(t, first, firstEnd, size);
      at[t + 1] = at[t] + subtreeCount(s, taskEnd(t, first, firstEnd, size, n) - s);
    }
    final int[] cvs = new int[8 * at[tasks]];
    final boolean direct = arr == null && bb.isDirect() && kernel.supportsDirect();
    Parallel.runUnchecked(tasks, executor, helpers, t -> {
      long s = taskStart(t, first, firstEnd, size);
      int from = off + (int) ((s - first) * Spec.CHUNK_LEN);
      int bytes = (int) ((taskEnd(t, first, firstEnd, size, n) - s) * Spec.CHUNK_LEN);
      int[] scratch = TASK_SCRATCH.get();
      int count;
      if (arr != null) {
        count = kernel.hashSubtrees(arr, from, bytes, key, s, flags, scratch, 0);
      } else if (direct) {
        count = kernel.hashSubtrees(bb, from, bytes, key, s, flags, scratch, 0);
      } else {
        byte[] copy = new byte[bytes]; // a read-only heap or, for the Java kernel, direct buffer
        bb.get(from, copy, 0, bytes);
        count = kernel.hashSubtrees(copy, 0, bytes, key, s, flags, scratch, 0);
      }
      System.arraycopy(scratch, 0, cvs, 8 * at[t], 8 * count);
    });
    for (int t = 0; t < tasks; t++) {
      long s = taskStart(t, first, firstEnd, size);
      pushAll(cvs, 8 * at[t], at[t + 1] - at[t], taskEnd(t, first, firstEnd, size, n) - s);
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

  /** How many maximal aligned subtrees n chunks from chunk c make. */
  static int subtreeCount(long c, long n) {
    int count = 0;
    while (n > 0) {
      long size = Spec.subtreeChunks(c, n);
      c += size;
      n -= size;
      count++;
    }
    return count;
  }

  // ---- File hashing (FileHashing) -----------------------------------------------------

  /**
   * Hashes the buffer if it holds only whole chunks, as it may when more input is known to
   * follow. Returns whether the buffer is now empty, so that aligned subtrees may be pushed.
   */
  boolean hashBufferedWholeChunks() {
    if (bufLen > 0 && bufLen % Spec.CHUNK_LEN == 0) {
      hashWholeChunks(buf, null, 0, bufLen);
      bufLen = 0;
    }
    return bufLen == 0;
  }

  /** Bytes before the next one in the whole input (for a state starting at chunk 0: its length). */
  long position() {
    return chunks * Spec.CHUNK_LEN + bufLen;
  }

  /** The chunk the next byte belongs to, counted from the start of the whole input. */
  long chunkCount() {
    return chunks;
  }

  /**
   * Hashes whole chunks from a source other threads may read too, without touching this
   * state: the values of the maximal aligned subtrees from chunk {@code counter} go to
   * {@code cvs[0..]} (room for 128). Returns their number.
   */
  int hashDetached(byte[] arr, ByteBuffer bb, int off, int len, long counter, int[] cvs) {
    return arr != null
        ? kernel.hashSubtrees(arr, off, len, key, counter, flags, cvs, 0)
        : kernel.hashSubtrees(bb, off, len, key, counter, flags, cvs, 0);
  }

  /** A scratch array for {@link #hashDetached}, one per thread. */
  static int[] taskScratch() {
    return TASK_SCRATCH.get();
  }
}
