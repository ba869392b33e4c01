package io.github.blake3fast;

import java.nio.ByteBuffer;

/** The pure-Java kernel: runs everywhere, and is the reference the native one is checked against. */
final class JavaKernel implements Kernel {
  static final JavaKernel INSTANCE = new JavaKernel();

  private JavaKernel() {}

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
    int count = 0;
    long left = len / Spec.CHUNK_LEN;
    while (left > 0) {
      long n = Spec.subtreeChunks(counter, left);
      int base = cvsOff + 8 * count;
      // Hash the subtree's chunks left to right onto a small stack that starts at its own slot.
      int depth = 0;
      for (long j = 0; j < n; ) {
        int k = (int) Math.min(n - j, JavaLanes.MAX_LANES);
        if (k >= JavaLanes.MIN_LANES) {
          JavaLanes lanes = JavaLanes.get();
          lanes.hashChunks(in, off, k, key, counter + j, flags);
          for (int i = 0; i < k; i++) {
            lanes.chainingValue(i, cvs, base + 8 * depth);
            depth = merge(cvs, base, depth + 1, j + i + 1, key, flags);
          }
        } else {
          for (int i = 0; i < k; i++) {
            hashChunk(in, off + i * Spec.CHUNK_LEN, key, counter + j + i, flags, cvs, base + 8 * depth);
            depth = merge(cvs, base, depth + 1, j + i + 1, key, flags);
          }
        }
        off += k * Spec.CHUNK_LEN;
        j += k;
      }
      count++;
      counter += n;
      left -= n;
    }
    return count;
  }

  /** After {@code done} chunks of a subtree, merges the stack once per trailing zero of done. */
  private static int merge(int[] cvs, int base, int depth, long done, int[] key, int flags) {
    for (; (done & 1) == 0; done >>>= 1) {
      depth--;
      int at = base + 8 * (depth - 1);
      Compress.compressWords(key, 0, cvs, at, 0, Spec.BLOCK_LEN, flags | Spec.PARENT, cvs, at, false);
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

  @Override
  public boolean hashesWhole(int len, int outLen) {
    return false;
  }

  @Override
  public boolean supportsDirect() {
    return false;
  }

  @Override
  public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    throw new UnsupportedOperationException("the Java kernel reads direct buffers through the hasher's buffer");
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    throw new IllegalArgumentException("the Java kernel has no whole-input call: the tree driver builds the tree");
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
