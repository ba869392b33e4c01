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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@code Blake3.hash} of {@code size} bytes (1 MiB) with each engine in turn: the Java engine,
 * and the native library capped at each x86-64 ISA. The engine is chosen once per JVM, so each
 * method runs in its own forks with its own switch; {@link EngineLog} records what really ran
 * (an ISA this CPU lacks falls back to the Java engine, and the results say so).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(2)
public class EngineBench {
  @Param({"1048576"})
  public int size;

  private byte[] data;

  @Setup
  public void setup(BenchmarkParams params) {
    data = Inputs.random(size);
    EngineLog.record(params);
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.native=false")
  public void java(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.isa=portable")
  public void portable(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.isa=sse2")
  public void sse2(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.isa=sse41")
  public void sse41(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.isa=avx2")
  public void avx2(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.isa=avx512")
  public void avx512(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }
}
