package io.github.blake3fast;

/** Sizes, flags and the IV from the BLAKE3 specification. */
final class Spec {
  private Spec() {}

  static final int BLOCK_LEN = 64;
  static final int CHUNK_LEN = 1024;
  static final int KEY_LEN = 32;
  static final int OUT_LEN = 32;
  /** 2^54 chunks of 2^10 bytes is 2^64 bytes: the stack never holds more CVs than this. */
  static final int MAX_DEPTH = 54;

  static final int CHUNK_START = 1;
  static final int CHUNK_END = 2;
  static final int PARENT = 4;
  static final int ROOT = 8;
  static final int KEYED_HASH = 16;
  static final int DERIVE_KEY_CONTEXT = 32;
  static final int DERIVE_KEY_MATERIAL = 64;

  private static final int[] IV = {
    Compress.IV0, Compress.IV1, Compress.IV2, Compress.IV3,
    Compress.IV4, Compress.IV5, Compress.IV6, Compress.IV7
  };

  /** The IV as a key, shared and never written: callers must treat it as read-only. */
  static int[] iv() {
    return IV;
  }

  static int[] keyWords(byte[] key32) {
    int[] k = new int[8];
    for (int i = 0; i < 8; i++) {
      k[i] = Compress.word(key32, 4 * i);
    }
    return k;
  }

  /** Whether all the words are 0: a derive-key key that is, is a fault ({@link Blake3#contextKey}). */
  static boolean allZero(int[] words) {
    int any = 0;
    for (int w : words) {
      any |= w;
    }
    return any == 0;
  }

  /**
   * Chunks in the largest subtree that can start at chunk {@code counter} and fits in
   * {@code chunks}: a power of two that divides the counter (any, at 0) and is at most chunks.
   */
  static long subtreeChunks(long counter, long chunks) {
    long fit = Long.highestOneBit(chunks);
    return counter == 0 ? fit : Math.min(fit, Long.lowestOneBit(counter));
  }

  /** How many maximal aligned subtrees n chunks from chunk {@code counter} make. */
  static int subtreeCount(long counter, long chunks) {
    int count = 0;
    while (chunks > 0) {
      long size = subtreeChunks(counter, chunks);
      counter += size;
      chunks -= size;
      count++;
    }
    return count;
  }
}
