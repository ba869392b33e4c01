package io.github.blake3fast;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The Java engine's hashMany (JavaBatch: one message per lane of JavaLanes) against the loop of
 * one-shots it replaces (the Java kernel with the lanes forced off, what hashMany ran before)
 * and the JDK's SHA-256 in a loop, on the same packed messages, in one JVM, samples alternated
 * (the order rotates every round) and timed in this thread's CPU time; with the Vector API
 * module readable, the Vector API kernel's hashMany (its lanes: VectorLanes) too. Prints the
 * median MB/s of each and the ratios to the loop and to SHA-256. Every batch hash is checked
 * against the loop's. Run by java-batch.sh: {@code JavaBatchTiming ROUNDS COUNT SIZE...} (a size
 * of -1: lengths uniform in 0..4096).
 */
public final class JavaBatchTiming {
  private JavaBatchTiming() {}

  private static final String[] NAMES = {"batch", "loop", "SHA-256", "vector batch"};

  public static void main(String[] args) throws Exception {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    int rounds = Integer.parseInt(args[0]);
    int count = Integer.parseInt(args[1]);
    Kernel vector = VectorChoice.moduleReadable() ? VectorChoice.vectorKernel() : null;
    int contenders = vector != null ? NAMES.length : NAMES.length - 1;
    System.out.printf("%d messages a call; lanes on by LaneRule: %s; vector kernel: %s%n", count,
        JavaKernel.INSTANCE.usesLanes(), vector != null ? vector.name() : "none (no module)");
    for (int a = 2; a < args.length; a++) {
      int size = Integer.parseInt(args[a]);
      SplittableRandom rnd = new SplittableRandom(size);
      int[] offsets = new int[count];
      int[] lengths = new int[count];
      long total = 0;
      for (int i = 0; i < count; i++) {
        lengths[i] = size < 0 ? rnd.nextInt(4097) : size;
        offsets[i] = (int) total;
        total += lengths[i];
      }
      byte[] data = new byte[(int) total];
      rnd.nextBytes(data);
      int[] key = Spec.iv();
      byte[] want = new byte[32 * count];
      JavaKernel.ONE_CHUNK.hashMany(data, offsets, lengths, 0, count, key, 0, want, 0);
      byte[] out = new byte[32 * count];
      int reps = (int) Math.max(1, (4L << 20) / Math.max(total, 1));
      double[][] mbs = new double[contenders][rounds];
      for (int r = -rounds / 2; r < rounds; r++) { // the first half round count warms up
        for (int k = 0; k < contenders; k++) {
          int v = (k + Math.max(r, 0)) % contenders;
          long t = cpu.getCurrentThreadCpuTime();
          for (int i = 0; i < reps; i++) {
            if (v == 0) {
              JavaKernel.LANES.hashMany(data, offsets, lengths, 0, count, key, 0, out, 0);
            } else if (v == 1) {
              JavaKernel.ONE_CHUNK.hashMany(data, offsets, lengths, 0, count, key, 0, out, 0);
            } else if (v == 3) {
              vector.hashMany(data, offsets, lengths, 0, count, key, 0, out, 0);
            } else {
              for (int m = 0; m < count; m++) {
                sha.update(data, offsets[m], lengths[m]);
                sha.digest(out, 32 * m, 32);
              }
            }
          }
          long dt = cpu.getCurrentThreadCpuTime() - t;
          if (v != 2 && !Arrays.equals(out, want)) {
            throw new AssertionError(NAMES[v] + " gave other hashes at size " + size);
          }
          if (r >= 0) {
            mbs[v][r] = (double) total * reps / dt * 1000;
          }
        }
      }
      double batch = median(mbs[0]);
      double loop = median(mbs[1]);
      double sha256 = median(mbs[2]);
      System.out.printf("%6s B | batch %6.0f MB/s | loop %6.0f | SHA-256 %6.0f | batch/loop %.2fx | batch/SHA-256 %.2fx",
          size < 0 ? "0-4096" : Integer.toString(size), batch, loop, sha256, batch / loop, batch / sha256);
      if (vector != null) {
        double vec = median(mbs[3]);
        System.out.printf(" | vector batch %6.0f | vector/batch %.2fx | vector/loop %.2fx | vector/SHA-256 %.2fx",
            vec, vec / batch, vec / loop, vec / sha256);
      }
      System.out.println();
    }
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
