package io.github.blake3fast;


/**
 * The Java kernel on the Vector API ({@code jdk.incubator.vector}): chunks, parents and output
 * blocks compressed {@link #LANES} at a time, one per vector lane ({@link VectorCompress}). Runs
 * of chunks are hashed side by side across subtree boundaries, in windows of up to
 * {@link #WINDOW} chunks, and each subtree's parents are then hashed level by level, again side by
 * side. What is too narrow to fill lanes worth the vector set-up runs on the scalar engine.
 *
 * <p>Loaded only by {@link VectorChoice}, after it found the module readable: its signatures
 * name no Vector API type, so the rest of the library compiles and links without the module.
 */
final class VectorKernel implements Kernel {
  /**
   * Whether batches take the vector lanes ({@link VectorLanes}) rather than the scalar ones: from
   * JDK 25, where they were 1.0-3.3x the scalar lanes at every message size and width measured. On
   * JDK 17 and 21, C2 left some of the rounds' vector operations to the Vector API's Java fallbacks
   * in mixed-length batches (0.2-0.7x the scalar lanes; bench/notes/java-batch.md). Decided here,
   * not in VectorLanes, whose initialization reads this class's constants: the kernels below are
   * made without touching it.
   */
  static final boolean VECTOR_LANES_PAY = Runtime.version().feature() >= 25;

  /** The engine: batches on the vector lanes where they pay. */
  static final VectorKernel INSTANCE = new VectorKernel(VECTOR_LANES_PAY);
  /** Batches on the vector lanes on every JDK: for the tests of those lanes. */
  static final VectorKernel ON_VECTOR_LANES = new VectorKernel(true);

  static final int LANES = VectorCompress.N;
  /** Vector register width in bits, as {@link #name()} reports it. */
  static final int BITS = 32 * LANES;
  /** Chunks hashed before their parents: the scratch arrays are sized for this. */
  static final int WINDOW = 64;
  /** Fewer chunks, parents or output blocks than this go through the scalar engine. */
  static final int MIN_CHUNKS = 2;
  static final int MIN_PARENTS = 2;
  static final int MIN_OUTPUT_BLOCKS = 2;

  private final boolean vectorLanes;

  private VectorKernel(boolean vectorLanes) {
    this.vectorLanes = vectorLanes;
  }

  @Override
  public String name() {
    return "java-vector-" + BITS;
  }

  @Override
  public int bufferSize() {
    return WINDOW * Spec.CHUNK_LEN;
  }

  @Override
  public MessageLanes messageLanes() {
    return vectorLanes ? VectorLanes.get() : JavaLanes.get();
  }

