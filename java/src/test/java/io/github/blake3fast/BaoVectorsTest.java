package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bao crate's official vectors (test-vectors/bao/test_vectors.json, a copy: nothing here
 * reads ../shared), on every engine: hash, encode, outboard, seek and slice cases, every listed
 * corruption (each must fail with a Blake3BaoException) and a hash with its first byte flipped.
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

  static Stream<Arguments> cases(String name) {
    return Engines.all().stream().flatMap(e -> section(name).stream().map(c -> Arguments.of(e, c)));
  }

  static Stream<Arguments> hashCases() {
    return cases("hash");
  }

  static Stream<Arguments> encodeCases() {
    return cases("encode");
  }

  static Stream<Arguments> outboardCases() {
    return cases("outboard");
  }

  static Stream<Arguments> seekCases() {
    return cases("seek");
  }

  static Stream<Arguments> sliceCases() {
    return cases("slice");
  }

  static Blake3Bao bao(Engines.Api e) {
    return Blake3Bao.standard().withKernel(e.kernel);
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

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("hashCases")
  void hash(Engines.Api e, Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] expected = Blake3.fromHex((String) c.get("bao_hash"));
    assertArrayEquals(expected, Blake3.hash(in));
    assertArrayEquals(expected, bao(e).outboard(java.nio.ByteBuffer.wrap(in), java.io.OutputStream.nullOutputStream()));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("encodeCases")
  void encode(Engines.Api e, Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] enc = bao(e).encode(in);
    assertEquals(num(c, "output_len"), enc.length);
    assertEquals(c.get("encoded_blake3"), Blake3.toHex(Blake3.hash(enc)));
    assertArrayEquals(in, bao(e).decode(hash, enc));
    for (Number at : nums(c, "corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao(e).decode(hash, flipped(enc, at.intValue())), "corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    assertThrows(Blake3BaoException.class, () -> bao(e).decode(flipped(hash, 0), enc));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("outboardCases")
  void outboard(Engines.Api e, Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] ob = bao(e).outboard(in);
    assertEquals(num(c, "output_len"), ob.length);
    assertEquals(c.get("encoded_blake3"), Blake3.toHex(Blake3.hash(ob)));
    assertArrayEquals(in, bao(e).decodeOutboard(hash, in, ob));
    for (Number at : nums(c, "outboard_corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao(e).decodeOutboard(hash, in, flipped(ob, at.intValue())),
          "outboard corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    for (Number at : nums(c, "input_corruptions")) {
      assertThrows(Blake3BaoException.class, () -> bao(e).decodeOutboard(hash, flipped(in, at.intValue()), ob),
          "input corruption at " + at);
      CORRUPTIONS.incrementAndGet();
    }
    assertThrows(Blake3BaoException.class, () -> bao(e).decodeOutboard(flipped(hash, 0), in, ob));
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("seekCases")
  void seek(Engines.Api e, Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.hash(in);
    byte[] enc = bao(e).encode(in);
    byte[] ob = bao(e).outboard(in);
    for (Number n : nums(c, "seek_offsets")) {
      long at = n.longValue();
      byte[] rest = Arrays.copyOfRange(in, (int) Math.min(at, in.length), in.length);
      try (Blake3BaoDecoder d = bao(e).decoder(hash, enc)) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "combined, seek to " + at);
      }
      try (Blake3BaoDecoder d = bao(e).outboardDecoder(hash, in, ob)) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "outboard, seek to " + at);
        assertEquals(in.length, d.length());
      }
      try (Blake3BaoDecoder d = bao(e).decoder(hash, new ByteArrayInputStream(enc))) {
        d.seek(at);
        assertArrayEquals(rest, d.readAllBytes(), "combined stream, seek to " + at);
      }
    }
    CASES.incrementAndGet();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("sliceCases")
  @SuppressWarnings("unchecked")
  void slice(Engines.Api e, Map<String, Object> c) throws Exception {
    byte[] in = input(num(c, "input_len"));
    byte[] hash = Blake3.fromHex((String) c.get("bao_hash"));
    byte[] enc = bao(e).encode(in);
    byte[] ob = bao(e).outboard(in);
    for (Map<String, Object> s : (List<Map<String, Object>>) c.get("slices")) {
      long start = ((Number) s.get("start")).longValue();
      long len = ((Number) s.get("len")).longValue();
      byte[] slice = bao(e).slice(enc, start, len);
      assertEquals(num(s, "output_len"), slice.length, "slice " + s);
      assertEquals(s.get("output_blake3"), Blake3.toHex(Blake3.hash(slice)));
      assertArrayEquals(slice, bao(e).sliceOutboard(in, ob, start, len));
      byte[] expected = Arrays.copyOfRange(in, (int) Math.min(start, in.length),
          (int) Math.min(start + len, in.length));
      assertArrayEquals(expected, bao(e).decodeSlice(hash, slice, start, len));
      for (Number at : nums(s, "corruptions")) {
        assertThrows(Blake3BaoException.class, () -> bao(e).decodeSlice(hash, flipped(slice, at.intValue()), start, len),
            "slice " + s + " corruption at " + at);
        CORRUPTIONS.incrementAndGet();
      }
      assertThrows(Blake3BaoException.class, () -> bao(e).decodeSlice(flipped(hash, 0), slice, start, len));
    }
    CASES.incrementAndGet();
  }

  @AfterAll
  static void counts() {
    System.out.println("BaoVectorsTest: " + CASES.get() + " cases and " + CORRUPTIONS.get()
        + " corruptions passed over engines " + Engines.all());
  }
}
