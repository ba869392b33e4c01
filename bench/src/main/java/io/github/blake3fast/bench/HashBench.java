package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.digests.Blake3Digest;
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
 * One-shot hashes of a whole array: blake3-fast (the engine this JVM picks, and the Java engine
 * forced), commons-codec's and Bouncy Castle's BLAKE3, and the JDK's SHA-256.
 *
 * <p>Each implementation is used the way a careful caller would use it:
 * <ul>
 *   <li>blake3-fast: {@code Blake3.hash(data)}, which returns a new 32-byte array.</li>
 *   <li>commons-codec: {@code Blake3.initHash().update(data).doFinalize(32)}, a fresh hasher
 *       per call (its one-shot API; {@code Blake3.hash(data)} does the same).</li>
 *   <li>Bouncy Castle: one {@code Blake3Digest} per thread, reused ({@code doFinal} resets it),
 *       output into a reused buffer: its best case, no allocation at all.</li>
 *   <li>SHA-256: one {@code MessageDigest} per thread, reused, {@code digest(out, 0, 32)} into a
 *       reused buffer: its best case too.</li>
 * </ul>
 * Throughput is in operations per second; the chart script multiplies by {@code size}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(2)
public class HashBench {
  @Param({"64", "1024", "16384", "1048576"})
  public int size;

  private byte[] data;
  private final byte[] out = new byte[32];
  private Blake3Digest bc;
  private MessageDigest sha256;

  @Setup
  public void setup(BenchmarkParams params) throws NoSuchAlgorithmException {
    data = Inputs.random(size);
    bc = new Blake3Digest();
    sha256 = MessageDigest.getInstance("SHA-256");
    EngineLog.record(params);
  }

  /** blake3-fast with whatever engine this JVM chose (native, widest ISA, where it loads). */
  @Benchmark
  public void blake3fast(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  /** blake3-fast with the pure-Java engine forced. */
  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.native=false")
  public void blake3fastJava(Blackhole bh) {
    bh.consume(Blake3.hash(data));
  }

  @Benchmark
  public void commonsCodec(Blackhole bh) {
    bh.consume(org.apache.commons.codec.digest.Blake3.initHash().update(data).doFinalize(32));
  }

  @Benchmark
  public void bouncyCastle(Blackhole bh) {
    bc.update(data, 0, data.length);
    bc.doFinal(out, 0);
    bh.consume(out);
  }

  @Benchmark
  public void sha256(Blackhole bh) throws DigestException {
    sha256.update(data);
    sha256.digest(out, 0, 32);
    bh.consume(out);
  }
}
