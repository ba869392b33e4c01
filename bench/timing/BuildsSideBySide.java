import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * {@code Blake3.hash} of two builds of the library side by side in one JVM, each from a class
 * loader of its own, as a user calls it: hashes 1 MiB with each, waits (five minutes at most)
 * until both name the Vector API engine in implementation(), runs both for 5 s, then, for each
 * size, ROUNDS rounds in which the builds take turns (the order alternates every round), each
 * sample 64 MiB of hashing timed in this thread's CPU time. Prints each build's median MB/s,
 * their ratio and the per-round ratios' median and range. FIRST ({@code old} or {@code new}) is
 * the build loaded, warmed and timed first. Run by vector-warmup.sh:
 * {@code BuildsSideBySide OLD.jar NEW.jar ROUNDS FIRST SIZE...}, with
 * {@code --add-modules jdk.incubator.vector -Dblake3.native=false}.
 */
public final class BuildsSideBySide {
  private BuildsSideBySide() {}

  public static void main(String[] args) throws Throwable {
    MethodHandle[] hash = new MethodHandle[2];
    MethodHandle[] impl = new MethodHandle[2];
    int first = args[3].equals("new") ? 1 : 0;
    for (int k = 0; k < 2; k++) {
      int b = (first + k) % 2;
      URLClassLoader loader =
          new URLClassLoader(new URL[] {Path.of(args[b]).toUri().toURL()}, ClassLoader.getPlatformClassLoader());
      Class<?> c = Class.forName("io.github.blake3fast.Blake3", true, loader);
      hash[b] = MethodHandles.publicLookup().findStatic(c, "hash", MethodType.methodType(byte[].class, byte[].class));
      impl[b] = MethodHandles.publicLookup().findStatic(c, "implementation", MethodType.methodType(String.class));
    }
    byte[] mib = new byte[1 << 20];
    for (int k = 0; k < 2; k++) {
      byte[] unused = (byte[]) hash[(first + k) % 2].invokeExact(mib);
    }
    long end = System.nanoTime() + 300_000_000_000L;
    while (System.nanoTime() < end && !(((String) impl[0].invokeExact()).startsWith("java-vector")
        && ((String) impl[1].invokeExact()).startsWith("java-vector"))) {
      Thread.sleep(10);
    }
    System.out.println("old: " + (String) impl[0].invokeExact() + "; new: " + (String) impl[1].invokeExact());
    int rounds = Integer.parseInt(args[2]);
    long warmEnd = System.nanoTime() + 5_000_000_000L;
    while (System.nanoTime() < warmEnd) {
      for (int i = 4; i < args.length; i++) {
        byte[] in = new byte[Integer.parseInt(args[i])];
        for (int k = 0; k < 2; k++) {
          byte[] unused = (byte[]) hash[(first + k) % 2].invokeExact(in);
        }
      }
    }
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    for (int i = 4; i < args.length; i++) {
      int size = Integer.parseInt(args[i]);
      byte[] in = new byte[size];
      for (int k = 0; k < size; k++) {
        in[k] = (byte) (k * 31 + 7);
      }
      byte[] want = (byte[]) hash[0].invokeExact(in);
      int reps = Math.max(1, (64 << 20) / size);
      double[][] mbs = new double[2][rounds];
      for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
          int b = (first + k + r) % 2;
          long t = cpu.getCurrentThreadCpuTime();
          for (int j = 0; j < reps; j++) {
            byte[] h = (byte[]) hash[b].invokeExact(in);
            if (j == 0 && !Arrays.equals(h, want)) {
              throw new AssertionError("the builds' hashes differ at " + size + " bytes");
            }
          }
          mbs[b][r] = (double) size * reps / (cpu.getCurrentThreadCpuTime() - t) * 1000;
        }
      }
      double[] ratios = new double[rounds];
      for (int r = 0; r < rounds; r++) {
        ratios[r] = mbs[1][r] / mbs[0][r];
      }
      Arrays.sort(ratios);
      double old = median(mbs[0]);
      double now = median(mbs[1]);
      System.out.printf("JDK %s, %s first, %d bytes: old %.0f MB/s, new %.0f MB/s, new/old %.3f (per round:"
          + " median %.3f, %.3f-%.3f)%n", System.getProperty("java.version"), args[3], size, old, now, now / old,
          ratios[rounds / 2], ratios[0], ratios[rounds - 1]);
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
