package io.github.blake3fast;

import java.util.Arrays;

/**
 * Chunks of independent messages side by side on the Vector API ({@link MessageLanes}, for
 * {@link JavaBatch}): {@link VectorKernel#LANES} chunks per vector, each lane with its own counter,
 * and its own block length and flags on its last block ({@link VectorCompress#compressLanes}).
 * The chunks come sorted by block count, most first, so a vector's lanes finish from the last:
 * each lane's chaining value is taken out after its own last block, and the vector runs on
 * while its first lane has blocks (the finished lanes' words are then thrown away).
 */
final class VectorLanes implements MessageLanes {
  private static final int LANES = VectorKernel.LANES;
  private static final int MAX = JavaLanes.MAX_LANES;

  /** A subclass, not withInitial and a lambda: see Parallel's executor. */
  private static final ThreadLocal<VectorLanes> PER_THREAD = new ThreadLocal<>() {
    @Override
    protected VectorLanes initialValue() {
      return new VectorLanes();
    }
  };

  private final int[] cv = new int[8 * LANES];
  private final int[] m = new int[16 * LANES];
  private final int[] counterLo = new int[LANES];
  /** Zeros: a chunk's counter within its message fits in the low word. */
  private final int[] counterHi = new int[LANES];
  private final int[] blockLens = new int[LANES];
  private final int[] blockFlags = new int[LANES];
  private final int[] state = new int[16 * LANES];
  /** Each lane's result, 8 words apiece. */
  private final int[] results = new int[8 * MAX];

  private VectorLanes() {}

  static VectorLanes get() {
    return PER_THREAD.get();
  }

  @Override
  public void hashMessageChunks(byte[][] arrays, int[] offs, int[] lens, int[] counters, int[] ends, int n,
      int[] key, int flags) {
    for (int first = 0; first < n; first += LANES) {
      group(arrays, offs, lens, counters, ends, first, Math.min(LANES, n - first), key, flags);
    }
  }

  /** Lanes first .. first + k - 1 in one vector; vector lanes past k run on stale words, unread. */
  private void group(byte[][] arrays, int[] offs, int[] lens, int[] counters, int[] ends, int first, int k,
      int[] key, int flags) {
    for (int w = 0; w < 8; w++) {
      Arrays.fill(cv, w * LANES, w * LANES + LANES, key[w]);
    }
    System.arraycopy(counters, first, counterLo, 0, k);
    int running = k;
    for (int b = 0; running > 0; b++) {
      int at = b * Spec.BLOCK_LEN;
      while (running > 0 && JavaLanes.blocks(lens[first + running - 1]) <= b) {
        running--; // sorted: the lanes that are done are at the end
      }
      if (running == 0) {
        break;
      }
      int start = flags | (b == 0 ? Spec.CHUNK_START : 0);
      for (int l = 0; l < running; l++) {
        int t = first + l;
        int left = lens[t] - at;
        if (left >= Spec.BLOCK_LEN) {
          readBlock(arrays[t], offs[t] + at, l);
        } else {
          readPartialBlock(arrays[t], offs[t] + at, left, l);
        }
        boolean last = left <= Spec.BLOCK_LEN;
        blockLens[l] = last ? left : Spec.BLOCK_LEN;
        blockFlags[l] = last ? start | Spec.CHUNK_END | ends[t] : start;
      }
      VectorCompress.compressLanes(cv, m, counterLo, counterHi, blockLens, blockFlags, state, cv);
      for (int l = 0; l < running; l++) {
        if (lens[first + l] - at <= Spec.BLOCK_LEN) { // its last block: keep its value
          for (int w = 0; w < 8; w++) {
            results[8 * (first + l) + w] = cv[w * LANES + l];
          }
        }
      }
    }
  }

  private void readBlock(byte[] in, int at, int lane) {
    for (int j = 0; j < 16; j++) {
      m[j * LANES + lane] = Compress.View.word(in, at + 4 * j);
    }
  }


  /** The {@code len < 64} bytes at in[at] as a zero-padded block: whole words first, then the rest. */
  private void readPartialBlock(byte[] in, int at, int len, int lane) {
    int whole = len >>> 2;
    for (int j = 0; j < whole; j++) {
      m[j * LANES + lane] = Compress.View.word(in, at + 4 * j);
    }
    for (int j = whole; j < 16; j++) {
      m[j * LANES + lane] = Compress.partialWord(in, at, len, j);
    }
  }

  @Override
  public void hash(int lane, byte[] out, int outOff) {
    for (int w = 0; w < 8; w++) {
      Compress.putWord(out, outOff + 4 * w, results[8 * lane + w]);
    }
  }

  @Override
  public void chainingValue(int lane, int[] out, int outOff) {
    System.arraycopy(results, 8 * lane, out, outOff, 8);
  }
}
