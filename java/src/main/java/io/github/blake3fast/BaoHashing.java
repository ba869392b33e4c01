package io.github.blake3fast;

import io.github.blake3fast.Blake3Hazmat.Mode;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The hashing a Bao tree needs, in batches the engine can run wide: many group values or many
 * parent values per kernel call (one call per node would cost more than the hashing). Bao
 * hashes with plain BLAKE3: the IV as key, no mode flag.
 */
final class BaoHashing {
  private BaoHashing() {}

  private static final int[] KEY = Spec.iv();
  static final int CV_LEN = Spec.OUT_LEN;

  /** Values of {@code count} whole groups at {@code a[off..]}, the first being group {@code first}. */
  static void groupCvs(Kernel k, byte[] a, int off, int count, int groupLog, long first, byte[] out, int outOff) {
    int groupLen = Spec.CHUNK_LEN << groupLog;
    int perCall = Math.max(1, Kernel.MAX_CALL / groupLen);
    for (int i = 0; i < count; i += perCall) {
      int n = Math.min(perCall, count - i);
      k.groupCvs(a, off + i * groupLen, n, groupLog, KEY, (first + i) << groupLog, 0, out, outOff + CV_LEN * i);
    }
  }

  /** As above from a direct buffer (absolute index {@code off}), which the kernel must read. */
  static void groupCvs(Kernel k, ByteBuffer direct, int off, int count, int groupLog, long first, byte[] out,
      int outOff) {
    int groupLen = Spec.CHUNK_LEN << groupLog;
    int perCall = Math.max(1, Kernel.MAX_CALL / groupLen);
    for (int i = 0; i < count; i += perCall) {
      int n = Math.min(perCall, count - i);
      k.groupCvs(direct, off + i * groupLen, n, groupLog, KEY, (first + i) << groupLog, 0, out,
          outOff + CV_LEN * i);
    }
  }

  /** Values of {@code count} whole groups at the start of {@code buf} (heap or direct), from group {@code first}. */
  static void groupCvs(Kernel k, ByteBuffer buf, int count, int groupLog, long first, byte[] out) {
    if (buf.hasArray()) {
      groupCvs(k, buf.array(), buf.arrayOffset(), count, groupLog, first, out, 0);
    } else if (k.supportsDirect()) {
      groupCvs(k, buf, 0, count, groupLog, first, out, 0);
    } else {
      byte[] copy = new byte[count * (Spec.CHUNK_LEN << groupLog)];
      buf.get(0, copy);
      groupCvs(k, copy, 0, count, groupLog, first, out, 0);
    }
  }

  /** Values of {@code count} parent blocks at {@code in[off..]}, into {@code out[outOff..]}. */
  static void parentCvs(Kernel k, byte[] in, int off, int count, byte[] out, int outOff) {
    int perCall = Kernel.MAX_CALL / BaoTree.PARENT_LEN;
    for (int i = 0; i < count; i += perCall) {
      int n = Math.min(perCall, count - i);
      k.parentCvs(in, off + BaoTree.PARENT_LEN * i, n, KEY, 0, out, outOff + CV_LEN * i);
    }
  }

  /** The value of one group (any length, but not the whole input), starting at byte {@code inputOffset}. */
  static byte[] groupCv(Kernel k, byte[] a, int off, int len, long inputOffset) {
    TreeState s = new TreeState(k, KEY, 0, inputOffset / Spec.CHUNK_LEN);
    s.update(a, off, len);
    return ChainingValues.fold(s.subtreeCvs(), Mode.hash());
  }

  /** The root hash of an input that is a single group. */
  static byte[] soleGroupHash(Kernel k, byte[] a, int off, int len) {
    TreeState s = new TreeState(k, KEY, 0);
    s.update(a, off, len);
    byte[] out = new byte[Spec.OUT_LEN];
    s.finish(out, 0, out.length);
    return out;
  }

  /** The root hash from the root parent's block at {@code block[off..]}. */
  static byte[] rootParent(byte[] block, int off) {
    return ChainingValues.parent(Arrays.copyOfRange(block, off, off + CV_LEN),
        Arrays.copyOfRange(block, off + CV_LEN, off + 2 * CV_LEN), Mode.hash(), true);
  }

  /** The non-root value of one parent block at {@code block[off..]}. */
  static byte[] parentCv(byte[] block, int off) {
    return ChainingValues.parent(Arrays.copyOfRange(block, off, off + CV_LEN),
        Arrays.copyOfRange(block, off + CV_LEN, off + 2 * CV_LEN), Mode.hash(), false);
  }

  static boolean sameCv(byte[] a, int aOff, byte[] b, int bOff) {
    return Arrays.equals(a, aOff, aOff + CV_LEN, b, bOff, bOff + CV_LEN);
  }

  /**
   * A complete subtree of {@code 2^log} groups, given its group values in {@code levels[0, 32 <<
   * log)}: computes the levels above into the rest of {@code levels} (which holds
   * {@code 32 * (2^(log+1) - 1)} bytes; the top value ends it) and writes the subtree's
   * {@code 2^log - 1} parent blocks in pre-order to {@code parents[parentsOff..]}.
   */
  static void buildLevels(Kernel k, byte[] levels, int log, byte[] parents, int parentsOff) {
    int at = 0;
    for (int j = 0; j < log; j++) {
      int count = 1 << (log - j);
      parentCvs(k, levels, at, count / 2, levels, at + CV_LEN * count);
      at += CV_LEN * count;
    }
    emitPreorder(levels, log, log, 0, parents, parentsOff);
  }

  /** Byte offset of level j in a levels array of a subtree of 2^log groups. */
  static int levelOffset(int log, int j) {
    // levels 0..j-1 hold 2^log + 2^(log-1) + ... + 2^(log-j+1) values
    return CV_LEN * ((1 << (log + 1)) - (1 << (log + 1 - j)));
  }

  /** Writes the parents of node i of level j (and below) in pre-order; returns the next offset. */
  private static int emitPreorder(byte[] levels, int log, int j, int i, byte[] out, int outOff) {
    if (j == 0) {
      return outOff;
    }
    System.arraycopy(levels, levelOffset(log, j - 1) + 2 * CV_LEN * i, out, outOff, 2 * CV_LEN);
    outOff += 2 * CV_LEN;
    outOff = emitPreorder(levels, log, j - 1, 2 * i, out, outOff);
    return emitPreorder(levels, log, j - 1, 2 * i + 1, out, outOff);
  }
}
