package io.github.blake3fast;

import io.github.blake3fast.bao.Blake3Bao;
import io.github.blake3fast.bao.Blake3BaoException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A self-contained check of the library as a user's JVM sees it, for platforms/test-all.sh,
 * which runs it in each architecture's own JVM under qemu:
 *
 * <pre>
 *   java -cp blake3-fast.jar:test-classes -Dexpect.impl=native-neon \
 *       io.github.blake3fast.PlatformCheck path/to/test_vectors.json
 * </pre>
 *
 * <p>Checks: {@link Blake3#implementation()} against {@code -Dexpect.impl} (a value starting
 * with "java" matches any Java-engine description); the official vectors in all three modes
 * (131-byte XOF, the default 32 bytes, streaming with random split points, XOF reads after a
 * seek); pseudo-random inputs hashed one-shot, streamed in random pieces (heap and direct
 * buffers) and through a small independent reference implementation below. No JUnit and no
 * other dependency, so it starts quickly under emulation. Prints "N passed, N failed" and
 * exits 0 only if nothing failed. {@code -Dseed=N} repeats a run; {@code -Dcheck.scale=N}
 * (default 1) multiplies the amount of random data.
 */
public final class PlatformCheck {
  private int passed;
  private int failed;
  private final Random random;

  private PlatformCheck(long seed) {
    this.random = new Random(seed);
  }

  public static void main(String[] args) throws IOException {
    long seed = Long.getLong("seed", System.nanoTime());
    int scale = Integer.getInteger("check.scale", 1);
    String vectors = args.length > 0 ? args[0] : "test-vectors/test_vectors.json";
    String expect = System.getProperty("expect.impl");
    String impl = Blake3.implementation();
    System.out.println("PlatformCheck: java " + System.getProperty("java.version") + " ("
        + System.getProperty("java.vm.name") + "), " + System.getProperty("os.arch")
        + ", seed " + seed);
    System.out.println("implementation: " + impl);

    PlatformCheck c = new PlatformCheck(seed);
    if (expect != null && !expect.isEmpty()) {
      boolean ok = expect.startsWith("java") ? impl.startsWith("java") : impl.equals(expect);
      c.check(ok, "implementation() is '" + impl + "', expected '" + expect + "'");
    }
    try {
      c.officialVectors(Paths.get(vectors));
    } catch (IOException | RuntimeException e) {
      c.check(false, "reading " + vectors + ": " + e);
    }
    Path bao = Paths.get(vectors).resolveSibling("bao").resolve("test_vectors.json");
    if (Files.isRegularFile(bao)) {
      try {
        c.baoVectors(bao);
      } catch (IOException | RuntimeException e) {
        c.check(false, "Bao vectors " + bao + ": " + e);
      }
    }
    c.randomInputs(scale);
    c.strings();
    c.largeInput();
    System.out.println(c.passed + " passed, " + c.failed + " failed");
    System.exit(c.failed == 0 && c.passed > 0 ? 0 : 1);
  }

  /** Every vector input at once through the batch API, as arrays and packed, in all modes. */
  private void batch(List<byte[]> inputs, List<byte[]> hashes, List<byte[]> keyeds, List<byte[]> derives, byte[] key,
      String context) {
    byte[][] in = inputs.toArray(new byte[0][]);
    int total = 0;
    for (byte[] b : in) {
      total += b.length;
    }
    byte[] data = new byte[total];
    int[] offsets = new int[in.length];
    int[] lengths = new int[in.length];
    for (int i = 0, at = 0; i < in.length; at += in[i].length, i++) {
      System.arraycopy(in[i], 0, data, at, in[i].length);
      offsets[in.length - 1 - i] = at; // packed in reverse order: ranges need not follow the list
      lengths[in.length - 1 - i] = in[i].length;
    }
    byte[][] plain = Blake3.hashMany(in);
    byte[][] keyed = Blake3.keyedHashMany(key, in);
    byte[][] derived = Blake3.deriveKeyMany(context, in);
    byte[] packed = new byte[32 * in.length];
    Blake3.hashMany(data, offsets, lengths, packed);
    for (int i = 0; i < in.length; i++) {
      String at = " (batch, input_len " + in[i].length + ")";
      check(Arrays.equals(plain[i], hashes.get(i)), "hashMany" + at);
      check(Arrays.equals(keyed[i], keyeds.get(i)), "keyedHashMany" + at);
      check(Arrays.equals(derived[i], derives.get(i)), "deriveKeyMany" + at);
      int j = in.length - 1 - i;
      check(Arrays.equals(Arrays.copyOfRange(packed, 32 * j, 32 * j + 32), hashes.get(i)), "hashMany, packed" + at);
    }
  }

