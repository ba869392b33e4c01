import io.github.blake3fast.Blake3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * File hashing timed in one process, for bench/files/run.sh (run as a source file with the jar
 * on the class path). Times come from System.nanoTime, CPU from /proc/self/stat (whole process,
 * clock ticks), the commands' from /usr/bin/time.
 *
 * <pre>
 * big FILE ROUNDS     each round: Debian's b3sum FILE, cat FILE, then Blake3.hashFile(FILE) here
 * many DIR ROUNDS     each round: Blake3.hashFile of every file in DIR
 * </pre>
 */
public class FileTiming {
  public static void main(String[] args) throws Exception {
    int rounds = Integer.parseInt(args[2]);
    System.out.println("engine " + Blake3.implementation() + ", " + Runtime.getRuntime().availableProcessors()
        + " processors, Java " + Runtime.version());
    if (args[0].equals("big")) {
      big(Path.of(args[1]), rounds);
    } else {
      many(Path.of(args[1]), rounds);
    }
  }

  private static void big(Path file, int rounds) throws Exception {
    for (int i = 0; i < 3; i++) {
      Blake3.hashFile(file);
    }
    List<double[]> b3sum = new ArrayList<>();
    List<double[]> cat = new ArrayList<>();
    List<double[]> ours = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      b3sum.add(command("b3sum", file.toString()));
      cat.add(command("cat", file.toString()));
      long[] before = cpuTicks();
      long t0 = System.nanoTime();
      Blake3.hashFile(file);
      long t1 = System.nanoTime();
      long[] after = cpuTicks();
      ours.add(new double[] {(t1 - t0) / 1e9, (after[0] - before[0]) / 100.0, (after[1] - before[1]) / 100.0});
      System.out.printf("round %d: b3sum %s | cat %s | hashFile %s%n", i, show(b3sum.get(i)), show(cat.get(i)),
          show(ours.get(i)));
    }
    System.out.printf("median: b3sum %s | cat %s | hashFile %s%n", show(median(b3sum)), show(median(cat)),
        show(median(ours)));
    double[] wall = new double[rounds];
    double[] sys = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      wall[i] = ours.get(i)[0] / b3sum.get(i)[0];
      sys[i] = ours.get(i)[2] / Math.max(0.01, cat.get(i)[2]);
    }
    Arrays.sort(wall);
    Arrays.sort(sys);
    System.out.printf("per round: hashFile wall / b3sum wall median %.2f (%.2f-%.2f); hashFile sys / cat sys median"
        + " %.2f (%.2f-%.2f)%n", wall[rounds / 2], wall[0], wall[rounds - 1], sys[rounds / 2], sys[0], sys[rounds - 1]);
  }

  private static void many(Path dir, int rounds) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.sorted().toList();
    }
    double[] times = new double[rounds];
    for (int i = 0; i < rounds; i++) {
      long t0 = System.nanoTime();
      for (Path f : files) {
        Blake3.hashFile(f);
      }
      times[i] = (System.nanoTime() - t0) / 1e9;
    }
    Arrays.sort(times);
    System.out.printf("%d files: median %.4f s, best %.4f s over %d rounds%n", files.size(), times[rounds / 2],
        times[0], rounds);
  }

  /** utime and stime of this process, in clock ticks (1/100 s on Linux). */
  private static long[] cpuTicks() throws IOException {
    String s = Files.readString(Path.of("/proc/self/stat"));
    String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
    return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
  }

  /** Wall, user and system seconds of a command, from /usr/bin/time. */
  private static double[] command(String... cmd) throws Exception {
    List<String> c = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S"));
    c.addAll(List.of(cmd));
    Process p = new ProcessBuilder(c).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    String[] lines = new String(p.getErrorStream().readAllBytes()).trim().split("\n");
    if (p.waitFor() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + String.join("\n", lines));
    }
    return Arrays.stream(lines[lines.length - 1].split(" ")).mapToDouble(Double::parseDouble).toArray();
  }

  private static double[] median(List<double[]> runs) {
    double[] m = new double[3];
    for (int k = 0; k < 3; k++) {
      final int col = k;
      double[] v = runs.stream().mapToDouble(r -> r[col]).sorted().toArray();
      m[k] = v[v.length / 2];
    }
    return m;
  }

  private static String show(double[] r) {
    return String.format("wall %.3f user %.2f sys %.2f", r[0], r[1], r[2]);
  }
}
