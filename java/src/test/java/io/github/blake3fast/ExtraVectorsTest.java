package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * test-vectors/extra_vectors.json (made with Debian's b3sum): output lengths up to 10 KiB and
 * 64-byte windows at offsets up to 2^32 + 7, read through the output reader's seek; on every
 * engine ({@link Engines}).
 */
@Tag("engine")
class ExtraVectorsTest {
  static List<Engines.Api> engines() {
    return Engines.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  @SuppressWarnings("unchecked")
  void everyCase(Engines.Api e) {
    List<Object> cases = (List<Object>) Vectors.json(Vectors.dir().resolve("extra_vectors.json")).get("cases");
    assertTrue(cases.size() > 300, "cases: " + cases.size());
    int checked = 0;
    for (Object o : cases) {
      Map<String, Object> c = (Map<String, Object>) o;
      String mode = (String) c.get("mode");
      int inputLen = ((Number) c.get("input_len")).intValue();
      long offset = ((Number) c.get("offset")).longValue();
      String expected = (String) c.get("output");
      byte[] in = Vectors.input(inputLen);
      Blake3Hasher h;
      switch (mode) {
        case "hash":
          h = e.newHasher();
          break;
        case "keyed_hash":
          h = e.newKeyedHasher(Vectors.key());
          break;
        case "derive_key":
          h = e.newDeriveKeyHasher(Vectors.CONTEXT);
          break;
        default:
          throw new AssertionError("unknown mode " + mode);
      }
      h.update(in);
      byte[] out = new byte[expected.length() / 2];
      String where = mode + " input_len=" + inputLen + " offset=" + offset + " length=" + out.length;
      Supplier<String> what = () -> mode.equals("derive_key")
          ? where + ", " + ReliabilityKit.deriveDiagnosis(h, Vectors.CONTEXT) : where;
      if (offset == 0) {
        assertEquals(expected, Blake3.toHex(h.digest(out.length)), what);
      }
      Blake3OutputReader xof = h.xof();
      xof.seek(offset);
      xof.read(out);
      assertEquals(expected, Blake3.toHex(out), what);
      checked++;
    }
    System.out.println("ExtraVectorsTest: " + checked + " cases, engine " + e);
  }
}
