package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Many messages in one call (Blake3.hashMany and its keyed and derive-key forms): every kernel
 * gives each message the hash a one-shot of the Java engine gives it, whatever the mix of
 * lengths, modes and layouts; bad arguments throw before anything is written. An engine test:
 * it runs again on the Java engine and, with the module, on the Vector API engine and its lanes.
 */
@Tag("engine")
class BatchTest {
  private static final byte[] DATA = new byte[300_000];

  static {
    new SplittableRandom(26).nextBytes(DATA);
  }

  /** Lengths at every edge the batch has: blocks, chunks, its 8-chunk limit, the copy window. */
  private static final int[] EDGES = {0, 1, 31, 32, 63, 64, 65, 128, 1023, 1024, 1025, 2047, 2048, 4096,
      NativeKernel.MANY_MAX_LEN - 1, NativeKernel.MANY_MAX_LEN, NativeKernel.MANY_MAX_LEN + 1, 70_000};

  private static byte[] expected(byte[] data, int off, int len, int[] key, int flags) {
    byte[] out = new byte[Spec.OUT_LEN];
    OneShot.hash(JavaKernel.ONE_CHUNK, data, off, len, key, flags, out, 0, Spec.OUT_LEN);
    return out;
  }

  /** A shape of batch: n messages whose lengths the mode picks, at random offsets. */
  private static int[][] layout(SplittableRandom rnd, int n, int mode) {
    int[] offsets = new int[n];
    int[] lengths = new int[n];
    int same = EDGES[rnd.nextInt(EDGES.length)];
    for (int i = 0; i < n; i++) {
      int len;
      switch (mode) {
        case 0: len = same; break;
        case 1: len = rnd.nextInt(4097); break;
        case 2: len = rnd.nextInt(130); break;
        default: len = EDGES[rnd.nextInt(EDGES.length)]; break;
      }
      lengths[i] = len;
      offsets[i] = rnd.nextInt(DATA.length - len + 1);
    }
    return new int[][] {offsets, lengths};
  }

  @Test
  void everyKernelHashesEachMessageAsAOneShotDoes() {
    SplittableRandom rnd = new SplittableRandom(1);
    int[] keyed = Spec.keyWords(Arrays.copyOf(DATA, 32));
    int[] derive = Blake3.contextKey(JavaKernel.INSTANCE, "blake3-fast BatchTest");
    int[][] keys = {Spec.iv(), keyed, derive};
    int[] flags = {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL};
    for (int round = 0; round < 24; round++) {
      int n = round % 6 == 0 ? 300 + rnd.nextInt(300) : 1 + rnd.nextInt(40);
      int[][] l = layout(rnd, n, round % 4);
      int mode = round % 3;
      int from = rnd.nextInt(Math.min(3, n));
      int count = n - from;
      byte[][] want = new byte[count][];
      for (int i = 0; i < count; i++) {
        want[i] = expected(DATA, l[0][from + i], l[1][from + i], keys[mode], flags[mode]);
      }
      for (Kernel k : Engines.kernels()) {
        byte[] out = new byte[7 + Spec.OUT_LEN * count + 5];
        Arrays.fill(out, (byte) 0x5A);
        k.hashMany(DATA, l[0], l[1], from, count, keys[mode], flags[mode], out, 7);
        for (int i = 0; i < count; i++) {
          assertArrayEquals(want[i], Arrays.copyOfRange(out, 7 + 32 * i, 39 + 32 * i), Engines.label(k)
              + ", round " + round + ", message " + (from + i) + " of " + l[1][from + i] + " bytes");
        }
        for (int j : new int[] {0, 6, out.length - 5, out.length - 1}) {
          assertEquals((byte) 0x5A, out[j], Engines.label(k) + ": wrote outside its hashes, at " + j);
        }
      }
    }
  }

  /**
   * The Java lanes' batch (JavaBatch), in both its forms, at the edges of its groups: one fewer
   * than a last group needs to take the lanes and exactly that, a full group, a group and one;
   * every block count from the empty message to a whole chunk in one group; messages of several
   * chunks (joined in JavaBatch) and longer ones (hashed alone) between short ones. On the scalar
   * lanes and, where the module is readable, the Vector API kernel's (VectorLanes), whose vectors
   * are a few lanes of a group each.
   */
  @Test
  void theJavaLanesBatchAtTheEdgesOfItsGroups() {
    List<Kernel> kernels = new ArrayList<>(List.of(JavaKernel.LANES));
    if (VectorChoice.moduleReadable()) {
      kernels.add(VectorChoice.vectorKernel());
      kernels.add(VectorChoice.vectorKernelOnVectorLanes());
    }
    for (Kernel kernel : kernels) {
      batchAtTheEdgesOfItsGroups(kernel);
    }
  }

