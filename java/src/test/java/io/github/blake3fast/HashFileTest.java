package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files, streams and channels hash to the in-memory hash of their bytes, by every path. */
class HashFileTest {
  private static final int MIB = 1 << 20;
  private static final int W = FileWindows.WINDOW;
  private static byte[] data;
  private static ExecutorService pool;

  @TempDir
  static Path dir;

  @BeforeAll
  static void setUp() {
    data = new byte[24 * MIB];
    new Random(11).nextBytes(data);
    pool = Executors.newFixedThreadPool(3);
  }

  @AfterAll
  static void tearDown() {
    pool.shutdown();
  }

  private static Path write(String name, int len) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, Arrays.copyOf(data, len));
    return p;
  }

  private static final int[] SIZES = {
    0, 1, 1023, 1024, 1025, 65536, W - 1, W, W + 1, (int) FileHashing.PARALLEL_MIN - 1,
    (int) FileHashing.PARALLEL_MIN, (int) FileHashing.PARALLEL_MIN + 1, 4 * W + 1, 5 * W, 6 * MIB + 1, 12 * MIB + 7, 17 * MIB + 123
  };

  @Test
  void filesOfManySizesByEveryThreadCount() throws IOException {
    for (int size : SIZES) {
      Path p = write("f" + size, size);
      byte[] expected = Blake3.hash(Arrays.copyOf(data, size));
      assertArrayEquals(expected, Blake3.hashFile(p), "hashFile " + size);
      for (int threads = 1; threads <= 3; threads++) {
        assertArrayEquals(expected, Blake3.newHasher().updateFile(p, threads).digest(), size + " on " + threads);
      }
      Files.delete(p);
    }
  }

  @Test
  void windowsShrinkWithTheFile() {
    assertEquals(FileWindows.MIN_WINDOW, FileWindows.windowFor(2 * MIB));
    assertEquals(256 << 10, FileWindows.windowFor(FileHashing.PARALLEL_MIN));
    assertEquals(512 << 10, FileWindows.windowFor(8 * MIB + 5));
    assertEquals(W, FileWindows.windowFor(16 * MIB));
    assertEquals(W, FileWindows.windowFor(5L << 40));
  }

  @Test
  void mappedTasksSpanSeveralWindowsOnlyWhereThereAreEnough() {
    assertEquals(1, FileWindows.windowsPerTask(W, 17));
    assertEquals(1, FileWindows.windowsPerTask(256 << 10, 15));
    assertEquals(2, FileWindows.windowsPerTask(W, 32));
    assertEquals(2, FileWindows.windowsPerTask(W, 63));
    assertEquals(FileWindows.SPAN / W, FileWindows.windowsPerTask(W, 1024));
    assertEquals(FileWindows.SPAN / W, FileWindows.windowsPerTask(W, 2051));
  }

  /**
   * Spans of several windows (40 MiB: 2 windows a task), starting on a span boundary of the
   * whole input or only on a window boundary (after a prefix), the last task shorter than the
   * others; and a file cut inside the spans, whose mapped spans fault and are then read window
   * by window until the read finds the end.
   */
  @Test
  void spansOfSeveralWindows() throws IOException {
    int size = 40 * MIB + 77;
    byte[] content = new byte[size];
    for (int at = 0; at < size; at += data.length) {
      System.arraycopy(data, 0, content, at, Math.min(data.length, size - at));
    }
    Path p = dir.resolve("spans");
    Files.write(p, content);
    assertEquals(2, FileWindows.windowsPerTask(FileWindows.windowFor(size), (size - 1) / W));
    for (int prefix : new int[] {0, 5, W + 3, 3 * W, 2 * W}) {
      Blake3Hasher h = Blake3.newHasher().update(data, 7, prefix);
      h.updateFile(p, 3);
      byte[] all = new byte[prefix + size];
      System.arraycopy(data, 7, all, 0, prefix);
      System.arraycopy(content, 0, all, prefix, size);
      assertArrayEquals(Blake3.hash(all), h.digest(), "prefix " + prefix);
    }
    // A kernel that cannot map: every span is read window by window from the start.
    TreeState java = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
    FileHashing.updateFile(java, p, pool, 2);
    byte[] out = new byte[32];
    java.finish(out, 0, 32);
    assertArrayEquals(Blake3.hash(content), out, "the Java kernel");
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "r")) {
      FileChannel ch = raf.getChannel();
      try (FileChannel w = FileChannel.open(p, StandardOpenOption.WRITE)) {
        w.truncate(21L * MIB + 5);
      }
      TreeState s = new TreeState(Engine.kernel(), Spec.iv(), 0);
      IOException e = assertThrows(IOException.class,
          () -> FileHashing.readRegular(s, ch, raf, p, size, pool, 2));
      assertTrue(e.getMessage().contains("shrank") && e.getMessage().contains("was " + size), e.getMessage());
    }
  }

  @Test
  void aFileAfterAndBeforeOtherInput() throws IOException {
    int size = 9 * MIB + 5;
    Path p = write("mid", size);
    for (int prefix : new int[] {1, 1000, 1024, 5000, 16384, (512 << 10) - 1024, (512 << 10) + 1, W - 1024, W - 1, W + 3, 2 * W}) {
      Blake3Hasher h = Blake3.newKeyedHasher(new byte[32]).update(data, size, prefix);
      h.updateFile(p);
      h.update(data, 0, 777);
      byte[] all = new byte[prefix + size + 777];
      System.arraycopy(data, size, all, 0, prefix);
      System.arraycopy(data, 0, all, prefix, size);
      System.arraycopy(data, 0, all, prefix + size, 777);
      assertArrayEquals(Blake3.keyedHash(new byte[32], all), h.digest(), "prefix " + prefix);
    }
  }

  @Test
  void theJavaKernelOnTheSamePaths() throws IOException {
    for (int size : new int[] {5000, 6 * MIB + 1}) {
      Path p = write("java" + size, size);
      for (int helpers = 0; helpers <= 2; helpers++) {
        TreeState s = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
        s.update(data, 0, 100);
        FileHashing.updateFile(s, p, pool, helpers);
        byte[] out = new byte[32];
        s.finish(out, 0, 32);
        byte[] all = new byte[100 + size];
        System.arraycopy(data, 0, all, 0, 100);
        System.arraycopy(data, 0, all, 100, size);
        assertArrayEquals(Blake3.hash(all), out, size + " with " + helpers + " helpers");
      }
    }
  }

  /** Beyond 2 GiB: a sparse file with data around the 2^31 and 2^32-chunk-ish boundaries. */
  @Test
  void aFileLargerThanTwoGibibytes() throws Exception {
    long size = (2L << 30) + 3 * MIB + 5;
    long[] islands = {0, W - 10, (1L << 31) - 100, (1L << 31) + 7 * 1024, size - 70_000};
    Path p = dir.resolve("big.sparse");
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.setLength(size);
      for (int i = 0; i < islands.length; i++) {
        f.seek(islands[i]);
        f.write(data, i * 70_000, 70_000 - (i == islands.length - 1 ? 0 : 1));
      }
    }
    try {
      // The expected hash, from memory, in 1 MiB blocks.
      Blake3Hasher h = Blake3.newHasher();
      byte[] block = new byte[MIB];
      for (long at = 0; at < size; at += MIB) {
        int n = (int) Math.min(MIB, size - at);
        Arrays.fill(block, (byte) 0);
        for (int i = 0; i < islands.length; i++) {
          long from = Math.max(at, islands[i]);
          long to = Math.min(at + n, islands[i] + 70_000 - (i == islands.length - 1 ? 0 : 1));
          if (from < to) {
            System.arraycopy(data, (int) (i * 70_000 + from - islands[i]), block, (int) (from - at), (int) (to - from));
          }
        }
        h.update(block, 0, n);
      }
      byte[] expected = h.digest();
      assertArrayEquals(expected, Blake3.hashFile(p), "parallel");
      assertArrayEquals(expected, Blake3.newHasher().updateFile(p, 1).digest(), "one thread");
      String b3sum = b3sum(p);
      if (b3sum != null) {
        assertEquals(b3sum, Blake3.toHex(expected), "Debian's b3sum");
      }
    } finally {
      Files.delete(p);
    }
  }

  private static String b3sum(Path p) throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/b3sum"))) {
      return null;
    }
    Process proc = new ProcessBuilder("/usr/bin/b3sum", "--no-names", p.toString()).start();
    String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    assertTrue(proc.waitFor(60, TimeUnit.SECONDS));
    return proc.exitValue() == 0 ? out : null;
  }

  /** A new named pipe in the test's directory; skips the test where mkfifo cannot make one. */
  private Path namedPipe(String name) throws IOException, InterruptedException {
    Path fifo = dir.resolve(name);
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    } catch (IOException e) {
      mk = null;
    }
    assumeTrue(mk != null, "no mkfifo");
    assumeTrue(mk.waitFor() == 0, "mkfifo failed");
    return fifo;
  }

  @Test
  void aNamedPipeIsReadAsAStream() throws Exception {
    Path fifo = namedPipe("fifo");
    int len = 5 * MIB + 3;
    Thread writer = new Thread(() -> {
      try (OutputStream out = Files.newOutputStream(fifo, StandardOpenOption.WRITE)) {
        for (int at = 0; at < len; at += 40_000) {
          out.write(data, at, Math.min(40_000, len - at));
        }
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    writer.start();
    assertArrayEquals(Blake3.hash(Arrays.copyOf(data, len)), Blake3.hashFile(fifo));
    writer.join();
  }

  /** A FileInputStream on a pipe (b3sum's stdin): its channel has no position or size to ask. */
  @Test
  void aFileInputStreamOnAPipe() throws Exception {
    Path fifo = namedPipe("fifo-stream");
    int len = 100_003;
    Thread writer = new Thread(() -> {
      try (OutputStream out = Files.newOutputStream(fifo, StandardOpenOption.WRITE)) {
        out.write(data, 0, len);
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    writer.start();
    try (InputStream in = new FileInputStream(fifo.toFile())) {
      assertArrayEquals(Blake3.hash(Arrays.copyOf(data, len)), Blake3.newHasher().update(in).digest());
    }
    writer.join();
  }

  /** /dev/stdin of another JVM: a pipe, and a regular file when redirected from one. */
  @Test
  void devStdinAsAPipeAndAsAFile() throws Exception {
    assumeTrue(Files.exists(Path.of("/dev/stdin")), "no /dev/stdin");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("java.class.path");
    int len = 6 * MIB + 1;
    byte[] expected = Blake3.hash(Arrays.copyOf(data, len));

    Process piped = new ProcessBuilder(java, "-cp", cp, StdinMain.class.getName()).start();
    Thread feeder = new Thread(() -> {
      try (OutputStream out = piped.getOutputStream()) {
        out.write(data, 0, len);
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    feeder.start();
    String hex = new String(piped.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    String err = new String(piped.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(piped.waitFor(120, TimeUnit.SECONDS));
    feeder.join();
    assertEquals(Blake3.toHex(expected), hex, err);

    Path f = write("stdin-file", len);
    Process redirected = new ProcessBuilder(java, "-cp", cp, StdinMain.class.getName()).redirectInput(f.toFile()).start();
    hex = new String(redirected.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
    err = new String(redirected.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(redirected.waitFor(120, TimeUnit.SECONDS));
    assertEquals(Blake3.toHex(expected), hex, err);
  }

  /** Prints the hash of /dev/stdin. */
  public static final class StdinMain {
    public static void main(String[] args) throws IOException {
      System.out.println(Blake3.toHex(Blake3.hashFile(Path.of("/dev/stdin"))));
    }
  }

  @Test
  void aPseudoFileThatAnnouncesNoSizeIsReadToItsEnd() throws IOException {
    Path version = Path.of("/proc/version");
    assumeTrue(Files.isReadable(version));
    assertEquals(0, Files.size(version));
    assertArrayEquals(Blake3.hash(Files.readAllBytes(version)), Blake3.hashFile(version));
  }

  /**
   * Truncated after its size was taken, before it was read: through a channel alone (read
   * windows) and through a RandomAccessFile, whose descriptor the native kernel maps (the
   * mapped windows past the new end raise SIGBUS, caught in C, and the read that follows says
   * the file shrank).
   */
  @Test
  void aFileThatShrinksWhileReadIsAnError() throws IOException {
    for (boolean withDescriptor : new boolean[] {false, true}) {
      for (int helpers : new int[] {0, 2}) {
        for (long cut : new long[] {0, 100, 3 * W + 5, 7 * W}) {
          Path p = write("shrinks", 8 * MIB);
          try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "r")) {
            FileChannel ch = raf.getChannel();
            long size = ch.size();
            try (FileChannel w = FileChannel.open(p, StandardOpenOption.WRITE)) {
              w.truncate(cut);
            }
            TreeState s = new TreeState(Engine.kernel(), Spec.iv(), 0);
            RandomAccessFile via = withDescriptor ? raf : null;
            IOException e = assertThrows(IOException.class,
                () -> FileHashing.readRegular(s, ch, via, p, size, pool, helpers));
            assertTrue(e.getMessage().contains("shrank") && e.getMessage().contains("was " + size), e.getMessage());
            assertTrue(e.getMessage().contains("is " + cut + " now"), e.getMessage());
          }
        }
      }
    }
  }

  @Test
  void aFileThatGrowsWhileReadIsReadToItsEnd() throws IOException {
    for (int helpers : new int[] {0, 2}) {
      Path p = write("grows", 9 * MIB);
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
        long size = ch.size();
        Files.write(p, Arrays.copyOfRange(data, 9 * MIB, 10 * MIB + 9), StandardOpenOption.APPEND);
        TreeState s = new TreeState(Engine.kernel(), Spec.iv(), 0);
        FileHashing.readRegular(s, ch, null, p, size, pool, helpers);
        byte[] out = new byte[32];
        s.finish(out, 0, 32);
        assertArrayEquals(Blake3.hash(Arrays.copyOf(data, 10 * MIB + 9)), out);
      }
    }
  }

  @Test
  void missingFilesAndDirectories() {
    assertThrows(NoSuchFileException.class, () -> Blake3.hashFile(dir.resolve("missing")));
    assertThrows(IOException.class, () -> Blake3.hashFile(dir));
    assertThrows(IllegalArgumentException.class, () -> Blake3.newHasher().updateFile(dir, 0));
    assertThrows(NullPointerException.class, () -> Blake3.newHasher().updateFile(null, 2));
  }

  @Test
  void inputStreams() throws IOException {
    for (int len : new int[] {0, 1, 1024, 100_000, 3 * MIB + 1}) {
      byte[] expected = Blake3.hash(Arrays.copyOf(data, len));
      assertArrayEquals(expected, Blake3.newHasher().update(new ByteArrayInputStream(data, 0, len)).digest());
      // A stream that delivers a few bytes at a time.
      InputStream trickle = new FilterInputStream(new ByteArrayInputStream(data, 0, len)) {
        private int turn;

        @Override
        public int read(byte[] b, int off, int n) throws IOException {
          return super.read(b, off, Math.min(n, 1 + turn++ % 7000));
        }
      };
      assertArrayEquals(expected, Blake3.newHasher().update(trickle).digest(), "trickle " + len);
    }
    // A FileInputStream is read from where it stands.
    Path p = write("fis", 2 * MIB + 11);
    try (FileInputStream in = new FileInputStream(p.toFile())) {
      assertEquals(1000, in.skip(1000));
      byte[] got = Blake3.newHasher().update(in).digest();
      assertArrayEquals(Blake3.hash(data, 1000, 2 * MIB + 11 - 1000), got);
      assertEquals(-1, in.read());
    }
  }

  @Test
  void channels() throws IOException {
    int len = 3 * MIB + 17;
    byte[] expected = Blake3.hash(Arrays.copyOf(data, len));
    assertArrayEquals(expected,
        Blake3.newHasher().update(Channels.newChannel(new ByteArrayInputStream(data, 0, len))).digest());
    Path p = write("ch", len + 5);
    try (FileChannel ch = FileChannel.open(p)) {
      ch.position(5);
      assertArrayEquals(Blake3.hash(data, 5, len), Blake3.newHasher().update(ch).digest());
    }
    Pipe pipe = Pipe.open();
    try {
      pipe.source().configureBlocking(false);
      assertThrows(IllegalBlockingModeException.class, () -> Blake3.newHasher().update(pipe.source()));
    } finally {
      pipe.source().close();
      pipe.sink().close();
    }
    // The hasher keeps what it read before a failure; the stream is not closed.
    assertArrayEquals(Blake3.hash(new byte[0]), Blake3.newHasher().update(ByteBuffer.allocate(0)).digest());
  }

  @Test
  void theCommonPoolDefaultAndExplicitThreadsAgreeOnAFileInUseByOthers() throws Exception {
    Path p = write("shared", 12 * MIB + 1);
    byte[] expected = Blake3.hash(Arrays.copyOf(data, 12 * MIB + 1));
    var results = ForkJoinPool.commonPool().submit(() -> java.util.stream.IntStream.range(0, 4).parallel()
        .mapToObj(i -> {
          try {
            return i % 2 == 0 ? Blake3.hashFile(p) : Blake3.newHasher().updateFile(p, 2).digest();
          } catch (IOException e) {
            throw new RuntimeException(e);
          }
        }).toArray(byte[][]::new)).get();
    for (byte[] r : results) {
      assertArrayEquals(expected, r);
    }
  }
}
