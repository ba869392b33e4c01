package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Parallel hashing gives the sequential hash, whatever the sizes, offsets, buffers and executors. */
class ParallelHashTest {
  private static final int MIB = 1 << 20;
  private static byte[] data;
  private static ExecutorService two;
  private static ExecutorService four;

  @BeforeAll
  static void setUp() {
    data = new byte[64 * MIB + 3000];
    new Random(7).nextBytes(data);
    two = Executors.newFixedThreadPool(2);
    four = Executors.newFixedThreadPool(4);
  }

  @AfterAll
  static void tearDown() {
    two.shutdown();
    four.shutdown();
  }

  private static byte[] sequential(int off, int len) {
    return Blake3.hash(data, off, len);
  }

  private static final int[] SIZES = {
    Parallel.MIN_LEN - 1, Parallel.MIN_LEN, Parallel.MIN_LEN + 1, 2 * MIB - 1024, 2 * MIB, 2 * MIB + 1024,
    3 * MIB + 517, 5 * MIB + 1, 8 * MIB, 13 * MIB + 1023
  };

  @Test
  void byteArraysOnSeveralExecutors() {
    Executor direct = Runnable::run;
    for (Executor ex : List.of(ForkJoinPool.commonPool(), two, four, direct)) {
      for (int size : SIZES) {
        byte[] got = Blake3.newHasher().updateParallel(data, 11, size, ex).digest();
        assertArrayEquals(sequential(11, size), got, "size " + size + " on " + ex);
      }
    }
  }

  @Test
  void sixtyFourMebibytes() {
    int len = 64 * MIB;
    byte[] expected = sequential(0, len);
    byte[] whole = new byte[len];
    System.arraycopy(data, 0, whole, 0, len);
    assertArrayEquals(expected, Blake3.hashParallel(whole));
    assertArrayEquals(expected, Blake3.hashParallel(whole, two));
    assertArrayEquals(expected, Blake3.hashParallel(ByteBuffer.wrap(whole), four));
    ByteBuffer d = ByteBuffer.allocateDirect(len);
    d.put(whole).flip();
    assertArrayEquals(expected, Blake3.hashParallel(d));
    assertEquals(len, d.position());
  }

  @Test
  void afterAndBeforeOtherInput() {
    int[] prefixes = {0, 1, 1023, 1024, 1025, 5000, 16384, 16385, 65536 + 7, MIB + 3, 3 * MIB};
    int[] suffixes = {0, 1, 1024, 70000};
    Random r = new Random(1);
    for (int prefix : prefixes) {
      for (int suffix : suffixes) {
        int size = 2 * MIB + r.nextInt(4 * MIB);
        Blake3Hasher h = Blake3.newHasher();
        h.update(data, 0, prefix);
        h.updateParallel(data, prefix, size, two);
        h.update(data, prefix + size, suffix);
        assertArrayEquals(sequential(0, prefix + size + suffix), h.digest(), prefix + "+" + size + "+" + suffix);
      }
    }
  }

  @Test
  void repeatedParallelUpdates() {
    Blake3Hasher h = Blake3.newHasher();
    int off = 0;
    Random r = new Random(2);
    while (off < 40 * MIB) {
      int n = r.nextInt(3 * MIB);
      h.updateParallel(data, off, n);
      off += n;
      if (r.nextBoolean()) {
        h.update(data, off, 100);
        off += 100;
      }
    }
    assertArrayEquals(sequential(0, off), h.digest());
  }

