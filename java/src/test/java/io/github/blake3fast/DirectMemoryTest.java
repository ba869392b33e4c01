package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files, channels and streams hash without depending on direct memory. Buffers are sized by
 * what is read and pooled; when direct memory is short, heap buffers take over and a file is
 * read through a RandomAccessFile, whose reads need no direct memory. Once every call took a
 * 1 MiB direct buffer: under {@code -XX:MaxDirectMemorySize=1m} hashing a 5-byte file threw
 * OutOfMemoryError, and under 8m 32 threads hashing 3 MB files failed 21 calls in 128.
 */
class DirectMemoryTest {
  private static final Pattern SUMMARY = Pattern.compile("DirectMain: (\\d+) hashes, (\\d+) wrong, (\\d+) errors");

  /** Files of these sizes: tiny, one buffer, several, and read in parallel windows. */
  private static final int[] SIZES = {0, 5, 20_000, 3_000_000, 9 * (1 << 20) + 7};

  private static List<String> writeFiles(Path dir) throws IOException {
    List<String> paths = new ArrayList<>();
    Random r = new Random(4);
    for (int size : SIZES) {
      byte[] d = new byte[size];
      r.nextBytes(d);
      paths.add(Files.write(dir.resolve("f" + size), d).toString());
    }
    return paths;
  }

  private static ReliabilityKit.Child child(Path dir, String limit, boolean holdAll) throws Exception {
    List<String> args = new ArrayList<>(List.of("32", "6", holdAll ? "hold" : "share"));
    args.addAll(writeFiles(dir));
    List<String> jvm = new ArrayList<>(List.of("-XX:MaxDirectMemorySize=" + limit, "-Xmx512m",
        "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")));
    if (Runtime.version().feature() <= 21) {
      // Heap buffers are pinned while the native kernel hashes them; with 32 threads allocating
      // them, JDK 17-21 sometimes throw OutOfMemoryError after "Retried waiting for GCLocker too
      // often" (JDK-8192647, issue 14 item 6, StressGcTest). Only direct memory is tested here.
      jvm.addAll(List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:GCLockerRetryAllocationCount=100"));
    }
    return ReliabilityKit.runJava(jvm, DirectMain.class, args, 300);
  }

  private static void check(String what, ReliabilityKit.Child c, Path dir) throws IOException {
    Matcher m = SUMMARY.matcher(c.output);
    System.out.println("DirectMemoryTest " + what + ": exit " + c.status + ", " + (m.find() ? m.group() : "(no summary)"));
    if (c.status != 0 || ReliabilityKit.hsErrIn(dir) != null || c.output.contains("OutOfMemoryError")) {
      fail(what + ": exit " + c.status + "\n" + c.output);
    }
  }

  /** 32 threads, every way of reading a file, under 1, 4 and 8 MiB of direct memory. */
  @Test
  void manyThreadsUnderSmallDirectMemoryLimits(@TempDir Path dir) throws Exception {
    for (String limit : new String[] {"1m", "4m", "8m"}) {
      check("MaxDirectMemorySize=" + limit, child(dir, limit, false), dir);
    }
  }

  /** All direct memory taken by the application: heap buffers do all the work, no Error. */
  @Test
  void noDirectMemoryLeftAtAll(@TempDir Path dir) throws Exception {
    check("MaxDirectMemorySize=1m, all of it held", child(dir, "1m", true), dir);
  }

  /** The buffers: sized by what is read, pooled, heap when asked or when direct memory is short. */
  @Test
  void buffersAreSizedByWhatIsRead() {
    assertEquals(ReadBuffers.MIN, ReadBuffers.sizeFor(0));
    assertEquals(ReadBuffers.MIN, ReadBuffers.sizeFor(5));
    assertEquals(ReadBuffers.MIN, ReadBuffers.sizeFor(ReadBuffers.MIN));
    assertEquals(2 * ReadBuffers.MIN, ReadBuffers.sizeFor(ReadBuffers.MIN + 1));
    assertEquals(256 << 10, ReadBuffers.sizeFor(200_000));
    assertEquals(ReadBuffers.MAX, ReadBuffers.sizeFor(ReadBuffers.MAX - 1));
    assertEquals(ReadBuffers.MAX, ReadBuffers.sizeFor(5L << 40));
    // At least the size asked for: the pool hands out an idle larger buffer when it has one, and
    // the tests that ran before this one in the JVM may have left some.
    ByteBuffer h = ReadBuffers.acquire(5, false);
    assertTrue(h.hasArray() && h.arrayOffset() == 0 && h.capacity() >= ReadBuffers.MIN && h.position() == 0);
    ByteBuffer bigger = ReadBuffers.grow(h);
    assertTrue(bigger.capacity() >= Math.min(2 * h.capacity(), ReadBuffers.MAX), "grown to " + bigger.capacity());
    assertTrue(!bigger.isDirect());
    ReadBuffers.release(bigger);
    ByteBuffer d = ReadBuffers.acquire(3_000_000, true);
    assertEquals(ReadBuffers.MAX, d.capacity());
    d.position(100);
    ReadBuffers.release(d);
    ByteBuffer again = ReadBuffers.acquire(10, true);
    assertTrue(again.capacity() >= ReadBuffers.MIN && again.position() == 0 && again.limit() == again.capacity());
    ReadBuffers.release(again);
    ReadBuffers.release(ByteBuffer.allocate(1000)); // not one of the pool's sizes: dropped, no harm
  }

