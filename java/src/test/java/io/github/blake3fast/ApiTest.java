package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.ServiceLoader;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** The public surface: argument checks, hex, the provider, strings, many threads at once. */
class ApiTest {
  private static final String EMPTY = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";

  @Test
  void implementationIsReported() {
    String impl = Blake3.implementation();
    System.out.println("ApiTest: implementation() = " + impl);
    assertTrue(impl.startsWith("native-") || impl.startsWith("java"), impl);
  }

  @Test
  void nullsAreRefused() {
    assertThrows(NullPointerException.class, () -> Blake3.hash((byte[]) null));
    assertThrows(NullPointerException.class, () -> Blake3.hash((String) null));
    assertThrows(NullPointerException.class, () -> Blake3.hash(null, 32));
    assertThrows(NullPointerException.class, () -> Blake3.keyedHash(null, new byte[1]));
    assertThrows(NullPointerException.class, () -> Blake3.keyedHash(new byte[32], null));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKey(null, new byte[1]));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKey("c", null));
    assertThrows(NullPointerException.class, () -> Blake3.newKeyedHasher(null));
    assertThrows(NullPointerException.class, () -> Blake3.newDeriveKeyHasher(null));
    assertThrows(NullPointerException.class, () -> Blake3.hashFile(null));
    assertThrows(NullPointerException.class, () -> Blake3.toHex(null));
    assertThrows(NullPointerException.class, () -> Blake3.fromHex(null));
    Blake3Hasher h = Blake3.newHasher();
    assertThrows(NullPointerException.class, () -> h.update((byte[]) null));
    assertThrows(NullPointerException.class, () -> h.update(null, 0, 0));
    assertThrows(NullPointerException.class, () -> h.update((ByteBuffer) null));
    assertThrows(NullPointerException.class, () -> h.xof().read(null, 0, 0));
  }

  @Test
  void rangesAreChecked() {
    Blake3Hasher h = Blake3.newHasher();
    byte[] b = new byte[10];
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, -1, 2));
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, 0, -1));
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, 5, 6));
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, 11, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, 1, Integer.MAX_VALUE));
    assertThrows(IndexOutOfBoundsException.class, () -> h.update(b, Integer.MAX_VALUE, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3.hash(b, 3, 8));
    assertThrows(IndexOutOfBoundsException.class, () -> h.digest(b, 8, 3));
    assertThrows(IndexOutOfBoundsException.class, () -> h.xof().read(b, -1, 1));
    assertEquals(EMPTY, Blake3.toHex(h.digest()), "failed calls changed nothing");
  }

  @Test
  void lengthsAndKeysAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> Blake3.hash(new byte[1], -1));
    assertThrows(IllegalArgumentException.class, () -> Blake3.deriveKey("c", new byte[1], -1));
    assertThrows(IllegalArgumentException.class, () -> Blake3.newHasher().digest(-1));
    assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHash(new byte[31], new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHash(new byte[33], new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> Blake3.newKeyedHasher(new byte[0]));
    assertThrows(IllegalArgumentException.class, () -> Blake3.newHasher().xof().seek(-1));
    Blake3OutputReader xof = Blake3.newHasher().xof();
    xof.seek(Long.MAX_VALUE - 1);
    assertThrows(IllegalStateException.class, () -> xof.read(new byte[2]));
    assertEquals(0, Blake3.hash(new byte[5], 0).length);
  }

  /**
   * The hash written into an array is hash()'s, at its offset, with the bytes around it
   * untouched; also when the output overlaps the input it hashes.
   */
  @Test
  void hashIntoAnArray() {
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(99);
    int[] lengths = new int[80];
    for (int i = 0; i < 70; i++) {
      lengths[i] = i;
    }
    int[] more = {127, 128, 1023, 1024, 1025, 4096, 70_000, 1 << 20, 3, 64};
    System.arraycopy(more, 0, lengths, 70, more.length);
    for (int len : lengths) {
      byte[] in = new byte[len + 9];
      rnd.nextBytes(in);
      int off = rnd.nextInt(10);
      int used = len;
      byte[] want = Blake3.hash(in, off, used);
      byte[] out = new byte[50];
      rnd.nextBytes(out);
      byte[] before = out.clone();
      int at = rnd.nextInt(19);
      Blake3.hash(in, off, used, out, at);
      assertArrayEquals(want, Arrays.copyOfRange(out, at, at + 32), len + " bytes");
      assertArrayEquals(Arrays.copyOfRange(before, 0, at), Arrays.copyOfRange(out, 0, at), "before the hash");
      assertArrayEquals(Arrays.copyOfRange(before, at + 32, 50), Arrays.copyOfRange(out, at + 32, 50), "after it");
      if (used >= 32) { // the hash written over the first 32 bytes it was made from
        byte[] same = in.clone();
        Blake3.hash(same, off, used, same, off);
        assertArrayEquals(want, Arrays.copyOfRange(same, off, off + 32), len + " bytes, written over its input");
      }
    }
  }

  @Test
  void hexBothWays() {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    String hex = Blake3.toHex(all);
    assertTrue(hex.startsWith("000102") && hex.endsWith("fdfeff"));
    assertArrayEquals(all, Blake3.fromHex(hex));
    assertArrayEquals(all, Blake3.fromHex(hex.toUpperCase()));
    assertEquals(0, Blake3.fromHex("").length);
    assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex("abc"));
    assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex("zz"));
    assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex("0g"));
    assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex(" 0"));
    assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex("\uff10\uff10")); // fullwidth digits
  }

  @Test
  void stringsAreUtf8() {
    String s = "h\u00e9llo \u4e16\u754c \ud83d\ude00";
    assertArrayEquals(Blake3.hash(s.getBytes(StandardCharsets.UTF_8)), Blake3.hash(s));
    assertEquals(EMPTY, Blake3.toHex(Blake3.hash("")));
  }

  @Test
  void messageDigestThroughTheProvider() throws Exception {
    Provider p = new Blake3Provider();
    MessageDigest md = MessageDigest.getInstance("BLAKE3", p);
    assertEquals(32, md.getDigestLength());
    assertEquals(EMPTY, Blake3.toHex(md.digest()));
    byte[] in = Vectors.input(5000);
    md.update(in[0]);
    md.update(in, 1, 2000);
    MessageDigest clone = (MessageDigest) md.clone();
    md.update(ByteBuffer.wrap(in, 2001, 2999));
    assertArrayEquals(Blake3.hash(in), md.digest());
    assertEquals(EMPTY, Blake3.toHex(md.digest()), "digest() resets");
    clone.update(in, 2001, 2999);
    assertArrayEquals(Blake3.hash(in), clone.digest());

    boolean found = false;
    for (Provider sp : ServiceLoader.load(Provider.class)) {
      found |= sp instanceof Blake3Provider;
    }
    assertTrue(found, "ServiceLoader finds the provider");

    Security.addProvider(p);
    try {
      assertArrayEquals(Blake3.hash(in), MessageDigest.getInstance("BLAKE3").digest(in));
    } finally {
      Security.removeProvider(p.getName());
    }
  }

  @Test
  void manyThreadsAtOnce() throws Exception {
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<String>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int seed = t;
        results.add(pool.submit(() -> {
          Random r = new Random(seed);
          byte[] key = new byte[32];
          for (int i = 0; i < 200; i++) {
            byte[] in = new byte[r.nextInt(i % 20 == 0 ? 300_000 : 3000)];
            r.nextBytes(in);
            r.nextBytes(key);
            byte[] expected = StreamingTest.reference(in, Spec.iv(), 0, 32);
            if (!java.util.Arrays.equals(expected, Blake3.hash(in))) {
              return "hash mismatch, thread " + seed + " round " + i;
            }
            if (!java.util.Arrays.equals(StreamingTest.reference(in, Spec.keyWords(key), Spec.KEYED_HASH, 32),
                Blake3.keyedHash(key, in))) {
              return "keyed mismatch, thread " + seed + " round " + i;
            }
          }
          return "ok";
        }));
      }
      for (Future<String> f : results) {
        assertEquals("ok", f.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void hashFileEqualsHash(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    for (int len : new int[] {0, 1, 1024, 1025, 3 << 20}) {
      byte[] in = Vectors.input(len);
      java.nio.file.Path f = dir.resolve("f" + len);
      java.nio.file.Files.write(f, in);
      assertArrayEquals(Blake3.hash(in), Blake3.hashFile(f), "file of " + len + " bytes");
    }
    assertThrows(java.nio.file.NoSuchFileException.class, () -> Blake3.hashFile(dir.resolve("missing")));
    assertNotNull(Blake3.implementation());
  }
}
