import io.github.blake3fast.Blake3;
import java.security.MessageDigest;

/**
 * A fresh JVM's calls one by one: COUNT hashes of SIZE bytes into the caller's array, each call
 * timed on its own, with blake3-fast ({@code Blake3.hash(in, 0, SIZE, out, 0)}) or the JDK's
 * SHA-256 ({@code MessageDigest.update} then {@code digest(out, 0, 32)}). Prints the slowest call
 * after the first thousand and its index, the mean of the first thousand, the median of the rest,
 * and how many threads were started during the calls (ThreadMXBean's count, whether they still
 * run or not: what the library started). The slowest calls of a fresh JVM are mostly the JIT's
 * (the caller's loop compiled on stack, deoptimized), so compare with SHA-256 in the same
 * harness. Public API only:
 * {@code java -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp blake3-fast.jar bench/timing/SlowestCallTiming.java blake3|sha256 SIZE COUNT}.
 */
public final class SlowestCallTiming {
  private SlowestCallTiming() {}

  public static void main(String[] args) throws Exception {
    String what = args[0];
    int size = Integer.parseInt(args[1]);
    int count = Integer.parseInt(args[2]);
    byte[] in = new byte[size];
    for (int i = 0; i < size; i++) {
      in[i] = (byte) (i * 7);
    }
    byte[] out = new byte[32];
    long[] took = new long[count];
    java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long startedBefore = threads.getTotalStartedThreadCount();
    MessageDigest sha = what.equals("sha256") ? MessageDigest.getInstance("SHA-256") : null;
    for (int i = 0; i < count; i++) {
      long t0 = System.nanoTime();
      if (sha == null) {
        Blake3.hash(in, 0, size, out, 0);
      } else {
        sha.update(in, 0, size);
        sha.digest(out, 0, 32);
      }
      took[i] = System.nanoTime() - t0;
      in[i % size] ^= out[0];
    }
    long started = threads.getTotalStartedThreadCount() - startedBefore;
    int worst = 1000;
    long first = 0;
    for (int i = 0; i < Math.min(1000, count); i++) {
      first += took[i];
    }
    for (int i = 1000; i < count; i++) {
      if (took[i] > took[worst]) {
        worst = i;
      }
    }
    long[] rest = java.util.Arrays.copyOfRange(took, Math.min(1000, count), count);
    java.util.Arrays.sort(rest);
    System.out.printf("%s %d B x %d (%s): slowest after the first 1000: call %d, %.3f ms; first 1000 mean %.2f us;"
        + " median after %.0f ns; threads started: %s%n", what, size, count,
        sha == null ? Blake3.implementation() : "JDK", worst, took[worst] / 1e6, first / 1e3 / Math.min(1000, count),
        rest.length == 0 ? 0.0 : (double) rest[rest.length / 2], started);
  }
}
