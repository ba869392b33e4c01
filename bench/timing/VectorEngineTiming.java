package io.github.blake3fast;

import io.github.blake3fast.bench.OfficialBlake3;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * The Vector API engine against the scalar Java engine and the official C (portable, and the
 * assembly of the vector engine's width: SSE4.1 for 128 bits, AVX2 for 256, AVX-512 for 512), in
 * one JVM, samples alternated (the order rotates every round) and timed in this thread's CPU
 * time, as JavaEngineTiming does. One-shot hashes through the tree driver, as Blake3.hash runs
 * them. Prints the median MB/s of each and its ratio to the portable C, and vector/scalar.
 * Every output is checked against the C's. Run by vector-engine.sh:
 * {@code VectorEngineTiming ROUNDS SIZE...}, with {@code --add-modules jdk.incubator.vector}.
 */
public final class VectorEngineTiming {
  private VectorEngineTiming() {}

  public static void main(String[] args) {
    int bits = VectorKernel.BITS;
    String asm = bits >= 512 ? "avx512" : bits >= 256 ? "avx2" : "sse41";
    OfficialBlake3 portable = OfficialBlake3.forIsa("portable");
    OfficialBlake3 wide = OfficialBlake3.forIsa(asm);
    String[] names = {"C portable", "C " + asm, "java scalar", "java-vector-" + bits};
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    int rounds = Integer.parseInt(args[0]);
    warmUp(cpu);
    for (int a = 1; a < args.length; a++) {
      int size = Integer.parseInt(args[a]);
      byte[] in = new byte[size];
      for (int i = 0; i < size; i++) {
        in[i] = (byte) (i * 31 + 7);
      }
      byte[] want = portable.hash(in, 0, size);
      int reps = Math.max(1, (4 << 20) / size);
      double[][] mbs = new double[names.length][rounds];
      byte[] out = new byte[32];
      for (int r = -rounds / 2; r < rounds; r++) { // the first half round count warms up
        for (int k = 0; k < names.length; k++) {
          int v = (k + Math.max(r, 0)) % names.length;
          long t = cpu.getCurrentThreadCpuTime();
          for (int i = 0; i < reps; i++) {
            if (v == 0) {
              portable.hash(in, 0, size, out);
            } else if (v == 1) {
              wide.hash(in, 0, size, out);
            } else {
              Kernel kernel = v == 2 ? JavaKernel.INSTANCE : VectorKernel.INSTANCE;
              OneShot.hash(kernel, in, 0, size, Spec.iv(), 0, out, 0, 32);
            }
            if (!Arrays.equals(out, want)) {
              throw new AssertionError(names[v] + " differs from the official C at " + size + " bytes");
            }
          }
          long dt = cpu.getCurrentThreadCpuTime() - t;
          if (r >= 0) {
            mbs[v][r] = (double) size * reps / dt * 1000;
          }
        }
      }
      StringBuilder line = new StringBuilder(String.format("| %8d B", size));
      double c = median(mbs[0]);
      for (int v = 0; v < names.length; v++) {
        double m = median(mbs[v]);
        line.append(String.format(" | %5.0f (%.2fx)", m, m / c));
      }
      line.append(String.format(" | %.2fx | %.2fx |", median(mbs[3]) / median(mbs[2]), median(mbs[3]) / median(mbs[1])));
      System.out.println(line);
    }
  }

  /**
   * Both Java engines on 64 KiB for 5 s of CPU: the vector engine runs interpreted until C2 has
   * compiled its round methods (C1 gives up on them), which takes thousands of calls.
   */
  private static void warmUp(ThreadMXBean cpu) {
    byte[] in = new byte[64 << 10];
    byte[] out = new byte[32];
    long end = cpu.getCurrentThreadCpuTime() + 5_000_000_000L;
    while (cpu.getCurrentThreadCpuTime() < end) {
      OneShot.hash(VectorKernel.INSTANCE, in, 0, in.length, Spec.iv(), 0, out, 0, 32);
      OneShot.hash(JavaKernel.INSTANCE, in, 0, in.length, Spec.iv(), 0, out, 0, 32);
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
