package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;

/**
 * The bulk operations the tree driver hands to an engine, stateless. Two implementations:
 * {@link JavaKernel} and {@link NativeKernel}; {@link Engine} picks one at class init.
 * Callers have checked every bound; keys are 8 words, flags the mode flag alone.
 */
interface Kernel {
  /**
   * The most input bytes the driver hands a kernel in one call: keeps a JNI critical section
   * short where the native kernel pins.
   */
  int MAX_CALL = 4 << 20;

  /** What runs, as {@link Blake3#implementation()} reports it: "java", "native-avx2", ... */
  String name();

  /** Bytes a hasher gathers before handing them over: a multiple of the chunk length. */
  int bufferSize();

  /**
   * Hashes {@code len} bytes (a positive multiple of 1024) starting at chunk {@code counter} as
   * the maximal aligned power-of-two subtrees, left to right (see {@link Spec#subtreeChunks}),
   * and writes one 8-word chaining value per subtree at {@code cvs[cvsOff]}, never ROOT.
   * {@code cvs} has room for 128 values after cvsOff. Returns the number of subtrees.
   */
  int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff);

  /**
   * As {@link #hashSubtrees} over {@code len} bytes (two whole chunks at least) that end the
   * input, the root above them: the chunks before the last as hashSubtrees splits them, then the
   * last chunk's chaining value as a subtree of its own (never ROOT). By default two calls; a
   * kernel that hashes chunks side by side takes the last chunk in the same lanes, which the
   * hasher would otherwise hash alone, one block after another.
   */
  default int hashSubtreesThenLast(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    int before = len - Spec.CHUNK_LEN;
    int count = hashSubtrees(in, off, before, key, counter, flags, cvs, cvsOff);
    return count + hashSubtrees(in, off + before, Spec.CHUNK_LEN, key, counter + before / Spec.CHUNK_LEN, flags,
        cvs, cvsOff + 8 * count);
  }

  /** The lanes {@link JavaBatch} hashes this kernel's batches of messages in: the scalar ones by default. */
  default MessageLanes messageLanes() {
    return JavaLanes.get();
  }

  /**
   * Whether the kernel reads direct buffers itself ({@link #hashSubtrees(ByteBuffer, int, int,
   * int[], long, int, int[], int)}); the Java kernels do not: the hasher copies such input
   * through its own buffer for them.
   */
  default boolean supportsDirect() {
    return false;
  }

  /** As above, from a direct buffer at absolute index {@code off}; only where {@link #supportsDirect}. */
  default int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    throw new UnsupportedOperationException("the Java kernel reads direct buffers through the hasher's buffer");
  }

  /**
   * Whether {@link #hashWhole} takes this input length and output length: one call that hashes
   * a whole input, root included. The driver ({@link OneShot}, {@link TreeState#finish}) asks
   * before it calls; the Java kernel says no, the driver then builds the tree itself.
   */
  boolean hashesWhole(int len, int outLen);

  /**
   * {@code outLen} bytes of the root output of the whole input, from position 0; only where
   * {@link #hashesWhole} said yes (else an IllegalArgumentException).
   */
  void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen);

  /**
   * Root output bytes {@code [position, position + outLen)} of the output node: chaining value
   * {@code cv}, 16 block words, block length, flags without ROOT; the counter is the block index.
   */
  void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff, int outLen);

  /**
   * The 32-byte hashes of messages {@code [from, from + count)}, message {@code i} being
   * {@code data[offsets[i], offsets[i] + lengths[i])}, to {@code out[outOff + 32 (i - from)]}
   * ({@link Batch} checked every range). This default hashes them one after the other; the
   * native kernel runs them side by side, one per SIMD lane, and the Java kernels one per lane
   * of {@link JavaLanes} ({@link JavaBatch}).
   */
  default void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    hashOneByOne(this, data, offsets, lengths, from, count, key, flags, out, outOff);
  }

  /** {@link #hashMany} as {@code kernel}'s one-shots, one message after the other. */
  static void hashOneByOne(Kernel kernel, byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key,
      int flags, byte[] out, int outOff) {
    for (int i = from; i < from + count; i++) {
      OneShot.hash(kernel, data, offsets[i], lengths[i], key, flags, out, outOff + Spec.OUT_LEN * (i - from),
          Spec.OUT_LEN);
    }
  }

  /** {@link #hashMapped}: nothing was done; read the range instead. */
  int MAPPED_UNAVAILABLE = -1;
  /** {@link #hashMapped}: reading the mapping failed (SIGBUS): the file shrank or its storage failed. */
  int MAPPED_FAULT = -2;

  /**
   * As {@link #hashSubtrees}, for bytes {@code [pos, pos + len)} of the open file {@code fd},
   * read where they are, through a memory mapping, instead of copied into a buffer. The range
   * lies within {@code size}, the file's length when it was opened. Returns the number of
   * subtrees, or {@link #MAPPED_UNAVAILABLE} (what the Java kernel always says) or
   * {@link #MAPPED_FAULT}, with nothing stored.
   */
  default int hashMapped(FileDescriptor fd, long pos, int len, long size, int[] key, long counter, int flags,
      int[] cvs, int cvsOff) {
    return MAPPED_UNAVAILABLE;
  }

  /**
   * The non-root chaining value of each of {@code groups} whole groups of {@code 2^groupLog}
   * chunks, the first at chunk {@code counter} (a multiple of the group size), 32 bytes each
   * into {@code out[outOff..]}: the leaves of a Bao tree. This default asks
   * {@link #hashSubtrees} once per group; the native kernel hashes many groups per call.
   */
  default void groupCvs(byte[] in, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    int[] cv = new int[8 * 128];
    int len = Spec.CHUNK_LEN << groupLog;
    for (int g = 0; g < groups; g++) {
      hashSubtrees(in, off + g * len, len, key, counter + ((long) g << groupLog), flags, cv, 0);
      ChainingValues.putWords(cv, 8, out, outOff + Spec.OUT_LEN * g);
    }
  }

  /** As above, from a direct buffer at absolute index {@code off}; only if {@link #supportsDirect}. */
  default void groupCvs(ByteBuffer direct, int off, int groups, int groupLog, int[] key, long counter, int flags,
      byte[] out, int outOff) {
    int[] cv = new int[8 * 128];
    int len = Spec.CHUNK_LEN << groupLog;
    for (int g = 0; g < groups; g++) {
      hashSubtrees(direct, off + g * len, len, key, counter + ((long) g << groupLog), flags, cv, 0);
      ChainingValues.putWords(cv, 8, out, outOff + Spec.OUT_LEN * g);
    }
  }

  /**
   * The non-root chaining values of {@code count} parent nodes, each a 64-byte block at
   * {@code in[off + 64 i]}, 32 bytes each into {@code out[outOff..]}; {@code out} may be
   * {@code in} with {@code outOff <= off} (a tree level reduced in place). This default
   * compresses them one after the other in Java; the native kernel many per call.
   */
  default void parentCvs(byte[] in, int off, int count, int[] key, int flags, byte[] out, int outOff) {
    int[] block = new int[16];
    for (int i = 0; i < count; i++) {
      ChainingValues.words(in, off + Spec.BLOCK_LEN * i, block, 0);
      ChainingValues.words(in, off + Spec.BLOCK_LEN * i + Spec.OUT_LEN, block, 8);
      Compress.parentCv(key, flags, block, 0, block, 0);
      ChainingValues.putWords(block, 8, out, outOff + Spec.OUT_LEN * i);
    }
  }
}
