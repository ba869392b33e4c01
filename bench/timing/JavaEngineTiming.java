package io.github.blake3fast;

import io.github.blake3fast.bench.OfficialBlake3;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The Java engine against the official portable C, in one JVM, samples alternated (the order
 * rotates every round) and timed in this thread's CPU time, so that a loaded machine slows all
 * alike and its other processes' time is not counted: the official one-shot (through
 * the anchor's OfficialBlake3), the Java engine's one-shot and the same input in 64-byte updates as the
 * library runs them here (LaneRule's choice), and the one-shot forced onto each path. Prints the
 * median MB/s of each and its ratio to the C. Every output is checked against the C's.
 * Run by java-engine.sh: {@code JavaEngineTiming ROUNDS SIZE...}.
 */
public final class JavaEngineTiming {
  private JavaEngineTiming() {}

  private static OfficialBlake3 official;

  private static final String[] NAMES = {"C portable", "one-shot", "64 B updates", "lanes", "one-chunk"};
  private static final JavaKernel[] KERNELS = {null, JavaKernel.INSTANCE, JavaKernel.INSTANCE, JavaKernel.LANES,
      JavaKernel.ONE_CHUNK};

  public static void main(String[] args) {
    official = OfficialBlake3.forIsa("portable");
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    int rounds = Integer.parseInt(args[0]);
    for (int a = 1; a < args.length; a++) {
      int size = Integer.parseInt(args[a]);
      byte[] in = new byte[size];
      for (int i = 0; i < size; i++) {
        in[i] = (byte) (i * 31 + 7);
      }
      byte[] want = official.hash(in, 0, size);
      int reps = Math.max(1, (2 << 20) / size);
      double[][] mbs = new double[NAMES.length][rounds];
      byte[] out = new byte[32];
      for (int r = -rounds / 2; r < rounds; r++) { // the first half round count warms up
        for (int k = 0; k < NAMES.length; k++) {
          int v = (k + Math.max(r, 0)) % NAMES.length;
          long t = cpu.getCurrentThreadCpuTime();
          for (int i = 0; i < reps; i++) {
            run(v, in, out);
            if (!Arrays.equals(out, want)) {
              throw new AssertionError(NAMES[v] + " differs from the official C at " + size + " bytes");
            }
          }
          long dt = cpu.getCurrentThreadCpuTime() - t;
          if (r >= 0) {
            mbs[v][r] = (double) size * reps / dt * 1000;
          }
        }
      }
      StringBuilder line = new StringBuilder(String.format("%8d B", size));
      double c = median(mbs[0]);
      for (int v = 0; v < NAMES.length; v++) {
        double m = median(mbs[v]);
        line.append(String.format(v == 0 ? " | %s %5.0f" : " | %s %5.0f %.2fx", NAMES[v], m, m / c));
      }
      System.out.println(line);
    }
    System.out.println("lane rule: " + (JavaKernel.INSTANCE.usesLanes() ? "lanes" : "one-chunk"));
  }

  private static void run(int v, byte[] in, byte[] out) {
    if (v == 0) {
      official.hash(in, 0, in.length, out);
    } else if (v == 2) {
      TreeState s = new TreeState(KERNELS[v], Spec.iv(), 0);
      for (int o = 0; o < in.length; o += 64) {
        s.update(in, o, Math.min(64, in.length - o));
      }
      s.finish(out, 0, 32);
    } else {
      OneShot.hash(KERNELS[v], in, 0, in.length, Spec.iv(), 0, out, 0, 32);
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
