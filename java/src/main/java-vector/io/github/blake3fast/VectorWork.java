package io.github.blake3fast;

/**
 * One thread's work area for {@link VectorKernel}: the transposed arrays its vectors are loaded
 * from and stored to, and the chaining values waiting for their parents.
 */
final class VectorWork {
  private static final int LANES = VectorKernel.LANES;

  /** A subclass, not withInitial and a lambda: see Parallel's executor. */
  private static final ThreadLocal<VectorWork> PER_THREAD = new ThreadLocal<>() {
    @Override
    protected VectorWork initialValue() {
      return new VectorWork();
    }
  };

  final int[] cv = new int[8 * LANES];
  final int[] m = new int[16 * LANES];
  final int[] counterLo = new int[LANES];
  final int[] counterHi = new int[LANES];
  final int[] out = new int[16 * LANES];
  /** The state between the two halves of the rounds (see VectorCompress). */
  final int[] state = new int[16 * LANES];
  /** A window's chunk values, 8 words each, side by side (each pair is a parent's block). */
  final int[] chunkCvs = new int[8 * VectorKernel.WINDOW];
  /** The window values of one big subtree: enough for Kernel.MAX_CALL, grown for a larger call. */
  int[] groupCvs = new int[8 * (Kernel.MAX_CALL / (VectorKernel.WINDOW * Spec.CHUNK_LEN))];

  private VectorWork() {}

  static VectorWork get() {
    return PER_THREAD.get();
  }
}
