package io.github.blake3fast;

/**
 * The Java kernel's whole-input hash for inputs of {@link JavaLanes#MIN_LANES} to
 * {@link JavaLanes#MAX_LANES} chunks on the lane path. Knowing the whole input, it hashes every
 * whole chunk in the lanes, the last one too: the tree driver, built for streaming, keeps the
 * last chunk back (it might be the root), so an input of 12 whole chunks would reach the lanes
 * as 11, too few to pay, and run one chunk at a time. Wide levels of parents above the chunks
 * are hashed lane-wise too; the narrow ones and the root one at a time (the thresholds come
 * from bench/notes/java-engine.md).
 */
final class JavaWholeInput {
  private JavaWholeInput() {}

  /** Levels of parents narrower than this are hashed one parent at a time. */
  static final int MIN_PARENT_LANES = 16;

  /** Whether this input length is one for {@link #hash}; the lane rule is the caller's. */
  static boolean takes(int len) {
    int chunks = (len + Spec.CHUNK_LEN - 1) / Spec.CHUNK_LEN;
    return len / Spec.CHUNK_LEN >= JavaLanes.MIN_LANES && chunks <= JavaLanes.MAX_LANES;
  }

  /** {@code outLen} bytes of the root output of {@code in[off, off + len)}, where {@link #takes}. */
  static void hash(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    JavaLanes lanes = JavaLanes.get();
    int whole = len / Spec.CHUNK_LEN;
    int rest = len - whole * Spec.CHUNK_LEN;
    lanes.hashChunks(in, off, whole, key, 0, flags);
    int n = whole;
    int[] words = new int[16 * JavaLanes.MAX_LANES / 2];
    if (rest > 0) {
      lastChunk(in, off + whole * Spec.CHUNK_LEN, rest, key, whole, flags, words);
      lanes.setChainingValue(n++, words, 0);
    }
    // Pairing neighbours level by level, an odd last value moving up unchanged, builds the same
    // tree as the specification's largest-power-of-two left subtrees.
    while (n / 2 >= MIN_PARENT_LANES) {
      n = lanes.mergeParents(n, key, flags);
    }
    for (int i = 0; i < n; i++) {
      lanes.chainingValue(i, words, 8 * i);
    }
    while (n > 2) {
      int half = n / 2;
      for (int p = 0; p < half; p++) {
        // Parent p reads words [16p, 16p + 16) and writes [8p, 8p + 8): never a pair not yet read.
        Compress.parentCv(key, flags, words, 16 * p, words, 8 * p);
      }
      if ((n & 1) != 0) {
        System.arraycopy(words, 8 * (n - 1), words, 8 * half, 8);
      }
      n -= half;
    }
    if (outLen == Spec.OUT_LEN) {
      Compress.compressWords(key, 0, words, 0, 0, Spec.BLOCK_LEN, flags | Spec.PARENT | Spec.ROOT, words, 16,
          false);
      for (int i = 0; i < 8; i++) {
        Compress.putWord(out, outOff + 4 * i, words[16 + i]);
      }
    } else {
      JavaKernel.INSTANCE.rootOutput(key, words, Spec.BLOCK_LEN, flags | Spec.PARENT, 0, out, outOff, outLen);
    }
  }

  /** The chaining value of the partial chunk of {@code len} bytes at in[off] (never the root). */
  private static void lastChunk(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cv) {
    System.arraycopy(key, 0, cv, 0, 8);
    int blocks = (len + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    for (int b = 0; b < blocks - 1; b++) {
      Compress.compressBlock(cv, 0, in, off + b * Spec.BLOCK_LEN, counter, flags | (b == 0 ? Spec.CHUNK_START : 0),
          cv, 0);
    }
    int at = off + (blocks - 1) * Spec.BLOCK_LEN;
    int blockLen = len - (blocks - 1) * Spec.BLOCK_LEN;
    int[] m = new int[16];
    for (int i = 0; i < 16; i++) {
      m[i] = Compress.partialWord(in, at, blockLen, i);
    }
    int blockFlags = flags | Spec.CHUNK_END | (blocks == 1 ? Spec.CHUNK_START : 0);
    Compress.compressWords(cv, 0, m, 0, counter, blockLen, blockFlags, cv, 0, false);
  }
}
