package io.github.blake3fast;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The cost of copying arrays instead of pinning them ({@link CriticalArrays}): one-shot hashes
 * of {@code size} bytes through two native kernels of the best ISA, one pinning and one copying,
 * timed in alternating rounds in one JVM so that both see the same machine load. Rounds are
 * timed in this thread's CPU time, not wall time: on a shared machine the wall time mostly
 * measures how long the thread waited for a core. Prints each kernel's median round in MB/s
 * (of CPU time) and the ratio copy/pin. Arguments: size (default 1048576),
 * rounds (default 40).
 */
public final class PinCopyTiming {
  private PinCopyTiming() {}

  public static void main(String[] args) throws IOException {
    int size = args.length > 0 ? Integer.parseInt(args[0]) : 1 << 20;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    if (!(Engine.kernel() instanceof NativeKernel)) {
      throw new IllegalStateException("no native kernel: " + Engine.kernel().name());
    }
    int isa = ((NativeKernel) Engine.kernel()).isa();
    Kernel[] kernels = {new NativeKernel(isa, true), new NativeKernel(isa, false)};
    byte[] in = new byte[size];
    new SplittableRandom(3).nextBytes(in);
    byte[] out = new byte[32];
    // About 256 MB a round (40 ms or more): schedstat advances only at scheduler ticks.
    int reps = Math.max(1, (256 << 20) / size);
    double[][] mbps = new double[2][rounds];
    for (int r = -5; r < rounds; r++) { // 5 rounds of warm-up
      for (int which = 0; which < 2; which++) {
        Kernel k = kernels[(r & 1) == 0 ? which : 1 - which]; // alternate which goes first
        long t0 = cpuNanos();
        for (int i = 0; i < reps; i++) {
          OneShot.hash(k, in, 0, size, Spec.iv(), 0, out, 0, 32);
        }
        long ns = cpuNanos() - t0;
        if (r >= 0) {
          mbps[k == kernels[0] ? 0 : 1][r] = (double) size * reps * 1000 / ns;
        }
      }
    }
    double pin = median(mbps[0]);
    double copy = median(mbps[1]);
    System.out.printf("PinCopyTiming: %s, %d bytes, %d rounds of %d: pin %.0f MB/s, copy %.0f MB/s, copy/pin %.3f%n",
        kernels[0].name(), size, rounds, reps, pin, copy, copy / pin);
  }

  /** This thread's time on a CPU (Linux schedstat; the test classes cannot read java.management). */
  private static long cpuNanos() throws IOException {
    String s = new String(Files.readAllBytes(Paths.get("/proc/thread-self/schedstat")));
    return Long.parseLong(s.substring(0, s.indexOf(' ')));
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
