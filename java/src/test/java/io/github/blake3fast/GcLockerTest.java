package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, item 6: an adopter's workload ({@link GcLockerMain}: three threads hashing a
 * 4 MiB array in a loop, three allocating arrays of up to 1 MiB, about 36 MiB live) in a child
 * JVM of the JDK running the tests, at -Xmx64m, under G1 and Parallel. Before the library copied
 * arrays where the JVM uses the GC locker, JDK 17 threw OutOfMemoryError in every such run (both
 * collectors, runs of 4 s); now no thread may fail. Each run lasts half of
 * {@code -Dblake3.stress.seconds} (at least 3 s).
 */
@Tag("stress")
class GcLockerTest {
  @ParameterizedTest
  @ValueSource(strings = {"G1GC", "ParallelGC"})
  void adopterWorkloadDoesNotRunOutOfMemory(String gc) throws Exception {
    int seconds = Math.max(3, ReliabilityKit.stressSeconds() / 2);
    ReliabilityKit.Child c = ReliabilityKit.runJava(List.of("-XX:+Use" + gc, "-Xmx64m"), GcLockerMain.class,
        List.of(Integer.toString(seconds), "3", "3"), seconds + 120L);
    String summary = c.output.lines().filter(l -> l.startsWith("GcLockerMain: 3 hashers")).findFirst()
        .orElse("(no summary)");
    System.out.println("GcLockerTest " + gc + ": exit " + c.status + ", " + summary);
    assertFalse(c.output.contains("OutOfMemoryError"), () -> gc + ": OutOfMemoryError\n" + c.output);
    assertFalse(c.output.contains("Retried waiting for GCLocker too often"), () -> gc + ": GC locker retries\n" + c.output);
    assertEquals(0, c.status, () -> gc + ": exit " + c.status + "\n" + c.output);
    assertTrue(summary.contains(" 0 wrong") && summary.contains(" 0 failed threads"), summary);
  }
}
