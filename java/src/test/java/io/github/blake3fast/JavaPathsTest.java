package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The Java kernel's two paths for whole chunks, {@link JavaLanes} and one chunk at a time, give
 * the official vectors and agree with each other wherever the lanes start, stop and cross a
 * subtree or a 2^32 chunk counter, whichever one {@link LaneRule} picks on this machine.
 */
class JavaPathsTest {
  private static final int K = Spec.CHUNK_LEN;
  private static final byte[] DATA = new byte[201 * K];

  static {
    new SplittableRandom(16).nextBytes(DATA);
  }

  @Test
  void theForcedPathsAreTheOnesAsked() {
    assertTrue(JavaKernel.LANES.usesLanes());
    assertFalse(JavaKernel.ONE_CHUNK.usesLanes());
    assertEquals(LaneRule.lanesWin(), JavaKernel.INSTANCE.usesLanes(), "the library's kernel follows the rule");
  }

  @Test
  void bothPathsGiveTheOfficialVectors() {
    for (Vectors.Case c : Vectors.officialFormat()) {
      byte[] in = Vectors.input(c.inputLen);
      int[] key = Spec.keyWords(Vectors.key());
      for (JavaKernel k : new JavaKernel[] {JavaKernel.LANES, JavaKernel.ONE_CHUNK}) {
        byte[] out = new byte[131];
        OneShot.hash(k, in, 0, in.length, Spec.iv(), 0, out, 0, out.length);
        assertEquals(c.hash, Blake3.toHex(out), Engines.label(k) + ", " + c);
        OneShot.hash(k, in, 0, in.length, key, Spec.KEYED_HASH, out, 0, out.length);
        assertEquals(c.keyedHash, Blake3.toHex(out), Engines.label(k) + ", keyed, " + c);
      }
    }
  }

  @Test
  void subtreesAgreeAcrossTheLaneLimits() {
    int[] key = Spec.keyWords(Arrays.copyOf(DATA, 32));
    int[] chunkCounts = {1, JavaLanes.MIN_LANES - 1, JavaLanes.MIN_LANES, JavaLanes.MIN_LANES + 1,
        JavaLanes.MAX_LANES - 1, JavaLanes.MAX_LANES, JavaLanes.MAX_LANES + 1, 2 * JavaLanes.MAX_LANES + 33, 200};
    // Chunk 0; odd starts, whose subtrees are small; a start just below 2^32 chunks, so that
    // lanes in one call carry different high counter words.
    long[] counters = {0, 3, JavaLanes.MAX_LANES, (1L << 32) - 40, (1L << 40) + 64};
    for (int chunks : chunkCounts) {
      for (long counter : counters) {
        for (int flags : new int[] {0, Spec.KEYED_HASH}) {
          int[] lanes = new int[8 * 128];
          int[] one = new int[8 * 128];
          int n = JavaKernel.LANES.hashSubtrees(DATA, 5, chunks * K, key, counter, flags, lanes, 8);
          int m = JavaKernel.ONE_CHUNK.hashSubtrees(DATA, 5, chunks * K, key, counter, flags, one, 8);
          String what = chunks + " chunks from chunk " + counter + ", flags " + flags;
          assertEquals(m, n, what);
          assertArrayEquals(one, lanes, what);
        }
      }
    }
  }

  @Test
  void oneShotsAndStreamsAgreeOnBothPaths() {
    int[] lengths = {JavaLanes.MIN_LANES * K, JavaLanes.MIN_LANES * K + 1, JavaLanes.MAX_LANES * K + 1,
        DATA.length - 7};
    for (int len : lengths) {
      byte[] lanes = new byte[40];
      byte[] one = new byte[40];
      OneShot.hash(JavaKernel.LANES, DATA, 7, len, Spec.iv(), 0, lanes, 0, 40);
      OneShot.hash(JavaKernel.ONE_CHUNK, DATA, 7, len, Spec.iv(), 0, one, 0, 40);
      assertArrayEquals(one, lanes, len + " bytes, one-shot");
      for (JavaKernel k : new JavaKernel[] {JavaKernel.LANES, JavaKernel.ONE_CHUNK}) {
        TreeState s = new TreeState(k, Spec.iv(), 0);
        for (int off = 0; off < len; off += 64) {
          s.update(DATA, 7 + off, Math.min(64, len - off));
        }
        byte[] streamed = new byte[40];
        s.finish(streamed, 0, 40);
        assertArrayEquals(one, streamed, len + " bytes in 64-byte updates, " + Engines.label(k));
      }
    }
  }

  @Test
  void wholeInputsOfLanesAgreeWithTheOneChunkPath() {
    // A whole input of whole chunks has its last chunk hashed in the same lanes as the others
    // (JavaKernel.hashSubtreesThenLast). Every chunk count at and around both lane limits, whole,
    // one byte short or over, and a partial last block; neither path takes a whole-input call.
    int[] key = Spec.keyWords(Arrays.copyOfRange(DATA, 100, 132));
    for (int chunks = JavaLanes.MIN_LANES - 1; chunks <= JavaLanes.MAX_LANES + 1; chunks++) {
      for (int len : new int[] {chunks * K - 1, chunks * K, chunks * K + 1, chunks * K + 517}) {
        assertFalse(JavaKernel.LANES.hashesWhole(len, 32), len + " bytes");
        assertFalse(JavaKernel.ONE_CHUNK.hashesWhole(len, 32), len + " bytes");
        for (int flags : new int[] {0, Spec.KEYED_HASH}) {
          int[] k = flags == 0 ? Spec.iv() : key;
          for (int outLen : new int[] {32, 131}) {
            byte[] lanes = new byte[outLen + 2];
            byte[] one = new byte[outLen + 2];
            OneShot.hash(JavaKernel.LANES, DATA, 3, len, k, flags, lanes, 1, outLen);
            OneShot.hash(JavaKernel.ONE_CHUNK, DATA, 3, len, k, flags, one, 1, outLen);
            assertArrayEquals(one, lanes, len + " bytes, flags " + flags + ", " + outLen + " out");
          }
        }
      }
    }
  }
}
