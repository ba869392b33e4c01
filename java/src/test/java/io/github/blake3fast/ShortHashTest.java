package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Native one-shots of up to one chunk (the short hashes servers make most), on every ISA this CPU
 * runs, through both a pinning and a copying kernel: through the kernel's slots
 * ({@link ChunkSlots}) and through the general one-shot (a kernel without slots, what a thread
 * that finds its slots busy takes). Against the Java kernel: every length 0..1024 in every mode
 * at odd offsets, more threads than slots at once, bad ranges.
 */
class ShortHashTest {
  private static List<NativeKernel> nativeKernels() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    List<NativeKernel> ks = new ArrayList<>();
    for (Kernel k : Engines.kernels()) {
      if (k instanceof NativeKernel) {
        NativeKernel n = (NativeKernel) k;
        ks.add(n);
        ks.add(new NativeKernel(n.isa(), n.pins(), null));
      }
    }
    return ks;
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
      for (int flags : new int[] {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL}) {
        for (int len = 0; len <= Spec.CHUNK_LEN; len++) {
          int off = rnd.nextInt(9);
          byte[] in = new byte[off + len + rnd.nextInt(9)];
          rnd.nextBytes(in);
          int[] key = flags == 0 ? Spec.iv() : new int[8];
          for (int i = 0; flags != 0 && i < 8; i++) {
            key[i] = rnd.nextInt();
          }
          byte[] out = new byte[32 + 5];
          OneShot.hash(k, in, off, len, key, flags, out, 5, 32);
          assertArrayEquals(javaHash(in, off, len, key, flags), Arrays.copyOfRange(out, 5, 37),
              Engines.label(k) + " len " + len + " flags " + flags);
        }
      }
    }
  }

  @Test
  void threadsAtOnceGetTheirOwnResults() throws Exception {
    List<NativeKernel> ks = nativeKernels();
    // More threads than slots: some meet every slot they try busy and take the general call.
    ExecutorService pool = Executors.newFixedThreadPool(96);
    try {
      List<Future<Integer>> done = new ArrayList<>();
      for (int t = 0; t < 96; t++) {
        long seed = t;
        NativeKernel k = ks.get(t % ks.size());
        done.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          byte[] in = new byte[Spec.CHUNK_LEN];
          byte[] out = new byte[32];
          for (int i = 0; i < 3000; i++) {
            rnd.nextBytes(in);
            int len = i % 8 == 0 ? rnd.nextInt(Spec.CHUNK_LEN + 1) : rnd.nextInt(65);
            OneShot.hash(k, in, 0, len, Spec.iv(), 0, out, 0, 32);
            assertArrayEquals(javaHash(in, 0, len, Spec.iv(), 0), out, Engines.label(k));
          }
          return 3000;
        }));
      }
      int total = 0;
      for (Future<Integer> f : done) {
        total += f.get();
      }
      assertEquals(96 * 3000, total);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rangesBeyondTheInputOrTheOutputAreRefused() {
    for (NativeKernel k : nativeKernels()) {
      byte[] in = new byte[1100];
      int[] iv = Spec.iv();
      assertThrows(IndexOutOfBoundsException.class, () -> k.hashWhole(in, 1000, 200, iv, 0, new byte[32], 0, 32));
      assertThrows(IndexOutOfBoundsException.class, () -> k.hashWhole(in, -1, 200, iv, 0, new byte[32], 0, 32));
      assertThrows(IndexOutOfBoundsException.class, () -> k.hashWhole(in, 0, -1, iv, 0, new byte[32], 0, 32));
      assertThrows(IndexOutOfBoundsException.class, () -> k.hashWhole(in, 0, 500, iv, 0, new byte[31], 0, 32));
      assertThrows(IndexOutOfBoundsException.class, () -> k.hashWhole(in, 0, 64, iv, 0, new byte[40], 9, 32));
    }
  }
}