  @Test
  void everyKindOfByteBuffer() {
    int off = 777;
    int len = 6 * MIB + 999;
    byte[] expected = sequential(off, len);
    List<ByteBuffer> buffers = new ArrayList<>();
    buffers.add(ByteBuffer.wrap(data, off, len));
    buffers.add(ByteBuffer.wrap(data, 100, data.length - 100).slice().limit(off - 100 + len).position(off - 100)); // array offset
    buffers.add(ByteBuffer.wrap(data, off, len).asReadOnlyBuffer());
    ByteBuffer direct = ByteBuffer.allocateDirect(len + 5000);
    direct.position(5000);
    direct.put(data, off, len);
    direct.position(5000);
    buffers.add(direct);
    buffers.add(direct.duplicate().position(5000).slice());
    buffers.add(direct.duplicate().position(5000).asReadOnlyBuffer());
    for (ByteBuffer b : buffers) {
      int limit = b.limit();
      byte[] got = Blake3.newHasher().updateParallel(b, two).digest();
      assertArrayEquals(expected, got, b.toString());
      assertEquals(limit, b.position(), b.toString());
    }
  }

  @Test
  void keyedAndDerivedModes() {
    byte[] key = new byte[32];
    new Random(3).nextBytes(key);
    int len = 7 * MIB + 5;
    Blake3Hasher keyed = Blake3.newKeyedHasher(key).update(data, 0, 3);
    keyed.updateParallel(data, 3, len - 3, two);
    byte[] in = new byte[len];
    System.arraycopy(data, 0, in, 0, len);
    assertArrayEquals(Blake3.keyedHash(key, in), keyed.digest());
    Blake3Hasher derive = Blake3.newDeriveKeyHasher("blake3-fast parallel test").updateParallel(in);
    assertArrayEquals(Blake3.deriveKey("blake3-fast parallel test", in, 100), derive.digest(100));
  }

  /** The Java kernel, whatever engine runs: heap arrays, and direct buffers it cannot read itself. */
  @Test
  void javaKernel() {
    for (int helpers = 1; helpers <= 3; helpers++) {
      for (int[] c : new int[][] {{0, 2 * MIB + 1}, {1500, 3 * MIB}, {4096, MIB + 1024}, {65536, 2 * MIB + 77}}) {
        int prefix = c[0];
        int len = c[1];
        byte[] expected = sequential(0, prefix + len);
        TreeState s = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
        s.update(data, 0, prefix);
        ParallelUpdate.update(s, data, null, prefix, len, four, helpers);
        byte[] out = new byte[32];
        s.finish(out, 0, 32);
        assertArrayEquals(expected, out, "heap " + helpers + " " + prefix + " " + len);

        ByteBuffer d = ByteBuffer.allocateDirect(len);
        d.put(data, prefix, len).flip();
        TreeState t = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
        t.update(data, 0, prefix);
        ParallelUpdate.update(t, null, d, 0, len, four, helpers);
        t.finish(out, 0, 32);
        assertArrayEquals(expected, out, "direct " + helpers + " " + prefix + " " + len);
      }
    }
  }

  @Test
  void extendableOutputAndCopy() {
    int len = 9 * MIB + 300;
    Blake3Hasher h = Blake3.newHasher().updateParallel(data, 0, len, two);
    Blake3Hasher c = h.copy();
    Blake3Hasher s = Blake3.newHasher().update(data, 0, len);
    assertArrayEquals(s.digest(1000), h.digest(1000));
    c.updateParallel(data, len, 2 * MIB, four);
    s.update(data, len, 2 * MIB);
    assertArrayEquals(s.digest(), c.digest());
  }

  @Test
  void aRejectingOrIdleExecutorLeavesTheWorkToTheCaller() {
    Executor rejecting = r -> {
      throw new RejectedExecutionException("full");
    };
    Executor idle = r -> {}; // accepts, never runs
    for (Executor ex : List.of(rejecting, idle)) {
      assertArrayEquals(sequential(0, 5 * MIB), Blake3.newHasher().updateParallel(data, 0, 5 * MIB, ex).digest());
    }
  }