  private void check(boolean ok, String what) {
    if (ok) {
      passed++;
    } else {
      failed++;
      if (failed <= 30) {
        System.out.println("FAIL: " + what);
      }
    }
  }

  // ---- Bao ---------------------------------------------------------------------------------

  /**
   * The bao crate's vectors (test-vectors/bao, beside the BLAKE3 vectors): encodings and
   * outboards by their hash, a decode of each, and every listed corruption refused.
   */
  @SuppressWarnings("unchecked")
  private void baoVectors(Path file) throws IOException {
    Map<String, Object> top = (Map<String, Object>) Json.parse(new String(Files.readAllBytes(file),
        StandardCharsets.UTF_8));
    Blake3Bao bao = Blake3Bao.standard();
    int before = failed;
    int corruptions = 0;
    for (String section : new String[] {"encode", "outboard"}) {
      for (Object o : (List<Object>) top.get(section)) {
        Map<String, Object> tc = (Map<String, Object>) o;
        int len = ((Number) tc.get("input_len")).intValue();
        byte[] in = new byte[len];
        for (int i = 0; i < len; i++) {
          in[i] = (byte) ((i / 4 + 1) >>> (8 * (i % 4)));
        }
        byte[] hash = Blake3.fromHex((String) tc.get("bao_hash"));
        boolean combined = section.equals("encode");
        byte[] enc = combined ? bao.encode(in) : bao.outboard(in);
        check(Blake3.toHex(Blake3.hash(enc)).equals(tc.get("encoded_blake3")), "bao " + section + " " + len);
        try {
          byte[] out = combined ? bao.decode(hash, enc) : bao.decodeOutboard(hash, in, enc);
          check(Arrays.equals(in, out), "bao decode " + section + " " + len);
        } catch (Blake3BaoException e) {
          check(false, "bao decode " + section + " " + len + ": " + e.getMessage());
        }
        for (Object at : (List<Object>) tc.get(combined ? "corruptions" : "outboard_corruptions")) {
          byte[] bad = enc.clone();
          bad[((Number) at).intValue()] ^= 1;
          try {
            if (combined) {
              bao.decode(hash, bad);
            } else {
              bao.decodeOutboard(hash, in, bad);
            }
            check(false, "bao " + section + " " + len + " corrupted at " + at + " decoded");
          } catch (Blake3BaoException expected) {
            corruptions++;
            check(true, "refused");
          }
        }
      }
    }
    System.out.println("Bao vectors: encode and outboard, " + corruptions + " corruptions refused: "
        + (failed == before ? "ok" : "FAILED"));
  }

  // ---- the official vectors ----------------------------------------------------------------

