package io.github.blake3fast;

/**
 * A thread's 64-byte block into which the Java engine copies a chunk's partial last block, zero
 * after its bytes, so that the unrolled chunk hash reads it with the same loads as a full block
 * ({@link Compress#hashOneChunk}). A subclass of ThreadLocal rather than withInitial and a
 * lambda: the first lambda of a JVM costs milliseconds.
 */
final class PaddedBlock extends ThreadLocal<byte[]> {
  /** What a block is padded with: copied over, not filled in a loop, to keep the caller small. */
  static final byte[] ZEROS = new byte[Spec.BLOCK_LEN];

  private static final PaddedBlock PER_THREAD = new PaddedBlock();

  private PaddedBlock() {}

  /** This thread's block; only the Java engine's chunk hash writes it, and reads it at once. */
  static byte[] mine() {
    return PER_THREAD.get();
  }

  @Override
  protected byte[] initialValue() {
    return new byte[Spec.BLOCK_LEN];
  }
}
