package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
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
 * Ways to hash a file that is in the page cache (the file is written once per trial and read
 * once before measuring), to choose what {@code Blake3.hashFile} does:
 *
 * <ul>
 *   <li>{@code hashFile}: the library's choice (parallel positional reads into per-thread
 *       direct buffers, caller + common pool, from 4 MiB).</li>
 *   <li>{@code readTwoThreads}: the same with exactly 2 threads ({@code updateFile(p, 2)}).</li>
 *   <li>{@code readOneThread}: sequential reads into a 1 MiB direct buffer ({@code updateFile(p, 1)}).</li>
 *   <li>{@code readHeapOneThread}: sequential reads into a 1 MiB heap buffer, then update
 *       (the JDK copies through a temporary direct buffer).</li>
 *   <li>{@code inputStream}: {@code update(Files.newInputStream(p))}.</li>
 *   <li>{@code mmapOneThread}: {@code FileChannel.map} in windows of at most 1 GiB, then update.</li>
 *   <li>{@code mmapParallel}: the same windows hashed with {@code updateParallel} (caller + common pool).</li>
 * </ul>
 * Set the directory with {@code -Dblake3.bench.dir=...} (default: java.io.tmpdir).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 4, time = 2)
@Fork(1)
public class FileBench {
  @Param({"67108864", "1073741824"})
  public long size;

  private Path file;

  @Setup(Level.Trial)
  public void setup() throws IOException {
    Path dir = Path.of(System.getProperty("blake3.bench.dir", System.getProperty("java.io.tmpdir")));
    file = Files.createTempFile(dir, "blake3-filebench", ".bin");
    byte[] block = new byte[1 << 20];
    Random r = new Random(size);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      for (long at = 0; at < size; at += block.length) {
        r.nextBytes(block);
        ByteBuffer b = ByteBuffer.wrap(block, 0, (int) Math.min(block.length, size - at));
        while (b.hasRemaining()) {
          ch.write(b);
        }
      }
    }
    Blake3.hashFile(file); // into the page cache
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
  }

  @Benchmark
  public byte[] hashFile() throws IOException {
    return Blake3.hashFile(file);
  }

  @Benchmark
  public byte[] readTwoThreads() throws IOException {
    return Blake3.newHasher().updateFile(file, 2).digest();
  }

  @Benchmark
  public byte[] readOneThread() throws IOException {
    return Blake3.newHasher().updateFile(file, 1).digest();
  }

  @Benchmark
  public byte[] readHeapOneThread() throws IOException {
    Blake3Hasher h = Blake3.newHasher();
    ByteBuffer b = ByteBuffer.allocate(1 << 20);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      while (ch.read(b) >= 0) {
        if (!b.hasRemaining()) {
          h.update(b.flip());
          b.clear();
        }
      }
      h.update(b.flip());
    }
    return h.digest();
  }

  @Benchmark
  public byte[] inputStream() throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      return Blake3.newHasher().update(in).digest();
    }
  }

  @Benchmark
  public byte[] mmapOneThread() throws IOException {
    return mmap(false);
  }

  @Benchmark
  public byte[] mmapParallel() throws IOException {
    return mmap(true);
  }

  private byte[] mmap(boolean parallel) throws IOException {
    Blake3Hasher h = Blake3.newHasher();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long n = ch.size();
      for (long at = 0; at < n; at += 1 << 30) {
        MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, at, Math.min(1 << 30, n - at));
        if (parallel) {
          h.updateParallel(m);
        } else {
          h.update(m);
        }
      }
    }
    return h.digest();
  }
}
