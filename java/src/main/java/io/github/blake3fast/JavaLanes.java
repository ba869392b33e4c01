package io.github.blake3fast;

/**
 * The Java kernel's many-chunk path: up to 64 chunks hashed side by side, one array element per
 * chunk ("lane") for each of the 16 state words. Every step of G is a loop over the lanes, a
 * shape C2 turns into SIMD instructions (SSE, AVX2, AVX-512, NEON) by itself; {@link LaneRule}
 * says where this path wins. Fewer than {@link #MIN_LANES} lanes do not pay: the vector loop then
 * runs mostly in its scalar pre- and post-loops (the threshold comes from
 * bench/notes/java-engine.md). One instance per thread: its arrays are the work area.
 */
final class JavaLanes implements MessageLanes {
  static final int MAX_LANES = 64;
  static final int MIN_LANES = 12;

  /** A subclass, not withInitial and a lambda: see Parallel's executor. */
  private static final ThreadLocal<JavaLanes> PER_THREAD = new ThreadLocal<>() {
    @Override
    protected JavaLanes initialValue() {
      return new JavaLanes();
    }
  };

  /** State word -> lane values; message word -> lane values; chaining value word -> lane values. */
  private final int[][] v = new int[16][MAX_LANES];
  private final int[][] m = new int[16][MAX_LANES];
  private final int[][] cv = new int[8][MAX_LANES];

  private JavaLanes() {}

  static JavaLanes get() {
    return PER_THREAD.get();
  }

  /** The message word order of each round, from the permutation in the specification. */
  private static final int[][] SCHEDULE = new int[7][16];
  /** a, b, c, d of the 8 G calls of a round: four columns, then four diagonals. */
  private static final int[] GA = {0, 1, 2, 3, 0, 1, 2, 3};
  private static final int[] GB = {4, 5, 6, 7, 5, 6, 7, 4};
  private static final int[] GC = {8, 9, 10, 11, 10, 11, 8, 9};
  private static final int[] GD = {12, 13, 14, 15, 15, 12, 13, 14};

  static {
    int[] permutation = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
    for (int i = 0; i < 16; i++) {
      SCHEDULE[0][i] = i;
    }
    for (int r = 1; r < 7; r++) {
      for (int i = 0; i < 16; i++) {
        SCHEDULE[r][i] = SCHEDULE[r - 1][permutation[i]];
      }
    }
  }

  /**
   * Hashes {@code n} whole chunks ({@code n <= 64}) at {@code in[off]}, chunk i with counter
   * {@code counter + i}; {@link #chainingValue} then reads chunk i's CV.
   */
  void hashChunks(byte[] in, int off, int n, int[] key, long counter, int flags) {
    for (int w = 0; w < 8; w++) {
      java.util.Arrays.fill(cv[w], 0, n, key[w]);
    }
    for (int b = 0; b < 16; b++) {
      readBlocks(in, off + b * Spec.BLOCK_LEN, n);
      int blockFlags = flags | (b == 0 ? Spec.CHUNK_START : 0) | (b == 15 ? Spec.CHUNK_END : 0);
      for (int w = 0; w < 8; w++) {
        System.arraycopy(cv[w], 0, v[w], 0, n);
      }
      java.util.Arrays.fill(v[8], 0, n, Compress.IV0);
      java.util.Arrays.fill(v[9], 0, n, Compress.IV1);
      java.util.Arrays.fill(v[10], 0, n, Compress.IV2);
      java.util.Arrays.fill(v[11], 0, n, Compress.IV3);
      for (int l = 0; l < n; l++) {
        long c = counter + l;
        v[12][l] = (int) c;
        v[13][l] = (int) (c >>> 32);
      }
      java.util.Arrays.fill(v[14], 0, n, Spec.BLOCK_LEN);
      java.util.Arrays.fill(v[15], 0, n, blockFlags);
      rounds(n);
      for (int w = 0; w < 8; w++) {
        int[] c = cv[w];
        int[] lo = v[w];
        int[] hi = v[w + 8];
        for (int l = 0; l < n; l++) {
          c[l] = lo[l] ^ hi[l];
        }
      }
    }
  }

