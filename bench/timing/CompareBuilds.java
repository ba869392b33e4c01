import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Two builds of the library side by side in one JVM, each from a class loader of its own, called
 * as users call them: for each case, ROUNDS rounds in which the builds take turns (the order
 * alternating every round), each sample about 32 MiB of input hashed, timed in this thread's CPU
 * time after a warm-up of 3 s per build and case. Prints each build's median MB/s (or ns per
 * call for the short cases), their ratio (new / old, above 1 = new faster) and the range of the
 * per-round ratios. Cases: {@code hash:SIZE} ({@code Blake3.hash(in, 0, SIZE, out, 0)}),
 * {@code many:SIZE} ({@code hashMany} packed, 1,000 messages of SIZE bytes), {@code many:mixed}
 * (1,000 messages of 0..4096 bytes). Engine switches (-Dblake3.native=false, -Dblake3.isa=...)
 * apply to both builds. {@code CompareBuilds OLD.jar NEW.jar ROUNDS CASE...}
 */
public final class CompareBuilds {
  private CompareBuilds() {}

  public static void main(String[] args) throws Throwable {
    MethodHandle[] hash = new MethodHandle[2];
    MethodHandle[] many = new MethodHandle[2];
    String[] impl = new String[2];
    for (int b = 0; b < 2; b++) {
      URLClassLoader loader =
          new URLClassLoader(new URL[] {Path.of(args[b]).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      Class<?> c = Class.forName("io.github.blake3fast.Blake3", true, loader);
      hash[b] = MethodHandles.publicLookup().findStatic(c, "hash",
          MethodType.methodType(void.class, byte[].class, int.class, int.class, byte[].class, int.class));
      many[b] = MethodHandles.publicLookup().findStatic(c, "hashMany",
          MethodType.methodType(void.class, byte[].class, int[].class, int[].class, byte[].class));
      impl[b] = (String) MethodHandles.publicLookup().findStatic(c, "implementation", MethodType.methodType(String.class))
          .invoke();
    }
    System.out.println("old: " + impl[0] + "\nnew: " + impl[1]);
    int rounds = Integer.parseInt(args[2]);
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int a = 3; a < args.length; a++) {
      Case c = new Case(args[a]);
      for (int b = 0; b < 2; b++) {
        long until = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < until) {
          c.run(hash[b], many[b], 1);
        }
      }
      double[][] perByte = new double[2][rounds];
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
          int b = (r + k) % 2;
          long t0 = cpu.getCurrentThreadCpuTime();
          c.run(hash[b], many[b], c.reps);
          perByte[b][r] = (cpu.getCurrentThreadCpuTime() - t0) / (double) c.bytes(c.reps);
        }
      }
      double[] ratio = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratio[r] = perByte[0][r] / perByte[1][r];
      }
      double oldMed = median(perByte[0]);
      double newMed = median(perByte[1]);
      Arrays.sort(ratio);
      String unit = c.perCall() ? String.format("%.1f / %.1f ns per call", oldMed * c.callBytes(), newMed * c.callBytes())
          : String.format("%.0f / %.0f MB/s", 1000 / oldMed, 1000 / newMed);
      System.out.printf("%-12s old/new %s, new/old speed %.3f (rounds %.3f-%.3f, median %.3f)%n", args[a], unit,
          oldMed / newMed, ratio[0], ratio[rounds - 1], ratio[rounds / 2]);
    }
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }

  /** One case: its input, laid out once, and how it is called. */
  private static final class Case {
    final boolean isMany;
    final byte[] data;
    final int[] offsets;
    final int[] lengths;
    final byte[] out;
    final int size;
    final int reps;
    final long totalLen;

    Case(String spec) {
      String[] p = spec.split(":");
      isMany = p[0].equals("many");
      SplittableRandom rnd = new SplittableRandom(7);
      if (isMany) {
        offsets = new int[1000];
        lengths = new int[1000];
        long total = 0;
        for (int i = 0; i < 1000; i++) {
          lengths[i] = p[1].equals("mixed") ? rnd.nextInt(4097) : Integer.parseInt(p[1]);
          offsets[i] = (int) total;
          total += lengths[i];
        }
        data = new byte[(int) total];
        out = new byte[32 * 1000];
        size = -1;
        totalLen = total;
      } else {
        size = Integer.parseInt(p[1]);
        data = new byte[size];
        out = new byte[32];
        offsets = null;
        lengths = null;
        totalLen = size;
      }
      rnd.nextBytes(data);
      reps = (int) Math.max(1, (32L << 20) / Math.max(totalLen, 1));
    }

    boolean perCall() {
      return !isMany && size <= 4096;
    }

    long callBytes() {
      return Math.max(totalLen, 1);
    }

    long bytes(int n) {
      return (long) n * Math.max(totalLen, 1);
    }

    void run(MethodHandle hash, MethodHandle many, int n) throws Throwable {
      for (int i = 0; i < n; i++) {
        if (isMany) {
          many.invokeExact(data, offsets, lengths, out);
        } else {
          hash.invokeExact(data, 0, size, out, 0);
        }
      }
    }
  }
}
