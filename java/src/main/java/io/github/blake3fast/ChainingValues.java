package io.github.blake3fast;

import io.github.blake3fast.Blake3Hazmat.Mode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * The chaining-value arithmetic of {@link Blake3Hazmat}: a subtree's value from its canonical
 * parts, a parent's (or the root's output) from its two children, and the values' 32-byte form.
 */
final class ChainingValues {
  private ChainingValues() {}

  /** The value of a subtree given as its canonical parts: folded from the right (they shrink). */
  static byte[] fold(int[] cvs, Mode mode) {
    for (int i = cvs.length / 8 - 1; i > 0; i--) {
      int at = 8 * (i - 1);
      Compress.parentCv(mode.key, mode.flags, cvs, at, cvs, at);
    }
    return bytes(cvs, 8);
  }

  /** The value of the parent of two children, or the root hash when {@code root}. */
  static byte[] parent(byte[] leftCv, byte[] rightCv, Mode mode, boolean root) {
    int[] block = parentBlock(leftCv, rightCv, mode);
    int[] cv = new int[8];
    int flags = mode.flags | Spec.PARENT | (root ? Spec.ROOT : 0);
    Compress.compressWords(mode.key, 0, block, 0, 0, Spec.BLOCK_LEN, flags, cv, 0, false);
    return bytes(cv, 8);
  }

  /** The root's output from its two children, at position 0. */
  static Blake3OutputReader rootOutput(byte[] leftCv, byte[] rightCv, Mode mode) {
    return new Blake3OutputReader(Engine.kernel(), rootParent(parentBlock(leftCv, rightCv, mode), mode));
  }

  /** The root node that is a parent: its block (16 words, taken over), the mode's key and flags. */
  static OutputNode rootParent(int[] block, Mode mode) {
    return new OutputNode(mode.key.clone(), block, Spec.BLOCK_LEN, mode.flags | Spec.PARENT);
  }

  /** The block of a parent node: the two children's values, checked to be 32 bytes each. */
  private static int[] parentBlock(byte[] leftCv, byte[] rightCv, Mode mode) {
    Objects.requireNonNull(mode, "mode");
    int[] block = new int[16];
    words(leftCv, "left chaining value", block, 0);
    words(rightCv, "right chaining value", block, 8);
    return block;
  }

  private static void words(byte[] cv, String what, int[] out, int outOff) {
    Objects.requireNonNull(cv, what);
    if (cv.length != Spec.OUT_LEN) {
      throw new IllegalArgumentException(what + " must be " + Spec.OUT_LEN + " bytes, not " + cv.length);
    }
    words(cv, 0, out, outOff);
  }

  /** The 8 words of the value at {@code cvs[off, off + 32)}. */
  static void words(byte[] cvs, int off, int[] out, int outOff) {
    for (int i = 0; i < 8; i++) {
      out[outOff + i] = Compress.word(cvs, off + 4 * i);
    }
  }

  /**
   * Words {@code [0, count)} as little-endian bytes to {@code out[outOff..]}. Many at once (a
   * batch of values from the native kernel) go as one bulk copy through a little-endian view,
   * which is a plain memory copy on a little-endian machine, in every compiler tier; a few go by
   * shifts, cheaper than making the view.
   */
  static void putWords(int[] words, int count, byte[] out, int outOff) {
    if (count >= BULK_WORDS) {
      ByteBuffer.wrap(out, outOff, 4 * count).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(words, 0, count);
      return;
    }
    for (int i = 0; i < count; i++) {
      Compress.putWord(out, outOff + 4 * i, words[i]);
    }
  }

  /** From this many words (eight values) a bulk copy beats shifts. */
  private static final int BULK_WORDS = 64;

  /** The first {@code count} words, little-endian. */
  static byte[] bytes(int[] words, int count) {
    byte[] out = new byte[4 * count];
    for (int i = 0; i < count; i++) {
      Compress.putWord(out, 4 * i, words[i]);
    }
    return out;
  }
}
