package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The kernel backed by the native library, for one ISA. A one-shot hash of fewer than
 * {@link #MIN_CALL} bytes stays in Java: measured with JMH (bench/HashBench, JDK 17, AVX-512
 * host), a 64-byte hash takes 153 ns through JNI and 123 ns in Java, while at 1 KiB JNI wins
 * 1180 ns to 1873 ns; a JNI one-shot costs about 90 ns more than its compressions and a native
 * block saves about 40 ns, so they cross at two blocks. Everything longer is one JNI call, in
 * slices of at most {@link #MAX_CALL} bytes so that a critical section never pins an array for
 * long.
 */
final class NativeKernel implements Kernel {
  // Every method checks the range the C side will touch against the array or buffer it gets,
  // right before the call: the public API checked the caller's arguments already, but a hasher
  // shared by threads against its contract (or a bug in the tree driver) must end in an
  // exception, never in C reading or writing outside a Java object. A few ns per call.

  /** One-shot hashes with a 32-byte output below this many bytes run in Java (see above). */
  static final int MIN_CALL = 128;
  /** The most bytes one JNI call reads: about half a millisecond at SSE2 speed. */
  static final int MAX_CALL = 4 << 20;

  private final int isa;
  private final String name;

  NativeKernel(int isa) {
    this.isa = isa;
    this.name = "native-" + NativeBlake3.ISA_NAMES[isa];
  }

  int isa() {
    return isa;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public int bufferSize() {
    return 16 * Spec.CHUNK_LEN;
  }

  @Override
  public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
    Objects.checkFromIndexSize(off, len, in.length);
    return NativeBlake3.hashSubtrees(isa, in, off, len, key, counter, flags, cvs, cvsOff);
  }

  @Override
  public boolean prefersOneShot() {
    return true;
  }

  @Override
  public boolean supportsDirect() {
    return true;
  }

  @Override
  public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    Objects.checkFromIndexSize(off, len, direct.capacity());
    return NativeBlake3.hashSubtreesDirect(isa, direct, off, len, key, counter, flags, cvs, cvsOff);
  }

  @Override
  public void hash(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    Objects.checkFromIndexSize(off, len, in.length);
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    if (len < MIN_CALL && outLen == Spec.OUT_LEN) {
      Compress.hashOneChunk(in, off, len, key, flags, out, outOff);
    } else if (len <= MAX_CALL) {
      // A null key is the IV in C: one array fewer to pin.
      NativeBlake3.hashOneShot(isa, in, off, len, key == Spec.iv() ? null : key, flags, 0, out, outOff, outLen);
    } else {
      TreeState s = new TreeState(this, key, flags);
      s.update(in, off, len);
      s.finish(out, outOff, outLen);
    }
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    Objects.checkFromIndexSize(outOff, outLen, out.length);
    while (outLen > 0) {
      int n = Math.min(outLen, MAX_CALL);
      NativeBlake3.rootOutput(isa, cv, block, blockLen, flags, position, out, outOff, n);
      position += n;
      outOff += n;
      outLen -= n;
    }
  }
}
