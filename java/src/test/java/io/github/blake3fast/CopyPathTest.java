package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native kernel against the Java engine at the lengths where the way the library reaches an
 * array changes: the 16 KiB stack copy, the malloc'd copy up to 64 KiB, pinning above it (a
 * kernel that pins) or calls cut at 64 KiB and merged (one that never pins), subtrees larger than
 * a call, outputs longer than the stack's 64 bytes and than a 64 KiB slice.
 */
@Tag("engine")
class CopyPathTest {
  private static final int[] LENGTHS = {0, 1, 64, 65, 1023, 1024, 1025, 16383, 16384, 16385, 65535, 65536, 65537,
      (128 << 10) + 5, (600 << 10) + 3, (1 << 20) - 1, (4 << 20) + 1};

  private static NativeKernel[] kernels() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "no native kernel");
    int isa = ((NativeKernel) Engine.kernel()).isa();
    return new NativeKernel[] {new NativeKernel(isa, false), new NativeKernel(isa, true)};
  }

  @Test
  void oneShotMatchesTheJavaEngine() {
    for (NativeKernel k : kernels()) {
      oneShot(k);
    }
  }

  private static void oneShot(NativeKernel k) {
    byte[] data = new byte[(4 << 20) + 10];
    new SplittableRandom(61).nextBytes(data);
    int[] key = Spec.keyWords(Arrays.copyOf(data, 32));
    for (int len : LENGTHS) {
      for (int outLen : new int[] {32, 64, 65, 1000, (64 << 10) + 65}) {
        for (int[] kw : new int[][] {Spec.iv(), key}) {
          int flags = kw == key ? Spec.KEYED_HASH : 0;
          byte[] want = new byte[outLen];
          OneShot.hash(JavaKernel.INSTANCE, data, 7, len, kw, flags, want, 0, outLen);
          byte[] got = new byte[outLen + 3];
          OneShot.hash(k, data, 7, len, kw, flags, got, 3, outLen);
          assertArrayEquals(want, Arrays.copyOfRange(got, 3, 3 + outLen),
              Engines.label(k) + ": len " + len + " out " + outLen);
        }
      }
    }
  }

  @Test
  void subtreesMatchTheJavaEngine() {
    for (NativeKernel k : kernels()) {
      subtrees(k);
    }
  }

  private static void subtrees(NativeKernel k) {
    byte[] data = new byte[(3 << 20) + 100];
    new SplittableRandom(62).nextBytes(data);
    SplittableRandom r = new SplittableRandom(63);
    long[] counters = {0, 1, 64, 96, 1024, 4096, (1L << 32) - 3, (1L << 40)};
    for (long counter : counters) {
      for (int chunks : new int[] {1, 7, 8, 9, 63, 64, 65, 127, 128, 513, 2048, 3072}) {
        int off = r.nextInt(100);
        int[] want = new int[8 * 128];
        int[] got = new int[8 * 128];
        int n = JavaKernel.INSTANCE.hashSubtrees(data, off, chunks * 1024, Spec.iv(), counter, 0, want, 0);
        assertEquals(n, k.hashSubtrees(data, off, chunks * 1024, Spec.iv(), counter, 0, got, 0));
        // The Java kernel uses the array past its values as a work area: compare the values only.
        int[] values = Arrays.copyOf(want, 8 * n);
        assertArrayEquals(values, Arrays.copyOf(got, 8 * n), Engines.label(k) + ": " + chunks + " chunks at " + counter);
      }
    }
  }
}
