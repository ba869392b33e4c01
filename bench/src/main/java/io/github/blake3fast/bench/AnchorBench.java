package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.lang.reflect.Field;
import java.util.Arrays;
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

/**
 * The anchor (issue 16): {@code Blake3.hash} against the official BLAKE3 C code and assembly
 * ({@link OfficialBlake3}) with the same ISA forced on both sides, in the same JMH run.
 *
 * <p>Our engine is chosen once per JVM, so the ISA is a property of the whole run, not a
 * parameter: {@code bench/anchor.sh} runs JMH once per ISA with
 * {@code -jvmArgsAppend "-Dblake3.isa=X -Danchor.isa=X"} (or {@code -Dblake3.native=false
 * -Danchor.isa=portable}: our Java engine against the official portable C). The setup refuses to
 * measure when our engine is not the one asked for or the two sides disagree on the digest.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(2)
public class AnchorBench {
  /** The system property naming the ISA forced on the official side. */
  static final String ISA = "anchor.isa";

  @Param({"64", "1024", "16384", "1048576", "16777216"})
  public int size;

  private byte[] data;
  private OfficialBlake3 official;

  @Setup
  public void setup(BenchmarkParams params) {
    String isa = System.getProperty(ISA);
    if (isa == null) {
      throw new IllegalStateException("-D" + ISA + "=portable|sse2|sse41|avx2|avx512 is not set (bench/anchor.sh sets it)");
    }
    data = Inputs.random(size);
    official = OfficialBlake3.forIsa(isa);
    checkOurEngine();
    byte[] ours = Blake3.hash(data);
    byte[] theirs = official.hash(data, 0, data.length);
    if (!Arrays.equals(ours, theirs)) {
      throw new IllegalStateException("digests differ at " + size + " bytes: ours " + Blake3.toHex(ours)
          + ", official (" + isa + ") " + Blake3.toHex(theirs));
    }
    String engine = Blake3.implementation();
    EngineLog.record(params, engine.startsWith("native-") ? engine + ", arrays " + arrayAccess() : engine);
  }

  /**
   * How our native engine reaches a byte[]: "pinned" (JNI critical sections, as the official side
   * here always does) or "copied" in slices (the library's choice where pinning would take the
   * GC locker, e.g. JDK 17 by default; -Dblake3.native.pin overrides it). Read from the library's
   * internals, since no API says it; "unknown" if that fails.
   */
  private static String arrayAccess() {
    try {
      Field pin = Class.forName("io.github.blake3fast.CriticalArrays").getDeclaredField("PIN");
      pin.setAccessible(true);
      return pin.getBoolean(null) ? "pinned" : "copied";
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "unknown (" + e + ")";
    }
  }

  /** Our engine must be the one the switches ask for: a fallback would mislabel the row. */
  private static void checkOurEngine() {
    String ran = Blake3.implementation();
    String want;
    if ("false".equals(System.getProperty("blake3.native"))) {
      want = "java";
    } else {
      String isa = System.getProperty("blake3.isa");
      if (isa == null) {
        throw new IllegalStateException("neither -Dblake3.isa=X nor -Dblake3.native=false is set: our engine is unpinned");
      }
      want = "native-" + isa;
    }
    if (!(ran.equals(want) || (want.equals("java") && ran.startsWith("java ")))) {
      throw new IllegalStateException("our engine is " + ran + ", not " + want);
    }
  }

  @Benchmark
  public byte[] ours() {
    return Blake3.hash(data);
  }

  @Benchmark
  public byte[] official() {
    return official.hash(data, 0, data.length);
  }
}
