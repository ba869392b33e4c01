package io.github.blake3fast;

import java.util.List;
import java.util.Locale;

/**
 * Whether the native kernel may hand the library array inputs long enough to be pinned (JNI
 * critical sections), or must cut its calls so that the library copies every array input
 * ({@link NativeBlake3#COPY_LEN} bytes at most a call), decided once.
 *
 * <p>Where a collector cannot pin a single region, HotSpot implements a critical section with
 * the GC locker: a collection waits until every critical section has ended, and a thread whose
 * allocation needs one waits too. In JDK 17-21 (every collector but Shenandoah) and 22-24
 * (Parallel, Serial) such a thread retries only twice and then throws OutOfMemoryError with free
 * heap (JDK-8192647): threads hashing large arrays back to back, next to threads allocating,
 * made JDK 17 fail so in every run at -Xmx64m to 128m. Copying holds no critical section at
 * all. Pinning is kept where it is known to be harmless: Shenandoah (pins regions) and, from
 * JDK 22 (JEP 423), G1. ZGC is copied on every JDK: whether its critical sections stall
 * allocations was not established here, and copying is never wrong.
 *
 * <p>The collector is read from the options the JVM was started with (its command line and the
 * option environment variables), not from java.lang.management: loading the management classes
 * took far longer in a fresh JVM than this class's whole initialisation, which runs once, when
 * the native engine starts (bench/notes/gclocker.md, "Start-up"). When the options do not
 * say (no collector named, or an options file the JVM reads itself), JDK 22 and later choose G1
 * on a server-class machine, which is assumed only when the machine has two processors or more
 * and no heap size was given (a default heap of 448 MiB or more means at least 1792 MiB of
 * memory); otherwise arrays are copied.
 *
 * <p>{@code -Dblake3.native.pin=true|false} overrides the choice: true brings the GC-locker
 * failures back where the JVM has them, for measurements or a workload that does not allocate
 * while it hashes.
 */
final class CriticalArrays {
  private CriticalArrays() {}

  /** True: the native kernel pins arrays; false: it copies them. */
  static final boolean PIN = decide();

  private static boolean decide() {
    String forced = System.getProperty("blake3.native.pin", "").trim().toLowerCase(Locale.ROOT);
    if (forced.equals("true") || forced.equals("false")) {
      return forced.equals("true");
    }
    try {
      // java.specification.version is the feature number from JDK 9 on ("17", "21", ...).
      int feature = Integer.parseInt(System.getProperty("java.specification.version"));
      List<String> options = JvmOptions.list();
      return options != null
          && pins(feature, options, Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory());
    } catch (RuntimeException e) {
      return false; // unknown: copying is always safe
    }
  }

  /**
   * Whether a JVM of that feature version, started with those options (in the order the JVM
   * reads them), pins regions for JNI critical sections.
   */
  static boolean pins(int feature, List<String> options, int processors, long maxHeap) {
    String collector = null;
    boolean heapGiven = false;
    for (String o : options) {
      if (o.startsWith("-XX:+Use") && o.endsWith("GC")) {
        collector = o.substring("-XX:+Use".length(), o.length() - 2);
      } else if (o.startsWith("-XX:-Use") && o.endsWith("GC") && o.substring(8, o.length() - 2).equals(collector)) {
        collector = null;
      } else if (JvmOptions.fromFile(o)) {
        return false; // options this class does not read
      } else if (o.startsWith("-Xmx") || o.startsWith("-XX:MaxHeapSize=")) {
        heapGiven = true;
      }
    }
    if (collector == null) {
      return feature >= 22 && processors >= 2 && !heapGiven && maxHeap >= (448L << 20);
    }
    return collector.equals("Shenandoah") || (feature >= 22 && collector.equals("G1"));
  }
}
