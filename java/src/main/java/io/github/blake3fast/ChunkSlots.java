package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Native memory that the native kernel's one-shots of up to one chunk with a 32-byte result go
 * through: the input is copied into a slot, one call that takes only numbers hashes it there
 * ({@link NativeBlake3#hashChunkAt}), and the hash is read back. The general one-shot copies the
 * array in and the hash out through two calls back into the JVM, each about a tenth of a 64-byte
 * hash: 64 bytes took 101 ns through a slot against 118 ns, 128 bytes 164 against 177, 1 KiB
 * 1051 against 1064 (AMD EPYC Zen 4, JDK 17; bench/notes/simple-core.md).
 *
 * <p>A fixed number of slots in one direct buffer, made with the kernel: a thread claims the
 * slot its id picks, or one of the next few, with one compare-and-set each, and never waits; one
 * that finds them all busy takes the general one-shot, the same kernel through the array.
 */
final class ChunkSlots {
  /** Slots, a power of two: enough that threads hashing at once rarely meet on one. */
  private static final int SLOTS = 64;
  /** A chunk in, the hash out over its start; each slot a cache line apart from the next. */
  private static final int SLOT_LEN = Spec.CHUNK_LEN + 64;
  /** Slots a thread tries before it takes the general call. */
  private static final int TRIES = 4;

  /** Referenced for as long as the kernel lives: the library writes into it. */
  private final ByteBuffer memory;
  private final long address;
  private final Claim[] claims = new Claim[SLOTS];

  private ChunkSlots(ByteBuffer memory, long address) {
    this.memory = memory;
    this.address = address;
    for (int i = 0; i < SLOTS; i++) {
      claims[i] = new Claim();
    }
  }

  /**
   * A slot's claim word: 1 while a thread uses the slot. An AtomicInteger, not an element of an
   * AtomicIntegerArray, whose VarHandle costs a fresh JVM milliseconds to make (bench/notes/
   * startup.md); padded so that the claims of neighbouring slots, taken by different threads, do
   * not share a cache line (the JVM lays a subclass's fields out after its superclass's).
   */
  @SuppressWarnings("unused")
  private static final class Claim extends AtomicInteger {
    private static final long serialVersionUID = 1L;

    private long pad1, pad2, pad3, pad4, pad5, pad6, pad7;
  }

  /** The slots, or null when no direct memory can be had for them: then every one-shot is general. */
  static ChunkSlots create() {
    try {
      ByteBuffer memory = ByteBuffer.allocateDirect(SLOTS * SLOT_LEN + 63).alignedSlice(64);
      return new ChunkSlots(memory, NativeBlake3.address(memory));
    } catch (OutOfMemoryError e) {
      return null;
    }
  }

  /**
   * Writes the 32-byte hash of {@code in[off, off + len)} ({@code len <= 1024}, ranges checked by
   * the caller) to {@code out[outOff..]} and returns true; false, having done nothing, when every
   * slot tried is busy.
   */
  boolean hash(int isa, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    int first = (int) Thread.currentThread().getId();
    for (int i = 0; i < TRIES; i++) {
      int slot = (first + i) & (SLOTS - 1);
      Claim claim = claims[slot];
      if (claim.compareAndSet(0, 1)) {
        try {
          int at = slot * SLOT_LEN;
          memory.put(at, in, off, len);
          NativeBlake3.hashChunkAt(isa, address + at, len, key, flags);
          memory.get(at, out, outOff, Spec.OUT_LEN);
        } finally {
          claim.setRelease(0);
        }
        return true;
      }
    }
    return false;
  }
}
