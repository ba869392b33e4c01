package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Checks a freshly loaded native kernel before anything trusts it, against known answers: the
 * official BLAKE3 vectors (inputs of bytes {@code i % 251}) in all three modes, hashed one-shot,
 * and through the subtree entry point from an array and from a direct buffer, joined by the
 * root output entry point; extended output far into the stream (b3sum 1.2.0's output,
 * test-vectors/extra_vectors.json); and, where no vector reaches (subtree chaining values, an
 * output block counter above 2^32), the Java engine's output, stored. The Java engine gives
 * every answer here (LoaderSelfTestTest checks it), so a native result that differs from one
 * differs from the Java engine. Stored answers keep this cheap at startup: no Java hashing at
 * all, and the kernel is called directly, so the tree driver's classes are not loaded for it.
 */
final class SelfTest {
  private SelfTest() {}

  private static final String KEY = "whats the Elvish word for friend";
  /** The derive_key context key of the official vectors' context string (the Java engine's). */
  private static final String CONTEXT_KEY = "8e8e27df7b9130bf47ed710700e12e22398a380efb0fe0c133909120f8619a86";

  /** Official vector, hash mode, 102400 bytes, 131-byte output. */
  private static final String HASH_102400 = "bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085"
      + "e01c59dab908c04c3342b816941a26d69c2605ebee5ec5291cc55e15b76146e6745f0601156c3596cb75065a9c57f355"
      + "85a52e1ac70f69131c23d611ce11ee4ab1ec2c009012d236648e77be9295dd0426f29b764d65de58eb7d01dd42248204"
      + "f45f8e";
  /** Official vector, keyed_hash mode, 1025 bytes, 131-byte output. */
  private static final String KEYED_1025 = "357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69"
      + "362396b77fdc0d2634a552970843722066c3c15902ae5097e00ff53f1e116f1cd5352720113a837ab2452cafbde4d540"
      + "85d9cf5d21ca613071551b25d52e69d6c81123872b6f19cd3bc1333edf0c52b94de23ba772cf82636cff4542540a7738"
      + "d5b930";
  /** Official vector, derive_key mode, 31744 bytes, 131-byte output. */
  private static final String DERIVE_31744 = "39772aef80e0ebe60596361e45b061e8f417429d529171b6764468c22928e28e"
      + "9759adeb797a3fbf771b1bcea30150a020e317982bf0d6e7d14dd9f064bc11025c25f31e81bd78a921db0174f03dd4"
      + "81d30e93fd8e90f8b2fee209f849f2d2a52f31719a490fb0ba7aea1e09814ee912eba111a9fde9d5c274185f7bae8ba8"
      + "5d300a2b";
  /** Official vectors of one block or less (the short-hash path): hash of 64 bytes. */
  private static final String HASH_64 = "4eed7141ea4a5cd4b788606bd23f46e212af9cacebacdc7d1f4c6dc7f2511b98";
  /** Official vector, keyed_hash mode, 63 bytes, 32-byte output. */
  private static final String KEYED_63 = "bb1eb5d4afa793c1ebdd9fb08def6c36d10096986ae0cfe148cd101170ce37ae";
  /** Official vector, derive_key mode, 1 byte, 32-byte output. */
  private static final String DERIVE_1 = "b3e2e340a117a499c6cf2398a19ee0d29cca2bb7404c73063382693bf66cb06c";
  /** Extra vector, hash mode, 1025 bytes: output bytes [936, 1000). */
  private static final String TAIL_1025 = "dd61c2f140441086c8c2da62c34b88ceadb611381810ff405953df8293b0753d"
      + "07d4b1dbdef05adec76a086fa09648f8df2791e9c13f79d06a1d790ef9884cd1";
  /** Official vector, hash mode, 16384 bytes, 131-byte output. */
  private static final String HASH_16384 = "f875d6646de28985646f34ee13be9a576fd515f76b5b0a26bb324735041ddde4"
      + "9d764c270176e53e97bdffa58d549073f2c660be0e81293767ed4e4929f9ad34bbb39a529334c57c4a381ffd2a6d4bfd"
      + "bf1482651b172aa883cc13408fa67758a3e47503f93f87720a3177325f7823251b85275f64636a8f1d599c2e49722f42"
      + "e93893";
  /**
   * The three subtrees (16, 32 and 16 chunks) of the 64 chunks from chunk 16 of the vectors'
   * input, hash mode: their chaining values, little-endian (the Java engine's output).
   */
  private static final String SUBTREES_16_64 = "406632eceb31aa6735f072ad0554f5963f4082b5139978455b44f67732cf949d"
      + "95d13beb8a252ab0a9ad34b90063717be147ef23b67b90a59d3d8ce3cc5e076a"
      + "229739fff0238a3b5e48b47ef009f632d0c7a7862925aa086cdda332e0644fc5";

