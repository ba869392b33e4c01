package example.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hazmat;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Spark job against Debian's b3sum and the library's own hashFile/hash, in local mode with
 * two executor threads, for partition counts that do and do not divide the file.
 */
class DistributedBlake3Test {
  private static final Path B3SUM = Path.of("/usr/bin/b3sum");
  private static final int[] PARTITIONS = {1, 2, 3, 7, 16};
  /** The file the timing compares on; -Dblake3.spark.timedMiB changes it. */
  private static final int TIMED_MIB = Integer.getInteger("blake3.spark.timedMiB", 256);

  @TempDir static Path dir;
  private static JavaSparkContext sc;
  /** Spark's own size of each finished task's result (the piece plus the task's metrics), by stage. */
  private static final Map<Integer, List<Long>> resultSizes = new ConcurrentHashMap<>();

  @BeforeAll
  static void startSpark() {
    SparkConf conf = new SparkConf().setMaster("local[2]").setAppName("blake3-test")
        .set("spark.ui.enabled", "false")
        .set("spark.driver.host", "127.0.0.1");
    sc = new JavaSparkContext(conf);
    sc.setLogLevel("WARN");
    sc.sc().addSparkListener(new SparkListener() {
      @Override
      public void onTaskEnd(SparkListenerTaskEnd end) {
        resultSizes.computeIfAbsent(end.stageId(), k -> Collections.synchronizedList(new ArrayList<>()))
            .add(end.taskMetrics().resultSize());
      }
    });
  }

  @AfterAll
  static void stopSpark() {
    if (sc != null) {
      sc.close();
    }
  }

  @Test
  void splitsOnChunkBoundariesAndTilesTheFile() {
    for (long size : new long[] {0, 1, 1024, 1025, 10_000, 1L << 33}) {
      for (int parts : PARTITIONS) {
        List<FileRange> ranges = FileRange.split("f", size, parts);
        assertEquals(parts, ranges.size());
        long at = 0;
        for (FileRange r : ranges) {
          assertEquals(at, r.offset, () -> ranges.toString());
          assertEquals(0, r.offset % Blake3Hazmat.CHUNK_LEN, () -> ranges.toString());
          at += r.length;
        }
        assertEquals(size, at, () -> ranges.toString());
      }
    }
  }

  @Test
  void agreesWithB3sumAndTheLibrary() throws Exception {
    // Sizes around the chunk (1024) and block (64) boundaries, with more partitions than chunks,
    // and a few MiB that no partition count here divides.
    long[] sizes = {0, 1, 64, 1024, 1025, 3000, 3 * 1024 * 1024 + 777};
    for (long size : sizes) {
      Path f = randomFile("f" + size, size, size);
      String b3sum = b3sum(f);
      assertEquals(b3sum, Blake3.toHex(Blake3.hashFile(f)), "hashFile " + size);
      assertEquals(b3sum, Blake3.toHex(Blake3.hash(Files.readAllBytes(f))), "hash " + size);
      for (int parts : PARTITIONS) {
        DistributedBlake3.Result r = DistributedBlake3.hash(sc, f, parts);
        assertEquals(b3sum, Blake3.toHex(r.hash), size + " bytes in " + parts + " partitions");
        assertEquals(parts, r.pieceBytes.size());
      }
    }
  }

  @Test
  void aLargeFileAgainstOneThread() throws Exception {
    long size = (long) TIMED_MIB << 20;
    size += 12_345;   // not a whole number of chunks
    Path f = randomFile("large", size, 42);
    String b3sum = b3sum(f);
    Blake3.newHasher().updateFile(f, 1).digest();   // page cache and JIT, both sides
    DistributedBlake3.hash(sc, f, 2);

    int parts = 8;
    long[] oneThread = new long[3];
    long[] threads = new long[3];
    long[] spark = new long[3];
    DistributedBlake3.Result r = null;
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      byte[] single = Blake3.newHasher().updateFile(f, 1).digest();
      oneThread[i] = System.nanoTime() - t0;
      assertEquals(b3sum, Blake3.toHex(single));

      t0 = System.nanoTime();
      byte[] parallel = Blake3.hashFile(f);
      threads[i] = System.nanoTime() - t0;
      assertEquals(b3sum, Blake3.toHex(parallel));

      t0 = System.nanoTime();
      r = DistributedBlake3.hash(sc, f, parts);
      spark[i] = System.nanoTime() - t0;
      assertEquals(b3sum, Blake3.toHex(r.hash), "spark, " + parts + " partitions");
    }
    List<Long> taskResults = awaitTaskEnds(parts);
    Arrays.sort(oneThread);
    Arrays.sort(threads);
    Arrays.sort(spark);
    long maxPiece = Collections.max(r.pieceBytes);
    assertTrue(maxPiece < 2048, "a piece is small, not the data: " + r.pieceBytes);
    System.out.printf(
        "spark: %d MiB + %d B in %d partitions (local[2], %s): pieces %s bytes, Spark task results %s bytes%n"
            + "spark: medians of 3 (alternating): one thread's updateFile %.0f ms, hashFile (all cores) %.0f ms,"
            + " the Spark job %.0f ms (%.2f times one thread)%n",
        TIMED_MIB, size - ((long) TIMED_MIB << 20), parts, Blake3.implementation(), r.pieceBytes,
        taskResults, oneThread[1] / 1e6, threads[1] / 1e6, spark[1] / 1e6, (double) spark[1] / oneThread[1]);
  }

  /**
   * The result sizes of a stage with n tasks, the timed jobs' shape (the listener bus reports
   * asynchronously; the three timed jobs are alike, so any of them will do).
   */
  private static List<Long> awaitTaskEnds(int n) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      for (List<Long> stage : resultSizes.values()) {
        synchronized (stage) {
          if (stage.size() == n) {
            return new ArrayList<>(stage);
          }
        }
      }
      Thread.sleep(20);
    }
    return List.of();
  }

  private static Path randomFile(String name, long size, long seed) throws IOException {
    Path f = dir.resolve(name);
    SplittableRandom rnd = new SplittableRandom(seed);
    byte[] block = new byte[1 << 20];
    try (OutputStream out = Files.newOutputStream(f)) {
      for (long left = size; left > 0; left -= block.length) {
        rnd.nextBytes(block);
        out.write(block, 0, (int) Math.min(left, block.length));
      }
    }
    return f;
  }

  private static String b3sum(Path f) throws IOException, InterruptedException {
    assertTrue(Files.isExecutable(B3SUM), "Debian's b3sum is needed: apt-get install b3sum");
    Process p = new ProcessBuilder(B3SUM.toString(), "--no-names", f.toString())
        .redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    assertEquals(0, p.waitFor(), "b3sum " + f);
    return out;
  }
}
