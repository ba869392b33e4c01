package io.github.blake3fast;

import java.nio.ByteBuffer;

/**
 * Direct buffers through which the native kernel reads a Java array without pinning it (see
 * {@link CriticalArrays}): Java copies a slice in ({@code ByteBuffer.put}, which the JIT turns
 * into the JVM's vectorized copy stub), and the kernel hashes the direct buffer. This copy was
 * the cheaper of the two measured against pinning (CPU time of a one-shot, PinCopyTiming): the
 * other is the library's own copy through JNI, {@code GetByteArrayRegion} in the {@code *Copy}
 * natives, which is what a thread gets when no buffer is free. Buffers of 16 KiB were slower,
 * 256 KiB no faster (figures in bench/notes/gclocker.md).
 *
 * <p>A fixed number of buffers, each allocated at its first use and kept: at most
 * {@code SLOTS * LEN} bytes of direct memory whatever the number of threads. A thread claims the
 * buffer its id picks, or the next, with one compare-and-set each and never waits. When direct
 * memory is short ({@code -XX:MaxDirectMemorySize}) a slot stays empty and its claims fail.
 */
final class CopyBuffers {
  /** Bytes per buffer: whole chunks, a slice small enough to stay in the L2 cache until hashed. */
  static final int LEN = 64 << 10;
  /** A power of two: about two per processor of a large machine, 4 MiB in all. */
  private static final int SLOTS = 64;
  private static final int FREE = 0;
  private static final int TAKEN = 1;
  /** The slot's buffer could not be allocated: never tried again. */
  private static final int NO_MEMORY = 2;

  private static final Claim[] claims = Claim.array(SLOTS);
  private static final ByteBuffer[] buffers = new ByteBuffer[SLOTS];
  /**
   * Chaining values of a subtree larger than the buffer, merged as its pieces are hashed: one
   * per level of up to 2^31 bytes in buffers of LEN, so that a hash allocates nothing for it.
   */
  static final int STACK_WORDS = 8 * 64;
  private static final int[][] stacks = new int[SLOTS][];
  /** A batch's offsets and lengths within the buffer, up to NativeBlake3.MANY_MAX messages each. */
  private static final int[][] offsets = new int[SLOTS][];
  private static final int[][] lengths = new int[SLOTS][];

  private CopyBuffers() {}

  /** A free buffer's slot, or -1: none free near this thread's, or no direct memory for it. */
  static int claim() {
    int first = (int) Thread.currentThread().getId();
    for (int i = 0; i < 2; i++) {
      int slot = (first + i) & (SLOTS - 1);
      if (claims[slot].compareAndSet(FREE, TAKEN)) {
        if (buffers[slot] != null) {
          return slot;
        }
        try {
          stacks[slot] = new int[STACK_WORDS];
          offsets[slot] = new int[NativeBlake3.MANY_MAX];
          lengths[slot] = new int[NativeBlake3.MANY_MAX];
          buffers[slot] = ByteBuffer.allocateDirect(LEN); // all published to the next claimer by the release
          return slot;
        } catch (OutOfMemoryError e) {
          claims[slot].setRelease(NO_MEMORY);
        }
      }
    }
    return -1;
  }

  /** The buffer of a slot this thread claimed. */
  static ByteBuffer buffer(int slot) {
    return buffers[slot];
  }

  /** The merge stack of a slot this thread claimed. */
  static int[] stack(int slot) {
    return stacks[slot];
  }

  /** The batch offsets of a slot this thread claimed. */
  static int[] offsets(int slot) {
    return offsets[slot];
  }

  /** The batch lengths of a slot this thread claimed. */
  static int[] lengths(int slot) {
    return lengths[slot];
  }

  static void release(int slot) {
    claims[slot].setRelease(FREE);
  }
}
