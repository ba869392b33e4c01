package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * {@link Blake3#hash(byte[], int, int, byte[], int)} allocates nothing once compiled, on the
 * engine this JVM runs (the native one in the default run, the Java one in the engine-java run):
 * no result array, and no ByteBuffer left by the short-hash slots (C2 removes their wraps). The
 * counter is this thread's allocated bytes; a few rounds are allowed for C2 to finish.
 */
class NoGarbageTest {
  @Test
  void hashingIntoAnArrayAllocatesNothing() {
    assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean, "no allocation counter");
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "no allocation counter");
    assumeTrue(!JvmOptions.list().contains("-Xint"), "interpreted: nothing is compiled");
    long tid = Thread.currentThread().getId();
    for (int size : new int[] {0, 17, 64, 65, 1024, 5000}) {
      byte[] in = new byte[size];
      byte[] out = new byte[40];
      long perCall = Long.MAX_VALUE;
      for (int round = 0; round < 20 && perCall > 0; round++) {
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 20_000; i++) {
          Blake3.hash(in, 0, size, out, 8);
        }
        perCall = (mx.getThreadAllocatedBytes(tid) - before) / 20_000;
      }
      assertTrue(perCall == 0, Blake3.implementation() + ", " + size + " bytes: " + perCall + " bytes allocated per hash");
    }
  }
}