  private static void batchAtTheEdgesOfItsGroups(Kernel kernel) {
    SplittableRandom rnd = new SplittableRandom(5);
    int[] keyed = Spec.keyWords(Arrays.copyOfRange(DATA, 7, 39));
    int lanes = JavaLanes.MAX_LANES;
    int group = JavaBatch.MIN_GROUP;
    int[] counts = {1, JavaLanes.MIN_LANES - 1, JavaLanes.MIN_LANES, group - 1, group, lanes - 1, lanes, lanes + 1,
        lanes + group - 1, lanes + group, 2 * lanes + JavaLanes.MIN_LANES, 5 * lanes + 3};
    for (int count : counts) {
      for (int shape = 0; shape < 3; shape++) {
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        for (int i = 0; i < count; i++) {
          int len;
          if (shape == 0) {
            len = (i * 64 + (i % 3 == 0 ? 0 : i % 64)) % 1025; // every block count, full and partial
          } else if (shape == 1) {
            len = rnd.nextInt(1025);
          } else if (i % 5 == 2) { // several chunks, whole or not, below and above JavaBatch's limit
            int chunks = 2 + rnd.nextInt(JavaBatch.MAX_CHUNKS + 1);
            len = chunks * 1024 - (rnd.nextBoolean() ? 0 : rnd.nextInt(1024));
          } else {
            len = rnd.nextInt(200);
          }
          lengths[i] = len;
          offsets[i] = rnd.nextInt(DATA.length - len + 1);
        }
        byte[] out = new byte[32 * count + 3];
        out[32 * count] = 0x11;
        kernel.hashMany(DATA, offsets, lengths, 0, count, keyed, Spec.KEYED_HASH, out, 0);
        byte[][] inputs = new byte[count][];
        for (int i = 0; i < count; i++) {
          inputs[i] = Arrays.copyOfRange(DATA, offsets[i], offsets[i] + lengths[i]);
        }
        byte[][] hashes = new byte[count][];
        JavaBatch.hashArrays(kernel, inputs, keyed, Spec.KEYED_HASH, hashes);
        for (int i = 0; i < count; i++) {
          byte[] want = expected(DATA, offsets[i], lengths[i], keyed, Spec.KEYED_HASH);
          String what = Engines.label(kernel) + ", " + count + " messages, shape " + shape + ", message " + i
              + " of " + lengths[i] + " bytes";
          assertArrayEquals(want, Arrays.copyOfRange(out, 32 * i, 32 * i + 32), what);
          assertArrayEquals(want, hashes[i], what + ", arrays");
        }
        assertEquals(0x11, out[32 * count], count + " messages: wrote past the hashes");
      }
    }
  }

  @Test
  void thePublicShapesAgreeWithTheOneMessageFunctions() {
    SplittableRandom rnd = new SplittableRandom(2);
    byte[] key = Arrays.copyOfRange(DATA, 100, 132);
    String context = "blake3-fast 2026-12-03 BatchTest";
    for (int mode = 0; mode < 4; mode++) {
      int[][] l = layout(rnd, 1 + rnd.nextInt(700), mode);
      int n = l[0].length;
      byte[][] inputs = new byte[n][];
      for (int i = 0; i < n; i++) {
        inputs[i] = Arrays.copyOfRange(DATA, l[0][i], l[0][i] + l[1][i]);
      }
      byte[] plain = new byte[32 * n];
      byte[] mac = new byte[32 * n];
      byte[] derived = new byte[32 * n];
      Blake3.hashMany(DATA, l[0], l[1], plain);
      Blake3.keyedHashMany(key, DATA, l[0], l[1], mac);
      Blake3.deriveKeyMany(context, DATA, l[0], l[1], derived);
      byte[][] plainArrays = Blake3.hashMany(inputs);
      byte[][] macArrays = Blake3.keyedHashMany(key, inputs);
      byte[][] derivedArrays = Blake3.deriveKeyMany(context, inputs);
      for (int i = 0; i < n; i++) {
        String what = "mode " + mode + ", message " + i + " of " + inputs[i].length + " bytes";
        byte[] h = Blake3.hash(inputs[i]);
        byte[] m = Blake3.keyedHash(key, inputs[i]);
        byte[] d = Blake3.deriveKey(context, inputs[i]);
        assertArrayEquals(h, Arrays.copyOfRange(plain, 32 * i, 32 * i + 32), what);
        assertArrayEquals(m, Arrays.copyOfRange(mac, 32 * i, 32 * i + 32), what + ", keyed");
        assertArrayEquals(d, Arrays.copyOfRange(derived, 32 * i, 32 * i + 32), what + ", derived");
        assertArrayEquals(h, plainArrays[i], what + ", arrays");
        assertArrayEquals(m, macArrays[i], what + ", keyed arrays");
        assertArrayEquals(d, derivedArrays[i], what + ", derived arrays");
      }
    }
  }

