package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The native engine reaches Java arrays either by pinning them (JNI critical sections, at most
 * 4 MiB of input each) or, where the JVM would implement a critical section with the GC locker,
 * by copying them ({@link CriticalArrays}). Under a small heap and heavy allocation that is where
 * a JVM stalls or fails: allocating threads wait for the critical sections to end, and before
 * the copying path JDK 17 gave up with "Retried waiting for GCLocker too often" and an
 * OutOfMemoryError (JDK-8192647; about one run in five here, every run in the adopter workload
 * of {@link GcLockerTest}). This test runs a child JVM with {@code -Xmx64m} under each
 * collector this JVM has (G1, Parallel, Serial, ZGC, Shenandoah) in which two threads hash
 * fresh arrays of up to 4 MiB + 1 KiB through every entry point (one-shot, streaming slices,
 * parallel, direct buffers, MessageDigest) while three allocating threads churn through arrays
 * of up to 1 MiB + 64 KiB, and checks: every hash right, no error in any thread (no
 * OutOfMemoryError), no GCLocker warning, no crash, and the longest single allocation stall.
 * Each run lasts a quarter of {@code -Dblake3.stress.seconds} (at least 3 s).
 */
@Tag("stress")
class StressGcTest {
  private static final String[] COLLECTORS = {"G1GC", "ParallelGC", "SerialGC", "ZGC", "ShenandoahGC"};
  private static final Pattern SUMMARY = Pattern.compile(
      "GcMain: (\\d+) hashes \\((\\d+) MiB\\), (\\d+) wrong, (\\d+) errors, (\\d+) allocations \\((\\d+) MiB\\), "
          + "longest allocation (\\d+) ms, longest hash (\\d+) ms");
  /** An allocation that waits this long for critical sections counts as a stall. */
  private static final long STALL_MS = 5000;

  @Test
  void smallHeapHeavyAllocation(@TempDir Path dir) throws Exception {
    int seconds = Math.max(3, ReliabilityKit.stressSeconds() / 4);
    List<String> problems = new ArrayList<>();
    StringBuilder table = new StringBuilder();
    int ran = 0;
    for (String gc : COLLECTORS) {
      ReliabilityKit.Child probe = ReliabilityKit.runJava(List.of("-XX:+Use" + gc, "-Xmx64m"), AcceptsFlagMain.class, List.of(),
          60);
      if (probe.status != 0) {
        table.append(String.format("  %-13s not in this JVM%n", gc));
        continue;
      }
      ran++;
      Run plain = run(dir, gc, seconds, List.of());
      table.append(String.format("  %-13s %s%n", gc, plain));
      plain.check(gc, problems);
    }
    System.out.printf("StressGcTest: child JVMs with -Xmx64m, %d s each, Java %s, engine %s:%n%s", seconds,
        Runtime.version(), Blake3.implementation(), table);
    if (ran == 0) {
      fail("no collector could be started");
    }
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }

