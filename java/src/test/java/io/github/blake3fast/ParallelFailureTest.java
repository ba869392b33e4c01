package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.internal.Parallel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel call that fails (the executor throws, a task throws) returns only when no task reads
 * the input any more, and leaves the hasher as it was: after catching the failure, update() with
 * the same input gives the right hash. Once a task was still hashing 40 ms after the call threw
 * (a freed direct buffer then crashes the JVM), and the hasher kept part of the input.
 */
class ParallelFailureTest {
  private static final int MIB = 1 << 20;
  /** Helpers lent per call here: three, so that an executor can fail first, in the middle and last. */
  private static final int HELPERS = 3;
  private static byte[] data;
  private static ExecutorService pool;

  @TempDir
  static Path dir;

  @BeforeAll
  static void setUp() {
    data = new byte[9 * MIB + 777];
    new Random(14).nextBytes(data);
    pool = Executors.newFixedThreadPool(HELPERS);
  }

  @AfterAll
  static void tearDown() {
    pool.shutdown();
  }

  /** What an executor throws, fresh for each call. */
  private static final List<Supplier<Throwable>> FAILURES = List.of(
      () -> new IllegalStateException("pool closed"),
      () -> new OutOfMemoryError("unable to create native thread: possibly out of memory"),
      () -> new RuntimeException("executor broken"),
      () -> new StackOverflowError());

  /** How an executor treats the jobs it accepts before it fails. */
  enum Accepted { ON_POOL, ON_CALLER, DROPPED }

  /**
   * Accepts {@code accept} jobs (runs them on the pool, on the calling thread, or never), then
   * throws {@code failure} at the next call.
   */
  private static Executor failingAfter(int accept, Accepted how, Throwable failure) {
    AtomicInteger calls = new AtomicInteger();
    return r -> {
      if (calls.getAndIncrement() >= accept) {
        throwUnchecked(failure);
      }
      switch (how) {
        case ON_POOL:
          pool.execute(r);
          break;
        case ON_CALLER:
          r.run();
          break;
        default:
          break;
      }
    };
  }

  private static void throwUnchecked(Throwable t) {
    if (t instanceof RuntimeException) {
      throw (RuntimeException) t;
    }
    throw (Error) t;
  }