  /**
   * Root output bytes [256, 320) from position 2^38 + 13 of a PARENT block: cv = the key words
   * above, block word i = i * 0x01010101, block length 64 (the Java engine's output).
   */
  private static final String ROOT_2_38 = "57d8b2f985adf2f043b0aa5b61054e53c2fd88570cfd25e3aa20c7b714b21af7"
      + "0e6e917890c89c11ea29d239d6674b241d665d17bb66381345cc8a6fa8efe689";

  /**
   * Null when the kernel gives the known answers everywhere, else what differed. {@code corrupt}
   * (a test-only switch) flips one bit of one native result, to prove a mismatch is acted upon.
   */
  static String compare(Kernel k, boolean corrupt) {
    byte[] input = vectorInput(102400);
    int[] keyed = keyWords(KEY.getBytes(StandardCharsets.US_ASCII));
    int[] derive = keyWords(Hex.decode(CONTEXT_KEY));

    // The whole-input call. A kernel that copies arrays instead of pinning them (CriticalArrays)
    // makes it only for up to 64 output bytes, and leaves longer outputs to the tree driver,
    // whose calls the cases further down check: so the keyed and derive_key cases ask for 64.
    byte[] out = new byte[131];
    if (oneShot(k, input, 102400, Spec.iv(), 0, out) && !matches(out, 0, HASH_102400)) {
      return "hash of 102400 bytes, one-shot";
    }
    out = new byte[64];
    oneShot(k, input, 1025, keyed, Spec.KEYED_HASH, out);
    if (corrupt) {
      out[7] ^= 1;
    }
    if (!matches(out, 0, KEYED_1025.substring(0, 128))) {
      return "keyed_hash of 1025 bytes, one-shot";
    }
    oneShot(k, input, 31744, derive, Spec.DERIVE_KEY_MATERIAL, out);
    if (!matches(out, 0, DERIVE_31744.substring(0, 128))) {
      return "derive_key of 31744 bytes, one-shot";
    }
    // One block or less, 32-byte output: the short-hash path, which passes the block in words.
    out = new byte[32];
    oneShot(k, input, 64, Spec.iv(), 0, out);
    if (!matches(out, 0, HASH_64)) {
      return "hash of 64 bytes, one-shot";
    }
    oneShot(k, input, 63, keyed, Spec.KEYED_HASH, out);
    if (!matches(out, 0, KEYED_63)) {
      return "keyed_hash of 63 bytes, one-shot";
    }
    oneShot(k, input, 1, derive, Spec.DERIVE_KEY_MATERIAL, out);
    if (!matches(out, 0, DERIVE_1)) {
      return "derive_key of 1 byte, one-shot";
    }
    out = new byte[1000];
    if (oneShot(k, input, 1025, Spec.iv(), 0, out) && !matches(out, 936, TAIL_1025)) {
      return "hash of 1025 bytes, output bytes 936..1000";
    }

    // Whole chunks through hashSubtrees, as a hasher streams them, at chunk counters that are
    // not 0; their chaining values joined by the root node, through rootOutput. Called on the
    // kernel itself, not through the tree driver: a first short hash does not need the driver,
    // and loading and verifying its classes here was most of this test's start-up cost.
    int[] cvs = new int[8 * 128];
    int[] iv = Spec.iv();
    if (k.hashSubtrees(input, 0, 8192, iv, 0, 0, cvs, 0) != 1
        || k.hashSubtrees(input, 8192, 8192, iv, 8, 0, cvs, 8) != 1) {
      return "hash of 16384 bytes, subtrees from an array";
    }
    out = new byte[131];
    k.rootOutput(iv, Arrays.copyOf(cvs, 16), Spec.BLOCK_LEN, Spec.PARENT, 0, out, 0, out.length);
    if (!matches(out, 0, HASH_16384)) {
      return "hash of 16384 bytes, subtrees from an array";
    }
    if (k.hashSubtrees(input, 16 * Spec.CHUNK_LEN, 64 * Spec.CHUNK_LEN, iv, 16, 0, cvs, 0) != 3
        || !matchesWords(cvs, 24, SUBTREES_16_64)) {
      return "64 chunks from chunk 16, subtrees from an array";
    }
    if (k.supportsDirect()) {
      ByteBuffer d = ByteBuffer.allocateDirect(16384);
      d.put(input, 0, 16384);
      Arrays.fill(cvs, 0);
      if (k.hashSubtrees(d, 0, 8192, iv, 0, 0, cvs, 0) != 1 || k.hashSubtrees(d, 8192, 8192, iv, 8, 0, cvs, 8) != 1) {
        return "hash of 16384 bytes, subtrees from a direct buffer";
      }
      Arrays.fill(out, (byte) 0);
      k.rootOutput(iv, Arrays.copyOf(cvs, 16), Spec.BLOCK_LEN, Spec.PARENT, 0, out, 0, out.length);
      if (!matches(out, 0, HASH_16384)) {
        return "hash of 16384 bytes, subtrees from a direct buffer";
      }
    }

    // Beyond any vector: root output with a block counter above 2^32 (the Java engine's answer).
    int[] cv = Arrays.copyOf(keyed, 8);
    int[] block = new int[16];
    for (int i = 0; i < 16; i++) {
      block[i] = i * 0x01010101;
    }
    out = new byte[320];
    k.rootOutput(cv, block, 64, Spec.PARENT, (1L << 38) + 13, out, 0, out.length);
    if (!matches(out, 256, ROOT_2_38)) {
      return "extended output at position 2^38 + 13";
    }
    return null;
  }

