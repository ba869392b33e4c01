package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The native kernel's copying paths (no pinning) against the Java engine, at the lengths where
 * they change course: the one-block slots, the 8 KiB stack buffer of the C copy, the 64 KiB copy
 * buffers, subtrees larger than a buffer, and the C one-shot's own tree past 64 KiB. Both the
 * Java-side copy (pooled direct buffers) and the C-side copy (GetByteArrayRegion, what a thread
 * gets when no buffer is free) are run.
 */
@Tag("engine")
class CopyPathTest {
  private static final int[] LENGTHS = {0, 1, 64, 65, 1023, 1024, 1025, 8191, 8192, 8193, 65535, 65536, 65537,
      (128 << 10) + 5, (600 << 10) + 3, (1 << 20) - 1, (4 << 20) + 1};

  private static NativeKernel copying() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "no native kernel");
    return new NativeKernel(((NativeKernel) Engine.kernel()).isa(), false);
  }

  @Test
  void oneShotMatchesTheJavaEngine() {
    NativeKernel k = copying();
    byte[] data = new byte[(4 << 20) + 10];
    new SplittableRandom(61).nextBytes(data);
    int[] key = Spec.keyWords(Arrays.copyOf(data, 32));
    for (int len : LENGTHS) {
      for (int outLen : new int[] {32, 64, 65, 1000}) {
        for (int[] kw : new int[][] {Spec.iv(), key}) {
          int flags = kw == key ? Spec.KEYED_HASH : 0;
          byte[] want = new byte[outLen];
          OneShot.hash(JavaKernel.INSTANCE, data, 7, len, kw, flags, want, 0, outLen);
          byte[] got = new byte[outLen + 3];
          OneShot.hash(k, data, 7, len, kw, flags, got, 3, outLen);
          assertArrayEquals(want, Arrays.copyOfRange(got, 3, 3 + outLen), "kernel.hash len " + len + " out " + outLen);
          if (outLen <= NativeBlake3.COPY_OUT) {
            byte[] c = new byte[outLen];
            NativeBlake3.hashOneShotCopy(k.isa(), data, 7, len, kw == Spec.iv() ? null : kw, flags, 0, c, 0, outLen);
            assertArrayEquals(want, c, "hashOneShotCopy len " + len + " out " + outLen);
          }
        }
      }
    }
  }

  @Test
  void subtreesMatchTheJavaEngine() {
    NativeKernel k = copying();
    byte[] data = new byte[(3 << 20) + 100];
    new SplittableRandom(62).nextBytes(data);
    SplittableRandom r = new SplittableRandom(63);
    long[] counters = {0, 1, 64, 96, 1024, 4096, (1L << 32) - 3, (1L << 40)};
    for (long counter : counters) {
      for (int chunks : new int[] {1, 7, 8, 9, 63, 64, 65, 127, 128, 513, 2048, 3072}) {
        int off = r.nextInt(100);
        int[] want = new int[8 * 128];
        int[] got = new int[8 * 128];
        int[] got2 = new int[8 * 128];
        int n = JavaKernel.INSTANCE.hashSubtrees(data, off, chunks * 1024, Spec.iv(), counter, 0, want, 0);
        assertEquals(n, k.hashSubtrees(data, off, chunks * 1024, Spec.iv(), counter, 0, got, 0));
        assertEquals(n, NativeBlake3.hashSubtreesCopy(k.isa(), data, off, chunks * 1024, null, counter, 0, got2, 0));
        // The Java kernel uses the array past its values as a work area: compare the values only.
        int[] values = Arrays.copyOf(want, 8 * n);
        assertArrayEquals(values, Arrays.copyOf(got, 8 * n), "through direct buffers: " + chunks + " chunks at " + counter);
        assertArrayEquals(values, Arrays.copyOf(got2, 8 * n), "through JNI: " + chunks + " chunks at " + counter);
      }
    }
  }
}