  /** The heap paths in this JVM: the Java kernel takes no direct buffers, and gives the same hashes. */
  @Test
  void theHeapPathsGiveTheSameHashes(@TempDir Path dir) throws Exception {
    List<String> files = writeFiles(dir);
    for (String f : files) {
      Path p = Path.of(f);
      byte[] want = Blake3.hash(Files.readAllBytes(p));
      for (int helpers = 0; helpers <= 2; helpers++) {
        TreeState s = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
        FileHashing.updateFile(s, p, ForkJoinPool.commonPool(), helpers);
        assertArrayEquals(want, finish(s), f + " with " + helpers + " helpers");
      }
      TreeState s = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
      try (FileChannel ch = FileChannel.open(p)) {
        FileHashing.update(s, ch);
      }
      assertArrayEquals(want, finish(s), f + " as a channel");
      s = new TreeState(JavaKernel.INSTANCE, Spec.iv(), 0);
      try (InputStream in = new FileInputStream(p.toFile())) {
        FileHashing.update(s, in);
      }
      assertArrayEquals(want, finish(s), f + " as a FileInputStream");
    }
  }

  private static byte[] finish(TreeState s) {
    byte[] out = new byte[32];
    s.finish(out, 0, 32);
    return out;
  }

  /**
   * The child: {@code threads rounds hold|share file...}. With "hold" it first takes all the
   * direct memory it can get and keeps it. Every thread hashes random files by random paths;
   * exit 1 on any wrong hash or any exception or error.
   */
  public static final class DirectMain {
    public static void main(String[] args) throws Exception {
      int threads = Integer.parseInt(args[0]);
      int rounds = Integer.parseInt(args[1]);
      boolean hold = args[2].equals("hold");
      List<Path> files = new ArrayList<>();
      List<byte[]> want = new ArrayList<>();
      for (int i = 3; i < args.length; i++) {
        Path p = Path.of(args[i]);
        files.add(p);
        // Not Files.readAllBytes: on JDK 17 it needs as much direct memory as the file is long.
        try (InputStream in = new FileInputStream(p.toFile())) {
          CONTENTS.add(in.readAllBytes());
        }
        want.add(JavaKernelHash.of(CONTENTS.get(CONTENTS.size() - 1)));
      }
      List<ByteBuffer> held = new ArrayList<>();
      if (hold) {
        Blake3.hash(new byte[1]); // the engine loads first: its own direct memory is its business
        try {
          for (int size = 1 << 20; size >= 1; ) {
            try {
              held.add(ByteBuffer.allocateDirect(size));
            } catch (OutOfMemoryError e) {
              size /= 2;
            }
          }
        } finally {
          System.out.println("DirectMain: holding " + held.size() + " direct buffers");
        }
      }
      AtomicLong hashes = new AtomicLong();
      AtomicLong wrong = new AtomicLong();
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      List<Thread> ts = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int id = t;
        ts.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(id);
          try {
            for (int i = 0; i < rounds; i++) {
              int f = r.nextInt(files.size());
              Path p = files.get(f);
              int how = r.nextInt(5);
              byte[] got = hash(p, CONTENTS.get(f), how);
              hashes.incrementAndGet();
              if (!Arrays.equals(want.get(f), got)) {
                wrong.incrementAndGet();
                System.out.println("DirectMain: WRONG hash of " + p + " by way " + how);
              }
            }
          } catch (Throwable e) {
            errors.add(e);
            System.out.println("DirectMain: " + Thread.currentThread().getName() + " failed:");
            e.printStackTrace(System.out);
          }
        }, "hasher-" + t));
      }
      for (Thread t : ts) {
        t.start();
      }
      for (Thread t : ts) {
        t.join();
      }
      if (!hold) {
        // A FileChannel of the caller's, one thread: the channel itself needs direct memory (on
        // JDK 17, as much as a read asks for) if it gets a heap buffer; many threads at once may
        // not find it (see Blake3Hasher.update(ReadableByteChannel)).
        for (int f = 0; f < files.size(); f++) {
          try {
            if (!Arrays.equals(want.get(f), hash(files.get(f), CONTENTS.get(f), 5))) {
              wrong.incrementAndGet();
              System.out.println("DirectMain: WRONG hash of " + files.get(f) + " as a FileChannel");
            }
            hashes.incrementAndGet();
          } catch (Throwable e) {
            errors.add(e);
            e.printStackTrace(System.out);
          }
        }
      }
      System.out.printf("DirectMain: %d hashes, %d wrong, %d errors (held %d buffers)%n", hashes.get(), wrong.get(),
          errors.size(), held.size());
      System.exit(wrong.get() == 0 && errors.isEmpty() ? 0 : 1);
    }

    /** One way of reading a file; the last is a FileChannel of the caller's. */
    private static final List<byte[]> CONTENTS = new ArrayList<>();

    private static byte[] hash(Path p, byte[] contents, int how) throws IOException {
      switch (how) {
        case 0:
          return Blake3.hashFile(p);
        case 1:
          return Blake3.newHasher().updateFile(p, 3).digest();
        case 2:
          return Blake3.newHasher().updateFile(p, 1).digest();
        case 3:
          try (InputStream in = new FileInputStream(p.toFile())) {
            return Blake3.newHasher().update(in).digest();
          }
        case 4:
          try (InputStream in = new ByteArrayInputStream(contents)) {
            return Blake3.newHasher().update(Channels.newChannel(in)).digest();
          }
        default:
          try (FileChannel ch = FileChannel.open(p)) {
            return Blake3.newHasher().update(ch).digest();
          }
      }
    }
  }

  /** The expected hashes, by the Java kernel from memory. */
  static final class JavaKernelHash {
    static byte[] of(byte[] in) {
      byte[] out = new byte[32];
      OneShot.hash(JavaKernel.INSTANCE, in, 0, in.length, Spec.iv(), 0, out, 0, 32);
      return out;
    }
  }
}
