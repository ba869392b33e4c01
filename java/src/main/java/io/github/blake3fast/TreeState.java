package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.Arrays;

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
 */
final class TreeState {
  /** Inputs handed to the kernel in one call at most: keeps a JNI critical section short. */
  private static final int SLICE = 4 << 20;
  /** Room for the subtree CVs of one slice (at most 2 x 22 for 4 MiB) and the Java kernel's work area. */
  private static final int CV_SCRATCH_WORDS = 8 * 128;

  private final Kernel kernel;
  private final int[] key = new int[8];
  private int flags;

  private final int[] stack = new int[8 * (Spec.MAX_DEPTH + 1)];
  private int depth;
  /** Chunks whose chaining values are on the stack; buf[0] is the first byte of the next one. */
  private long chunks;
  private byte[] buf;
  private int bufLen;
  private int[] cvScratch;

  /** The root node, filled by {@link #computeRoot}: cv in [0, 8), block words in [8, 24). */
  private final int[] root = new int[24];
  private int rootBlockLen;
  private int rootFlags;

  TreeState(Kernel kernel, int[] key, int flags) {
    this.kernel = kernel;
    System.arraycopy(key, 0, this.key, 0, 8);
    this.flags = flags;
  }

  private TreeState(TreeState o) {
    kernel = o.kernel;
    System.arraycopy(o.key, 0, key, 0, 8);
    flags = o.flags;
    System.arraycopy(o.stack, 0, stack, 0, 8 * o.depth);
    depth = o.depth;
    chunks = o.chunks;
    buf = o.buf == null ? null : o.buf.clone();
    bufLen = o.bufLen;
  }

  TreeState copy() {
    return new TreeState(this);
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
    chunks = 0;
    bufLen = 0;
  }

  void update(byte[] in, int off, int len) {
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
      buf = new byte[kernel.bufferSize()];
    }
    // Can the kernel read this source itself? If not (a read-only heap buffer, or a direct
    // buffer for the Java kernel), every byte goes through buf.
    boolean readable = arr != null || (bb.isDirect() && kernel.supportsDirect());
    while (len > 0) {
      if (bufLen == buf.length) {
        hashWholeChunks(buf, null, 0, bufLen); // full, and more input follows
        bufLen = 0;
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
      int piece = Math.min(len, SLICE);
      int count = arr != null
          ? kernel.hashSubtrees(arr, off, piece, key, chunks, flags, cvScratch, 0)
          : kernel.hashSubtrees(bb, off, piece, key, chunks, flags, cvScratch, 0);
      long left = piece / Spec.CHUNK_LEN;
      for (int i = 0; i < count; i++) {
        long n = Spec.subtreeChunks(chunks, left);
        push(cvScratch, 8 * i);
        chunks += n;
        left -= n;
      }
      off += piece;
      len -= piece;
    }
  }

  /** Pushes the CV of the subtree that starts at chunk {@code chunks}, merging lazily first. */
  private void push(int[] cv, int cvOff) {
    mergeStack();
    System.arraycopy(cv, cvOff, stack, 8 * depth, 8);
    depth++;
  }

  /**
   * Merges the stack down to the complete subtrees left of chunk {@code chunks}: one per set
   * bit. Only valid when input is known to follow them, which is why it is done lazily.
   */
  private void mergeStack() {
    int keep = Long.bitCount(chunks);
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
    if (bufLen > Spec.CHUNK_LEN) {
      int lastStart = (bufLen - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN;
      hashWholeChunks(buf, null, 0, lastStart);
      System.arraycopy(buf, lastStart, buf, 0, bufLen - lastStart);
      bufLen -= lastStart;
    }
    mergeStack(); // the last chunk follows everything on the stack
    int[] r = root;
    System.arraycopy(key, 0, r, 0, 8);
    int blocks = bufLen == 0 ? 1 : (bufLen + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    for (int b = 0; b < blocks - 1; b++) {
      Compress.compressBytes(r, 0, buf, Spec.BLOCK_LEN * b, Spec.BLOCK_LEN, chunks,
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

  /** A detached copy of the root node, for extendable output. */
  OutputNode output() {
    computeRoot();
    return new OutputNode(Arrays.copyOfRange(root, 0, 8), Arrays.copyOfRange(root, 8, 24), rootBlockLen, rootFlags);
  }
}
