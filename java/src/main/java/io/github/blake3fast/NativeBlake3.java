package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;

/**
 * The native library's entry points (native/JNI.md is the contract). Registered by the
 * library's JNI_OnLoad, so relocating this class does not break the binding. Callers check
 * every bound first: the C side trusts them. One method per operation and kind of input (an
 * array or a direct buffer); the numbers crossing are the ISA, BLAKE3's own flags and sizes.
 *
 * <p>A {@code byte[]} input of up to {@link #COPY_LEN} bytes is copied by the library, a longer
 * one pinned (a JNI critical section): {@link NativeKernel} sends longer ones only where the
 * collector pins regions ({@link CriticalArrays}). Outputs are copied out, never pinned.
 */
final class NativeBlake3 {
  private NativeBlake3() {}

  /** The contract version this class speaks; a library answering otherwise is refused. */
  static final int ABI_VERSION = 10;

  /** Array inputs up to this many bytes are copied by the library, longer ones pinned (B3J_COPY_LEN). */
  static final int COPY_LEN = 64 << 10;

  /** The most values one {@link #hashSubtrees} call returns (B3J_MAX_SUBTREES). */
  static final int MAX_SUBTREES = 128;

  /** {@link #hashSubtrees}'s {@code maxLog} for subtrees of any size. */
  static final int ANY_SIZE = 63;

  /** The most messages one {@link #hashMany} call takes (B3J_BATCH). */
  static final int MANY_MAX = 256;

  /** The most parents one {@link #hashParents} call takes (B3J_PARENTS: 16 KiB of blocks). */
  static final int PARENTS_MAX = 256;

  /**
   * ISA names as -Dblake3.isa spells them, indexed by ISA number: the list BLAKE3_ISAS in
   * native/src/blake3_impl.h, in its order (IsaNamesTest compares the two).
   */
  static final String[] ISA_NAMES = {"portable", "sse2", "sse41", "avx2", "avx512", "neon", "vsx", "rvv", "lsx", "vx"};

  static int isaNumber(String name) {
    for (int i = 0; i < ISA_NAMES.length; i++) {
      if (ISA_NAMES[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  static native int abiVersion();

  /** Bit n set: ISA n can run here. */
  static native int supportedIsas();

  /** The best ISA ranked at or below {@code cap} (no cap if negative); -1 if cap cannot run here. */
  static native int selectIsa(int cap);

  /**
   * Hashes {@code len} bytes (whole chunks) from chunk {@code counter} as the maximal aligned
   * subtrees of at most {@code 2^maxLog} chunks ({@link #ANY_SIZE}: any), one 8-word chaining
   * value each into {@code cvs[cvsOff..]}; returns how many (at most {@link #MAX_SUBTREES}, or an
   * IllegalArgumentException before any hashing).
   */
  static native int hashSubtrees(int isa, byte[] in, int off, int len, int[] key, long counter, int flags, int maxLog,
      int[] cvs, int cvsOff);

  static native int hashSubtreesDirect(int isa, ByteBuffer in, int off, int len, int[] key, long counter, int flags,
      int maxLog, int[] cvs, int cvsOff);

  /**
   * {@code outLen} bytes of the root output of {@code in[off, off + len)} from position
   * {@code seek}, into {@code out[outOff..]}; a null key is the IV.
   */
  static native void hashOneShot(int isa, byte[] in, int off, int len, int[] key, int flags, long seek, byte[] out,
      int outOff, int outLen);

  /**
   * The 32-byte root hash of one chunk of {@code len} (0..1024) bytes at native memory
   * {@code at}, written over its first 32 bytes (see {@link ChunkSlots}); a null key is the IV.
   * An IllegalArgumentException for a len outside 0..1024 or a zero address.
   */
  static native void hashChunkAt(int isa, long at, int len, int[] key, int flags);

  /** Root output bytes of the node (cv 8 words, block 16 words, flags without ROOT) from {@code position}. */
  static native void rootOutput(int isa, int[] cv, int[] block, int blockLen, int flags, long position, byte[] out,
      int outOff, int outLen);

  /**
   * {@link #hashSubtrees} (any size) over bytes {@code [pos, pos + len)} of the open file
   * {@code fd}, read through a memory mapping under a SIGBUS guard (native/src/blake3_mapped.c):
   * the number of subtrees, or {@link Kernel#MAPPED_UNAVAILABLE} or {@link Kernel#MAPPED_FAULT}
   * (the values of B3M_UNAVAILABLE and B3M_FAULT) with nothing stored.
   */
  static native int hashMapped(int isa, FileDescriptor fd, long pos, int len, int[] key, long counter, int flags,
      int[] cvs, int cvsOff);

  /**
   * The 32-byte hashes of messages {@code [from, from + count)} ({@code count <= MANY_MAX}),
   * message {@code i} being {@code data[offsets[i], offsets[i] + lengths[i])}, to
   * {@code out[outOff + 32 (i - from)]}: blake3_hash_batch. The span of data the messages lie in
   * is one input, copied or pinned by its length.
   */
  static native void hashMany(int isa, byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key,
      int flags, byte[] out, int outOff);

  /**
   * The non-root chaining values of {@code count} ({@code <= PARENTS_MAX}) parent nodes, the
   * 64-byte blocks at {@code in[off + 64 i]}, 32 bytes each to {@code out[outOff + 32 i]}. Every
   * block is read before any value is written: {@code out} may overlap {@code in}.
   */
  static native void hashParents(int isa, byte[] in, int off, int count, int[] key, int flags, byte[] out,
      int outOff);

  /** The address of a direct buffer's first byte; 0 and an IllegalArgumentException for any other. */
  static native long address(ByteBuffer direct);
}
