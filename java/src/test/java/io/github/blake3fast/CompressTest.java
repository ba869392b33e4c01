package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Compress}'s one-chunk fast path, which reads blocks through its byte-array view and a
 * per-thread zero-padded block, against the tree driver's path for the same chunk (whole blocks
 * through the view, the last block word by word); and the single-word helpers against the view.
 * Both Java kernels against the vectors are in the engine tests (VectorsTest).
 */
class CompressTest {
  /**
   * Every length 0..1024 at an odd offset between random bytes, longest first and then shortest
   * first, so that a shorter partial block follows a longer one in the same padded block (stale
   * bytes there would change the hash).
   */
  @Test
  void theChunkHashPadsEveryPartialBlock() {
    SplittableRandom rnd = new SplittableRandom(1000);
    byte[] in = new byte[1024 + 10];
    rnd.nextBytes(in);
    int[] key = new int[8];
    for (int i = 0; i < 8; i++) {
      key[i] = rnd.nextInt();
    }
    for (int pass = 0; pass < 2; pass++) {
      for (int i = 0; i <= Spec.CHUNK_LEN; i++) {
        int len = pass == 0 ? Spec.CHUNK_LEN - i : i;
        int flags = len % 3 == 0 ? Spec.KEYED_HASH : 0;
        byte[] fast = new byte[32];
        byte[] driver = new byte[32];
        Compress.hashOneChunk(in, 3, len, key, flags, fast, 0);
        TreeState s = new TreeState(JavaKernel.INSTANCE, key, flags);
        s.update(in, 3, len);
        s.finish(driver, 0, 32);
        assertArrayEquals(driver, fast, len + " bytes, pass " + pass);
      }
    }
    assertArrayEquals(new byte[Spec.BLOCK_LEN], PaddedBlock.ZEROS, "the padding stays zero");
  }

  /** The single-word helpers (bytes, never the view) agree with the view at every offset. */
  @Test
  void theWordHelpersAgree() {
    SplittableRandom rnd = new SplittableRandom(4);
    byte[] in = new byte[64];
    rnd.nextBytes(in);
    for (int off = 0; off <= 60; off++) {
      int viaView = Compress.View.word(in, off);
      assertEquals(viaView, Compress.word(in, off), "word at " + off);
      int w = rnd.nextInt();
      byte[] a = in.clone();
      byte[] b = in.clone();
      Compress.View.LE.set(a, off, w);
      Compress.putWord(b, off, w);
      assertArrayEquals(a, b, "put at " + off);
    }
  }
}
