package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Inputs of whole chunks, two or more, whose last chunk a kernel hashes beside the others
 * ({@link Kernel#hashSubtreesThenLast}): a one-shot hash ({@link TreeState#hashWholeChunks}), a
 * hasher whose buffer holds them all at the end, and the subtree values of such a hasher, on every
 * kernel, against PlatformCheck's independent reference and the path that hashes the last chunk
 * alone.
 */
@Tag("engine")
class WholeChunksTest {
  private static final int[] CHUNKS = {2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 66, 100};
  private static final int[] OUT_LENGTHS = {32, 200};

  @Test
  void oneShotAndBufferedAgainstTheReference() {
    Random random = new Random(29);
    byte[] keyBytes = new byte[32];
    random.nextBytes(keyBytes);
    int[][] keys = {PlatformCheck.Reference.IV, PlatformCheck.Reference.words(keyBytes)};
    int[] modes = {0, PlatformCheck.Reference.KEYED_HASH};
    for (int chunks : CHUNKS) {
      byte[] in = new byte[chunks * Spec.CHUNK_LEN + 3];
      random.nextBytes(in);
      int len = chunks * Spec.CHUNK_LEN;
      byte[] input = Arrays.copyOfRange(in, 3, 3 + len);
      for (int m = 0; m < modes.length; m++) {
        for (int outLen : OUT_LENGTHS) {
          byte[] want = PlatformCheck.Reference.hash(input, keys[m], modes[m], outLen);
          for (Kernel k : Engines.kernels()) {
            String what = Engines.label(k) + ", " + chunks + " chunks, mode " + modes[m] + ", " + outLen + " bytes";
            byte[] got = new byte[outLen + 5];
            OneShot.hash(k, in, 3, len, keys[m].clone(), modes[m], got, 5, outLen);
            assertArrayEquals(want, Arrays.copyOfRange(got, 5, 5 + outLen), "one-shot, " + what);

            // 100-byte updates: the buffer holds the last chunks (as many as the kernel's buffer
            // size takes) when the hasher finishes.
            TreeState s = new TreeState(k, keys[m].clone(), modes[m]);
            for (int at = 0; at < len; at += 100) {
              s.update(in, 3 + at, Math.min(100, len - at));
            }
            byte[] streamed = new byte[outLen];
            s.finish(streamed, 0, outLen);
            assertArrayEquals(want, streamed, "buffered, " + what);
            // Finishing again gives the same: the first finish kept the last chunk buffered.
            s.finish(streamed, 0, outLen);
            assertArrayEquals(want, streamed, "buffered, finished twice, " + what);
          }
        }
      }
    }
  }

  @Test
  void subtreeValuesOfABufferedHasherEqualThoseOfOneUpdate() {
    Random random = new Random(31);
    for (int chunks : CHUNKS) {
      byte[] in = new byte[chunks * Spec.CHUNK_LEN];
      random.nextBytes(in);
      for (Kernel k : Engines.kernels()) {
        // One update hashes all but the last chunk straight away and keeps the last alone.
        TreeState whole = new TreeState(k, Spec.iv(), 0);
        whole.update(in, 0, in.length);
        TreeState buffered = new TreeState(k, Spec.iv(), 0);
        for (int at = 0; at < in.length; at += 100) {
          buffered.update(in, at, Math.min(100, in.length - at));
        }
        String what = Engines.label(k) + ", " + chunks + " chunks";
        assertArrayEquals(whole.subtreeCvs(), buffered.subtreeCvs(), what);
        // More input after the values were read: the last chunk was kept, not consumed.
        whole.update(in, 0, 10);
        buffered.update(in, 0, 10);
        byte[] a = new byte[32];
        byte[] b = new byte[32];
        whole.finish(a, 0, 32);
        buffered.finish(b, 0, 32);
        assertArrayEquals(a, b, "more input after the values, " + what);
      }
    }
  }
}
