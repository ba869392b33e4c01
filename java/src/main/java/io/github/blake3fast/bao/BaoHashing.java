package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hazmat;
import io.github.blake3fast.Blake3Hazmat.Mode;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The hashing a Bao tree needs, through the public {@link Blake3Hazmat} API: many group values
 * or many parent values per call ({@link Blake3Hazmat#hashSubtrees(byte[], int, int, long, int,
 * Mode, byte[], int) hashSubtrees}, {@link Blake3Hazmat#mergeSubtrees(byte[], int, int, Mode,
 * byte[], int) mergeSubtrees}), which the engine runs wide (one call per node would cost more
 * than the hashing), and the single nodes of the tree's edges. Bao hashes with plain BLAKE3.
 */
final class BaoHashing {
  private BaoHashing() {}

  private static final Mode HASH = Mode.hash();
  static final int CV_LEN = Blake3Hazmat.CHAINING_VALUE_LEN;

  /** Values of {@code count} whole groups at {@code a[off..]}, the first being group {@code first}. */
  static void groupCvs(byte[] a, int off, int count, int groupLog, long first, byte[] out, int outOff) {
    int groupLen = Blake3Hazmat.CHUNK_LEN << groupLog;
    Blake3Hazmat.hashSubtrees(a, off, count * groupLen, first * groupLen, groupLen, HASH, out, outOff);
  }

  /**
   * Values of the whole groups that are the remaining bytes of {@code groups} (heap or direct;
   * its position moves to its limit), the first being group {@code first}.
   */
  static void groupCvs(ByteBuffer groups, int groupLog, long first, byte[] out, int outOff) {
    int groupLen = Blake3Hazmat.CHUNK_LEN << groupLog;
    Blake3Hazmat.hashSubtrees(groups, first * groupLen, groupLen, HASH, out, outOff);
  }

  /** Values of {@code count} parent blocks at {@code in[off..]}, into {@code out[outOff..]}. */
  static void parentCvs(byte[] in, int off, int count, byte[] out, int outOff) {
    Blake3Hazmat.mergeSubtrees(in, off, count, HASH, out, outOff);
  }

  /** The value of one group (any length, but not the whole input), starting at byte {@code inputOffset}. */
  static byte[] groupCv(byte[] a, int off, int len, long inputOffset) {
    return Blake3Hazmat.hashSubtree(a, off, len, inputOffset, HASH);
  }

  /** The root hash of an input that is a single group. */
  static byte[] soleGroupHash(byte[] a, int off, int len) {
    return Blake3.hash(a, off, len);
  }

  /** The root hash from the root parent's block at {@code block[off..]}. */
  static byte[] rootParent(byte[] block, int off) {
    return Blake3Hazmat.mergeSubtreesRoot(Arrays.copyOfRange(block, off, off + CV_LEN),
        Arrays.copyOfRange(block, off + CV_LEN, off + 2 * CV_LEN), HASH);
  }

  /**
   * The non-root value of one parent block at {@code block[off..]}: the one-pair merge, which
   * compresses in Java, cheaper for a single parent than a batched call into the engine.
   */
  static byte[] parentCv(byte[] block, int off) {
    return Blake3Hazmat.mergeSubtrees(Arrays.copyOfRange(block, off, off + CV_LEN),
        Arrays.copyOfRange(block, off + CV_LEN, off + 2 * CV_LEN), HASH);
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
  static void buildLevels(byte[] levels, int log, byte[] parents, int parentsOff) {
    int at = 0;
    for (int j = 0; j < log; j++) {
      int count = 1 << (log - j);
      parentCvs(levels, at, count / 2, levels, at + CV_LEN * count);
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
