package io.github.blake3fast;

/**
 * The Java kernels' many-message path ({@link Blake3#hashMany} without native code): the chunks
 * of messages shorter than {@link #MAX_CHUNKS} + 1 chunks go {@link JavaLanes#MAX_LANES} at a
 * time through the kernel's {@link MessageLanes} (the scalar {@link JavaLanes}, or the Vector API
 * kernel's), one chunk per lane, sorted by block count so that lanes finish from the end; a
 * message of several chunks then joins its chunks' values into its root here. Longer messages
 * (whose one-shot fills the lanes by itself), and a last group too small for the lanes to pay
 * ({@link #MIN_GROUP}), are hashed one after the other. Used only where the lanes win
 * ({@link #takes}). One instance per thread.
 */
final class JavaBatch {
  /** A subclass, not withInitial and a lambda: see Parallel's executor. */
  private static final ThreadLocal<JavaBatch> PER_THREAD = new ThreadLocal<>() {
    @Override
    protected JavaBatch initialValue() {
      return new JavaBatch();
    }
  };

  private static final int LANES = JavaLanes.MAX_LANES;
  private static final int BLOCKS_PER_CHUNK = Spec.CHUNK_LEN / Spec.BLOCK_LEN;
  /** A message of more chunks fills the lanes in its own one-shot. */
  static final int MAX_CHUNKS = JavaLanes.MIN_LANES - 1;
  /**
   * A last group of fewer chunks is hashed one message at a time: with 16 or 64 messages of
   * 64 bytes the lanes were 0.6-1.2x the loop, with 1,000 1.3-2.6x (bench/notes/java-batch.md).
   */
  static final int MIN_GROUP = 32;

  /** The messages of the group, in call order: where each is, where its hash goes, its first chunk's lane task. */
  private final byte[][] msgArrays = new byte[LANES][];
  private final int[] msgOffs = new int[LANES];
  private final int[] msgLens = new int[LANES];
  private final byte[][] msgOuts = new byte[LANES][];
  private final int[] msgOutOffs = new int[LANES];
  private final int[] msgFirstChunk = new int[LANES];
  private int messages;
  /** Chunks in the group: {@code chunks <= LANES}. */
  private int chunks;

  /** The group's chunks sorted by block count, most first: the lane order; and each lane's chunk. */
  private final byte[][] laneArrays = new byte[LANES][];
  private final int[] laneOffs = new int[LANES];
  private final int[] laneLens = new int[LANES];
  private final int[] laneCounters = new int[LANES];
  private final int[] laneEnds = new int[LANES];
  private final int[] laneOfChunk = new int[LANES];
  private final int[] perBlocks = new int[BLOCKS_PER_CHUNK + 2];
  /** The chaining values of a message's chunks, then the stack of its subtrees' values. */
  private final int[] chunkCvs = new int[8 * MAX_CHUNKS];
  private final int[] stack = new int[8 * (MAX_CHUNKS + 1)];

  private JavaBatch() {}

  /**
   * Whether a batch of {@code count} messages for {@code kernel} goes through the lanes at all:
   * the Java kernel's own path (by the rule or forced); always for a kernel whose lanes are vector
   * lanes ({@code VectorLanes}); by the scalar lanes' rule for one that uses those.
   */
  static boolean takes(int count, Kernel kernel) {
    if (count < JavaLanes.MIN_LANES) { // too few even if each message had 11 chunks
      return false;
    }
    if (kernel instanceof JavaKernel) {
      return ((JavaKernel) kernel).usesLanes();
    }
    return !(kernel.messageLanes() instanceof JavaLanes) || JavaKernel.INSTANCE.usesLanes();
  }

  /**
   * {@link Kernel#hashMany} for a Java kernel: message i is data[offsets[i] .. + lengths[i]),
   * its hash out[outOff + 32 (i - from)]; through the lanes where they pay ({@link #takes}),
   * else one after the other.
   */
  static void hashMany(Kernel kernel, byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key,
      int flags, byte[] out, int outOff) {
    if (!takes(count, kernel)) {
      Kernel.hashOneByOne(kernel, data, offsets, lengths, from, count, key, flags, out, outOff);
      return;
    }
    JavaBatch batch = PER_THREAD.get();
    try {
      for (int i = from; i < from + count; i++) {
        batch.add(kernel, data, offsets[i], lengths[i], key, flags, out, outOff + Spec.OUT_LEN * (i - from));
      }
      batch.finish(kernel, key, flags);
    } finally {
      batch.clear();
    }
  }

  /** The array form: the hash of inputs[i] into hashes[i], a new 32-byte array. */
  static void hashArrays(Kernel kernel, byte[][] inputs, int[] key, int flags, byte[][] hashes) {
    JavaBatch batch = PER_THREAD.get();
    try {
      for (int i = 0; i < inputs.length; i++) {
        hashes[i] = new byte[Spec.OUT_LEN];
        batch.add(kernel, inputs[i], 0, inputs[i].length, key, flags, hashes[i], 0);
      }
      batch.finish(kernel, key, flags);
    } finally {
      batch.clear();
    }
  }

  /** The number of chunks of a message of {@code len} bytes; an empty message has one. */
  private static int chunksOf(int len) {
    return len == 0 ? 1 : (len - 1) / Spec.CHUNK_LEN + 1;
  }

