package io.github.blake3fast.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs numbered tasks on an executor's threads and the calling thread together. Tasks are
 * claimed from a shared counter, so a helper that starts late (or never: a saturated or
 * rejecting executor) only means the caller does more of the work; the caller waits only for
 * tasks that another thread has already started, which cannot deadlock, even when the caller
 * is itself a thread of the executor.
 *
 * <p><b>Internal: not API; may change or go in any release.</b> Public only so that the
 * library's own packages ({@code io.github.blake3fast} and {@code io.github.blake3fast.bao})
 * share it; the module descriptor does not export this package.
 */
public final class Parallel {
  private Parallel() {}

  /**
   * Inputs shorter than this are hashed on the calling thread alone: below it, waking a helper
   * costs more than it saves (bench ParallelBench, JMH, and a forced-parallel timing loop; the
   * figures, kernel and machine in bench/notes/decisions.md). Slower kernels (the Java engine)
   * gain from smaller sizes on.
   */
  public static final int MIN_LEN = 1 << 20;

  /** One numbered task of {@link #run}. */
  public interface Task {
    /**
     * Runs task {@code index}.
     *
     * @param index the task's number, from 0
     * @throws IOException if the task fails
     */
    void run(int index) throws IOException;
  }

  /**
   * The threads worth asking an executor for besides the caller: what it says it has, but no
   * more than the other processors (hashing is bound by them). 0 on a single processor.
   *
   * @param executor the executor the helpers would run on
   * @return how many helpers to ask it for
   */
  public static int helpers(Executor executor) {
    int others = Runtime.getRuntime().availableProcessors() - 1;
    if (executor instanceof ForkJoinPool) {
      return Math.min(others, ((ForkJoinPool) executor).getParallelism());
    }
    if (executor instanceof ThreadPoolExecutor) {
      return Math.min(others, ((ThreadPoolExecutor) executor).getMaximumPoolSize());
    }
    return others;
  }

  /**
   * The common pool and the caller: all processors on an otherwise idle machine.
   *
   * @return {@link ForkJoinPool#commonPool()}
   */
  public static Executor commonPool() {
    return ForkJoinPool.commonPool();
  }

  /**
   * An executor that starts a daemon thread per helper, for an explicit thread count: the
   * helpers live as long as one batch of tasks.
   */
  public static final Executor NEW_THREAD = new ThreadPerTask();

  /**
   * A class, not a lambda: the first lambda of a JVM spins the method-handle machinery, about
   * 5 ms of a first hashFile (bench/notes/startup.md).
   */
  private static final class ThreadPerTask implements Executor {
    @Override
    public void execute(Runnable r) {
      Thread t = new Thread(r, "blake3-worker");
      t.setDaemon(true);
      t.start();
    }
  }

  /**
   * As {@link #run}, for tasks that throw no checked exception.
   *
   * @param tasks how many tasks
   * @param executor where helpers run
   * @param helpers how many helpers to ask for at most
   * @param task the tasks
   * @throws UncheckedIOException if a task threw an IOException after all
   */
  public static void runUnchecked(int tasks, Executor executor, int helpers, Task task) {
    try {
      run(tasks, executor, helpers, task);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Runs {@code task(0)} to {@code task(tasks - 1)}, each once, on up to {@code helpers}
   * executor threads and this one, and returns when all are done. The first failure (a task's,
   * or anything but {@link RejectedExecutionException} from the executor) is rethrown here, but
   * only after every task already started has finished: tasks read the caller's input, which
   * the caller may free as soon as this returns. Tasks not yet started are then skipped. An
   * interrupt neither stops nor shortens the wait; it is kept for the caller.
   *
   * @param tasks how many tasks
   * @param executor where helpers run
   * @param helpers how many helpers to ask for at most
   * @param task the tasks
   * @throws IOException the first task's IOException
   */
  public static void run(int tasks, Executor executor, int helpers, Task task) throws IOException {
    Job job = new Job(tasks, task);
    int lend = Math.min(helpers, tasks - 1);
    try {
      for (int i = 0; i < lend && job.failure == null; i++) {
        try {
          executor.execute(job);
        } catch (RejectedExecutionException e) {
          break; // the caller does the rest
        }
      }
    } catch (Throwable t) {
      // A closed pool, a thread that could not be started (OutOfMemoryError), ...: jobs handed
      // out before may be running, so this must not return yet.
      job.fail(t);
    }
    job.work(); // runs what is left, or after a failure claims it without running it
    job.awaitDone();
    job.rethrow();
  }

  private static final class Job implements Runnable {
    private final int tasks;
    private final Task task;
    private final AtomicInteger next = new AtomicInteger();
    private final CountDownLatch done;
    volatile Throwable failure;

    Job(int tasks, Task task) {
      this.tasks = tasks;
      this.task = task;
      this.done = new CountDownLatch(tasks);
    }

    @Override
    public void run() {
      work();
    }

    /**
     * Claims tasks until none is left, running each unless something failed. A job an executor
     * runs late, after the call returned, finds nothing left and touches no input.
     */
    void work() {
      int i;
      while ((i = next.getAndIncrement()) < tasks) {
        try {
          if (failure == null) {
            task.run(i);
          }
        } catch (Throwable t) {
          fail(t);
        } finally {
          done.countDown();
        }
      }
    }

    synchronized void fail(Throwable t) {
      if (failure == null) {
        failure = t;
      }
    }

    /**
     * Waits for every task. An interrupt is kept for the caller, not acted upon; an Error from
     * the wait itself (an OutOfMemoryError queueing this thread) becomes the failure and the
     * wait goes on by yielding, since returning early would leave tasks reading the input.
     */
    void awaitDone() {
      boolean interrupted = false;
      while (done.getCount() > 0) {
        try {
          done.await();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (Throwable t) {
          fail(t);
          Thread.yield();
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    void rethrow() throws IOException {
      Throwable f = failure;
      if (f instanceof IOException) {
        throw (IOException) f;
      } else if (f instanceof RuntimeException) {
        throw (RuntimeException) f;
      } else if (f instanceof Error) {
        throw (Error) f;
      } else if (f != null) {
        throw new IllegalStateException(f);
      }
    }
  }
}