  private static void pause(long ms) {
    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(ms));
  }

  // ---- Parallel.run, with tasks that report when they run ------------------------------------

  /** Tasks that take a while and count themselves, and whether any starts after the call ended. */
  private static final class Tasks implements Parallel.Task {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger startedLate = new AtomicInteger();
    final int[] runs;
    final int failAt;
    final Throwable failure;
    volatile boolean returned;

    Tasks(int count, int failAt, Throwable failure) {
      this.runs = new int[count];
      this.failAt = failAt;
      this.failure = failure;
    }

    @Override
    public void run(int i) throws IOException {
      if (returned) {
        startedLate.incrementAndGet();
      }
      running.incrementAndGet();
      try {
        synchronized (runs) {
          runs[i]++;
        }
        pause(1);
        if (i == failAt) {
          if (failure instanceof IOException) {
            throw (IOException) failure;
          }
          throwUnchecked(failure);
        }
      } finally {
        running.decrementAndGet();
      }
    }

    /** Called when Parallel.run returned or threw: nothing may run now or start later. */
    void checkQuiet(String what) {
      returned = true;
      assertEquals(0, running.get(), what + ": tasks still running after the call ended");
      pause(30);
      assertEquals(0, startedLate.get(), what + ": tasks started after the call ended");
      synchronized (runs) {
        for (int i = 0; i < runs.length; i++) {
          assertTrue(runs[i] <= 1, what + ": task " + i + " ran " + runs[i] + " times");
        }
      }
    }
  }

  @Test
  void anExecutorFailingAtAnyCallEndsTheRunOnlyWhenNoTaskRuns() {
    for (Accepted how : Accepted.values()) {
      for (int position = 0; position < HELPERS; position++) {
        for (Supplier<Throwable> f : FAILURES) {
          Throwable failure = f.get();
          String what = how + ", " + failure + " at call " + (position + 1) + " of " + HELPERS;
          Tasks tasks = new Tasks(40, -1, null);
          Throwable thrown = null;
          try {
            Parallel.run(40, failingAfter(position, how, failure), HELPERS, tasks);
          } catch (Throwable t) {
            thrown = t;
          }
          tasks.checkQuiet(what);
          assertSame(failure, thrown, what);
        }
      }
    }
  }

  @Test
  void aRejectingExecutorAtAnyCallOnlyLeavesMoreWorkToTheCaller() throws IOException {
    for (int position = 0; position < HELPERS; position++) {
      Tasks tasks = new Tasks(40, -1, null);
      Parallel.run(40, failingAfter(position, Accepted.ON_POOL, new RejectedExecutionException("full")), HELPERS,
          tasks);
      tasks.checkQuiet("rejected at call " + (position + 1));
      for (int i = 0; i < 40; i++) {
        assertEquals(1, tasks.runs[i], "task " + i);
      }
    }
  }

  @Test
  void aTaskFailingFirstInTheMiddleOrLastEndsTheRunOnlyWhenNoTaskRuns() {
    List<Throwable> failures = List.of(new IllegalStateException("task"), new OutOfMemoryError("task"),
        new IOException("read failed"), new AssertionError("task"));
    for (int at : new int[] {0, 20, 39}) {
      for (Throwable failure : failures) {
        String what = failure + " from task " + at;
        Tasks tasks = new Tasks(40, at, failure);
        Throwable thrown = null;
        try {
          Parallel.run(40, pool, HELPERS, tasks);
        } catch (Throwable t) {
          thrown = t;
        }
        tasks.checkQuiet(what);
        assertSame(failure, thrown, what);
      }
    }
  }

  @Test
  void anInterruptedCallerStillWaitsForTheTasksAndKeepsTheInterrupt() throws Exception {
    // Interrupted before the call, with an executor that fails: the failure, no task left running.
    Throwable failure = new IllegalStateException("closed");
    Tasks tasks = new Tasks(40, -1, null);
    Thread.currentThread().interrupt();
    try {
      Parallel.run(40, failingAfter(1, Accepted.ON_POOL, failure), HELPERS, tasks);
      fail("no failure");
    } catch (IllegalStateException e) {
      assertSame(failure, e);
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
    } finally {
      Thread.interrupted();
    }
    tasks.checkQuiet("interrupted caller");
    // Interrupted while it waits for a slow helper: it goes on waiting. The helper's task starts,
    // the caller's waits for that, then the caller is interrupted while the helper still works.
    Thread caller = Thread.currentThread();
    java.util.concurrent.atomic.AtomicBoolean helperStarted = new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicBoolean helperFinished = new java.util.concurrent.atomic.AtomicBoolean();
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    Thread interrupter = new Thread(() -> {
      while (!helperStarted.get() && System.nanoTime() < giveUp) {
        Thread.onSpinWait();
      }
      pause(50);
      caller.interrupt();
    });
    interrupter.start();
    try {
      Parallel.run(2, pool, 1, i -> {
        if (Thread.currentThread() != caller) {
          helperStarted.set(true);
          long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
          while (System.nanoTime() < end) {
            pause(5);
          }
          helperFinished.set(true);
        } else {
          while (!helperStarted.get() && System.nanoTime() < giveUp) {
            Thread.onSpinWait();
          }
        }
      });
      assertTrue(helperFinished.get(), "returned before the helper's task finished");
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
    } finally {
      Thread.interrupted();
      interrupter.join();
      Thread.interrupted();
    }
  }

  // ---- the hasher: a kernel that reports when it reads ----------------------------------------

  /** The engine's kernel, counting the calls that read input: while running, and after the end. */
  static final class CountingKernel implements Kernel {
    final Kernel k = Engine.kernel();
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger late = new AtomicInteger();
    volatile boolean ended;

    private void enter() {
      if (ended) {
        late.incrementAndGet();
      }
      inFlight.incrementAndGet();
      pause(1); // long enough for a call to return while one of these still runs
    }

    /** The parallel call ended: nothing may read now or later. */
    void checkQuiet(String what) {
      ended = true;
      assertEquals(0, inFlight.get(), what + ": a kernel call still reads the input");
      pause(30);
      assertEquals(0, late.get(), what + ": a kernel call started after the call ended");
      ended = false;
    }

    @Override
    public String name() {
      return k.name();
    }

    @Override
    public int bufferSize() {
      return k.bufferSize();
    }

    @Override
    public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
      enter();
      try {
        return k.hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff);
      } finally {
        inFlight.decrementAndGet();
      }
    }

    @Override
    public boolean supportsDirect() {
      return k.supportsDirect();
    }

    @Override
    public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
        int cvsOff) {
      enter();
      try {
        return k.hashSubtrees(direct, off, len, key, counter, flags, cvs, cvsOff);
      } finally {
        inFlight.decrementAndGet();
      }
    }

    @Override
    public boolean hashesWhole(int len, int outLen) {
      return k.hashesWhole(len, outLen);
    }

    @Override
    public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
      k.hashWhole(in, off, len, key, flags, out, outOff, outLen);
    }

    @Override
    public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
        int outLen) {
      k.rootOutput(cv, block, blockLen, flags, position, out, outOff, outLen);
    }
  }

  private static byte[] finish(TreeState s) {
    byte[] out = new byte[32];
    s.finish(out, 0, 32);
    return out;
  }

  /** Every executor failure at every call: a heap array, a direct buffer, after a prefix. */
  @Test
  void aFailedParallelUpdateReadsNothingAfterwardsAndLeavesTheStateAsBefore() {
    int prefix = 1500; // the call first fills and hashes the hasher's buffer
    int len = 6 * MIB + 5;
    byte[] want = Blake3.hash(data, 0, prefix + len);
    ByteBuffer direct = ByteBuffer.allocateDirect(len).put(data, prefix, len).flip();
    for (Accepted how : Accepted.values()) {
      for (int position = 0; position < HELPERS; position++) {
        for (Supplier<Throwable> f : FAILURES) {
          for (boolean useDirect : new boolean[] {false, true}) {
            Throwable failure = f.get();
            String what = how + ", " + failure + " at call " + (position + 1) + (useDirect ? ", direct" : ", heap");
            CountingKernel k = new CountingKernel();
            TreeState s = new TreeState(k, Spec.iv(), 0);
            s.update(data, 0, prefix);
            Executor ex = failingAfter(position, how, failure);
            Throwable thrown = null;
            try {
              if (useDirect) {
                ParallelUpdate.update(s, null, direct, 0, len, ex, HELPERS);
              } else {
                ParallelUpdate.update(s, data, null, prefix, len, ex, HELPERS);
              }
            } catch (Throwable t) {
              thrown = t;
            }
            k.checkQuiet(what);
            assertSame(failure, thrown, what);
            assertEquals(prefix, s.length(), what);
            s.update(data, prefix, len);
            assertArrayEquals(want, finish(s), what + ": retried with update()");
          }
        }
      }
    }
  }

  /** Through the public API, with the helper count it picks for this machine. */
  @Test
  void thePublicCallsRethrowAndTheHasherRetriesRight() {
    int len = 5 * MIB + 3;
    byte[] in = Arrays.copyOfRange(data, 100, 100 + len);
    byte[] want = Blake3.hash(data, 0, 100 + len);
    for (Supplier<Throwable> f : FAILURES) {
      Throwable failure = f.get();
      Executor ex = r -> throwUnchecked(failure);
      if (Parallel.helpers(ex) == 0) {
        return; // one processor: no helper is asked for, nothing can fail
      }
      Blake3Hasher h = Blake3.newHasher().update(data, 0, 100);
      assertSame(failure, catchIt(() -> h.updateParallel(data, 100, len, ex)), failure.toString());
      assertArrayEquals(want, h.update(data, 100, len).digest(), failure + ": array, retried");

      Blake3Hasher b = Blake3.newHasher().update(data, 0, 100);
      ByteBuffer d = ByteBuffer.allocateDirect(len).put(in).flip();
      assertSame(failure, catchIt(() -> b.updateParallel(d, ex)), failure.toString());
      assertEquals(0, d.position(), "the buffer's position moved");
      assertArrayEquals(want, b.update(d).digest(), failure + ": direct buffer, retried");

      assertSame(failure, catchIt(() -> Blake3.hashParallel(in, ex)), failure.toString());
    }
  }

  private static Throwable catchIt(Runnable r) {
    try {
      r.run();
    } catch (Throwable t) {
      return t;
    }
    fail("no failure");
    return null;
  }

  /** Files read in parallel windows: the same, and the file's channel is not read afterwards. */
  @Test
  void aFailedFileUpdateReadsNothingAfterwardsAndLeavesTheStateAsBefore() throws IOException {
    int size = 8 * MIB + 1234;
    Path p = Files.write(dir.resolve("f"), Arrays.copyOf(data, size));
    for (Accepted how : Accepted.values()) {
      for (int position = 0; position < HELPERS; position++) {
        for (Supplier<Throwable> f : FAILURES) {
          Throwable failure = f.get();
          String what = "file, " + how + ", " + failure + " at call " + (position + 1);
          CountingKernel k = new CountingKernel();
          TreeState s = new TreeState(k, Spec.iv(), 0);
          s.update(data, 0, 3000); // not on a window boundary: a sequential head first
          Throwable thrown = null;
          try {
            FileHashing.updateFile(s, p, failingAfter(position, how, failure), HELPERS);
          } catch (Throwable t) {
            thrown = t;
          }
          k.checkQuiet(what);
          assertSame(failure, thrown, what);
          assertEquals(3000, s.length(), what);
          s.update(Files.readAllBytes(p), 0, size);
          byte[] all = new byte[3000 + size];
          System.arraycopy(data, 0, all, 0, 3000);
          System.arraycopy(data, 0, all, 3000, size);
          assertArrayEquals(Blake3.hash(all), finish(s), what + ": retried with update()");
        }
      }
    }
  }

  /** A read failing in a task (the file shrank under it): the state is as before too. */
  @Test
  void aFileThatShrinksWhileReadInParallelLeavesTheStateAsBefore() throws IOException {
    Path p = Files.write(dir.resolve("shrinks"), Arrays.copyOf(data, 8 * MIB));
    Executor truncatingFirst = r -> {
      try (FileChannel w = FileChannel.open(p, StandardOpenOption.WRITE)) {
        w.truncate(3 * MIB);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      pool.execute(r);
    };
    CountingKernel k = new CountingKernel();
    TreeState s = new TreeState(k, Spec.iv(), 0);
    s.update(data, 0, 5000);
    IOException e = assertThrows(IOException.class, () -> FileHashing.updateFile(s, p, truncatingFirst, HELPERS));
    k.checkQuiet("shrunk");
    assertTrue(e.getMessage().contains("shrank"), e.getMessage());
    assertEquals(5000, s.length(), "updateFile kept part of the file");
    s.update(data, 5000, 100);
    assertArrayEquals(Blake3.hash(data, 0, 5100), finish(s));
  }
}
