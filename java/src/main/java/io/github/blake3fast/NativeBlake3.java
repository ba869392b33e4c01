package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;

/**
 * The native library's entry points (native/JNI.md is the contract). Registered by the
 * library's JNI_OnLoad, so relocating this class does not break the binding. Callers check
 * every bound first: the C side trusts them.
 */
final class NativeBlake3 {
  private NativeBlake3() {}

  /** The contract version this class speaks; a library answering otherwise is refused. */
  static final int ABI_VERSION = 9;

  /**
   * Added to an isa (NativeKernel does it for inputs of at most one chunk): use whichever
   * supported kernel compresses one block fastest here, timed by the glue at the 2^10th, 2^14th,
   * 2^18th and 2^22nd such call, isa's own kernel running until the first (B3J_FASTEST_BLOCK in
   * blake3_jni.c). A chunk is one dependent chain, which wide SIMD does not shorten: on AMD Zen 5
   * the portable C runs it a fifth faster than AVX-512.
   */
  static final int FASTEST_BLOCK = 0x100;

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

  static native int supportedIsas();

  static native int selectIsa(int cap);

  static native int hashSubtrees(int isa, byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff);

  static native int hashSubtreesDirect(int isa, ByteBuffer in, int off, int len, int[] key, long counter, int flags,
      int[] cvs, int cvsOff);

  /**
   * {@code outLen} bytes of the root output of {@code in[off, off + len)} from position
   * {@code seek}; 0, or 1 if {@code flags} holds {@link #UNLESS_QUESTION_MARK} and a byte of the
   * input is {@code '?'} (nothing written). {@link #hashOneShotDirect} alike.
   */
  static native int hashOneShot(int isa, byte[] in, int off, int len, int[] key, int flags, long seek, byte[] out,
      int outOff, int outLen);

  static native int hashOneShotDirect(int isa, ByteBuffer in, int off, int len, int[] key, int flags, long seek,
      byte[] out, int outOff, int outLen);

  static native void rootOutput(int isa, int[] cv, int[] block, int blockLen, int flags, long position, byte[] out,
      int outOff, int outLen);

  /**
   * {@link #hashSubtrees} without pinning {@code in}: copied through a bounded native buffer,
   * a slice at a time (see {@link CriticalArrays}).
   */
  static native int hashSubtreesCopy(int isa, byte[] in, int off, int len, int[] key, long counter, int flags,
      int[] cvs, int cvsOff);

  /**
   * {@link #hashOneShot} without pinning: any input length, {@code outLen <= COPY_OUT} (else an
   * IllegalArgumentException, as for {@link #UNLESS_QUESTION_MARK} among the flags).
   */
  static native void hashOneShotCopy(int isa, byte[] in, int off, int len, int[] key, int flags, long seek,
      byte[] out, int outOff, int outLen);

  /** {@link #rootOutput} without pinning {@code out}. */
  static native void rootOutputCopy(int isa, int[] cv, int[] block, int blockLen, int flags, long position,
      byte[] out, int outOff, int outLen);

  /** The most output bytes {@link #hashOneShotCopy} writes (B3J_COPY_OUT). */
  static final int COPY_OUT = 64;

  /** The address of a direct buffer's first byte (0 if it is not direct). */
  static native long directAddress(ByteBuffer buffer);

  /**
   * The root hash of one block of {@code len} (0..64) bytes, as eight little-endian words
   * (zero past len), under the key {@code k0..k3} (key words 2i and 2i+1 in the low and high
   * half of ki); the 32 bytes go to native memory at {@code out}: see {@link ShortHashSlots}.
   * With {@link #FASTEST_BLOCK} added to {@code isa}, the kernel whose one-block compression the
   * library measured fastest on this CPU (see {@link #FASTEST_BLOCK}) does it instead.
   * With {@link #UNLESS_QUESTION_MARK} added to {@code flags}, a block holding a {@code '?'} is
   * not hashed.
   *
   * @return 0, or 1 if {@code flags} asked {@link #UNLESS_QUESTION_MARK} and a byte was {@code '?'}
   *     (nothing written)
   */
  static native int hashBlock(int isa, long m0, long m1, long m2, long m3, long m4, long m5, long m6, long m7,
      int len, long k0, long k1, long k2, long k3, int flags, long out);

