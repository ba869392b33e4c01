package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The driver's one-shot over every kernel: where a kernel's whole-input call ends, the tree
 * driver takes over with the same answer, and a kernel refuses a whole-input call it did not
 * offer instead of answering it some other way.
 */
class OneShotTest {
  private static final byte[] DATA = new byte[Kernel.MAX_CALL + 2048];

  static {
    new SplittableRandom(15).nextBytes(DATA);
  }

  private static final int[] LENGTHS = {0, 1, 64, 65, 1024, 1025, NativeBlake3.COPY_LEN, NativeBlake3.COPY_LEN + 1,
      Kernel.MAX_CALL, Kernel.MAX_CALL + 1};
  private static final int[] OUT_LENGTHS = {32, 64, 65, 200};

  private static byte[] oneShot(Kernel k, int len, int[] key, int flags, int outLen) {
    byte[] out = new byte[outLen + 5];
    OneShot.hash(k, DATA, 3, len, key, flags, out, 5, outLen);
    return Arrays.copyOfRange(out, 5, 5 + outLen);
  }

  @Test
  void everyKernelAgreesWithTheJavaEngineAcrossItsWholeInputLimits() {
    int[] key = Spec.keyWords(Arrays.copyOf(DATA, 32));
    for (int len : LENGTHS) {
      for (int outLen : OUT_LENGTHS) {
        byte[] plain = oneShot(JavaKernel.INSTANCE, len, Spec.iv(), 0, outLen);
        byte[] keyed = oneShot(JavaKernel.INSTANCE, len, key, Spec.KEYED_HASH, outLen);
        for (Kernel k : Engines.kernels()) {
          String what = Engines.label(k) + ", " + len + " bytes, " + outLen + " out";
          // Alternating keys and kernels on one thread: the driver's per-thread state is reused.
          assertArrayEquals(plain, oneShot(k, len, Spec.iv(), 0, outLen), what);
          assertArrayEquals(keyed, oneShot(k, len, key, Spec.KEYED_HASH, outLen), what + ", keyed");
        }
      }
    }
  }

  @Test
  void aWholeInputCallIsOnlyTakenWhereOffered() {
    for (Kernel k : Engines.kernels()) {
      for (int len : LENGTHS) {
        for (int outLen : OUT_LENGTHS) {
          byte[] out = new byte[outLen];
          if (k.hashesWhole(len, outLen)) {
            k.hashWhole(DATA, 3, len, Spec.iv(), 0, out, 0, outLen);
            assertArrayEquals(oneShot(JavaKernel.INSTANCE, len, Spec.iv(), 0, outLen), out,
                Engines.label(k) + ", " + len + " bytes, " + outLen + " out");
          } else {
            int n = len;
            assertThrows(IllegalArgumentException.class,
                () -> k.hashWhole(DATA, 0, n, Spec.iv(), 0, out, 0, outLen), Engines.label(k) + ", " + len);
          }
        }
      }
    }
  }
}