  private void officialVectors(Path file) throws IOException {
    Object parsed = Json.parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    @SuppressWarnings("unchecked")
    Map<String, Object> top = (Map<String, Object>) parsed;
    byte[] key = ((String) top.get("key")).getBytes(StandardCharsets.US_ASCII);
    String context = (String) top.get("context_string");
    @SuppressWarnings("unchecked")
    List<Object> cases = (List<Object>) top.get("cases");
    int before = failed;
    List<byte[]> inputs = new ArrayList<>();
    List<byte[]> hashes = new ArrayList<>();
    List<byte[]> keyeds = new ArrayList<>();
    List<byte[]> derives = new ArrayList<>();
    for (Object o : cases) {
      @SuppressWarnings("unchecked")
      Map<String, Object> tc = (Map<String, Object>) o;
      int len = ((Number) tc.get("input_len")).intValue();
      byte[] input = new byte[len];
      for (int i = 0; i < len; i++) {
        input[i] = (byte) (i % 251);
      }
      byte[] hash = Blake3.fromHex((String) tc.get("hash"));
      byte[] keyed = Blake3.fromHex((String) tc.get("keyed_hash"));
      byte[] derive = Blake3.fromHex((String) tc.get("derive_key"));
      int n = hash.length;
      String at = " (input_len " + len + ")";
      inputs.add(input);
      hashes.add(Arrays.copyOf(hash, 32));
      keyeds.add(Arrays.copyOf(keyed, 32));
      derives.add(Arrays.copyOf(derive, 32));

      if (len <= 8193) { // the reference itself, on the small cases (it is slow when interpreted)
        check(Arrays.equals(Reference.hash(input, Reference.IV, 0, n), hash), "reference hash" + at);
      }
      check(Arrays.equals(Blake3.hash(input, n), hash), "hash" + at);
      check(Arrays.equals(Blake3.hash(input), Arrays.copyOf(hash, 32)), "hash, 32 bytes" + at);
      check(Arrays.equals(Blake3.keyedHash(key, input, n), keyed), "keyed_hash" + at);
      check(Arrays.equals(Blake3.keyedHash(key, input), Arrays.copyOf(keyed, 32)), "keyed_hash, 32 bytes" + at);
      check(Arrays.equals(Blake3.deriveKey(context, input, n), derive), "derive_key" + at);
      check(Arrays.equals(Blake3.deriveKey(context, input), Arrays.copyOf(derive, 32)), "derive_key, 32 bytes" + at);

      check(Arrays.equals(stream(Blake3.newHasher(), input).digest(n), hash), "hash, streamed" + at);
      check(Arrays.equals(stream(Blake3.newKeyedHasher(key), input).digest(n), keyed), "keyed_hash, streamed" + at);
      check(Arrays.equals(stream(Blake3.newDeriveKeyHasher(context), input).digest(n), derive),
          "derive_key, streamed" + at);

      int pos = random.nextInt(n);
      Blake3OutputReader reader = stream(Blake3.newHasher(), input).xof();
      reader.seek(pos);
      byte[] tail = new byte[n - pos];
      reader.read(tail, 0, tail.length);
      check(Arrays.equals(tail, Arrays.copyOfRange(hash, pos, n)), "xof after seek(" + pos + ")" + at);
    }
    batch(inputs, hashes, keyeds, derives, key, context);
    check(cases.size() >= 30, "the vector file has " + cases.size() + " cases");
    System.out.println("official vectors: " + cases.size() + " cases, "
        + (failed == before ? "ok" : (failed - before) + " failed"));
  }

  /** Feeds input to the hasher in pieces split at random points, some as ByteBuffers. */
  private Blake3Hasher stream(Blake3Hasher h, byte[] input) {
    int off = 0;
    while (off < input.length) {
      int left = input.length - off;
      int n;
      switch (random.nextInt(4)) {
        case 0: n = 1 + random.nextInt(Math.min(left, 64)); break;
        case 1: n = 1 + random.nextInt(Math.min(left, 2048)); break;
        case 2: n = Math.min(left, 1024 * (1 + random.nextInt(20))); break; // chunk-aligned runs
        default: n = 1 + random.nextInt(left); break;
      }
      switch (random.nextInt(3)) {
        case 0: {
          ByteBuffer b = ByteBuffer.allocateDirect(n);
          b.put(input, off, n).flip();
          h.update(b);
          break;
        }
        case 1:
          h.update(ByteBuffer.wrap(input, off, n));
          break;
        default:
          h.update(input, off, n);
          break;
      }
      off += n;
    }
    return h;
  }

  // ---- random inputs, against the reference below --------------------------------------------

  private void randomInputs(int scale) {
    int before = failed;
    int[] fixed = {0, 1, 63, 64, 65, 1023, 1024, 1025, 2048, 4096, 4097, 8192, 16384, 16385,
        32768, 65536, 65537, 131072};
    List<Integer> lengths = new ArrayList<>();
    for (int l : fixed) {
      lengths.add(l);
    }
    for (int i = 0; i < 12 * scale; i++) {
      lengths.add(random.nextInt(random.nextBoolean() ? 4096 : 70000));
    }
    for (int len : lengths) {
      byte[] input = new byte[len];
      random.nextBytes(input);
      byte[] key = new byte[32];
      random.nextBytes(key);
      int outLen = 1 + random.nextInt(200);
      String at = " (length " + len + ", output " + outLen + ")";

      byte[] expected = Reference.hash(input, Reference.IV, 0, outLen);
      check(Arrays.equals(Blake3.hash(input, outLen), expected), "hash vs reference" + at);
      check(Arrays.equals(stream(Blake3.newHasher(), input).digest(outLen), expected),
          "streamed hash vs reference" + at);
      byte[] keyedExpected = Reference.hash(input, Reference.words(key), Reference.KEYED_HASH, 32);
      check(Arrays.equals(Blake3.keyedHash(key, input), keyedExpected), "keyed_hash vs reference" + at);

      int off = len == 0 ? 0 : random.nextInt(len + 1);
      check(Arrays.equals(Blake3.hash(Arrays.copyOfRange(input, off, len), 32),
              Blake3.newHasher().update(input, off, len - off).digest()),
          "hash of a slice (offset " + off + ")" + at);
    }
    System.out.println("random inputs vs reference: " + lengths.size() + " lengths, "
        + (failed == before ? "ok" : (failed - before) + " failed"));
  }