  /** Many messages: the Java batch, one message per lane ({@link VectorLanes} where they pay). */
  @Override
  public void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    JavaBatch.hashMany(this, data, offsets, lengths, from, count, key, flags, out, outOff);
  }

  @Override
  public boolean hashesWhole(int len, int outLen) {
    return false;
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    throw new IllegalArgumentException("the vector kernel leaves whole inputs to the driver");
  }

  @Override
  public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
    return subtrees(in, off, len, key, counter, flags, cvs, cvsOff, false);
  }

  @Override
  public int hashSubtreesThenLast(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    return subtrees(in, off, len, key, counter, flags, cvs, cvsOff, true);
  }

  /** With {@code lastAlone}, the last chunk is a subtree of its own, hashed in the lanes beside the others. */
  private static int subtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff,
      boolean lastAlone) {
    VectorWork w = VectorWork.get();
    int total = len / Spec.CHUNK_LEN;
    int count = 0;
    int done = 0;
    while (done < total) {
      long c = counter + done;
      int size = subtreeAt(c, done, total, lastAlone);
      if (size >= WINDOW) {
        bigSubtree(w, in, off + done * Spec.CHUNK_LEN, size, key, c, flags, cvs, cvsOff + 8 * count++);
        done += size;
        continue;
      }
      // Small subtrees side by side: those that follow, up to a window's worth, share its lanes.
      int window = size;
      while (done + window < total) {
        int next = subtreeAt(c + window, done + window, total, lastAlone);
        if (next >= WINDOW || window + next > WINDOW) {
          break;
        }
        window += next;
      }
      hashWindow(w, in, off + done * Spec.CHUNK_LEN, window, key, c, flags);
      for (int at = 0; at < window; ) {
        int s = subtreeAt(c + at, done + at, total, lastAlone);
        reduce(w, w.chunkCvs, 8 * at, s, key, flags);
        System.arraycopy(w.chunkCvs, 8 * at, cvs, cvsOff + 8 * count++, 8);
        at += s;
      }
      done += window;
    }
    return count;
  }

  /** Chunks in the subtree that starts at chunk {@code c}, {@code done} of {@code total} chunks in. */
  private static int subtreeAt(long c, int done, int total, boolean lastAlone) {
    int left = total - done;
    if (lastAlone) {
      left = left == 1 ? 1 : left - 1;
    }
    return (int) Spec.subtreeChunks(c, left);
  }

  /** The chaining value of the aligned subtree of {@code size} chunks (a multiple of WINDOW). */
  private static void bigSubtree(VectorWork w, byte[] in, int off, int size, int[] key, long counter, int flags,
      int[] out, int outOff) {
    int groups = size / WINDOW;
    if (w.groupCvs.length < 8 * groups) {
      w.groupCvs = new int[8 * groups];
    }
    for (int g = 0; g < groups; g++) {
      hashWindow(w, in, off + g * WINDOW * Spec.CHUNK_LEN, WINDOW, key, counter + (long) g * WINDOW, flags);
      reduce(w, w.chunkCvs, 0, WINDOW, key, flags);
      System.arraycopy(w.chunkCvs, 0, w.groupCvs, 8 * g, 8);
    }
    reduce(w, w.groupCvs, 0, groups, key, flags);
    System.arraycopy(w.groupCvs, 0, out, outOff, 8);
  }

  /** Chaining values of the {@code n <= WINDOW} whole chunks at in[off] into w.chunkCvs, 8 words each. */
  private static void hashWindow(VectorWork w, byte[] in, int off, int n, int[] key, long counter, int flags) {
    for (int i = 0; i < n; i += LANES) {
      int k = Math.min(LANES, n - i);
      if (k >= MIN_CHUNKS) {
        chunkLanes(w, in, off + i * Spec.CHUNK_LEN, k, key, counter + i, flags, 8 * i);
      } else {
        for (int j = 0; j < k; j++) {
          scalarChunk(in, off + (i + j) * Spec.CHUNK_LEN, key, counter + i + j, flags, w.chunkCvs, 8 * (i + j));
        }
      }
    }
  }

  /** {@code k <= LANES} chunks side by side; chunk l's value goes to w.chunkCvs[at + 8 l]. */
  private static void chunkLanes(VectorWork w, byte[] in, int off, int k, int[] key, long counter, int flags, int at) {
    int[] cv = w.cv;
    int[] m = w.m;
    for (int word = 0; word < 8; word++) {
      java.util.Arrays.fill(cv, word * LANES, word * LANES + LANES, key[word]);
    }
    // Every lane gets a counter, those past k too: their results are thrown away.
    for (int l = 0; l < LANES; l++) {
      long c = counter + l;
      w.counterLo[l] = (int) c;
      w.counterHi[l] = (int) (c >>> 32);
    }
    // Lanes past k load chunk k - 1 again: their results are thrown away too.
    boolean vectorLoads = VectorTranspose.WORKS;
    for (int b = 0; b < 16; b++) {
      int base = off + b * Spec.BLOCK_LEN;
      if (vectorLoads) {
        VectorTranspose.load(in, base, Spec.CHUNK_LEN, k - 1, m);
      } else {
        for (int l = 0; l < k; l++, base += Spec.CHUNK_LEN) {
          for (int j = 0; j < 16; j++) {
            m[j * LANES + l] = Compress.View.word(in, base + 4 * j);
          }
        }
      }
      int blockFlags = flags | (b == 0 ? Spec.CHUNK_START : 0) | (b == 15 ? Spec.CHUNK_END : 0);
      VectorCompress.compress(cv, m, w.counterLo, w.counterHi, Spec.BLOCK_LEN, blockFlags, w.state, cv, false);
    }
    for (int l = 0; l < k; l++) {
      for (int word = 0; word < 8; word++) {
        w.chunkCvs[at + 8 * l + word] = cv[word * LANES + l];
      }
    }
  }

  private static void scalarChunk(byte[] in, int off, int[] key, long counter, int flags, int[] out, int outOff) {
    System.arraycopy(key, 0, out, outOff, 8);
    for (int b = 0; b < 16; b++) {
      int blockFlags = flags | (b == 0 ? Spec.CHUNK_START : 0) | (b == 15 ? Spec.CHUNK_END : 0);
      Compress.compressBlock(out, outOff, in, off + Spec.BLOCK_LEN * b, counter, blockFlags, out, outOff);
    }
  }

  /**
   * Replaces the {@code n} chaining values (a power of two) at cvs[at] by their subtree's value,
   * at cvs[at]. Neighbouring values are already a parent's 16-word block; parent p is written
   * over value p, which its own block (values 2p, 2p + 1) has been read from.
   */
  private static void reduce(VectorWork w, int[] cvs, int at, int n, int[] key, int flags) {
    int parentFlags = flags | Spec.PARENT;
    for (; n > 1; n /= 2) {
      int half = n / 2;
      for (int p = 0; p < half; p += LANES) {
        int k = Math.min(LANES, half - p);
        if (k >= MIN_PARENTS) {
          parentLanes(w, cvs, at + 16 * p, k, key, parentFlags, at + 8 * p);
        } else {
          for (int q = p; q < p + k; q++) {
            Compress.compressWords(key, 0, cvs, at + 16 * q, 0, Spec.BLOCK_LEN, parentFlags, cvs, at + 8 * q, false);
          }
        }
      }
    }
  }

  /** Parents of the {@code k} blocks of 16 words at cvs[from], written as 8 words each at cvs[to]. */
  private static void parentLanes(VectorWork w, int[] cvs, int from, int k, int[] key, int flags, int to) {
    int[] cv = w.cv;
    int[] m = w.m;
    for (int word = 0; word < 8; word++) {
      java.util.Arrays.fill(cv, word * LANES, word * LANES + LANES, key[word]);
    }
    java.util.Arrays.fill(w.counterLo, 0);
    java.util.Arrays.fill(w.counterHi, 0);
    for (int l = 0; l < k; l++) {
      for (int j = 0; j < 16; j++) {
        m[j * LANES + l] = cvs[from + 16 * l + j];
      }
    }
    VectorCompress.compress(cv, m, w.counterLo, w.counterHi, Spec.BLOCK_LEN, flags, w.state, cv, false);
    for (int l = 0; l < k; l++) {
      for (int word = 0; word < 8; word++) {
        cvs[to + 8 * l + word] = cv[word * LANES + l];
      }
    }
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    int skip = (int) (position & 63);
    long blocks = (skip + (long) outLen + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    if (blocks < MIN_OUTPUT_BLOCKS) {
      JavaKernel.INSTANCE.rootOutput(cv, block, blockLen, flags, position, out, outOff, outLen);
      return;
    }
    VectorWork w = VectorWork.get();
    for (int word = 0; word < 8; word++) {
      java.util.Arrays.fill(w.cv, word * LANES, word * LANES + LANES, cv[word]);
    }
    for (int j = 0; j < 16; j++) {
      java.util.Arrays.fill(w.m, j * LANES, j * LANES + LANES, block[j]);
    }
    long counter = position >>> 6;
    int[] words = w.out;
    while (outLen > 0) {
      for (int l = 0; l < LANES; l++) {
        long c = counter + l;
        w.counterLo[l] = (int) c;
        w.counterHi[l] = (int) (c >>> 32);
      }
      VectorCompress.compress(w.cv, w.m, w.counterLo, w.counterHi, blockLen, flags | Spec.ROOT, w.state, words, true);
      for (int l = 0; l < LANES && outLen > 0; l++) {
        int n = Math.min(outLen, Spec.BLOCK_LEN - skip);
        if (n == Spec.BLOCK_LEN) {
          for (int j = 0; j < 16; j++) {
            Compress.putWord(out, outOff + 4 * j, words[j * LANES + l]);
          }
        } else {
          for (int i = 0; i < n; i++) {
            int p = skip + i;
            out[outOff + i] = (byte) (words[(p >>> 2) * LANES + l] >>> (8 * (p & 3)));
          }
        }
        outOff += n;
        outLen -= n;
        skip = 0;
      }
      counter += LANES;
    }
  }
}
