package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Checks a freshly loaded native kernel against the Java kernel before anything trusts it:
 * one-shot hashes in all three modes across chunk and subtree boundaries, subtree CVs from an
 * array and from a direct buffer, and extended output at an unaligned position. About a
 * millisecond, once per JVM.
 */
final class SelfTest {
  private SelfTest() {}

  private static final int[] LENGTHS = {0, 1, 64, 1023, 1024, 1025, 2048, 4097, 16 * 1024, 65 * 1024 + 3};

  /** Null when the kernel agrees with Java everywhere, else what differed. */
  static String compare(Kernel k, boolean corrupt) {
    Kernel java = JavaKernel.INSTANCE;
    byte[] input = new byte[LENGTHS[LENGTHS.length - 1]];
    for (int i = 0; i < input.length; i++) {
      input[i] = (byte) (i % 251);
    }
    int[] keyed = Spec.keyWords(Arrays.copyOf("whats the Elvish word for friend".getBytes(), 32));
    int[][] keys = {Spec.iv(), keyed, keyed};
    int[] flags = {0, Spec.KEYED_HASH, Spec.DERIVE_KEY_MATERIAL};
    for (int len : LENGTHS) {
      for (int m = 0; m < 3; m++) {
        for (int outLen : new int[] {32, 300}) {
          byte[] expected = new byte[outLen];
          byte[] actual = new byte[outLen];
          java.hash(input, 0, len, keys[m], flags[m], expected, 0, outLen);
          // Force the native path for short inputs too: the kernel's own one-shot may route them to Java.
          TreeState s = new TreeState(k, keys[m], flags[m]);
          s.update(input, 0, len);
          s.finish(actual, 0, outLen);
          byte[] direct = new byte[outLen];
          k.hash(input, 0, len, keys[m], flags[m], direct, 0, outLen);
          if (corrupt && len == 1025) {
            actual[0] ^= 1;
          }
          if (!Arrays.equals(expected, actual) || !Arrays.equals(expected, direct)) {
            return "hash of " + len + " bytes, mode " + m + ", " + outLen + "-byte output";
          }
        }
      }
    }
    int len = 64 * 1024;
    int[] a = new int[8 * 128];
    int[] b = new int[8 * 128];
    int na = java.hashSubtrees(input, 3, len, Spec.iv(), 5, 0, a, 0);
    int nb = k.hashSubtrees(input, 3, len, Spec.iv(), 5, 0, b, 0);
    if (na != nb || !Arrays.equals(a, 0, 8 * na, b, 0, 8 * nb)) {
      return "subtree CVs of 64 KiB at chunk 5";
    }
    if (k.supportsDirect()) {
      ByteBuffer d = ByteBuffer.allocateDirect(len + 3);
      d.put(input, 0, len + 3);
      Arrays.fill(b, 0);
      nb = k.hashSubtrees(d, 3, len, Spec.iv(), 5, 0, b, 0);
      if (na != nb || !Arrays.equals(a, 0, 8 * na, b, 0, 8 * nb)) {
        return "subtree CVs of 64 KiB at chunk 5 from a direct buffer";
      }
    }
    int[] cv = Arrays.copyOf(keyed, 8);
    int[] block = new int[16];
    for (int i = 0; i < 16; i++) {
      block[i] = i * 0x01010101;
    }
    byte[] x = new byte[1000];
    byte[] y = new byte[1000];
    java.rootOutput(cv, block, 64, Spec.PARENT, (1L << 38) + 13, x, 0, x.length);
    k.rootOutput(cv, block, 64, Spec.PARENT, (1L << 38) + 13, y, 0, y.length);
    if (!Arrays.equals(x, y)) {
      return "extended output at position 2^38 + 13";
    }
    return null;
  }
}
