package io.github.blake3fast;

/**
 * The tree driver's one-shot: decides how a whole input in an array reaches the kernel. If the
 * kernel hashes this input whole in one call ({@link Kernel#hashesWhole}), that call does it,
 * root included; a single chunk with a 32-byte result is one Java chunk hash; anything else
 * goes through a per-thread {@link TreeState}. The kernel never calls back into the driver.
 */
final class OneShot {
  private OneShot() {}

  /**
   * Longer inputs reuse a per-thread tree state instead of allocating one. A subclass, not
   * withInitial and a lambda: the first lambda of a JVM costs milliseconds of start-up; and a
   * class of its own, so that a first short hash does not load it.
   */
  private static final class States extends ThreadLocal<TreeState[]> {
    static final States PER_THREAD = new States();

    @Override
    protected TreeState[] initialValue() {
      return new TreeState[1];
    }
  }

  /** {@code outLen} bytes of the root output of {@code in[off, off + len)}, from position 0. */
  static void hash(Kernel kernel, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff,
      int outLen) {
    if (kernel.hashesWhole(len, outLen)) {
      kernel.hashWhole(in, off, len, key, flags, out, outOff, outLen);
      return;
    }
    if (len <= Spec.CHUNK_LEN && outLen == Spec.OUT_LEN) {
      Compress.hashOneChunk(in, off, len, key, flags, out, outOff);
      return;
    }
    TreeState[] slot = States.PER_THREAD.get();
    TreeState s = slot[0];
    if (s == null || s.kernel() != kernel) {
      // The tests run several kernels in one JVM: a state belongs to one.
      s = new TreeState(kernel, key, flags);
      slot[0] = s;
    }
    s.reset(key, flags);
    if (s.hashWholeChunks(in, off, len, out, outOff, outLen)) {
      return;
    }
    s.update(in, off, len);
    s.finish(out, outOff, outLen);
  }
}
