package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The native short-hash path ({@link ShortHashSlots}: inputs of up to one chunk, 32-byte result),
 * every ISA this CPU runs, each also with the fastest one-block compression the library measured
 * (NativeBlake3.FASTEST_BLOCK), against the Java kernel: every length 0..1024 in every mode at odd
 * offsets, a taken slot (the hash takes the pinning call instead), threads that share slots, bad ranges.
 */
class ShortHashTest {
  private static List<NativeKernel> nativeKernels() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    List<NativeKernel> ks = new ArrayList<>();
    for (Kernel k : ReliabilityKit.kernels()) {
      if (k instanceof NativeKernel) {
        ks.add((NativeKernel) k);
      }
    }
    // And each ISA with its short hashes on the fastest one-block compression (NativeBlake3.FASTEST_BLOCK).
    int supported = NativeBlake3.supportedIsas();
    for (int isa = 0; isa < NativeBlake3.ISA_NAMES.length; isa++) {
      if ((supported & (1 << isa)) != 0 && NativeBlake3.selectIsa(isa) == isa) {
        ks.add(new NativeKernel(isa, CriticalArrays.PIN, true));
      }
    }
    return ks;
  }

  /** Random bytes, every value but '?' (0x3F), its neighbours and high bytes among them. */
  private static byte[] bytesButQuestionMarks(SplittableRandom rnd, int len) {
    byte[] in = new byte[len];
    for (int i = 0; i < len; i++) {
      int b = rnd.nextInt(255);
      in[i] = (byte) (b >= '?' ? b + 1 : b);
    }
    return in;
  }

  private static byte[] javaHash(byte[] in, int off, int len, int[] key, int flags) {
    byte[] out = new byte[32];
    OneShot.hash(JavaKernel.INSTANCE, in, off, len, key, flags, out, 0, 32);
    return out;
  }

  @Test
  void everyLengthModeAndOffsetMatchesJava() {
    SplittableRandom rnd = new SplittableRandom(64);
    for (NativeKernel k : nativeKernels()) {
      assertNotNull(k.slots, k.name());
      ShortHashSlots.makeView(); // "viewing" views from its first hash
      ShortHashSlots viewing = ShortHashSlots.create(0);
      ShortHashSlots copying = ShortHashSlots.create(Integer.MAX_VALUE);
      ShortHashSlots switching = ShortHashSlots.create(100);
      for (int flags : new int[] {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL}) {
        for (int len = 0; len <= ShortHashSlots.MAX_LEN; len++) {
          int off = rnd.nextInt(9);
          byte[] in = new byte[off + len + rnd.nextInt(9)];
          rnd.nextBytes(in);
          int[] key = flags == 0 ? Spec.iv() : new int[8];
          for (int i = 0; flags != 0 && i < 8; i++) {
            key[i] = rnd.nextInt();
          }
          byte[] want = javaHash(in, off, len, key, flags);
          // The kernel's slots, slots that read the block through the array view from the
          // start, slots that hash through the copying call throughout (ShortHashSlots.VIEW_AFTER),
          // slots that switch within this loop; then the kernel's one-shot (the same path).
          for (ShortHashSlots slots : new ShortHashSlots[] {k.slots, viewing, copying, switching}) {
            byte[] out = new byte[32 + 5];
            assertTrue(slots.hash(k.isa(), in, off, len, key, flags, out, 5), k.name());
            assertArrayEquals(want, java.util.Arrays.copyOfRange(out, 5, 37), k.name() + " len " + len + " flags " + flags);
          }
          byte[] viaKernel = new byte[32];
          OneShot.hash(k, in, off, len, key, flags, viaKernel, 0, 32);
          assertArrayEquals(want, viaKernel, k.name() + " len " + len + " flags " + flags);
        }
      }
    }
  }

  /**
   * A string's bytes ({@link ShortHashSlots#hashText}): hashed as {@link #hash} does, unless one of
   * them is a '?', at any position of every length, on both ways of reading the block.
   */
  @Test
  void textIsHashedUnlessItHoldsAQuestionMark() {
    SplittableRandom rnd = new SplittableRandom(63);
    ShortHashSlots.makeView();
    for (NativeKernel k : nativeKernels()) {
      for (ShortHashSlots slots : new ShortHashSlots[] {k.slots, ShortHashSlots.create(0), ShortHashSlots.create(Integer.MAX_VALUE)}) {
        for (int len = 0; len <= 64; len++) {
          byte[] in = bytesButQuestionMarks(rnd, len);
          byte[] out = new byte[32];
          assertEquals(ShortHashSlots.HASHED, slots.hashText(k.isa(), in, out), k.name() + " len " + len);
          assertArrayEquals(javaHash(in, 0, len, Spec.iv(), 0), out, k.name() + " len " + len);
          for (int at = 0; at < len; at++) {
            byte[] marked = in.clone();
            marked[at] = '?';
            byte[] none = new byte[32];
            assertEquals(ShortHashSlots.QUESTION_MARK, slots.hashText(k.isa(), marked, none), "len " + len + " at " + at);
            assertArrayEquals(new byte[32], none, "nothing written");
          }
        }
      }
      int slot = ShortHashSlots.slotOf(Thread.currentThread());
      assertTrue(k.slots.claim(slot));
      try {
        assertEquals(ShortHashSlots.SLOT_TAKEN, k.slots.hashText(k.isa(), new byte[3], new byte[32]));
        assertFalse(k.hashText(new byte[3], new byte[32]), "the kernel falls back when the slot is taken");
      } finally {
        k.slots.release(slot);
      }
    }
  }

  /**
   * A string's bytes of more than a block (the kernel's one-shot calls, pinned and copied, test
   * them in C): hashed unless one is a '?'; more than a chunk is not the kernel's call to make.
   */
  @Test
  void textUpToAChunkIsHashedUnlessItHoldsAQuestionMark() {
    nativeKernels();
    SplittableRandom rnd = new SplittableRandom(1024);
    for (Kernel kernel : Engines.kernels()) {
      if (!(kernel instanceof NativeKernel)) {
        continue;
      }
      for (int len : new int[] {65, 100, 999, 1023, 1024}) {
        byte[] in = bytesButQuestionMarks(rnd, len);
        byte[] out = new byte[32];
        String what = Engines.label(kernel) + " len " + len;
        assertTrue(kernel.hashText(in, out), what);
        assertArrayEquals(javaHash(in, 0, len, Spec.iv(), 0), out, what);
        in[rnd.nextInt(len)] = '?';
        byte[] none = new byte[32];
        assertFalse(kernel.hashText(in, none), what + " with a '?'");
        assertArrayEquals(new byte[32], none, "nothing written");
      }
      assertFalse(kernel.hashText(new byte[1025], new byte[32]), "more than a chunk is not this call's");
    }
  }

  /**
   * Slots due to read blocks through the array view read them byte by byte until it is ready, which a
   * thread of its own makes (made in the caller's thread, it stalled one hash 8-9 ms): right
   * hashes throughout, and the view ready soon after the first hash that wants it.
   */
  @Test
  void theViewIsMadeWhileTheSlotsReadBytes() throws InterruptedException {
    List<NativeKernel> ks = nativeKernels();
    NativeKernel k = ks.get(0);
    ShortHashSlots slots = ShortHashSlots.create(0);
    byte[] in = "made on its own thread".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    byte[] want = javaHash(in, 0, in.length, Spec.iv(), 0);
    long end = System.nanoTime() + 20_000_000_000L;
    do {
      byte[] out = new byte[32];
      assertTrue(slots.hash(k.isa(), in, 0, in.length, Spec.iv(), 0, out, 0));
      assertArrayEquals(want, out);
      Thread.sleep(1);
    } while (!ShortHashSlots.viewReady() && System.nanoTime() < end);
    assertTrue(ShortHashSlots.viewReady(), "the array view was made");
    byte[] out = new byte[32];
    assertTrue(slots.hash(k.isa(), in, 0, in.length, Spec.iv(), 0, out, 0));
    assertArrayEquals(want, out, "and read through");
  }

  @Test
  void aTakenSlotFallsBackToThePinningCall() {
    ShortHashSlots.makeView();
    for (NativeKernel k : nativeKernels()) {
      int slot = ShortHashSlots.slotOf(Thread.currentThread());
      ShortHashSlots viewing = ShortHashSlots.create(0); // past the copying calls, which take no slot
      assertTrue(viewing.claim(slot));
      assertTrue(k.slots.claim(slot));
      try {
        for (int len : new int[] {5, 100, 500, 1024}) { // one block, two, a chunk copied into the slot
          byte[] in = new byte[len];
          java.util.Arrays.fill(in, (byte) len);
          byte[] out = new byte[32];
          assertFalse(viewing.hash(k.isa(), in, 0, len, Spec.iv(), 0, out, 0), "a taken slot is not used");
          assertArrayEquals(new byte[32], out, "nothing written");
          OneShot.hash(k, in, 0, len, Spec.iv(), 0, out, 0, 32);
          assertArrayEquals(javaHash(in, 0, len, Spec.iv(), 0), out, k.name() + " len " + len);
        }
      } finally {
        k.slots.release(slot);
        viewing.release(slot);
      }
      assertTrue(k.slots.claim(slot), "released");
      k.slots.release(slot);
    }
  }

  @Test
  void theFirstShortHashesTakeNoSlot() {
    for (NativeKernel k : nativeKernels()) {
      ShortHashSlots copying = ShortHashSlots.create(Integer.MAX_VALUE);
      int slot = ShortHashSlots.slotOf(Thread.currentThread());
      assertTrue(copying.claim(slot));
      try {
        byte[] in = "copied".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = new byte[32];
        assertTrue(copying.hash(k.isa(), in, 0, in.length, Spec.iv(), 0, out, 0), "the copying call needs no slot");
        assertArrayEquals(javaHash(in, 0, in.length, Spec.iv(), 0), out, k.name());
        // A string's bytes are tested for '?' in the slot: its hash needs the slot.
        assertEquals(ShortHashSlots.SLOT_TAKEN, copying.hashText(k.isa(), in, new byte[32]));
        // So does an input of more than two blocks, copied into it.
        byte[] out3 = new byte[32];
        assertFalse(copying.hash(k.isa(), new byte[129], 0, 129, Spec.iv(), 0, out3, 0), "a chunk needs the slot");
        assertArrayEquals(new byte[32], out3, "nothing written");
      } finally {
        copying.release(slot);
      }
    }
  }

  @Test
  void threadsSharingSlotsGetTheirOwnResults() throws Exception {
    List<NativeKernel> ks = nativeKernels();
    NativeKernel k = ks.get(ks.size() - 1);
    // More threads than slots: some pairs share a slot, and some calls meet it taken.
    ExecutorService pool = Executors.newFixedThreadPool(96);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 96; t++) {
        long seed = t;
        done.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          byte[] in = new byte[Spec.CHUNK_LEN];
          byte[] out = new byte[32];
          for (int i = 0; i < 3000; i++) {
            rnd.nextBytes(in);
            // Mostly one block; a chunk now and then, whose copy into the slot a sharer must not see.
            int len = i % 8 == 0 ? rnd.nextInt(Spec.CHUNK_LEN + 1) : rnd.nextInt(65);
            OneShot.hash(k, in, 0, len, Spec.iv(), 0, out, 0, 32);
            assertArrayEquals(javaHash(in, 0, len, Spec.iv(), 0), out);
          }
          return 3000;
        }));
      }
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get();
      }
      assertTrue(total == 96 * 3000);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rangesBeyondAChunkTheInputOrTheOutputAreRefused() {
    for (NativeKernel k : nativeKernels()) {
      byte[] in = new byte[1100];
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, 0, 1025, Spec.iv(), 0, new byte[32], 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, 1000, 200, Spec.iv(), 0, new byte[32], 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, -1, 200, Spec.iv(), 0, new byte[32], 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, 0, 500, Spec.iv(), 0, new byte[31], 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hashText(k.isa(), new byte[65], new byte[32]));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, 0, -1, Spec.iv(), 0, new byte[32], 0));
      assertThrows(IndexOutOfBoundsException.class, () -> k.slots.hash(k.isa(), in, 0, 64, Spec.iv(), 0, new byte[40], 9));
      int slot = ShortHashSlots.slotOf(Thread.currentThread());
      assertTrue(k.slots.claim(slot), "a refused call leaves its slot free");
      k.slots.release(slot);
    }
  }
}
