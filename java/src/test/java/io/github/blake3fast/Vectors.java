package io.github.blake3fast;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The project's vector files (test-vectors/) and, when present, the official file in ../shared.
 * Public for the tests of the library's other packages ({@link #dir()}, {@link #json(Path)}).
 */
public final class Vectors {
  private Vectors() {}

  /** One case of the official format: outputs are 131 bytes. */
  static final class Case {
    final String source;
    final int inputLen;
    final String hash;
    final String keyedHash;
    final String deriveKey;

    Case(String source, int inputLen, String hash, String keyedHash, String deriveKey) {
      this.source = source;
      this.inputLen = inputLen;
      this.hash = hash;
      this.keyedHash = keyedHash;
      this.deriveKey = deriveKey;
    }

    @Override
    public String toString() {
      return source + " input_len=" + inputLen;
    }
  }

  static final String KEY = "whats the Elvish word for friend";
  static final String CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context";

  static byte[] key() {
    return KEY.getBytes(StandardCharsets.US_ASCII);
  }

  /** The vector input: byte i is i mod 251. */
  static byte[] input(int len) {
    byte[] in = new byte[len];
    for (int i = 0; i < len; i++) {
      in[i] = (byte) (i % 251);
    }
    return in;
  }

  /**
   * The test-vectors directory of the checkout.
   *
   * @return its path
   */
  public static Path dir() {
    return Paths.get(System.getProperty("blake3.vectors.dir", "../test-vectors"));
  }

  static List<Case> officialFormat() {
    List<Case> all = new ArrayList<>(read(dir().resolve("test_vectors.json"), "test-vectors"));
    Path shared = Paths.get(System.getProperty("blake3.shared.vectors", "../../shared/test-vectors/test_vectors.json"));
    if (Files.isRegularFile(shared)) {
      all.addAll(read(shared, "shared"));
    }
    return all;
  }

  /**
   * A JSON file whose top level is an object.
   *
   * @param file the file
   * @return its object
   */
  @SuppressWarnings("unchecked")
  public static Map<String, Object> json(Path file) {
    try {
      return (Map<String, Object>) Json.parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Case> read(Path file, String source) {
    Map<String, Object> root = json(file);
    if (!KEY.equals(root.get("key")) || !CONTEXT.equals(root.get("context_string"))) {
      throw new IllegalStateException(file + " uses another key or context");
    }
    List<Case> cases = new ArrayList<>();
    for (Object o : (List<Object>) root.get("cases")) {
      Map<String, Object> c = (Map<String, Object>) o;
      cases.add(new Case(source, ((Number) c.get("input_len")).intValue(), (String) c.get("hash"),
          (String) c.get("keyed_hash"), (String) c.get("derive_key")));
    }
    return cases;
  }
}
