package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.function.IntSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Compress} reads and writes words by shifts for its first {@link Compress#VIEW_AFTER_WORDS}
 * words and through its byte-array VarHandle after: shifts throughout, the view throughout and a
 * switch in the middle of each hash all give the official vectors (hash, keyed, derive_key; 32
 * and 131 bytes) on both of the Java kernel's paths, which between them take every reader and
 * writer of words (the one-chunk fast path, whole blocks, the lanes, key words, root output).
 */
class CompressViewTest {
  private int saved;

  @BeforeEach
  void save() {
    saved = Compress.wordsBeforeView;
  }

  @AfterEach
  void restore() {
    Compress.wordsBeforeView = saved;
  }

  @Test
  void shiftsThroughoutGiveTheVectors() {
    checkVectors(() -> Integer.MAX_VALUE);
    assertTrue(Compress.wordsBeforeView > 0, "no word went through the view");
  }

  @Test
  void theViewThroughoutGivesTheVectors() {
    checkVectors(() -> 0);
  }

  /**
   * The view takes over after half of each input's words: within the hash where words are
   * counted block by block (the tree driver, the lanes), after it where they are counted per
   * call (the one-chunk fast path); every hash of more than one block ends on the view (one
   * block or none, with a long output, reads no block through the counted readers: the tree
   * driver reads its last block and writes the output word by word, never through the view).
   */
  @Test
  void aSwitchWithinEachHashGivesTheVectors() {
    for (Vectors.Case c : Vectors.officialFormat()) {
      int words = c.inputLen / 4;
      checkCase(c, () -> words / 2 + 1, c.inputLen > Spec.BLOCK_LEN);
    }
  }

  /**
   * The one-chunk path through the view, which copies a partial last block into a per-thread
   * zero-padded block, against the same path by shifts: every length 0..1024 at an odd offset
   * between random bytes, longest first and then shortest first, so that a shorter partial block
   * follows a longer one in the same padded block (stale bytes there would change the hash).
   */
  @Test
  void theViewedChunkHashPadsEveryPartialBlock() {
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
        byte[] viewed = new byte[32];
        byte[] shifted = new byte[32];
        Compress.wordsBeforeView = 0;
        Compress.hashOneChunk(in, 3, len, key, flags, viewed, 0);
        Compress.wordsBeforeView = Integer.MAX_VALUE;
        Compress.hashOneChunk(in, 3, len, key, flags, shifted, 0);
        assertArrayEquals(shifted, viewed, len + " bytes, pass " + pass);
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

  private static void checkVectors(IntSupplier before) {
    for (Vectors.Case c : Vectors.officialFormat()) {
      checkCase(c, before, false);
    }
  }

  /**
   * Every hash of the case, on both paths, with {@code before} words left before each call;
   * with {@code endOnView}, checks that each hash of the input used up the words left.
   */
  private static void checkCase(Vectors.Case c, IntSupplier before, boolean endOnView) {
    byte[] in = Vectors.input(c.inputLen);
    for (JavaKernel k : new JavaKernel[] {JavaKernel.LANES, JavaKernel.ONE_CHUNK}) {
      String what = Engines.label(k) + ", " + before.getAsInt() + " words before the view, " + c;
      Compress.wordsBeforeView = before.getAsInt();
      int[] key = Spec.keyWords(Vectors.key());
      byte[] context = Vectors.CONTEXT.getBytes(StandardCharsets.US_ASCII);
      byte[] contextKey = hash(k, context, Spec.iv(), Spec.DERIVE_KEY_CONTEXT, 32, before);
      Compress.wordsBeforeView = before.getAsInt();
      int[] deriveKey = Spec.keyWords(contextKey);
      for (int outLen : new int[] {32, 131}) {
        int hex = 2 * outLen;
        String[] want = {c.hash, c.keyedHash, c.deriveKey};
        int[][] keys = {Spec.iv(), key, deriveKey};
        int[] flags = {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL};
        for (int mode = 0; mode < 3; mode++) {
          String where = "mode " + flags[mode] + ", " + outLen + " bytes, " + what;
          assertEquals(want[mode].substring(0, hex), Blake3.toHex(hash(k, in, keys[mode], flags[mode], outLen, before)),
              where);
          assertTrue(!endOnView || Compress.wordsBeforeView <= 0, "the view took over, " + where);
        }
      }
    }
  }

  private static byte[] hash(JavaKernel k, byte[] in, int[] key, int flags, int outLen, IntSupplier before) {
    byte[] out = new byte[outLen];
    Compress.wordsBeforeView = before.getAsInt();
    OneShot.hash(k, in, 0, in.length, key, flags, out, 0, outLen);
    return out;
  }
}