  @Test
  void helpersMayBeThreadsOfTheSamePoolAsTheCaller() throws Exception {
    ForkJoinPool pool = new ForkJoinPool(2);
    try {
      List<byte[]> got = pool.submit(() -> IntStream.range(0, 6).parallel()
          .mapToObj(i -> Blake3.newHasher().updateParallel(data, i * MIB, 3 * MIB + i, pool).digest())
          .collect(java.util.stream.Collectors.toList())).get();
      for (int i = 0; i < 6; i++) {
        assertArrayEquals(sequential(i * MIB, 3 * MIB + i), got.get(i));
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void manyThreadsAtOnceOnTheCommonPool() throws Exception {
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try {
      List<Future<byte[]>> fs = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        final int off = i * 3 * MIB;
        fs.add(callers.submit(() -> Blake3.hashParallel(java.util.Arrays.copyOfRange(data, off, off + 4 * MIB))));
      }
      for (int i = 0; i < 8; i++) {
        assertArrayEquals(sequential(i * 3 * MIB, 4 * MIB), fs.get(i).get());
      }
    } finally {
      callers.shutdown();
    }
  }

  @Test
  void anInterruptIsKeptAndIgnored() {
    Thread.currentThread().interrupt();
    try {
      byte[] got = Blake3.newHasher().updateParallel(data, 0, 5 * MIB, two).digest();
      assertTrue(Thread.currentThread().isInterrupted());
      assertArrayEquals(sequential(0, 5 * MIB), got);
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void smallInputsStayOnTheCaller() {
    Set<Thread> seen = ConcurrentHashMap.newKeySet();
    Executor spy = r -> {
      seen.add(Thread.currentThread());
      two.execute(r);
    };
    byte[] small = java.util.Arrays.copyOf(data, Parallel.MIN_LEN - 1);
    assertArrayEquals(Blake3.hash(small), Blake3.hashParallel(small, spy));
    assertArrayEquals(Blake3.hash(small), Blake3.newHasher().updateParallel(small, 0, small.length, spy).digest());
    assertTrue(seen.isEmpty());
  }

  @Test
  void argumentsAreChecked() {
    Blake3Hasher h = Blake3.newHasher();
    assertThrows(NullPointerException.class, () -> h.updateParallel((byte[]) null, 0, 0, two));
    assertThrows(NullPointerException.class, () -> h.updateParallel(data, 0, 1, null));
    assertThrows(NullPointerException.class, () -> h.updateParallel((ByteBuffer) null));
    assertThrows(IndexOutOfBoundsException.class, () -> h.updateParallel(data, -1, 10, two));
    assertThrows(IndexOutOfBoundsException.class, () -> h.updateParallel(data, 10, data.length, two));
    assertThrows(NullPointerException.class, () -> Blake3.hashParallel((byte[]) null));
    assertThrows(NullPointerException.class, () -> Blake3.hashParallel(new byte[1], null));
  }

  @Test
  void theFirstFailureOfATaskIsRethrownAfterTheOthersFinish() {
    AtomicInteger ran = new AtomicInteger();
    IllegalStateException boom = new IllegalStateException("task 5");
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> Parallel.runUnchecked(40, two, 2, i -> {
      ran.incrementAndGet();
      if (i == 5) {
        throw boom;
      }
    }));
    assertSame(boom, e);
    assertTrue(ran.get() < 40 + 1);
    IOException io = new IOException("read failed");
    UncheckedIOException u = assertThrows(UncheckedIOException.class, () -> Parallel.runUnchecked(3, two, 2, i -> {
      throw io;
    }));
    assertSame(io, u.getCause());
    assertThrows(IOException.class, () -> Parallel.run(3, two, 2, i -> {
      throw io;
    }));
  }

  @Test
  void taskSizesArePowersOfTwoWithinBounds() {
    for (long n : new long[] {1, 100, 1000, 65536, 1L << 30}) {
      for (int threads : new int[] {1, 2, 64}) {
        long t = ParallelUpdate.taskChunks(n, threads);
        assertEquals(1, Long.bitCount(t));
        assertTrue(t >= ParallelUpdate.MIN_TASK_CHUNKS && t <= ParallelUpdate.MAX_TASK_CHUNKS);
      }
    }
  }
}
