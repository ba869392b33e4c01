package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Parallel hashing of in-memory inputs against the single-thread one-shot, which is the
 * fastest a single thread gets ({@code Blake3.hash}: one native call up to 4 MiB).
 *
 * <ul>
 *   <li>{@code oneThread}: {@code Blake3.hash(data)}.</li>
 *   <li>{@code commonPool}: {@code Blake3.hashParallel(data)}: the caller and the common pool
 *       (on 2 processors its parallelism is 1: two threads in all).</li>
 *   <li>{@code twoThreads}: {@code Blake3.hashParallel(data, executor)} with a one-thread
 *       executor: the caller and that thread.</li>
 *   <li>{@code directCommonPool}: the same input in a direct buffer.</li>
 *   <li>{@code callerOnly}: {@code hashParallel} with an executor that rejects every task: the
 *       parallel code path on the calling thread alone, to show what the split itself costs.</li>
 * </ul>
 * Operations per second; multiply by {@code size} for bytes. The speedup is a ratio of two
 * rows of one run. Below about 1 MiB hashParallel runs on the caller alone, by design.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ParallelBench {
  @Param({"1048576", "4194304", "16777216", "67108864"})
  public int size;

  private byte[] data;
  private ByteBuffer direct;
  private ExecutorService one;

  @Setup(Level.Trial)
  public void setup() {
    data = new byte[size];
    new Random(size).nextBytes(data);
    direct = ByteBuffer.allocateDirect(size);
    direct.put(data).flip();
    one = Executors.newFixedThreadPool(1);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    one.shutdown();
  }

  @Benchmark
  public byte[] oneThread() {
    return Blake3.hash(data);
  }

  @Benchmark
  public byte[] commonPool() {
    return Blake3.hashParallel(data);
  }

  @Benchmark
  public byte[] twoThreads() {
    return Blake3.hashParallel(data, one);
  }

  private static final Executor REJECT = r -> {
    throw new RejectedExecutionException("caller only");
  };

  @Benchmark
  public byte[] callerOnly() {
    return Blake3.hashParallel(data, REJECT);
  }

  @Benchmark
  public byte[] directCommonPool() {
    return Blake3.hashParallel(direct.clear());
  }
}
