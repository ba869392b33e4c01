package io.github.blake3fast;

/**
 * Chunks of independent messages hashed side by side, one per lane, for {@link JavaBatch}: the
 * scalar engine's {@link JavaLanes} (loops C2 may vectorize) or the Vector API engine's
 * {@code VectorLanes}. A kernel names its own ({@link Kernel#messageLanes}); one instance per
 * thread, its arrays the work area.
 */
interface MessageLanes {
  /**
   * Hashes {@code n} chunks of independent messages ({@code n <= JavaLanes.MAX_LANES}), one per
   * lane: chunk l is {@code arrays[l][offs[l] .. offs[l] + lens[l])} ({@code lens[l] <= 1024},
   * empty only for an empty message), with counter {@code counters[l]}, its last (maybe partial)
   * block flagged CHUNK_END and {@code ends[l]} (ROOT when the chunk is its whole message),
   * sorted by block count, most first. {@link #hash} or {@link #chainingValue} then reads lane
   * l's result.
   */
  void hashMessageChunks(byte[][] arrays, int[] offs, int[] lens, int[] counters, int[] ends, int n, int[] key,
      int flags);

  /** Lane {@code lane}'s 32-byte root hash from the last {@link #hashMessageChunks}, to out[outOff]. */
  void hash(int lane, byte[] out, int outOff);

  /** Lane {@code lane}'s 8-word chaining value from the last {@link #hashMessageChunks}, to out[outOff]. */
  void chainingValue(int lane, int[] out, int outOff);
}