  /**
   * {@link #hashBlock} for a chunk of two blocks, {@code len} 65..128 bytes: the first block's
   * words in {@code a0..a7}, the second's ({@code len - 64} bytes, zero past them) in
   * {@code b0..b7}. No {@link #UNLESS_QUESTION_MARK}: strings take hashBlock up to one block.
   *
   * @return 0
   * @throws IllegalArgumentException for a {@code len} outside 65..128 or flags above the BLAKE3 ones
   */
  static native int hashTwoBlocks(int isa, long a0, long a1, long a2, long a3, long a4, long a5, long a6, long a7,
      long b0, long b1, long b2, long b3, long b4, long b5, long b6, long b7, int len, long k0, long k1, long k2,
      long k3, int flags, long out);

  /**
   * The root hash of one chunk of {@code len} (0..1024) bytes at native memory {@code at}, written
   * over its first 32 bytes; key and flags as {@link #hashBlock} takes them (no
   * {@link #UNLESS_QUESTION_MARK}). {@link ShortHashSlots} copies inputs of 129..1024 bytes into
   * its slot and calls this: no call back into the JVM, unlike the general one-shot.
   *
   * @return 0
   * @throws IllegalArgumentException for a {@code len} outside 0..1024, flags above the BLAKE3 ones
   *     or a zero address
   */
  static native int hashChunkAt(int isa, int len, long k0, long k1, long k2, long k3, int flags, long at);

  /**
   * Added to the flags of {@link #hashBlock}, {@link #hashOneShot} and {@link #hashOneShotDirect}
   * (above the BLAKE3 flags): hash nothing and return 1 if a byte of the input is {@code '?'},
   * the test {@link Utf8} needs of a string's UTF-8 bytes, made in C where the bytes are read
   * anyway (a vector compare of the block, memchr), faster than a pass of Java's own.
   */
  static final int UNLESS_QUESTION_MARK = 0x100;

  /**
   * {@link #hashSubtrees} over bytes {@code [pos, pos + len)} of the open file {@code fd},
   * read through a memory mapping under a SIGBUS guard (native/src/blake3_mapped.c): the number
   * of subtrees, or {@link Kernel#MAPPED_UNAVAILABLE} or {@link Kernel#MAPPED_FAULT} (the
   * values of B3M_UNAVAILABLE and B3M_FAULT) with nothing stored.
   */
  static native int hashMapped(int isa, FileDescriptor fd, long pos, int len, int[] key, long counter, int flags,
      int[] cvs, int cvsOff);

  /** The most messages one {@link #hashMany} or {@link #hashManyDirect} call takes (B3J_BATCH). */
  static final int MANY_MAX = 256;

  /**
   * The 32-byte hashes of messages {@code [from, from + count)} ({@code count <= MANY_MAX}),
   * message {@code i} being {@code data[offsets[i], offsets[i] + lengths[i])}, to
   * {@code out[outOff + 32 (i - from)]}: blake3_hash_batch. Pins {@code data}; copies the rest.
   */
  static native void hashMany(int isa, byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key,
      int flags, byte[] out, int outOff);

  /** {@link #hashMany} with the messages in a direct buffer (offsets from its start): no pin. */
  static native void hashManyDirect(int isa, ByteBuffer data, int[] offsets, int[] lengths, int from, int count,
      int[] key, int flags, byte[] out, int outOff);

  /**
   * The non-root chaining value of each of {@code groups} whole groups of 2^groupLog chunks,
   * the first at chunk {@code counter}, 32 bytes each into {@code out[outOff..]} (Bao trees).
   */
  static native void hashGroupCvs(int isa, byte[] in, int off, int groups, int groupLog, int[] key, long counter,
      int flags, byte[] out, int outOff);

  /** As {@link #hashGroupCvs}, direct buffers in and out: no critical section. */
  static native void hashGroupCvsDirect(int isa, ByteBuffer in, int off, int groups, int groupLog, int[] key,
      long counter, int flags, ByteBuffer out, int outOff);

  /** The non-root chaining values of {@code count} 64-byte parent blocks; {@code out} may be {@code in}. */
  static native void hashParentCvs(int isa, byte[] in, int off, int count, int[] key, int flags, byte[] out,
      int outOff);

  /** As {@link #hashParentCvs}, direct buffers in and out. */
  static native void hashParentCvsDirect(int isa, ByteBuffer in, int off, int count, int[] key, int flags,
      ByteBuffer out, int outOff);
}