  /**
   * {@code hash(String)} against the reference on the bytes the WHATWG encoder writes: strings of
   * a block, a chunk and more of UTF-8 (each length takes its own way into the native call, which
   * tests for '?' there), with no '?', with real ones, and with unpaired surrogates (U+FFFD).
   */
  private void strings() {
    int before = failed;
    String[] parts = {"a", "\u00e9", "\u4e2d", "\uD83D\uDE00", "?"};
    int n = 0;
    for (int chars : new int[] {1, 20, 64, 300, 1100}) {
      for (int kind = 0; kind < 3; kind++) {
        StringBuilder text = new StringBuilder();
        StringBuilder whatwg = new StringBuilder();
        while (text.length() < chars) {
          String p = parts[random.nextInt(kind == 0 ? parts.length - 1 : parts.length)];
          text.append(p);
          whatwg.append(p);
        }
        if (kind == 2) { // an unpaired surrogate, low or high, somewhere
          int at = random.nextInt(text.length() + 1);
          if (at > 0 && Character.isHighSurrogate(text.charAt(at - 1))) {
            at--; // not between the halves of a pair
          }
          char lone = random.nextBoolean() ? '\uDC01' : '\uDBFE';
          text.insert(at, lone);
          whatwg.insert(at, '\uFFFD');
        }
        byte[] want = Reference.hash(whatwg.toString().getBytes(StandardCharsets.UTF_8), Reference.IV, 0, 32);
        check(Arrays.equals(Blake3.hash(text.toString()), want),
            "hash(String) vs reference (" + chars + " chars, " + (kind == 0 ? "no '?'" : kind == 1 ? "'?'" : "unpaired") + ")");
        n++;
      }
    }
    System.out.println("strings vs reference: " + n + " strings, " + (failed == before ? "ok" : (failed - before) + " failed"));
  }

  /** A few MiB one-shot vs streamed: engages the widest kernel and the parallel split. */
  private void largeInput() {
    int before = failed;
    byte[] input = new byte[(3 << 20) + 12345];
    random.nextBytes(input);
    byte[] oneShot = Blake3.hash(input, 64);
    Blake3Hasher h = Blake3.newHasher();
    int off = 0;
    while (off < input.length) {
      int n = Math.min(input.length - off, 1 + random.nextInt(300_000));
      h.update(input, off, n);
      off += n;
    }
    check(Arrays.equals(h.digest(64), oneShot), "3 MiB one-shot vs streamed");
    Blake3Hasher copy = Blake3.newHasher().update(input, 0, 1 << 20).copy();
    copy.update(input, 1 << 20, input.length - (1 << 20));
    check(Arrays.equals(copy.digest(64), oneShot), "3 MiB through copy()");
    System.out.println("large input: " + (failed == before ? "ok" : (failed - before) + " failed"));
  }

  // ---- an independent, deliberately simple BLAKE3 (one chunk at a time, a CV stack) ---------

  static final class Reference {
    static final int[] IV = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F,
        0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
    static final int CHUNK_START = 1, CHUNK_END = 2, PARENT = 4, ROOT = 8, KEYED_HASH = 16;
    private static final int[] PERM = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

    static int[] words(byte[] b) {
      int[] w = new int[b.length / 4];
      for (int i = 0; i < w.length; i++) {
        w[i] = (b[4 * i] & 0xFF) | (b[4 * i + 1] & 0xFF) << 8 | (b[4 * i + 2] & 0xFF) << 16
            | (b[4 * i + 3] & 0xFF) << 24;
      }
      return w;
    }

    private static void g(int[] v, int a, int b, int c, int d, int x, int y) {
      v[a] += v[b] + x;
      v[d] = Integer.rotateRight(v[d] ^ v[a], 16);
      v[c] += v[d];
      v[b] = Integer.rotateRight(v[b] ^ v[c], 12);
      v[a] += v[b] + y;
      v[d] = Integer.rotateRight(v[d] ^ v[a], 8);
      v[c] += v[d];
      v[b] = Integer.rotateRight(v[b] ^ v[c], 7);
    }

