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
   * The most input bytes the driver hands a kernel in one call, and the most output bytes a
   * kernel writes in one native call: keeps a JNI critical section short.
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

  /** As above, from a direct buffer at absolute index {@code off}; false if unsupported. */
  boolean supportsDirect();

  int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff);

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
   * native kernel runs them side by side, one per SIMD lane.
   */
  default void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    for (int i = from; i < from + count; i++) {
      OneShot.hash(this, data, offsets[i], lengths[i], key, flags, out, outOff + Spec.OUT_LEN * (i - from),
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
}
