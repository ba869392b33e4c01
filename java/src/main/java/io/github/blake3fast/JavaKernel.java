package io.github.blake3fast;


/**
 * The pure-Java kernel: runs everywhere, and is the reference the native one is checked against.
 * Whole chunks take one of two paths: {@link JavaLanes}, many chunks side by side, which wins
 * wherever C2 compiles its loops well, or one chunk at a time through {@link Compress}.
 * {@link LaneRule} says which from the JIT's configuration.
 */
final class JavaKernel implements Kernel {
  /** The kernel the library uses: the path {@link LaneRule} picks for this JVM. */
  static final JavaKernel INSTANCE = new JavaKernel(true, false);
  /** Each path forced, whatever the rule says: both are tested on every machine. */
  static final JavaKernel LANES = new JavaKernel(false, true);
  static final JavaKernel ONE_CHUNK = new JavaKernel(false, false);

  // Two flags, not an enum of the three paths: every class the first hash loads from the jar is
  // a fraction of a millisecond of a fresh JVM (bench/notes/startup.md, "Third pass").
  /** Whether {@link LaneRule} picks the path; if not, {@link #lanes} says which. */
  private final boolean byRule;
  private final boolean lanes;

  private JavaKernel(boolean byRule, boolean lanes) {
    this.byRule = byRule;
    this.lanes = lanes;
  }

  /** Whether runs of whole chunks go through {@link JavaLanes}. */
  boolean usesLanes() {
    return byRule ? LaneRule.lanesWin() : lanes;
  }

  @Override
  public String name() {
    return "java";
  }

  @Override
  public int bufferSize() {
    return JavaLanes.MAX_LANES * Spec.CHUNK_LEN; // a full set of lanes
  }

  @Override
  public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
    return hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff, false);
  }

  /** The last chunk in the same lanes as the chunks before it: see {@link Kernel#hashSubtreesThenLast}. */
  @Override
  public int hashSubtreesThenLast(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    return hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff, true);
  }

  /**
   * Chunks are hashed in runs of up to MAX_LANES that may cross subtree boundaries (so that a
   * short input still fills the lanes); each chunk's value then goes on the small stack of its
   * subtree, which starts at that subtree's own slot. With {@code lastAlone}, the subtrees are
   * those of all chunks but the last, whose value comes after them on its own.
   */
  private int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff,
      boolean lastAlone) {
    int total = len / Spec.CHUNK_LEN;
    long inSubtrees = lastAlone ? total - 1 : total;
    int count = 0;
    long subtree = inSubtrees > 0 ? Spec.subtreeChunks(counter, inSubtrees) : 1;
    long done = 0;
    int depth = 0;
    for (int c = 0; c < total; ) {
      int k = Math.min(total - c, JavaLanes.MAX_LANES);
      JavaLanes lanes = k >= JavaLanes.MIN_LANES && usesLanes() ? JavaLanes.get() : null;
      if (lanes != null) {
        lanes.hashChunks(in, off + c * Spec.CHUNK_LEN, k, key, counter + c, flags);
      }
      for (int i = 0; i < k; i++) {
        int base = cvsOff + 8 * count;
        if (lanes != null) {
          lanes.chainingValue(i, cvs, base + 8 * depth);
        } else {
          hashChunk(in, off + (c + i) * Spec.CHUNK_LEN, key, counter + c + i, flags, cvs, base + 8 * depth);
        }
        depth = merge(cvs, base, depth + 1, ++done, key, flags);
        if (done == subtree) { // its value is now alone at its slot
          count++;
          long left = inSubtrees - (c + i + 1);
          subtree = left > 0 ? Spec.subtreeChunks(counter + c + i + 1, left) : 1;
          done = 0;
          depth = 0;
        }
      }
      c += k;
    }
    return count;
  }

  /** After {@code done} chunks of a subtree, merges the stack once per trailing zero of done. */
  private static int merge(int[] cvs, int base, int depth, long done, int[] key, int flags) {
    for (; (done & 1) == 0; done >>>= 1) {
      depth--;
      int at = base + 8 * (depth - 1);
      Compress.parentCv(key, flags, cvs, at, cvs, at);
    }
    return depth;
  }

  /** The chaining value of the whole chunk at in[off], which is not the root. */
  private static void hashChunk(byte[] in, int off, int[] key, long counter, int flags, int[] out, int outOff) {
    System.arraycopy(key, 0, out, outOff, 8);
    Compress.compressBlock(out, outOff, in, off, counter, flags | Spec.CHUNK_START, out, outOff);
    for (int b = 1; b < 15; b++) {
      Compress.compressBlock(out, outOff, in, off + Spec.BLOCK_LEN * b, counter, flags, out, outOff);
    }
    Compress.compressBlock(out, outOff, in, off + Spec.BLOCK_LEN * 15, counter,
        flags | Spec.CHUNK_END, out, outOff);
  }

  /** Many messages: the Java lanes' batch, one message per lane, where it pays. */
  @Override
  public void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    JavaBatch.hashMany(this, data, offsets, lengths, from, count, key, flags, out, outOff);
  }

  /** Never: the tree driver builds every tree above the chunks ({@link OneShot}, {@link TreeState}). */
  @Override
  public boolean hashesWhole(int len, int outLen) {
    return false;
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    throw new IllegalArgumentException("the Java kernel hashes no whole input: the driver builds the tree");
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    int[] words = new int[16];
    long counter = position >>> 6;
    int skip = (int) (position & 63);
    while (outLen > 0) {
      Compress.compressWords(cv, 0, block, 0, counter, blockLen, flags | Spec.ROOT, words, 0, true);
      int n = Math.min(outLen, Spec.BLOCK_LEN - skip);
      if (skip == 0 && n == Spec.BLOCK_LEN) {
        for (int i = 0; i < 16; i++) {
          Compress.putWord(out, outOff + 4 * i, words[i]);
        }
      } else {
        for (int i = 0; i < n; i++) {
          int p = skip + i;
          out[outOff + i] = (byte) (words[p >>> 2] >>> (8 * (p & 3)));
        }
      }
      outOff += n;
      outLen -= n;
      skip = 0;
      counter++;
    }
  }
}
