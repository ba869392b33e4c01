package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code Blake3.hash} of a {@code byte[]} with the native engine reaching the array each way:
 * pinned (JNI critical sections, where the collector pins regions) and copied through direct
 * buffers (where the JVM would use the GC locker), forced with {@code -Dblake3.native.pin}.
 * Not in the default suite; {@code BENCH=PinBench bench/run.sh} or
 * {@code java -jar bench/target/benchmarks.jar PinBench}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
public class PinBench {
  @Param({"65536", "1048576"})
  public int size;

  private byte[] data;

  @Setup
  public void setup() {
    data = Inputs.random(size);
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.native.pin=true")
  public void pinned(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.native.pin=false")
  public void copied(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }
}
