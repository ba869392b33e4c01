package io.github.blake3fast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An adopter's server workload that made JDK 17 throw "Retried waiting for GCLocker too often"
 * and OutOfMemoryError in every run at -Xmx64m to 128m (issue 14, item 6): threads hashing one
 * 4 MiB {@code byte[]} in a loop with {@link Blake3#hash(byte[])}, and threads allocating arrays
 * of up to 1 MiB, about 36 MiB live in all. Runs as a child JVM: {@link GcLockerTest} and
 * bench/gclocker.sh (the JDK x collector x heap matrix).
 *
 * <p>Arguments: seconds, hashing threads, allocating threads (default 10 3 3). Prints one
 * summary line starting with {@code GcLockerMain:}; exits 0 if every hash was right and no
 * thread failed, else 1.
 */
public final class GcLockerMain {
  private static final int INPUT = 4 << 20;
  /** What the allocating threads keep reachable between them, whatever their number. */
  private static final int ALLOCATED_LIVE = 32 << 20;
  private static final int MAX_ARRAY = 1 << 20;

  private GcLockerMain() {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int hashers = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int allocators = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;

    byte[] input = new byte[INPUT];
    new SplittableRandom(14).nextBytes(input);
    byte[] want = new byte[32];
    OneShot.hash(JavaKernel.INSTANCE, input, 0, input.length, Spec.iv(), 0, want, 0, 32);

    AtomicLong hashes = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    AtomicLong allocations = new AtomicLong();
    AtomicLong longestAllocMs = new AtomicLong();
    ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < hashers; t++) {
      threads.add(new Thread(() -> {
        while (System.nanoTime() < deadline) {
          if (!Arrays.equals(want, Blake3.hash(input))) {
            wrong.incrementAndGet();
          }
          hashes.incrementAndGet();
        }
      }, "hasher-" + t));
    }
    // Each allocator keeps a ring of its latest arrays (mean size half a megabyte) reachable.
    int ring = Math.max(1, ALLOCATED_LIVE / allocators / (MAX_ARRAY / 2));
    for (int t = 0; t < allocators; t++) {
      final int id = t;
      threads.add(new Thread(() -> {
        SplittableRandom r = new SplittableRandom(200 + id);
        byte[][] kept = new byte[ring][];
        for (int k = 0; System.nanoTime() < deadline; k++) {
          long t0 = System.nanoTime();
          byte[] a = new byte[1 + r.nextInt(MAX_ARRAY)];
          longestAllocMs.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
          a[a.length - 1] = (byte) k;
          kept[k % ring] = a;
          allocations.incrementAndGet();
        }
      }, "allocator-" + t));
    }
    for (Thread t : threads) {
      t.setUncaughtExceptionHandler((th, e) -> {
        errors.add(e);
        System.out.println("GcLockerMain: " + th.getName() + " failed: " + e);
      });
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.printf("GcLockerMain: %d hashers, %d allocators, %d s, engine %s (%s arrays), Java %s: %d hashes, "
        + "%d wrong, %d allocations, longest allocation %d ms, %d failed threads%n", hashers, allocators, seconds,
        Blake3.implementation(), CriticalArrays.PIN ? "pins" : "copies", Runtime.version(), hashes.get(), wrong.get(),
        allocations.get(), longestAllocMs.get(), errors.size());
    System.exit(wrong.get() == 0 && errors.isEmpty() && hashes.get() > 0 ? 0 : 1);
  }
}
