package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * Many small messages (issue 26): {@code Blake3.hashMany} over packed messages against a loop of
 * {@code Blake3.hash}, the official BLAKE3 C code hashing the same messages one hasher each (its
 * API's only way; {@link OfficialBlake3}, the same ISA forced) and the JDK's SHA-256 in a loop,
 * in one run. One operation hashes the whole batch; bench/many.sh turns ops/s into MB/s of
 * message bytes and ratios.
 *
 * <p>As in {@link AnchorBench}, the ISA is a property of the JVM: bench/many.sh runs JMH once
 * per ISA with {@code -jvmArgsAppend "-Dblake3.isa=X -Danchor.isa=X"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ManyBench {
  /**
   * Message length in bytes; -1: lengths spread uniformly over 0..4096 by a fixed formula
   * ({@link #mixedLength}, which bench/many.py repeats to count the bytes).
   */
  @Param({"32", "64", "256", "1024", "4096", "-1"})
  public int size;

  /** Messages per call. */
  @Param({"16", "1000", "100000"})
  public int count;

  private byte[] data;
  private int[] offsets;
  private int[] lengths;
  private byte[] out;
  private byte[] mib;
  private MessageDigest sha256;
  private OfficialBlake3 official;

  @Setup
  public void setup(BenchmarkParams params) throws NoSuchAlgorithmException {
    lengths = new int[count];
    offsets = new int[count];
    long total = 0;
    for (int i = 0; i < count; i++) {
      lengths[i] = size >= 0 ? size : mixedLength(i);
      offsets[i] = (int) total;
      total += lengths[i];
    }
    data = Inputs.random((int) total);
    out = new byte[32 * count];
    mib = Inputs.random(1 << 20);
    sha256 = MessageDigest.getInstance("SHA-256");
    String isa = System.getProperty(AnchorBench.ISA);
    official = isa == null ? null : OfficialBlake3.forIsa(isa);
    // Both sides must agree before anything is timed.
    Blake3.hashMany(data, offsets, lengths, out);
    for (int i = 0; i < count; i += Math.max(1, count / 50)) {
      byte[] one = Blake3.hash(data, offsets[i], lengths[i]);
      if (!Arrays.equals(one, Arrays.copyOfRange(out, 32 * i, 32 * i + 32))) {
        throw new IllegalStateException("hashMany differs from hash at message " + i);
      }
    }
    if (official != null) {
      byte[] theirs = new byte[out.length];
      official.hashMany(data, offsets, lengths, theirs);
      if (!Arrays.equals(out, theirs)) {
        throw new IllegalStateException("the official code's hashes differ from hashMany's");
      }
    }
    EngineLog.record(params, Blake3.implementation() + "; total " + total + " bytes");
  }

  /** Message i's length in the mixed shape: a multiplicative hash of i, modulo 4097. */
  static int mixedLength(int i) {
    return (int) (((i * 0x9E3779B1L) & 0xFFFFFFFFL) % 4097);
  }

  /** The same kernel on one 1 MiB input, the ceiling a batch of the same bytes can reach. */
  @Benchmark
  public byte[] oneMiB() {
    return Blake3.hash(mib);
  }

  @Benchmark
  public byte[] hashMany() {
    Blake3.hashMany(data, offsets, lengths, out);
    return out;
  }

  @Benchmark
  public byte[] hashLoop() {
    byte[] last = null;
    for (int i = 0; i < count; i++) {
      last = Blake3.hash(data, offsets[i], lengths[i]);
    }
    return last;
  }

  @Benchmark
  public byte[] officialLoop() {
    if (official == null) {
      throw new IllegalStateException("-D" + AnchorBench.ISA + " is not set (bench/many.sh sets it)");
    }
    official.hashMany(data, offsets, lengths, out);
    return out;
  }

  @Benchmark
  public byte[] sha256Loop() throws Exception {
    for (int i = 0; i < count; i++) {
      sha256.update(data, offsets[i], lengths[i]);
      sha256.digest(out, 0, 32);
    }
    return out;
  }
}
