package io.github.blake3fast.bao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Vectors;
import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bao crate's official vectors (test-vectors/bao/test_vectors.json, a copy: nothing here
 * reads ../shared) through the public API, on the engine this JVM chose (tag "engine": the
 * per-engine surefire runs repeat them on the Java and Vector API engines): hash, encode,
 * outboard, seek and slice cases, every listed corruption (each must fail with a
 * Blake3BaoException) and a hash with its first byte flipped.
 */
@Tag("engine")
class BaoVectorsTest {
  private static final Map<String, Object> VECTORS = Vectors.json(Vectors.dir().resolve("bao/test_vectors.json"));
  private static final java.util.concurrent.atomic.AtomicInteger CASES = new java.util.concurrent.atomic.AtomicInteger();
  private static final java.util.concurrent.atomic.AtomicInteger CORRUPTIONS =
      new java.util.concurrent.atomic.AtomicInteger();

  /** The vectors' input: a 4-byte little-endian counter from 1, cut to the length. */
  static byte[] input(int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      int word = i / 4 + 1;
      b[i] = (byte) (word >>> (8 * (i % 4)));
    }
    return b;
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> section(String name) {
    return (List<Map<String, Object>>) VECTORS.get(name);
  }

  static int num(Map<String, Object> m, String k) {
    return ((Number) m.get(k)).intValue();
  }

  @SuppressWarnings("unchecked")
  static List<Number> nums(Map<String, Object> m, String k) {
    return (List<Number>) m.get(k);
  }

  static Stream<Map<String, Object>> cases(String name) {
    return section(name).stream();
  }

  static Stream<Map<String, Object>> hashCases() {
    return cases("hash");
  }

  static Stream<Map<String, Object>> encodeCases() {
    return cases("encode");
  }

  static Stream<Map<String, Object>> outboardCases() {
    return cases("outboard");
  }

  static Stream<Map<String, Object>> seekCases() {
    return cases("seek");
  }

  static Stream<Map<String, Object>> sliceCases() {
    return cases("slice");
  }

  static Blake3Bao bao() {
    return Blake3Bao.standard();
  }

  static byte[] flipped(byte[] b, int at) {
    byte[] c = b.clone();
    c[at] ^= 1;
    return c;
  }

  @Test
  void everySectionIsThere() {
    for (String s : new String[] {"hash", "encode", "outboard", "seek", "slice"}) {
      assertEquals(13, section(s).size(), s);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("hashCases")
  void hash(Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] expected = Blake3.fromHex((String) c.get("bao_hash"));
    assertArrayEquals(expected, Blake3.hash(in));
    assertArrayEquals(expected, bao().outboard(java.nio.ByteBuffer.wrap(in), java.io.OutputStream.nullOutputStream()));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("encodeCases")
  void encode(Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] enc = bao().encode(in);
    assertEquals(num(c, "output_len"), enc.length);
    assertEquals(c.get("encoded_blake3"), Blake3.toHex(Blake3.hash(enc)));
    assertArrayEquals(in, bao().decode(hash, enc));
    for (Number at : nums(c, "corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao().decode(hash, flipped(enc, at.intValue())), "corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    assertThrows(Blake3BaoException.class, () -> bao().decode(flipped(hash, 0), enc));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outboardCases")
  void outboard(Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] ob = bao().outboard(in);
    assertEquals(num(c, "output_len"), ob.length);
    assertEquals(c.get("encoded_blake3"), Blake3.toHex(Blake3.hash(ob)));
    assertArrayEquals(in, bao().decodeOutboard(hash, in, ob));
    for (Number at : nums(c, "outboard_corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao().decodeOutboard(hash, in, flipped(ob, at.intValue())),
          "outboard corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    for (Number at : nums(c, "input_corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao().decodeOutboard(hash, flipped(in, at.intValue()), ob),
          "input corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    assertThrows(Blake3BaoException.class, () -> bao().decodeOutboard(flipped(hash, 0), in, ob));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("seekCases")
  void seek(Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.hash(in);
    byte[] enc = bao().encode(in);
    byte[] ob = bao().outboard(in);
    for (Number n : nums(c, "seek_offsets")) {
      long at = n.longValue();
      byte[] rest = Arrays.copyOfRange(in, (int) Math.min(at, in.length), in.length);
      try (Blake3BaoDecoder d = bao().decoder(hash, enc)) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "combined, seek to " + at);
      }
      try (Blake3BaoDecoder d = bao().outboardDecoder(hash, in, ob)) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "outboard, seek to " + at);
        assertEquals(in.length, d.length());
      }
      try (Blake3BaoDecoder d = bao().decoder(hash, new ByteArrayInputStream(enc))) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "combined stream, seek to " + at);
      }
    }
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sliceCases")
  @SuppressWarnings("unchecked")
  void slice(Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] enc = bao().encode(in);
    byte[] ob = bao().outboard(in);
    for (Map<String, Object> s : (List<Map<String, Object>>) c.get("slices")) {
      long start = ((Number) s.get("start")).longValue();
      long len = ((Number) s.get("len")).longValue();
      byte[] slice = bao().slice(enc, start, len);
      assertEquals(num(s, "output_len"), slice.length, "slice " + s);
      assertEquals(s.get("output_blake3"), Blake3.toHex(Blake3.hash(slice)));
      assertArrayEquals(slice, bao().sliceOutboard(in, ob, start, len));
      byte[] expected = Arrays.copyOfRange(in, (int) Math.min(start, in.length),
          (int) Math.min(start + len, in.length));
      assertArrayEquals(expected, bao().decodeSlice(hash, slice, start, len));
      for (Number at : nums(s, "corruptions")) {
        assertThrows(Blake3BaoException.class, () -> bao().decodeSlice(hash, flipped(slice, at.intValue()), start, len),
            "slice " + s + " corruption at " + at);
        CORRUPTIONS.incrementAndGet();
      }
      assertThrows(Blake3BaoException.class, () -> bao().decodeSlice(flipped(hash, 0), slice, start, len));
    }
    CASES.incrementAndGet();
  }

  @AfterAll
  static void counts() {
    System.out.println("BaoVectorsTest: " + CASES.get() + " cases and " + CORRUPTIONS.get()
        + " corruptions passed on engine " + Blake3.implementation());
  }
}