  /**
   * The same workload under {@code -Xcheck:jni}: the JVM's own checker of every JNI call
   * (arrays released as pinned, no other JNI call inside a critical section, exceptions checked).
   */
  @Test
  void jniCheckedByTheJvm(@TempDir Path dir) throws Exception {
    int seconds = Math.max(2, ReliabilityKit.stressSeconds() / 8);
    ReliabilityKit.Child c = ReliabilityKit.runJava(List.of("-Xcheck:jni", "-Xmx256m",
        "-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")), GcMain.class, List.of(Integer.toString(seconds)), seconds + 180L);
    Matcher m = SUMMARY.matcher(c.output);
    System.out.println("StressGcTest -Xcheck:jni: exit " + c.status + ", " + (m.find() ? m.group() : "(no summary)"));
    String out = c.output;
    if (c.status != 0 || out.contains("WARNING in native method") || out.contains("FATAL ERROR in native method")
        || ReliabilityKit.hsErrIn(dir) != null) {
      fail("-Xcheck:jni found a problem (exit " + c.status + "):\n" + tail(out));
    }
  }

  /** One child run and what it showed. */
  private static final class Run {
    final ReliabilityKit.Child child;
    final Matcher summary;
    final boolean crashed;

    Run(ReliabilityKit.Child child, boolean crashed) {
      this.child = child;
      Matcher m = SUMMARY.matcher(child.output);
      this.summary = m.find() ? m : null;
      this.crashed = crashed;
    }

    private int count(String what) {
      int n = 0;
      for (int i = child.output.indexOf(what); i >= 0; i = child.output.indexOf(what, i + 1)) {
        n++;
      }
      return n;
    }

    void check(String what, List<String> problems) {
      String out = child.output.toLowerCase(Locale.ROOT);
      if (crashed || child.status != 0 || summary == null || out.contains("gclocker") || out.contains("outofmemory")) {
        problems.add(what + ": exit " + child.status + (crashed ? ", JVM crash log" : "") + "\n" + tail(child.output));
      } else if (Long.parseLong(summary.group(7)) > STALL_MS) {
        problems.add(what + ": an allocation waited " + summary.group(7) + " ms\n" + tail(child.output));
      }
    }

    @Override
    public String toString() {
      String line = summary == null ? "(no summary)" : summary.group().replace("GcMain: ", "");
      return "exit " + child.status + (crashed ? " CRASHED" : "") + ": " + line
          + (count("Retried waiting for GCLocker too often") > 0 ? " [GCLocker retries exhausted]" : "");
    }
  }

  private static Run run(Path dir, String gc, int seconds, List<String> extra) throws Exception {
    Path errDir = Files.createTempDirectory(dir, gc);
    List<String> args = new ArrayList<>(List.of("-XX:+Use" + gc, "-Xmx64m",
        "-XX:ErrorFile=" + errDir.resolve("hs_err_%p.log"), "-Xlog:gc*=warning:stdout"));
    args.addAll(extra);
    ReliabilityKit.Child c = ReliabilityKit.runJava(args, GcMain.class, List.of(Integer.toString(seconds)), seconds + 180L);
    return new Run(c, ReliabilityKit.hsErrIn(errDir) != null);
  }

  private static String tail(String s) {
    String[] lines = s.split("\n");
    return String.join("\n", Arrays.asList(lines).subList(Math.max(0, lines.length - 40), lines.length));
  }

  /** Starts and exits: tells whether a collector flag is accepted. */
  public static final class AcceptsFlagMain {
    public static void main(String[] args) {
      System.out.println("ok");
    }
  }

  /** The child: hashing threads and allocating threads until the deadline; exit 1 on any problem. */
  public static final class GcMain {
    public static void main(String[] args) throws Exception {
      long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
      // The live set stays near a third of the heap: 4 MiB of source, two inputs of at most 4 MiB
      // + 1 KiB being hashed, three allocators holding at most three arrays of at most 1 MiB + 64 KiB
      // each. With arrays of up to 2 MiB (about 31 MiB live), Shenandoah on JDK 25 failed an
      // allocation with OutOfMemoryError once in 5 runs here: large arrays need runs of free
      // regions, and regions pinned by JNI critical sections cannot be compacted away.
      byte[] source = new byte[(4 << 20) + 1024];
      new SplittableRandom(1).nextBytes(source);
      AtomicLong hashes = new AtomicLong();
      AtomicLong hashed = new AtomicLong();
      AtomicLong wrong = new AtomicLong();
      AtomicLong allocs = new AtomicLong();
      AtomicLong allocated = new AtomicLong();
      AtomicLong longestAlloc = new AtomicLong();
      AtomicLong longestHash = new AtomicLong();
      ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        final int id = t;
        threads.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(100 + id);
          ByteBuffer direct = ByteBuffer.allocateDirect(source.length);
          try {
            while (System.nanoTime() < deadline) {
              int n = r.nextInt(10) < 3 ? r.nextInt(64 << 10) : (1 << 20) + r.nextInt((3 << 20) + 1025);
              int from = r.nextInt(source.length - n + 1);
              byte[] in = Arrays.copyOfRange(source, from, from + n);
              byte[] want = new byte[32];
              OneShot.hash(JavaKernel.INSTANCE, in, 0, n, Spec.iv(), 0, want, 0, 32);
              long t0 = System.nanoTime();
              byte[] got;
              switch (r.nextInt(5)) {
                case 0:
                  got = Blake3.hash(in);
                  break;
                case 1:
                  got = Blake3.newHasher().update(in, 0, n / 3).update(in, n / 3, n - n / 3).digest();
                  break;
                case 2:
                  got = Blake3.hashParallel(in);
                  break;
                case 3:
                  direct.clear();
                  direct.put(in).flip();
                  got = Blake3.newHasher().update(direct).digest();
                  break;
                default:
                  MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
                  md.update(in);
                  got = md.digest();
                  break;
              }
              longestHash.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
              if (!Arrays.equals(want, got)) {
                wrong.incrementAndGet();
                System.out.println("GcMain: WRONG hash of " + n + " bytes");
              }
              hashes.incrementAndGet();
              hashed.addAndGet(n);
            }
          } catch (Throwable e) {
            errors.add(e);
            System.out.println("GcMain: " + Thread.currentThread().getName() + " failed:");
            e.printStackTrace(System.out);
          }
        }, "hasher-" + t));
      }
      for (int t = 0; t < 3; t++) {
        final int id = t;
        threads.add(new Thread(() -> {
          SplittableRandom r = new SplittableRandom(200 + id);
          byte[][] ring = new byte[2][];
          int k = 0;
          try {
            while (System.nanoTime() < deadline) {
              int n = (64 << 10) + r.nextInt(1 << 20);
              long t0 = System.nanoTime();
              byte[] a = new byte[n];
              longestAlloc.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
              a[n - 1] = (byte) k;
              ring[k++ & 1] = r.nextInt(4) == 0 ? a : null; // some survive a while
              allocs.incrementAndGet();
              allocated.addAndGet(n);
            }
          } catch (Throwable e) {
            errors.add(e);
            System.out.println("GcMain: " + Thread.currentThread().getName() + " failed:");
            e.printStackTrace(System.out);
          }
        }, "allocator-" + t));
      }
      for (Thread t : threads) {
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      System.out.printf("GcMain: %d hashes (%d MiB), %d wrong, %d errors, %d allocations (%d MiB), "
          + "longest allocation %d ms, longest hash %d ms%n", hashes.get(), hashed.get() >> 20, wrong.get(),
          errors.size(), allocs.get(), allocated.get() >> 20, longestAlloc.get(), longestHash.get());
      System.exit(wrong.get() == 0 && errors.isEmpty() && hashes.get() > 0 ? 0 : 1);
    }
  }
}
