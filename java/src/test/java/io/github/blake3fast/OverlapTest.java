package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Outputs written into the array the inputs are read from get the answer of separate arrays, as
 * if every input were read before any output was written, on every engine and ISA: the packed
 * batch calls (all three modes, any layout, messages of 0 to 3 chunks) and the one-shot into the
 * caller's array.
 */
class OverlapTest {
  private static final int[] FLAGS = {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL};

  @Test
  void batchHashesWrittenOverTheirMessagesAreTheMessagesHashes() {
    SplittableRandom rnd = new SplittableRandom(41);
    int[][] keys = {Spec.iv(), Spec.keyWords(bytes(rnd, 32)), Blake3.contextKey(JavaKernel.INSTANCE, "overlap")};
    for (Kernel k : Engines.kernels()) {
      for (int trial = 0; trial < 200; trial++) {
        int n = 1 + rnd.nextInt(48);
        int maxLen = trial % 4 == 0 ? 3 * Spec.CHUNK_LEN + 1 : 1 + rnd.nextInt(128);
        byte[] data = bytes(rnd, 32 * n + rnd.nextInt(3 * maxLen + 64) + 1);
        int[] offsets = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
          lengths[i] = rnd.nextInt(Math.min(maxLen, data.length) + 1);
          offsets[i] = rnd.nextInt(data.length - lengths[i] + 1);
        }
        int mode = trial % 3;
        byte[] want = new byte[32 * n];
        for (int i = 0; i < n; i++) {
          OneShot.hash(JavaKernel.INSTANCE, data, offsets[i], lengths[i], keys[mode], FLAGS[mode], want, 32 * i, 32);
        }
        Batch.hashCheckedPacked(k, keys[mode], FLAGS[mode], data, offsets, lengths, data);
        assertArrayEquals(want, Arrays.copyOf(data, 32 * n),
            Engines.label(k) + ", trial " + trial + ": " + n + " messages in " + data.length + " bytes, mode " + mode);
      }
    }
  }

  @Test
  void aOneShotWrittenOverItsInputIsTheInputsHash() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (Engines.Api e : Engines.all()) {
      for (int trial = 0; trial < 300; trial++) {
        int len = trial % 5 == 0 ? rnd.nextInt(70 << 10) : rnd.nextInt(3 * Spec.CHUNK_LEN + 1);
        byte[] data = bytes(rnd, len + 40 + rnd.nextInt(40));
        int off = rnd.nextInt(data.length - len + 1);
        int outOff = rnd.nextInt(data.length - 32 + 1);
        byte[] want = e.hash(Arrays.copyOfRange(data, off, off + len));
        e.hashInto(data, off, len, data, outOff);
        assertArrayEquals(want, Arrays.copyOfRange(data, outOff, outOff + 32), e + ", " + len + " bytes");
      }
    }
  }

  private static byte[] bytes(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }
}
