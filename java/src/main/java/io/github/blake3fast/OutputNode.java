package io.github.blake3fast;

/**
 * The root node of a finished tree: everything needed to produce any byte of the extendable
 * output, with the output block index as the counter. Immutable.
 */
final class OutputNode {
  private final int[] cv;
  private final int[] block;
  private final int blockLen;
  private final int flags;

  OutputNode(int[] cv, int[] block, int blockLen, int flags) {
    this.cv = cv;
    this.block = block;
    this.blockLen = blockLen;
    this.flags = flags;
  }

  /** Output bytes [position, position + len) into out[off..]. */
  void read(Kernel kernel, long position, byte[] out, int off, int len) {
    kernel.rootOutput(cv, block, blockLen, flags, position, out, off, len);
  }
}
