import io.github.blake3fast.Blake3;
import java.lang.management.ManagementFactory;

/**
 * How long after JVM start the Vector API engine takes over by default: hashes one 1 MiB input
 * (builds before the fixed warm-up of 2026-12-07 started their warm-up only after a MiB), then
 * waits, idle (polling {@link Blake3#implementation()} every millisecond) or busy (hashing 1 MiB
 * inputs on this thread), until implementation() names the vector engine; prints the JVM's uptime
 * and process CPU time then, and the MiB this thread hashed meanwhile. Two minutes at most. Run
 * with {@code --add-modules jdk.incubator.vector -Dblake3.native=false} by vector-warmup.sh:
 * {@code VectorTakeover idle|busy}.
 */
public final class VectorTakeover {
  private VectorTakeover() {}

  public static void main(String[] args) throws InterruptedException {
    boolean busy = args[0].equals("busy");
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    byte[] in = new byte[1 << 20];
    Blake3.hash(in);
    long mib = 1;
    long end = System.nanoTime() + 120_000_000_000L;
    while (!Blake3.implementation().startsWith("java-vector") && System.nanoTime() < end) {
      if (busy) {
        in[(int) (mib & 1023)]++;
        Blake3.hash(in);
        mib++;
      } else {
        Thread.sleep(1);
      }
    }
    long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
    System.out.printf("%s: uptime %d ms, process cpu %d ms, %d MiB hashed: %s%n", args[0], uptime,
        os.getProcessCpuTime() / 1_000_000, mib, Blake3.implementation());
  }
}
