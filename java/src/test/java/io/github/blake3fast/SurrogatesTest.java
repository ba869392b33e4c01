package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Strings that are not well-formed UTF-16 (issue 31): {@code hash(String)} encodes each unpaired
 * surrogate as U+FFFD, byte for byte what JavaScript's {@code TextEncoder} writes; a derive-key
 * context holding one is refused, on every path, before anything is hashed. On every engine, and
 * on the Java engine even where {@code -Dblake3.isaRuns.skip} leaves the chosen one alone.
 */
@Tag("engine")
class SurrogatesTest {
  /**
   * Strings with unpaired surrogates, the index of the first, and their bytes under the WHATWG
   * encoding standard's UTF-8 encoder: a surrogate that is not the high half of a high-low pair,
   * nor that pair's low half, is written as U+FFFD, EF BF BD. (Checked with node 18:
   * {@code Buffer.from(new TextEncoder().encode(s)).toString('hex')}.)
   */
  static Stream<Arguments> unpaired() {
    return Stream.of(
        Arguments.of("high at the start", "\uD800ab", 0, "efbfbd6162"),
        Arguments.of("high in the middle", "a\uD800b", 1, "61efbfbd62"),
        Arguments.of("high at the end", "ab\uD800", 2, "6162efbfbd"),
        Arguments.of("low at the start", "\uDC00ab", 0, "efbfbd6162"),
        Arguments.of("low in the middle", "a\uDFFFb", 1, "61efbfbd62"),
        Arguments.of("low at the end", "ab\uDC00", 2, "6162efbfbd"),
        Arguments.of("a reversed pair", "a\uDC00\uD800b", 1, "61efbfbdefbfbd62"),
        Arguments.of("a lone high, then a pair", "\uD800\uD800\uDC00", 0, "efbfbdf0908080"),
        Arguments.of("beside real question marks", "?\uD800?", 1, "3fefbfbd3f"),
        Arguments.of("after non-ASCII", "\u00e9\u4e2d\uDBFF", 2, "c3a9e4b8adefbfbd"),
        // Longer than a block, and than a chunk: each length goes its own way to the kernel.
        Arguments.of("low after a block", "x".repeat(70) + "\uDC00", 70, "78".repeat(70) + "efbfbd"),
        Arguments.of("high ending a chunk", "a".repeat(1021) + "\uD800", 1021, "61".repeat(1021) + "efbfbd"),
        Arguments.of("low past a chunk", "b".repeat(1100) + "\uDFFFc", 1100, "62".repeat(1100) + "efbfbd63"));
  }

  /** Well-formed strings, pairs among them: accepted, and encoded as {@code getBytes(UTF_8)}. */
  private static final String[] WELL_FORMED = {
    "", "ctx", "ctx?", "a\uD83D\uDE00b", "\uD800\uDC00", "\uDBFF\uDFFF", "\u00e9\u4e2d\uFFFD", "x".repeat(5000) + "\uD83D\uDE00",
    "?".repeat(64), "?".repeat(300), "q".repeat(1024), "\u00e9".repeat(400) + "?", "\uD83D\uDE00".repeat(200),
  };

  /** The engines to run on: those of {@link Engines#all()}, and the Java kernel when they lack it. */
  static List<Engines.Api> engines() {
    List<Engines.Api> all = new ArrayList<>(Engines.all());
    if (all.stream().noneMatch(e -> e.kernel instanceof JavaKernel)) {
      all.add(new Engines.Api(JavaKernel.ONE_CHUNK, false));
    }
    return all;
  }

  static Stream<Arguments> unpairedOnEveryEngine() {
    return engines().stream().flatMap(e -> unpaired().map(a -> Arguments.of(e, a.get()[0], a.get()[1], a.get()[2], a.get()[3])));
  }

