package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * A native kernel that never pins (its calls cut at the library's copy length) allocates nothing
 * per call beyond the result, also for inputs longer than one call, whose pieces are merged on a
 * stack: that stack is the caller's room for values, not a new array per hash.
 */
class CopyAllocationTest {
  @Test
  void copiedHashesOfAnySizeAllocateOnlyTheirResult() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "needs the native kernel; this JVM runs " + Engine.kernel().name());
    assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean, "no allocation counter");
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "no allocation counter");
    Kernel copying = new NativeKernel(((NativeKernel) Engine.kernel()).isa(), false);
    measure(mx, copying, new byte[32]);
  }

  private static void measure(com.sun.management.ThreadMXBean mx, Kernel copying, byte[] out) {
    for (int size : new int[] {NativeBlake3.COPY_LEN - 1, NativeBlake3.COPY_LEN + 1, 1 << 20, (4 << 20) + 1000}) {
      byte[] in = new byte[size];
      for (int i = 0; i < 50; i++) { // warm up: lazily made buffers, class loading, compilation
        OneShot.hash(copying, in, 0, size, Spec.iv(), 0, out, 0, 32);
      }
      long tid = Thread.currentThread().getId();
      long before = mx.getThreadAllocatedBytes(tid);
      for (int i = 0; i < 100; i++) {
        OneShot.hash(copying, in, 0, size, Spec.iv(), 0, out, 0, 32);
      }
      long perCall = (mx.getThreadAllocatedBytes(tid) - before) / 100;
      assertTrue(perCall < 64, size + " bytes: " + perCall + " bytes allocated per copied hash");
    }
  }
}