  @Test
  void arraysLongerThanThePackingWindowAndEmptyBatches() {
    byte[][] inputs = {new byte[Batch.WINDOW + 1], new byte[0], new byte[Batch.WINDOW], new byte[5],
        new byte[3 * Batch.WINDOW]};
    new SplittableRandom(3).nextBytes(inputs[0]);
    byte[][] hashes = Blake3.hashMany(inputs);
    for (int i = 0; i < inputs.length; i++) {
      assertArrayEquals(Blake3.hash(inputs[i]), hashes[i], "message " + i);
    }
    assertEquals(0, Blake3.hashMany(new byte[0][]).length);
    Blake3.hashMany(new byte[0], new int[0], new int[0], new byte[0]);
  }

  @Test
  void knownAnswersFromTheOfficialVectors() {
    // Inputs of the official vector file: byte i is i % 251. The expected hashes are the file's.
    byte[][] inputs = new byte[3][];
    int[] lens = {0, 1, 1025};
    for (int j = 0; j < 3; j++) {
      inputs[j] = new byte[lens[j]];
      for (int i = 0; i < lens[j]; i++) {
        inputs[j][i] = (byte) (i % 251);
      }
    }
    byte[][] h = Blake3.hashMany(inputs);
    assertEquals("af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262", Blake3.toHex(h[0]));
    assertEquals("2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213", Blake3.toHex(h[1]));
    assertEquals("d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444", Blake3.toHex(h[2]));
  }

  @Test
  void badArgumentsThrowBeforeAnythingIsWritten() {
    byte[] data = new byte[100];
    byte[] out = new byte[64];
    byte[] key = new byte[32];
    int[] two = {0, 10};
    List<Runnable> bad = new ArrayList<>();
    bad.add(() -> Blake3.hashMany(null, two, two, out));
    bad.add(() -> Blake3.hashMany(data, null, two, out));
    bad.add(() -> Blake3.hashMany(data, two, null, out));
    bad.add(() -> Blake3.hashMany(data, two, two, null));
    bad.add(() -> Blake3.hashMany(data, two, new int[] {1}, out));
    bad.add(() -> Blake3.hashMany(data, new int[] {0, -1}, two, out));
    bad.add(() -> Blake3.hashMany(data, two, new int[] {0, -1}, out));
    bad.add(() -> Blake3.hashMany(data, two, new int[] {0, 91}, out));
    bad.add(() -> Blake3.hashMany(data, new int[] {0, Integer.MAX_VALUE - 4}, two, out));
    bad.add(() -> Blake3.hashMany(data, new int[] {0, 50}, new int[] {0, Integer.MAX_VALUE}, out));
    bad.add(() -> Blake3.hashMany(data, two, two, new byte[63]));
    bad.add(() -> Blake3.keyedHashMany(new byte[31], data, two, two, out));
    bad.add(() -> Blake3.keyedHashMany(null, data, two, two, out));
    bad.add(() -> Blake3.keyedHashMany(key, data, two, new int[] {0, 91}, out));
    bad.add(() -> Blake3.deriveKeyMany(null, data, two, two, out));
    bad.add(() -> Blake3.deriveKeyMany("ctx", data, two, two, new byte[10]));
    for (int i = 0; i < bad.size(); i++) {
      Arrays.fill(out, (byte) 7);
      Runnable r = bad.get(i);
      RuntimeException e = assertThrows(RuntimeException.class, r::run, "case " + i);
      assertTrue(e instanceof IllegalArgumentException || e instanceof IndexOutOfBoundsException
          || e instanceof NullPointerException, "case " + i + ": " + e);
      for (byte b : out) {
        assertEquals(7, b, "case " + i + " wrote to out before throwing");
      }
    }
    byte[][] withNull = {new byte[1], null};
    assertThrows(NullPointerException.class, () -> Blake3.hashMany((byte[][]) null));
    assertThrows(NullPointerException.class, () -> Blake3.hashMany(withNull));
    assertThrows(NullPointerException.class, () -> Blake3.keyedHashMany(key, withNull));
    assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHashMany(new byte[33], new byte[1][]));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKeyMany("ctx", withNull));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKeyMany(null, new byte[1][]));
  }

  @Test
  void manyThreadsAtOnce() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int seed = t;
        results.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int round = 0; round < 20; round++) {
            int[][] l = layout(rnd, 1 + rnd.nextInt(200), round % 4);
            byte[] out = new byte[32 * l[0].length];
            Blake3.hashMany(DATA, l[0], l[1], out);
            for (int i = 0; i < l[0].length; i++) {
              if (!Arrays.equals(expected(DATA, l[0][i], l[1][i], Spec.iv(), 0),
                  Arrays.copyOfRange(out, 32 * i, 32 * i + 32))) {
                return false;
              }
            }
          }
          return true;
        }));
      }
      for (Future<Boolean> f : results) {
        assertTrue(f.get(), "a thread got a wrong hash");
      }
    } finally {
      pool.shutdownNow();
    }
    assertArrayEquals(Blake3.hash("abc"), Blake3.hashMany(new byte[][] {"abc".getBytes(StandardCharsets.UTF_8)})[0]);
  }
}
