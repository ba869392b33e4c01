package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The key of a derive-key context: every kernel gives the one the official vectors imply, and a
 * kernel that leaves the context's hash all zeros (what one CI run saw) is not believed: the Java
 * engine hashes the context again.
 */
class ContextKeyTest {
  /** The vectors' context key as the Java engine hashes it, checked against the official vectors. */
  private static int[] vectorsContextKey() {
    int[] key = Blake3.contextKey(JavaKernel.ONE_CHUNK, Vectors.CONTEXT);
    Vectors.Case empty = Vectors.officialFormat().get(0);
    assertEquals(0, empty.inputLen);
    assertEquals(empty.deriveKey, derivedFromNothing(key, 131));
    return key;
  }

  /** {@code outLen} bytes derived from empty material under the context key {@code key}. */
  private static String derivedFromNothing(int[] key, int outLen) {
    return Blake3.toHex(new Blake3Hasher(new TreeState(JavaKernel.ONE_CHUNK, key, Spec.DERIVE_KEY_MATERIAL)).digest(outLen));
  }

  @Test
  void everyKernelGivesTheVectorsContextKey() {
    int[] want = vectorsContextKey();
    assertArrayEquals(want, Blake3.contextKey(Vectors.CONTEXT), Blake3.implementation());
    for (Kernel k : Engines.kernels()) {
      assertArrayEquals(want, Blake3.contextKey(k, Vectors.CONTEXT), Engines.label(k));
    }
  }

  @Test
  void aKernelThatGivesZerosIsNotBelieved() {
    assertArrayEquals(vectorsContextKey(), Blake3.contextKey(new WritesNothing(), Vectors.CONTEXT));
    // what a zero key gives instead (the wrong outputs that CI run saw): a one-chunk hash, as no
    // tree state takes such a key
    byte[] out = new byte[32];
    OneShot.hash(JavaKernel.ONE_CHUNK, new byte[0], 0, 0, new int[8], Spec.DERIVE_KEY_MATERIAL, out, 0, 32);
    assertEquals("cb8d90cf", Blake3.toHex(out).substring(0, 8));
  }

  @Test
  void noTreeStateDerivesUnderAKeyOfZeros() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> new TreeState(JavaKernel.ONE_CHUNK, new int[8], Spec.DERIVE_KEY_MATERIAL));
    assertTrue(e.getMessage().contains("key of zeros"), e.getMessage());
    TreeState s = new TreeState(JavaKernel.ONE_CHUNK, new int[8], Spec.KEYED_HASH); // a keyed key may be zeros
    assertThrows(IllegalStateException.class, () -> s.reset(new int[8], Spec.DERIVE_KEY_MATERIAL));
    int[] key = new int[8];
    key[7] = 1;
    s.reset(key, Spec.DERIVE_KEY_MATERIAL);
  }

  /** Claims every whole input and writes nothing: all-zero output. */
  private static final class WritesNothing implements Kernel {
    @Override
    public String name() {
      return "writes-nothing";
    }

    @Override
    public int bufferSize() {
      return Spec.CHUNK_LEN;
    }

    @Override
    public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
      Arrays.fill(cvs, cvsOff, cvsOff + 8, 0);
      return 1;
    }

    @Override
    public boolean supportsDirect() {
      return false;
    }

    @Override
    public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
        int cvsOff) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean hashesWhole(int len, int outLen) {
      return true;
    }

    @Override
    public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {}

    @Override
    public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
        int outLen) {}
  }
}
