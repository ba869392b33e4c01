package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which JVMs get pinned arrays: only where the collector pins regions instead of using the GC locker. */
class CriticalArraysTest {
  private static final long BIG_HEAP = 4L << 30;

  private static boolean pins(int feature, String... options) {
    return CriticalArrays.pins(feature, List.of(options), 8, BIG_HEAP);
  }

  @Test
  void gcLockerCollectorsCopy() {
    for (int feature : new int[] {17, 21}) {
      assertEquals(false, pins(feature, "java", "-XX:+UseG1GC", "Main"), "G1 on " + feature);
      assertEquals(false, pins(feature, "java", "Main"), "default (G1 or Serial) on " + feature);
      assertEquals(false, pins(feature, "-XX:+UseZGC"), "ZGC on " + feature);
    }
    for (int feature : new int[] {17, 21, 22, 25}) {
      assertEquals(false, pins(feature, "-XX:+UseParallelGC"), "Parallel on " + feature);
      assertEquals(false, pins(feature, "-XX:+UseSerialGC"), "Serial on " + feature);
    }
  }

  @Test
  void regionPinningCollectorsPin() {
    assertEquals(true, pins(17, "-XX:+UseShenandoahGC"));
    assertEquals(true, pins(21, "-XX:+UseShenandoahGC"));
    assertEquals(true, pins(22, "-XX:+UseG1GC"));
    assertEquals(true, pins(25, "-XX:+UseG1GC"));
    assertEquals(true, pins(25, "java", "-cp", "x", "Main"), "default G1 on a server-class machine");
  }

  @Test
  void whatTheOptionsDoNotSayIsCopied() {
    // The default collector is Serial on a machine that is not server-class.
    assertEquals(false, CriticalArrays.pins(25, List.of("java", "Main"), 1, BIG_HEAP), "one processor");
    assertEquals(false, CriticalArrays.pins(25, List.of("java", "Main"), 8, 256L << 20), "small default heap");
    assertEquals(false, pins(25, "-Xmx2g", "Main"), "a given heap says nothing of the machine");
    assertEquals(false, pins(25, "@argfile", "Main"), "an argument file");
    assertEquals(false, pins(25, "-XX:VMOptionsFile=f", "Main"), "an options file");
    // The last word wins: JAVA_TOOL_OPTIONS first, _JAVA_OPTIONS last.
    assertEquals(false, pins(25, "-XX:+UseG1GC", "-XX:-UseG1GC", "-XX:+UseParallelGC"));
    assertEquals(true, pins(25, "-XX:+UseParallelGC", "-XX:-UseParallelGC", "-XX:+UseG1GC"));
  }
}