  /**
   * The whole output {@code out} of the first {@code len} bytes of {@code in}, hashed one-shot:
   * through the kernel's whole-input call where it makes one for this shape; else, for the Java
   * kernel (which makes one only for inputs of 12 to 64 chunks on its lane path, never for
   * length 0: LoaderSelfTestTest checks the stored answers with it), through the tree driver.
   * False, with nothing written, where a kernel that makes such calls
   * (the native one) leaves this shape to the driver: the driver is not loaded for a self-test,
   * and the native calls it would make are checked by the subtree and root output cases.
   */
  private static boolean oneShot(Kernel k, byte[] in, int len, int[] key, int flags, byte[] out) {
    if (k.hashesWhole(len, out.length)) {
      k.hashWhole(in, 0, len, key, flags, out, 0, out.length);
      return true;
    }
    if (k.hashesWhole(0, Spec.OUT_LEN)) {
      return false; // a kernel that makes whole-input calls, just not for this shape
    }
    OneShot.hash(k, in, 0, len, key, flags, out, 0, out.length);
    return true;
  }

  /**
   * Spec.keyWords without its word reader in Compress, a large class (its unrolled methods are
   * read and verified at load) not otherwise needed by a first hash on the native engine.
   */
  private static int[] keyWords(byte[] key32) {
    int[] k = new int[8];
    for (int i = 0; i < 32; i++) {
      k[i / 4] |= (key32[i] & 0xFF) << (8 * (i % 4));
    }
    return k;
  }

  /**
   * Byte i = i % 251, the official vectors' input: 251 bytes, then copies of what is there
   * (a copy runs in the JVM's native code, where a loop over every byte runs interpreted at
   * start-up).
   */
  static byte[] vectorInput(int len) {
    byte[] b = new byte[len];
    int n = Math.min(len, 251);
    for (int i = 0; i < n; i++) {
      b[i] = (byte) i;
    }
    while (n < len) {
      int k = Math.min(n - n % 251, len - n);
      System.arraycopy(b, 0, b, n, k);
      n += k;
    }
    return b;
  }

  /** Whether the first {@code n} words of {@code actual} are the little-endian words of the hex. */
  private static boolean matchesWords(int[] actual, int n, String expectedHex) {
    byte[] expected = Hex.decode(expectedHex);
    if (expected.length != 4 * n) {
      return false;
    }
    for (int i = 0; i < n; i++) {
      int w = (expected[4 * i] & 0xFF) | (expected[4 * i + 1] & 0xFF) << 8 | (expected[4 * i + 2] & 0xFF) << 16
          | (expected[4 * i + 3] & 0xFF) << 24;
      if (actual[i] != w) {
        return false;
      }
    }
    return true;
  }

  private static boolean matches(byte[] actual, int from, String expectedHex) {
    byte[] expected = Hex.decode(expectedHex);
    return Arrays.equals(actual, from, from + expected.length, expected, 0, expected.length);
  }
}
