package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Streaming and extended output against the Java kernel as the reference: random inputs and
 * lengths, random split points, copy, reset, reads in pieces and far seeks. The seed is printed
 * on failure; set -Dblake3.test.seed=N to replay one. On every engine ({@link Engines}).
 */
@Tag("engine")
class StreamingTest {
  private static final long SEED = Long.getLong("blake3.test.seed", System.nanoTime());

  static List<Engines.Api> engines() {
    return Engines.all();
  }

  private static String seed(Engines.Api e) {
    return "seed " + SEED + " (replay with -Dblake3.test.seed=" + SEED + "), engine " + e.name();
  }

  /** The reference: the Java kernel through the same driver. */
  static byte[] reference(byte[] in, int[] key, int flags, int outLen) {
    TreeState s = new TreeState(JavaKernel.INSTANCE, key, flags);
    s.update(in, 0, in.length);
    byte[] out = new byte[outLen];
    s.finish(out, 0, outLen);
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void randomSplitsMatchOneShot(Engines.Api e) {
    Random r = new Random(SEED);
    for (int round = 0; round < 150; round++) {
      int len = round < 50 ? r.nextInt(3000) : r.nextInt(round < 140 ? 70_000 : 1_200_000);
      byte[] in = new byte[len];
      r.nextBytes(in);
      byte[] expected = reference(in, Spec.iv(), 0, 32);
      assertArrayEquals(expected, e.hash(in), "one-shot, len " + len + ", " + seed(e));
      assertArrayEquals(expected, VectorsTest.feed(e.newHasher(), in, r).digest(), "streamed, len " + len + ", " + seed(e));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void keyedAndDerivedMatchReference(Engines.Api e) {
    Random r = new Random(SEED + 1);
    byte[] key = new byte[32];
    for (int round = 0; round < 40; round++) {
      r.nextBytes(key);
      byte[] in = new byte[r.nextInt(40_000)];
      r.nextBytes(in);
      int outLen = r.nextInt(600);
      assertArrayEquals(reference(in, Spec.keyWords(key), Spec.KEYED_HASH, outLen),
          e.keyedHash(key, in, outLen), "keyed, len " + in.length + ", " + seed(e));
      assertArrayEquals(reference(in, Spec.keyWords(key), Spec.KEYED_HASH, outLen),
          VectorsTest.feed(e.newKeyedHasher(key), in, r).digest(outLen), "keyed streamed, " + seed(e));
      String context = "context " + round;
      assertArrayEquals(reference(in, Blake3.contextKey(context), Spec.DERIVE_KEY_MATERIAL, outLen),
          e.deriveKey(context, in, outLen), "derive, len " + in.length + ", " + seed(e));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void digestLeavesHasherUsableAndCopyIsIndependent(Engines.Api e) {
    Random r = new Random(SEED + 2);
    byte[] a = new byte[5000];
    byte[] b = new byte[70_000];
    r.nextBytes(a);
    r.nextBytes(b);
    byte[] ab = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, ab, a.length, b.length);

    Blake3Hasher h = e.newHasher().update(a);
    assertArrayEquals(e.hash(a), h.digest());
    assertArrayEquals(e.hash(a), h.digest(), "digest twice");
    Blake3Hasher copy = h.copy();
    h.update(b);
    assertArrayEquals(e.hash(ab), h.digest());
    assertArrayEquals(e.hash(a), copy.digest(), "the copy did not see later updates");
    copy.update(b);
    assertArrayEquals(e.hash(ab), copy.digest());
    h.reset().update(b);
    assertArrayEquals(e.hash(b), h.digest());

    byte[] key = new byte[32];
    r.nextBytes(key);
    Blake3Hasher keyed = e.newKeyedHasher(key).update(ab).reset().update(a);
    assertArrayEquals(e.keyedHash(key, a), keyed.digest(), "reset keeps the key");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void emptyUpdatesChangeNothing(Engines.Api e) {
    Blake3Hasher h = e.newHasher();
    h.update(new byte[0]).update(new byte[10], 10, 0).update(java.nio.ByteBuffer.allocate(0));
    assertEquals("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262", Blake3.toHex(h.digest()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void extendedOutputPiecesEqualOneRead(Engines.Api e) {
    Random r = new Random(SEED + 3);
    for (int round = 0; round < 20; round++) {
      byte[] in = new byte[r.nextInt(5000)];
      r.nextBytes(in);
      int total = 1 + r.nextInt(20_000);
      byte[] whole = e.hash(in, total);
      assertArrayEquals(reference(in, Spec.iv(), 0, total), whole, seed(e));
      Blake3OutputReader xof = e.newHasher().update(in).xof();
      byte[] pieces = new byte[total];
      for (int pos = 0; pos < total; ) {
        int n = Math.min(total - pos, r.nextInt(3000));
        xof.read(pieces, pos, n);
        pos += n;
      }
      assertArrayEquals(whole, pieces, seed(e));
      int from = r.nextInt(total);
      xof.seek(from);
      byte[] tail = new byte[total - from];
      xof.read(tail);
      assertArrayEquals(Arrays.copyOfRange(whole, from, total), tail, seed(e));
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void farSeeksAgreeWithTheJavaKernel(Engines.Api e) {
    byte[] in = Vectors.input(3000);
    Blake3OutputReader xof = e.newHasher().update(in).xof();
    TreeState ref = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
    ref.update(in, 0, in.length);
    OutputNode node = ref.output();
    for (long pos : new long[] {1, 63, 64, 65, 1023, 1 << 20, (1L << 32) + 7, (1L << 38) + 13, Long.MAX_VALUE - 5000}) {
      byte[] expected = new byte[4000];
      node.read(JavaKernel.INSTANCE, pos, expected, 0, expected.length);
      xof.seek(pos);
      byte[] actual = new byte[4000];
      xof.read(actual);
      assertArrayEquals(expected, actual, "position " + pos);
      assertEquals(pos + 4000, xof.position());
    }
  }
}