  private void add(Kernel kernel, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    int n = chunksOf(len);
    if (n > MAX_CHUNKS) {
      OneShot.hash(kernel, in, off, len, key, flags, out, outOff, Spec.OUT_LEN);
      return;
    }
    if (chunks + n > LANES) {
      hashGroup(kernel, key, flags);
    }
    msgArrays[messages] = in;
    msgOffs[messages] = off;
    msgLens[messages] = len;
    msgOuts[messages] = out;
    msgOutOffs[messages] = outOff;
    msgFirstChunk[messages] = chunks;
    messages++;
    for (int c = 0; c < n; c++) {
      laneArrays[chunks] = in; // in call order for now: hashGroup sorts
      laneOffs[chunks] = off + c * Spec.CHUNK_LEN;
      laneLens[chunks] = Math.min(Spec.CHUNK_LEN, len - c * Spec.CHUNK_LEN);
      laneCounters[chunks] = c;
      laneEnds[chunks] = n == 1 ? Spec.ROOT : 0;
      chunks++;
    }
    if (chunks == LANES) {
      hashGroup(kernel, key, flags);
    }
  }

  /** Hashes what is left of the group: through the lanes if enough chunks are, else one by one. */
  private void finish(Kernel kernel, int[] key, int flags) {
    if (chunks >= MIN_GROUP) {
      hashGroup(kernel, key, flags);
    } else {
      for (int i = 0; i < messages; i++) {
        OneShot.hash(kernel, msgArrays[i], msgOffs[i], msgLens[i], key, flags, msgOuts[i], msgOutOffs[i],
            Spec.OUT_LEN);
      }
    }
  }

  /**
   * Empties the group and lets go of the caller's arrays, also after a failure (an
   * OutOfMemoryError for a hash array), so that the next call never finishes a stale group.
   */
  private void clear() {
    java.util.Arrays.fill(msgArrays, null);
    java.util.Arrays.fill(msgOuts, null);
    java.util.Arrays.fill(laneArrays, null);
    messages = 0;
    chunks = 0;
  }

  /** Sorts the group's chunks into lanes by block count, hashes them, and gives each message its hash. */
  private void hashGroup(Kernel kernel, int[] key, int flags) {
    sortLanes();
    MessageLanes lanes = kernel.messageLanes();
    lanes.hashMessageChunks(laneArrays, laneOffs, laneLens, laneCounters, laneEnds, chunks, key, flags);
    for (int i = 0; i < messages; i++) {
      int first = msgFirstChunk[i];
      int n = (i + 1 < messages ? msgFirstChunk[i + 1] : chunks) - first;
      if (n == 1) {
        lanes.hash(laneOfChunk[first], msgOuts[i], msgOutOffs[i]);
      } else {
        for (int c = 0; c < n; c++) {
          lanes.chainingValue(laneOfChunk[first + c], chunkCvs, 8 * c);
        }
        root(n, key, flags, msgOuts[i], msgOutOffs[i]);
      }
    }
    messages = 0;
    chunks = 0;
  }

  /**
   * A counting sort of the chunks (in call order in the lane arrays) by block count (1 to 16),
   * most first, in place through a copy of the few fields; laneOfChunk maps each back.
   */
  private void sortLanes() {
    java.util.Arrays.fill(perBlocks, 0);
    for (int t = 0; t < chunks; t++) {
      perBlocks[BLOCKS_PER_CHUNK - JavaLanes.blocks(laneLens[t])]++;
    }
    for (int k = 0, start = 0; k <= BLOCKS_PER_CHUNK; k++) { // bucket k: 16 - k blocks; its first lane
      int c = perBlocks[k];
      perBlocks[k] = start;
      start += c;
    }
    for (int t = 0; t < chunks; t++) {
      laneOfChunk[t] = perBlocks[BLOCKS_PER_CHUNK - JavaLanes.blocks(laneLens[t])]++;
    }
    permute(laneArrays);
    permute(laneOffs);
    permute(laneLens);
    permute(laneCounters);
    permute(laneEnds);
  }

  private final byte[][] spareArrays = new byte[LANES][];
  private final int[] spareInts = new int[LANES];

  private void permute(byte[][] a) {
    System.arraycopy(a, 0, spareArrays, 0, chunks);
    for (int t = 0; t < chunks; t++) {
      a[laneOfChunk[t]] = spareArrays[t];
    }
    java.util.Arrays.fill(spareArrays, 0, chunks, null);
  }

  private void permute(int[] a) {
    System.arraycopy(a, 0, spareInts, 0, chunks);
    for (int t = 0; t < chunks; t++) {
      a[laneOfChunk[t]] = spareInts[t];
    }
  }

  /**
   * The root hash of a message of {@code n >= 2} chunks from their values in chunkCvs: each
   * complete subtree merged as its last chunk arrives (one parent per trailing zero of the
   * count), then the stack folded from the right, the last parent being the root.
   */
  private void root(int n, int[] key, int flags, byte[] out, int outOff) {
    int depth = 0;
    for (int c = 0; c < n - 1; c++) {
      System.arraycopy(chunkCvs, 8 * c, stack, 8 * depth, 8);
      depth++;
      for (int done = c + 1; (done & 1) == 0; done >>>= 1) {
        depth--;
        Compress.parentCv(key, flags, stack, 8 * (depth - 1), stack, 8 * (depth - 1));
      }
    }
    System.arraycopy(chunkCvs, 8 * (n - 1), stack, 8 * depth, 8);
    depth++;
    while (depth > 2) {
      depth--;
      Compress.parentCv(key, flags, stack, 8 * (depth - 1), stack, 8 * (depth - 1));
    }
    Compress.parentCv(key, flags | Spec.ROOT, stack, 0, stack, 0);
    for (int w = 0; w < 8; w++) {
      Compress.putWord(out, outOff + 4 * w, stack[w]);
    }
  }
}
