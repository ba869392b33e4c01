package io.github.blake3fast;

import java.nio.ByteBuffer;

/**
 * Direct buffers of the calling thread for the native Bao calls where arrays are copied rather
 * than pinned ({@link CriticalArrays}): one for input, one for chaining values. Grown on demand
 * up to a call's size ({@link Kernel#MAX_CALL}); null when direct memory cannot be had, and the
 * caller then takes the kernel's default path.
 */
final class BaoScratch {
  private static final ThreadLocal<BaoScratch> MINE = new ThreadLocal<>();

  ByteBuffer in;
  ByteBuffer out;

  private BaoScratch() {}

  static BaoScratch get(int inLen, int outLen) {
    BaoScratch s = MINE.get();
    if (s == null) {
      s = new BaoScratch();
      MINE.set(s);
    }
    try {
      if (inLen > 0 && (s.in == null || s.in.capacity() < inLen)) {
        s.in = null;
        s.in = ByteBuffer.allocateDirect(Math.max(inLen, 64 << 10));
      }
      if (s.out == null || s.out.capacity() < outLen) {
        s.out = null;
        s.out = ByteBuffer.allocateDirect(Math.max(outLen, 4 << 10));
      }
    } catch (OutOfMemoryError e) {
      return null;
    }
    return s;
  }
}
