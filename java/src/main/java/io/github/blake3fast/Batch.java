package io.github.blake3fast;

import java.util.Objects;

/**
 * Many independent messages hashed in one call ({@link Blake3#hashMany} and its keyed and
 * derive-key forms): every argument checked before anything is hashed or written, then the
 * messages handed to the kernel, which the native engine runs one per SIMD lane.
 */
final class Batch {
  private Batch() {}

  /**
   * Arrays of messages are packed into a per-thread window this large, so that the kernel sees
   * one array at a time (one pin per call); a message longer than the window is hashed alone.
   */
  static final int WINDOW = 64 << 10;

  /** Per-thread packing window for {@link #hashArrays}; a class of its own, loaded only when used. */
  private static final class Windows extends ThreadLocal<byte[]> {
    static final Windows PER_THREAD = new Windows();

    @Override
    protected byte[] initialValue() {
      return new byte[WINDOW];
    }
  }

  /** Checks the packed form: every range inside {@code data}, {@code out} large enough. */
  static void checkPacked(byte[] data, int[] offsets, int[] lengths, byte[] out) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(offsets, "offsets");
    Objects.requireNonNull(lengths, "lengths");
    Objects.requireNonNull(out, "out");
    if (offsets.length != lengths.length) {
      throw new IllegalArgumentException(
          "offsets and lengths differ in length: " + offsets.length + " and " + lengths.length);
    }
    long need = (long) Spec.OUT_LEN * offsets.length;
    if (out.length < need) {
      throw new IllegalArgumentException(
          "out holds " + out.length + " bytes, " + need + " needed for " + offsets.length + " hashes");
    }
    for (int i = 0; i < offsets.length; i++) {
      int off = offsets[i];
      int len = lengths[i];
      // long arithmetic: an end past Integer.MAX_VALUE must not wrap around into the array.
      if (off < 0 || len < 0 || (long) off + len > data.length) {
        throw new IndexOutOfBoundsException("message " + i + ": range [" + off + ", " + ((long) off + len)
            + ") outside data of " + data.length + " bytes");
      }
    }
  }

  static void hashPacked(int[] key, int flags, byte[] data, int[] offsets, int[] lengths, byte[] out) {
    checkPacked(data, offsets, lengths, out);
    hashCheckedPacked(Engine.kernel(), key, flags, data, offsets, lengths, out);
  }

  /**
   * {@link #hashPacked} on {@code kernel} once {@link #checkPacked} has passed. {@code out} may be
   * {@code data}: the hashes are those of the messages as they were before any hash was written.
   * Kernels hash a batch in several calls, each writing its hashes before the next reads its
   * messages, so when a message lies where the hashes go, they are made in an array of their own
   * first.
   */
  static void hashCheckedPacked(Kernel kernel, int[] key, int flags, byte[] data, int[] offsets, int[] lengths,
      byte[] out) {
    int n = offsets.length;
    if (n == 0) {
      return;
    }
    byte[] to = out == data && aMessageLiesIn(offsets, lengths, Spec.OUT_LEN * n) ? new byte[Spec.OUT_LEN * n] : out;
    kernel.hashMany(data, offsets, lengths, 0, n, key, flags, to, 0);
    if (to != out) {
      System.arraycopy(to, 0, out, 0, to.length);
    }
  }

  /** Whether a byte of some message lies in {@code [0, end)}. */
  private static boolean aMessageLiesIn(int[] offsets, int[] lengths, int end) {
    for (int i = 0; i < offsets.length; i++) {
      if (lengths[i] > 0 && offsets[i] < end) {
        return true;
      }
    }
    return false;
  }

  /** Checks the array form: no null array or element. */
  static void checkArrays(byte[][] inputs) {
    Objects.requireNonNull(inputs, "inputs");
    for (int i = 0; i < inputs.length; i++) {
      if (inputs[i] == null) {
        throw new NullPointerException("inputs[" + i + "] is null");
      }
    }
  }

  /** The 32-byte hash of each message, in order. */
  static byte[][] hashArrays(int[] key, int flags, byte[][] inputs) {
    checkArrays(inputs);
    Kernel kernel = Engine.kernel();
    byte[][] hashes = new byte[inputs.length][];
    if (!(kernel instanceof NativeKernel) && JavaBatch.takes(inputs.length, kernel)) {
      JavaBatch.hashArrays(kernel, inputs, key, flags, hashes); // the lanes read each array where it is
      return hashes;
    }
    if (!(kernel instanceof NativeKernel)) { // nothing to gain from packing: one after the other
      for (int i = 0; i < inputs.length; i++) {
        hashes[i] = new byte[Spec.OUT_LEN];
        OneShot.hash(kernel, inputs[i], 0, inputs[i].length, key, flags, hashes[i], 0, Spec.OUT_LEN);
      }
      return hashes;
    }
    byte[] window = Windows.PER_THREAD.get();
    int[] offsets = new int[Math.min(inputs.length, NativeBlake3.MANY_MAX)];
    int[] lengths = new int[offsets.length];
    byte[] out = new byte[Spec.OUT_LEN * offsets.length];
    int i = 0;
    while (i < inputs.length) {
      byte[] first = inputs[i];
      if (first.length > WINDOW) {
        hashes[i] = new byte[Spec.OUT_LEN];
        OneShot.hash(kernel, first, 0, first.length, key, flags, hashes[i], 0, Spec.OUT_LEN);
        i++;
        continue;
      }
      int n = 0;
      int at = 0;
      while (i + n < inputs.length && n < offsets.length && inputs[i + n].length <= WINDOW - at) {
        byte[] m = inputs[i + n];
        System.arraycopy(m, 0, window, at, m.length);
        offsets[n] = at;
        lengths[n] = m.length;
        at += m.length;
        n++;
      }
      kernel.hashMany(window, offsets, lengths, 0, n, key, flags, out, 0);
      for (int j = 0; j < n; j++) {
        byte[] h = new byte[Spec.OUT_LEN];
        System.arraycopy(out, Spec.OUT_LEN * j, h, 0, Spec.OUT_LEN);
        hashes[i + j] = h;
      }
      i += n;
    }
    return hashes;
  }
}