  /**
   * {@inheritDoc} Sorted by block count, the lanes still running at each block are a prefix, and
   * every loop over them stays one loop.
   */
  @Override
  public void hashMessageChunks(byte[][] arrays, int[] offs, int[] lens, int[] counters, int[] ends, int n,
      int[] key, int flags) {
    for (int w = 0; w < 8; w++) {
      java.util.Arrays.fill(cv[w], 0, n, key[w]);
    }
    int[] blockLen = v[14];
    int[] blockFlags = v[15];
    int running = n;
    for (int b = 0; running > 0; b++) {
      int at = b * Spec.BLOCK_LEN;
      while (running > 0 && blocks(lens[running - 1]) <= b) {
        running--; // sorted: the lanes that are done are at the end
      }
      if (running == 0) {
        break;
      }
      for (int l = 0; l < running; l++) {
        int left = lens[l] - at;
        if (left >= Spec.BLOCK_LEN) {
          readBlock(arrays[l], offs[l] + at, l);
        } else {
          readPartialBlock(arrays[l], offs[l] + at, left, l);
        }
      }
      for (int w = 0; w < 8; w++) {
        System.arraycopy(cv[w], 0, v[w], 0, running);
      }
      java.util.Arrays.fill(v[8], 0, running, Compress.IV0);
      java.util.Arrays.fill(v[9], 0, running, Compress.IV1);
      java.util.Arrays.fill(v[10], 0, running, Compress.IV2);
      java.util.Arrays.fill(v[11], 0, running, Compress.IV3);
      System.arraycopy(counters, 0, v[12], 0, running);
      java.util.Arrays.fill(v[13], 0, running, 0);
      int start = flags | (b == 0 ? Spec.CHUNK_START : 0);
      for (int l = 0; l < running; l++) {
        int left = lens[l] - at;
        boolean last = left <= Spec.BLOCK_LEN;
        blockLen[l] = last ? left : Spec.BLOCK_LEN;
        blockFlags[l] = last ? start | Spec.CHUNK_END | ends[l] : start;
      }
      rounds(running);
      for (int w = 0; w < 8; w++) {
        int[] c = cv[w];
        int[] lo = v[w];
        int[] hi = v[w + 8];
        for (int l = 0; l < running; l++) {
          c[l] = lo[l] ^ hi[l];
        }
      }
    }
  }

  /** The number of blocks a chunk of {@code len <= 1024} bytes compresses: an empty message, one. */
  static int blocks(int len) {
    return len == 0 ? 1 : (len + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
  }

  private void readBlock(byte[] in, int at, int lane) {
    for (int j = 0; j < 16; j++) {
      m[j][lane] = Compress.View.word(in, at + 4 * j);
    }
  }

  /** The {@code len < 64} bytes at in[at] as a zero-padded block: whole words first, then the rest. */
  private void readPartialBlock(byte[] in, int at, int len, int lane) {
    int whole = len >>> 2;
    for (int j = 0; j < whole; j++) {
      m[j][lane] = Compress.View.word(in, at + 4 * j);
    }
    for (int j = whole; j < 16; j++) {
      m[j][lane] = Compress.partialWord(in, at, len, j);
    }
  }

  /** Lane {@code lane}'s 32-byte root hash from the last {@link #hashMessageChunks}, to out[outOff]. */
  @Override
  public void hash(int lane, byte[] out, int outOff) {
    for (int w = 0; w < 8; w++) {
      Compress.putWord(out, outOff + 4 * w, cv[w][lane]);
    }
  }

  /** The words of the block at {@code in[at]} and of the n - 1 blocks 1024 bytes apart after it, a lane each. */
  private void readBlocks(byte[] in, int at, int n) {
    for (int l = 0; l < n; l++, at += Spec.CHUNK_LEN) {
      for (int j = 0; j < 16; j++) {
        m[j][l] = Compress.View.word(in, at + 4 * j);
      }
    }
  }

  /** Chunk {@code lane}'s chaining value from the last {@link #hashChunks}, as 8 words at out[outOff]. */
  @Override
  public void chainingValue(int lane, int[] out, int outOff) {
    for (int w = 0; w < 8; w++) {
      out[outOff + w] = cv[w][lane];
    }
  }

  private void rounds(int n) {
    for (int r = 0; r < 7; r++) {
      int[] s = SCHEDULE[r];
      for (int i = 0; i < 8; i++) {
        g(v[GA[i]], v[GB[i]], v[GC[i]], v[GD[i]], m[s[2 * i]], m[s[2 * i + 1]], n);
      }
    }
  }

  /** The G function on every lane: one loop, so the JIT vectorizes it. */
  private static void g(int[] a, int[] b, int[] c, int[] d, int[] x, int[] y, int n) {
    for (int l = 0; l < n; l++) {
      int va = a[l] + b[l] + x[l];
      int vd = Integer.rotateRight(d[l] ^ va, 16);
      int vc = c[l] + vd;
      int vb = Integer.rotateRight(b[l] ^ vc, 12);
      va = va + vb + y[l];
      vd = Integer.rotateRight(vd ^ va, 8);
      vc = vc + vd;
      vb = Integer.rotateRight(vb ^ vc, 7);
      a[l] = va;
      b[l] = vb;
      c[l] = vc;
      d[l] = vd;
    }
  }
}