    /** The 16-word output of one compression. */
    static int[] compress(int[] cv, int[] block, long counter, int len, int flags) {
      int[] v = {cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7], IV[0], IV[1], IV[2],
          IV[3], (int) counter, (int) (counter >>> 32), len, flags};
      int[] m = block.clone();
      for (int r = 0; r < 7; r++) {
        g(v, 0, 4, 8, 12, m[0], m[1]);
        g(v, 1, 5, 9, 13, m[2], m[3]);
        g(v, 2, 6, 10, 14, m[4], m[5]);
        g(v, 3, 7, 11, 15, m[6], m[7]);
        g(v, 0, 5, 10, 15, m[8], m[9]);
        g(v, 1, 6, 11, 12, m[10], m[11]);
        g(v, 2, 7, 8, 13, m[12], m[13]);
        g(v, 3, 4, 9, 14, m[14], m[15]);
        int[] p = new int[16];
        for (int i = 0; i < 16; i++) {
          p[i] = m[PERM[i]];
        }
        m = p;
      }
      for (int i = 0; i < 8; i++) {
        v[i] ^= v[i + 8];
        v[i + 8] ^= cv[i];
      }
      return v;
    }

    private static int[] blockWords(byte[] in, int off, int len) {
      byte[] b = new byte[64];
      System.arraycopy(in, off, b, 0, len);
      return words(b);
    }

    /** outLen bytes of BLAKE3 output for input under key words and mode flags. */
    static byte[] hash(byte[] input, int[] key, int mode, int outLen) {
      List<int[]> stack = new ArrayList<>();
      long chunks = Math.max(1, (input.length + 1023) / 1024);
      int[] rootCv = null;
      int[] rootBlock = null;
      int rootLen = 0;
      int rootFlags = 0;
      for (long c = 0; c < chunks; c++) {
        int start = (int) (c * 1024);
        int end = Math.min(input.length, start + 1024);
        int[] cv = key.clone();
        int blocks = Math.max(1, (end - start + 63) / 64);
        for (int b = 0; b < blocks; b++) {
          int off = start + 64 * b;
          int len = Math.min(64, end - off);
          int flags = mode | (b == 0 ? CHUNK_START : 0) | (b == blocks - 1 ? CHUNK_END : 0);
          int[] block = blockWords(input, off, len);
          if (b == blocks - 1 && chunks == 1) {
            rootCv = cv;
            rootBlock = block;
            rootLen = len;
            rootFlags = flags;
          } else {
            cv = Arrays.copyOf(compress(cv, block, c, len, flags), 8);
          }
        }
        if (chunks == 1) {
          break;
        }
        // Merge completed subtrees, but keep the last chunk's CV for the root-side merge.
        long total = c + 1;
        while ((total & 1) == 0 && c + 1 < chunks) {
          int[] left = stack.remove(stack.size() - 1);
          cv = parent(left, cv, key, mode);
          total >>= 1;
        }
        stack.add(cv);
      }
      if (chunks > 1) {
        int[] right = stack.remove(stack.size() - 1);
        while (stack.size() > 1) {
          right = parent(stack.remove(stack.size() - 1), right, key, mode);
        }
        int[] left = stack.remove(0);
        rootCv = key;
        rootBlock = concat(left, right);
        rootLen = 64;
        rootFlags = mode | PARENT;
      }
      byte[] out = new byte[outLen];
      for (long blockIndex = 0; 64 * blockIndex < outLen; blockIndex++) {
        int[] w = compress(rootCv, rootBlock, blockIndex, rootLen, rootFlags | ROOT);
        for (int i = 0; i < 64 && 64 * blockIndex + i < outLen; i++) {
          out[(int) (64 * blockIndex + i)] = (byte) (w[i / 4] >>> (8 * (i % 4)));
        }
      }
      return out;
    }

    private static int[] concat(int[] a, int[] b) {
      int[] r = Arrays.copyOf(a, 16);
      System.arraycopy(b, 0, r, 8, 8);
      return r;
    }

    private static int[] parent(int[] left, int[] right, int[] key, int mode) {
      return Arrays.copyOf(compress(key, concat(left, right), 0, 64, mode | PARENT), 8);
    }
  }
}
