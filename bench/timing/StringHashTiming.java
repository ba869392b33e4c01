import io.github.blake3fast.Blake3;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What finding unpaired surrogates costs {@code Blake3.hash(String)} (issue 31): the same strings
 * hashed as {@code Blake3.hash(String)} (which writes U+FFFD for an unpaired surrogate) and as
 * {@code Blake3.hash(s.getBytes(UTF_8))} (what it did before, and costs no check), in one JVM,
 * samples alternated, this thread's CPU time. Strings: ASCII and non-ASCII (Latin-1 and CJK), of
 * the given lengths in chars. Prints ns per hash of each and their ratio. Public API only:
 * {@code java -cp blake3-fast.jar bench/timing/StringHashTiming.java ROUNDS LENGTH...}.
 */
public final class StringHashTiming {
  private StringHashTiming() {}

  static volatile int sink;

  public static void main(String[] args) {
    ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
    int rounds = Integer.parseInt(args[0]);
    System.out.println(Blake3.implementation());
    for (int a = 1; a < args.length; a++) {
      int len = Integer.parseInt(args[a]);
      for (String kind : new String[] {"ascii", "latin-1", "cjk"}) {
        String[] strings = new String[64];
        for (int k = 0; k < strings.length; k++) {
          StringBuilder sb = new StringBuilder();
          for (int i = 0; i < len; i++) {
            int c = 'a' + (i * 7 + k) % 26;
            sb.append(kind.equals("ascii") ? (char) c : kind.equals("latin-1") ? (char) (c + 0x80) : (char) (0x4E00 + c));
          }
          strings[k] = sb.toString();
          if (!Arrays.equals(Blake3.hash(strings[k]), Blake3.hash(strings[k].getBytes(StandardCharsets.UTF_8)))) {
            throw new AssertionError("the two ways differ for " + kind);
          }
        }
        int reps = Math.max(1000, 200_000 / Math.max(len, 1));
        double[][] ns = new double[2][rounds];
        for (int r = -rounds; r < rounds; r++) {
          for (int k = 0; k < 2; k++) {
            int v = (k + Math.max(r, 0)) & 1;
            long t = cpu.getCurrentThreadCpuTime();
            sink += v == 0 ? hashStrings(strings, reps) : hashBytes(strings, reps);
            long dt = cpu.getCurrentThreadCpuTime() - t;
            if (r >= 0) {
              ns[v][r] = (double) dt / reps;
            }
          }
        }
        double str = median(ns[0]);
        double bytes = median(ns[1]);
        System.out.printf("%6d chars %-8s | hash(String) %7.1f ns | hash(getBytes) %7.1f ns | ratio %.3f%n", len, kind,
            str, bytes, str / bytes);
      }
    }
  }

  // Each timed loop in a method of its own, called again and again: compiled as a whole method,
  // not only as the on-stack replacement of a loop in main.
  private static int hashStrings(String[] strings, int reps) {
    int x = 0;
    for (int i = 0; i < reps; i++) {
      x += Blake3.hash(strings[i & 63])[0];
    }
    return x;
  }

  private static int hashBytes(String[] strings, int reps) {
    int x = 0;
    for (int i = 0; i < reps; i++) {
      x += Blake3.hash(strings[i & 63].getBytes(StandardCharsets.UTF_8))[0];
    }
    return x;
  }

  private static double median(double[] xs) {
    double[] s = xs.clone();
    Arrays.sort(s);
    return s[s.length / 2];
  }
}
