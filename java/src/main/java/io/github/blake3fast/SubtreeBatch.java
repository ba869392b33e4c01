package io.github.blake3fast;

import io.github.blake3fast.Blake3Hazmat.Mode;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The batched forms of {@link Blake3Hazmat}'s subtree and parent hashing: many whole subtrees of
 * one size ({@link Kernel#groupCvs}) or many parents ({@link Kernel#parentCvs}) per kernel call,
 * each call at most {@link Kernel#MAX_CALL} bytes of input. Every argument is checked before
 * any hashing, and an output that overlaps the input is written only once all of the input was
 * read. The kernel is a parameter so that the tests run these on every kernel this CPU has.
 */
final class SubtreeBatch {
  private SubtreeBatch() {}

  private static final int CV_LEN = Spec.OUT_LEN;
  private static final int BLOCK_LEN = Spec.BLOCK_LEN;
  /** Input bytes copied at a time from a buffer the kernel cannot read itself. */
  private static final int COPY_LEN = 64 << 10;

  /** See {@link Blake3Hazmat#hashSubtrees(byte[], int, int, long, int, Mode, byte[], int)}. */
  static void hashSubtrees(Kernel k, byte[] input, int offset, int length, long inputOffset, int subtreeLength,
      Mode mode, byte[] cvs, int cvsOffset) {
    Checks.range(input, offset, length);
    int count = check(length, inputOffset, subtreeLength, mode, cvs, cvsOffset);
    if (count == 0) {
      return;
    }
    if (input == cvs && overlap(offset, length, cvsOffset, CV_LEN * count)) {
      byte[] tmp = new byte[CV_LEN * count];
      hash(k, input, null, offset, count, inputOffset, subtreeLength, mode, tmp, 0);
      System.arraycopy(tmp, 0, cvs, cvsOffset, tmp.length);
    } else {
      hash(k, input, null, offset, count, inputOffset, subtreeLength, mode, cvs, cvsOffset);
    }
  }

  /** See {@link Blake3Hazmat#hashSubtrees(ByteBuffer, long, int, Mode, byte[], int)}. */
  static void hashSubtrees(Kernel k, ByteBuffer input, long inputOffset, int subtreeLength, Mode mode, byte[] cvs,
      int cvsOffset) {
    Objects.requireNonNull(input, "input");
    int pos = input.position();
    int len = input.remaining();
    if (input.hasArray()) {
      hashSubtrees(k, input.array(), input.arrayOffset() + pos, len, inputOffset, subtreeLength, mode, cvs, cvsOffset);
    } else {
      int count = check(len, inputOffset, subtreeLength, mode, cvs, cvsOffset);
      if (input.isDirect() || count == 0) {
        hash(k, null, input, pos, count, inputOffset, subtreeLength, mode, cvs, cvsOffset); // no array to overlap
      } else {
        // A read-only heap buffer, which may be a view of cvs itself: values written last.
        byte[] tmp = new byte[CV_LEN * count];
        hash(k, null, input, pos, count, inputOffset, subtreeLength, mode, tmp, 0);
        System.arraycopy(tmp, 0, cvs, cvsOffset, tmp.length);
      }
    }
    input.position(pos + len);
  }

  /** The shape and output checks; returns the number of subtrees. */
  private static int check(int length, long inputOffset, int subtreeLength, Mode mode, byte[] cvs, int cvsOffset) {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(cvs, "cvs");
    if (subtreeLength < Spec.CHUNK_LEN || Integer.bitCount(subtreeLength) != 1) {
      throw new IllegalArgumentException("a subtree length must be a power of two chunks (1024, 2048, 4096, ...), not "
          + subtreeLength);
    }
    if (inputOffset < 0 || inputOffset % subtreeLength != 0) {
      throw new IllegalArgumentException("input offset " + inputOffset + " is not a multiple of the subtree length "
          + subtreeLength + " (subtrees of one size start at multiples of it)");
    }
    if (length % subtreeLength != 0) {
      throw new IllegalArgumentException("length " + length + " is not a whole number of " + subtreeLength
          + "-byte subtrees");
    }
    if (length > Long.MAX_VALUE - inputOffset) {
      throw new IllegalArgumentException("the subtrees would end beyond byte Long.MAX_VALUE of the input");
    }
    int count = length / subtreeLength;
    Objects.checkFromIndexSize(cvsOffset, CV_LEN * count, cvs.length);
    return count;
  }

  /**
   * Hashes {@code count} subtrees from exactly one of {@code arr} or {@code bb} (absolute index
   * {@code off}) into {@code out}, which does not overlap them.
   */
  private static void hash(Kernel k, byte[] arr, ByteBuffer bb, int off, int count, long inputOffset,
      int subtreeLength, Mode mode, byte[] out, int outOff) {
    long firstChunk = inputOffset / Spec.CHUNK_LEN;
    if (subtreeLength > Kernel.MAX_CALL) {
      // One subtree is several kernel calls already: the streaming state cuts it, as hashSubtree does.
      long chunks = subtreeLength / Spec.CHUNK_LEN;
      for (int i = 0; i < count; i++) {
        TreeState s = new TreeState(k, mode.key, mode.flags, firstChunk + i * chunks);
        s.absorb(arr, bb, off + i * subtreeLength, subtreeLength);
        System.arraycopy(ChainingValues.fold(s.subtreeCvs(), mode), 0, out, outOff + CV_LEN * i, CV_LEN);
      }
      return;
    }
    int log = Integer.numberOfTrailingZeros(subtreeLength / Spec.CHUNK_LEN);
    boolean readable = arr != null || (bb.isDirect() && k.supportsDirect());
    int perCall = readable ? Kernel.MAX_CALL / subtreeLength : Math.max(1, COPY_LEN / subtreeLength);
    byte[] copy = readable ? null : new byte[Math.min(count, perCall) * subtreeLength];
    for (int i = 0; i < count; i += perCall) {
      int n = Math.min(perCall, count - i);
      int at = off + i * subtreeLength;
      long counter = firstChunk + ((long) i << log);
      int to = outOff + CV_LEN * i;
      if (arr != null) {
        k.groupCvs(arr, at, n, log, mode.key, counter, mode.flags, out, to);
      } else if (readable) {
        k.groupCvs(bb, at, n, log, mode.key, counter, mode.flags, out, to);
      } else {
        bb.get(at, copy, 0, n * subtreeLength);
        k.groupCvs(copy, 0, n, log, mode.key, counter, mode.flags, out, to);
      }
    }
  }

  /** See {@link Blake3Hazmat#mergeSubtrees(byte[], int, int, Mode, byte[], int)}. */
  static void mergeSubtrees(Kernel k, byte[] childCvs, int offset, int count, Mode mode, byte[] out, int outOffset) {
    Objects.requireNonNull(childCvs, "childCvs");
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(out, "out");
    Objects.checkFromIndexSize(offset, (long) BLOCK_LEN * count, childCvs.length);
    Objects.checkFromIndexSize(outOffset, (long) CV_LEN * count, out.length);
    if (count == 0) {
      return;
    }
    boolean overlapping = childCvs == out && overlap(offset, BLOCK_LEN * count, outOffset, CV_LEN * count);
    byte[] dst = overlapping ? new byte[CV_LEN * count] : out;
    int dstOff = overlapping ? 0 : outOffset;
    int perCall = Kernel.MAX_CALL / BLOCK_LEN;
    for (int i = 0; i < count; i += perCall) {
      int n = Math.min(perCall, count - i);
      k.parentCvs(childCvs, offset + BLOCK_LEN * i, n, mode.key, mode.flags, dst, dstOff + CV_LEN * i);
    }
    if (overlapping) {
      System.arraycopy(dst, 0, out, outOffset, dst.length);
    }
  }

  private static boolean overlap(int aOff, int aLen, int bOff, int bLen) {
    return aOff < bOff + bLen && bOff < aOff + aLen;
  }
}
