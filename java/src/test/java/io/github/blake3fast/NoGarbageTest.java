package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * {@link Blake3#hash(byte[], int, int, byte[], int)} and the packed {@code hashMany} allocate
 * nothing once compiled, on the engine this JVM runs (the native one: the test is not tagged
 * for the engine runs): no result array, no ByteBuffer left by the short-hash slots (C2 removes
 * their wraps), no per-call arrays for a batch. The counter is this thread's allocated bytes; a
 * few rounds are allowed for C2 to finish.
 */
class NoGarbageTest {
  /** This thread's allocation counter; the test is skipped where there is none or nothing is compiled. */
  private static com.sun.management.ThreadMXBean allocationCounter() {
    assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean, "no allocation counter");
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "no allocation counter");
    assumeTrue(!JvmOptions.list().contains("-Xint"), "interpreted: nothing is compiled");
    return mx;
  }

  @Test
  void hashingIntoAnArrayAllocatesNothing() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
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

  /**
   * The packed {@link Blake3#hashMany(byte[], int[], int[], byte[])}, as docs/many.md promises:
   * batches of one size and of mixed sizes, of 16 messages and of 300 (more than one native
   * call's 256). Where arrays are copied rather than pinned it allocated two int arrays a call.
   */
  @Test
  void hashingManyIntoAnArrayAllocatesNothing() {
    com.sun.management.ThreadMXBean mx = allocationCounter();
    long tid = Thread.currentThread().getId();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(26);
    for (int count : new int[] {16, 300}) {
      for (int size : new int[] {32, 1024, -1}) {
        int[] offsets = new int[count];
        int[] lengths = new int[count];
        int total = 0;
        for (int i = 0; i < count; i++) {
          lengths[i] = size >= 0 ? size : rnd.nextInt(4097);
          offsets[i] = total;
          total += lengths[i];
        }
        byte[] data = new byte[total];
        byte[] out = new byte[32 * count];
        long perCall = Long.MAX_VALUE;
        for (int round = 0; round < 20 && perCall > 0; round++) {
          long before = mx.getThreadAllocatedBytes(tid);
          for (int i = 0; i < 500; i++) {
            Blake3.hashMany(data, offsets, lengths, out);
          }
          perCall = (mx.getThreadAllocatedBytes(tid) - before) / 500;
        }
        assertTrue(perCall == 0, Blake3.implementation() + ", " + count + " messages of " + (size >= 0 ? size : "mixed")
            + " bytes: " + perCall + " bytes allocated per call");
      }
    }
  }
}