  static Stream<Engines.Api> everyEngine() {
    return engines().stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("unpaired")
  void encodedAsTextEncoderDoes(String what, String s, int first, String whatwg) {
    assertEquals(whatwg, Blake3.toHex(Utf8.withReplacement(s)));
    assertEquals(first, Utf8.firstUnpaired(s));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("unpairedOnEveryEngine")
  void hashOfTheReplacedBytes(Engines.Api e, String what, String s, int first, String whatwg) {
    byte[] want = Blake3.fromHex(whatwg);
    assertArrayEquals(e.hash(want), e.hash(s));
    // what String.getBytes alone would have hashed: a '?' for each surrogate
    assertFalse(java.util.Arrays.equals(e.hash(s.getBytes(StandardCharsets.UTF_8)), e.hash(s)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("unpairedOnEveryEngine")
  void contextRefused(Engines.Api e, String what, String s, int first, String whatwg) {
    String at = "at index " + first + " ";
    byte[] material = new byte[100];
    assertRefused(at, () -> e.deriveKey(s, material));
    assertRefused(at, () -> e.deriveKey(s, material, 64));
    assertRefused(at, () -> e.newDeriveKeyHasher(s));
    assertRefused("at index " + (first + 7) + " ", () -> e.deriveKey("prefix " + s, material));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("unpaired")
  void hazmatContextRefused(String what, String s, int first, String whatwg) {
    assertRefused("at index " + first + " ", () -> Blake3Hazmat.Mode.deriveKey(s));
  }

  /** Refused before anything else: a null material or bad length does not get in first. */
  @Test
  void contextCheckedFirst() {
    assertRefused("at index 3 ", () -> Blake3.deriveKey("ctx\uD800", null));
    assertRefused("at index 3 ", () -> Blake3.deriveKey("ctx\uD800", new byte[1], -1));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Blake3.deriveKey("ctx\uDC00x", new byte[1]));
    assertEquals("context is not well-formed UTF-16: an unpaired low surrogate U+DC00 at index 3 (of 5 chars)", e.getMessage());
    assertThrows(NullPointerException.class, () -> Blake3.deriveKey(null, new byte[1]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyEngine")
  void wellFormedAccepted(Engines.Api e) {
    byte[] material = "material".getBytes(StandardCharsets.UTF_8);
    for (String s : WELL_FORMED) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
      assertArrayEquals(utf8, Utf8.wellFormed(s, "context"));
      assertArrayEquals(utf8, Utf8.withReplacement(s));
      assertEquals(-1, Utf8.firstUnpaired(s));
      assertArrayEquals(e.hash(utf8), e.hash(s));
      // the context key is the hash of the context's bytes in DERIVE_KEY_CONTEXT mode
      byte[] key = new byte[32];
      OneShot.hash(JavaKernel.ONE_CHUNK, utf8, 0, utf8.length, Spec.iv(), Spec.DERIVE_KEY_CONTEXT, key, 0, 32);
      byte[] want = new byte[32];
      OneShot.hash(JavaKernel.ONE_CHUNK, material, 0, material.length, Spec.keyWords(key), Spec.DERIVE_KEY_MATERIAL, want, 0, 32);
      assertArrayEquals(want, e.deriveKey(s, material));
      assertArrayEquals(want, e.newDeriveKeyHasher(s).update(material).digest());
    }
  }

  /** Long strings, Latin-1, UTF-16 and with a lone surrogate far in. */
  @Test
  void longStrings() {
    int n = 4096;
    String latin1 = "caf\u00e9 ".repeat(n);
    String utf16 = "x".repeat(n) + "\u4e2d";
    String lone = "x".repeat(n) + "\uD800" + "y".repeat(n);
    assertArrayEquals(latin1.getBytes(StandardCharsets.UTF_8), Utf8.withReplacement(latin1));
    assertArrayEquals(utf16.getBytes(StandardCharsets.UTF_8), Utf8.withReplacement(utf16));
    byte[] want = ("x".repeat(n) + "\uFFFD" + "y".repeat(n)).getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(want, Utf8.withReplacement(lone));
    for (Engines.Api e : engines()) {
      assertArrayEquals(e.hash(want), e.hash(lone), e.toString());
    }
    assertRefused("at index " + n + " ", () -> Blake3.deriveKey(lone, new byte[1]));
  }

  /** The collision the issue reported: a lone surrogate no longer hashes as '?'. */
  @Test
  void noLongerAQuestionMark() {
    assertFalse(java.util.Arrays.equals(Blake3.hash("?"), Blake3.hash("\uDFFF")));
    assertArrayEquals(Blake3.hash("\uFFFD"), Blake3.hash("\uDFFF"));
  }

  private static void assertRefused(String messagePart, Runnable r) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
    assertTrue(e.getMessage().startsWith("context is not well-formed UTF-16: "), e.getMessage());
    assertTrue(e.getMessage().contains(messagePart), e.getMessage());
  }
}
