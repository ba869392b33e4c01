package io.github.blake3fast.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bao command against the official vectors (test-vectors/bao): what it writes is checked
 * by the BLAKE3 hash of the official output, files and stdin/stdout alike; a verification
 * failure is status 1 and one line on stderr.
 */
class BaoCliTest {
  @TempDir
  Path dir;

  private static final class Run {
    int status;
    byte[] out;
    String err;

    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  private static Run run(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Run r = new Run();
    r.status = Bao.run(args, new ByteArrayInputStream(stdin), out, err);
    r.out = out.toByteArray();
    r.err = err.toString(StandardCharsets.UTF_8);
    return r;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> vectors() throws Exception {
    Path f = Paths.get(System.getProperty("blake3.vectors.dir", "../test-vectors"), "bao", "test_vectors.json");
    return (Map<String, Object>) jsonParse(Files.readString(f));
  }

  private static Object jsonParse(String s) throws Exception {
    // The test tree's small JSON reader lives in the parent package.
    java.lang.reflect.Method m = Class.forName("io.github.blake3fast.Json").getDeclaredMethod("parse", String.class);
    m.setAccessible(true);
    return m.invoke(null, s);
  }

  static byte[] input(int len) {
    byte[] b = new byte[len];
    for (int i = 0; i < len; i++) {
      b[i] = (byte) ((i / 4 + 1) >>> (8 * (i % 4)));
    }
    return b;
  }

  private static String hex(byte[] b) {
    return Blake3.toHex(Blake3.hash(b));
  }

  @Test
  @SuppressWarnings("unchecked")
  void vectorsThroughTheCommandLine() throws Exception {
    Map<String, Object> v = vectors();
    List<Map<String, Object>> encode = (List<Map<String, Object>>) v.get("encode");
    List<Map<String, Object>> outboard = (List<Map<String, Object>>) v.get("outboard");
    List<Map<String, Object>> slices = (List<Map<String, Object>>) v.get("slice");
    for (int i = 0; i < encode.size(); i++) {
      int len = ((Number) encode.get(i).get("input_len")).intValue();
      byte[] in = input(len);
      String hash = (String) encode.get(i).get("bao_hash");
      Path file = Files.write(dir.resolve("in" + len), in);
      Path enc = dir.resolve("enc" + len);
      Path ob = dir.resolve("ob" + len);

      Run h = run(in, "hash");
      assertEquals(hash + "\n", h.text());
      assertEquals(hash + "\n", run(new byte[0], "hash", file.toString()).text());

      assertEquals(0, run(new byte[0], "encode", file.toString(), enc.toString()).status);
      assertEquals(encode.get(i).get("encoded_blake3"), hex(Files.readAllBytes(enc)));
      assertEquals(0, run(in, "encode", "-", dir.resolve("enc-stdin").toString()).status);
      assertArrayEquals(Files.readAllBytes(enc), Files.readAllBytes(dir.resolve("enc-stdin")));
      assertEquals(0, run(new byte[0], "encode", file.toString(), "--outboard=" + ob).status);
      assertEquals(outboard.get(i).get("encoded_blake3"), hex(Files.readAllBytes(ob)));

      assertArrayEquals(in, run(new byte[0], "decode", hash, enc.toString()).out);
      assertArrayEquals(in, run(Files.readAllBytes(enc), "decode", hash).out);
      assertArrayEquals(in, run(Files.readAllBytes(enc), "decode", hash, "-", "-").out);
      assertArrayEquals(in, run(new byte[0], "decode", hash, file.toString(), "--outboard", ob.toString()).out);
      int start = len / 3;
      assertArrayEquals(Arrays.copyOfRange(in, start, Math.min(len, start + 100)),
          run(new byte[0], "decode", hash, enc.toString(), "--start=" + start, "--count=100").out);

      for (Map<String, Object> s : (List<Map<String, Object>>) slices.get(i).get("slices")) {
        String st = s.get("start").toString();
        String n = s.get("len").toString();
        Run cut = run(new byte[0], "slice", st, n, enc.toString());
        assertEquals(0, cut.status, cut.err);
        assertEquals(s.get("output_blake3"), hex(cut.out));
        assertArrayEquals(cut.out, run(new byte[0], "slice", st, n, file.toString(), "--outboard=" + ob).out);
        long a = Long.parseLong(st);
        long b = a + Long.parseLong(n);
        assertArrayEquals(Arrays.copyOfRange(in, (int) Math.min(a, len), (int) Math.min(b, len)),
            run(cut.out, "decode-slice", hash, st, n).out);
      }
    }
  }

  @Test
  void verificationFailureIsStatusOneAndOneLine() throws Exception {
    byte[] in = input(5000);
    Path file = Files.write(dir.resolve("in"), in);
    Path enc = dir.resolve("enc");
    assertEquals(0, run(new byte[0], "encode", file.toString(), enc.toString()).status);
    byte[] bad = Files.readAllBytes(enc);
    bad[bad.length - 1] ^= 1;
    String hash = Blake3.toHex(Blake3.hash(in));
    Run r = run(bad, "decode", hash);
    assertEquals(1, r.status);
    assertTrue(r.err.startsWith("Error: ") && r.err.endsWith("\n") && r.err.indexOf('\n') == r.err.length() - 1,
        r.err);
    assertTrue(r.err.contains("chunk 4"), r.err);
    Run wrong = run(Files.readAllBytes(enc), "decode", "00" + hash.substring(2));
    assertEquals(1, wrong.status);
    assertEquals(1, wrong.err.split("\n").length);
    assertEquals("Error: output must be a real file\n", run(in, "encode", "-", "-").err);
    assertEquals("Error: invalid hex\n", run(in, "decode", "xyz").err);
    assertEquals("Error: wrong length hash\n", run(in, "decode", "abcd").err);
    assertEquals(1, run(in, "frobnicate").status);
    assertEquals(Bao.USAGE, run(in, "--help").text());
  }
}
