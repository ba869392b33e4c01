package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
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
 * The cost of update: {@code size} bytes (1 MiB) fed in {@value Inputs#UPDATE_LEN}-byte
 * updates, then a 32-byte digest. Compare with {@link HashBench} at the same size.
 *
 * <p>Every implementation keeps <b>one hasher per thread and resets it at the start of each
 * operation</b>, and writes its digest into a reused 32-byte buffer, so what is measured is the
 * updates themselves and {@code gc.alloc.rate.norm} shows whether update allocates (it should
 * show 0 B/op). {@link #blake3fastFresh} is the exception: a fresh {@code Blake3.newHasher()}
 * per operation, whose B/op is what one new hasher allocates over its whole use.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 4, time = 1)
@Fork(2)
public class StreamBench {
  @Param({"1048576"})
  public int size;

  private byte[] data;
  private final byte[] out = new byte[32];
  private Blake3Hasher hasher;
  private org.apache.commons.codec.digest.Blake3 codec;
  private Blake3Digest bc;
  private MessageDigest sha256;

  @Setup
  public void setup(BenchmarkParams params) throws NoSuchAlgorithmException {
    if (size % Inputs.UPDATE_LEN != 0) {
      throw new IllegalArgumentException("size must be a multiple of " + Inputs.UPDATE_LEN);
    }
    data = Inputs.random(size);
    hasher = Blake3.newHasher();
    codec = org.apache.commons.codec.digest.Blake3.initHash();
    bc = new Blake3Digest();
    sha256 = MessageDigest.getInstance("SHA-256");
    EngineLog.record(params);
  }

  /** blake3-fast, the engine this JVM chose; one hasher reset per operation. */
  @Benchmark
  public void blake3fast(Blackhole bh) {
    Blake3Hasher h = hasher.reset();
    for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
      h.update(data, off, Inputs.UPDATE_LEN);
    }
    h.digest(out, 0, 32);
    bh.consume(out);
  }

  /** The same with the pure-Java engine forced. */
  @Benchmark
  @Fork(value = 2, jvmArgsAppend = "-Dblake3.native=false")
  public void blake3fastJava(Blackhole bh) {
    blake3fast(bh);
  }

  /** blake3-fast, a fresh hasher per operation: its B/op is everything a new hasher allocates. */
  @Benchmark
  public void blake3fastFresh(Blackhole bh) {
    Blake3Hasher h = Blake3.newHasher();
    for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
      h.update(data, off, Inputs.UPDATE_LEN);
    }
    h.digest(out, 0, 32);
    bh.consume(out);
  }

  @Benchmark
  public void commonsCodec(Blackhole bh) {
    org.apache.commons.codec.digest.Blake3 h = codec.reset();
    for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
      h.update(data, off, Inputs.UPDATE_LEN);
    }
    h.doFinalize(out);
    bh.consume(out);
  }

  @Benchmark
  public void bouncyCastle(Blackhole bh) {
    Blake3Digest h = bc; // doFinal left it reset
    for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
      h.update(data, off, Inputs.UPDATE_LEN);
    }
    h.doFinal(out, 0);
    bh.consume(out);
  }

  @Benchmark
  public void sha256(Blackhole bh) throws DigestException {
    MessageDigest h = sha256; // digest() left it reset
    for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
      h.update(data, off, Inputs.UPDATE_LEN);
    }
    h.digest(out, 0, 32);
    bh.consume(out);
  }
}
