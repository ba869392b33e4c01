package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the Java kernel's lane rule picks for given JIT settings, and that it reads this JVM's. */
class LaneRuleTest {
  /** UseCompiler, TieredCompilation, TieredStopAtLevel, UseSuperWord, MaxVectorSize. */
  private static boolean lanes(String... values) {
    return LaneRule.lanesWin(values);
  }

  @Test
  void lanesWhereC2VectorizesFourLanesOrMore() {
    assertTrue(lanes("true", "true", "4", "true", "64"), "AVX-512");
    assertTrue(lanes("true", "true", "4", "true", "32"), "AVX2");
    assertTrue(lanes("true", "true", "4", "true", "16"), "SSE, NEON");
    assertTrue(lanes("true", "false", "4", "true", "32"), "C2 alone, no tiers");
    assertTrue(lanes("true", "false", "1", "true", "32"), "the stop level counts only with tiers");
  }

  @Test
  void oneChunkWhereTheLoopsWouldRunOneLaneAtATime() {
    assertFalse(lanes("true", "true", "4", "false", "64"), "-XX:-UseSuperWord");
    assertFalse(lanes("true", "true", "4", "true", "8"), "8-byte vectors");
    assertFalse(lanes("true", "true", "4", "true", "0"), "no vectors");
    assertFalse(lanes("true", "true", "1", "true", "64"), "C1 only");
    assertFalse(lanes("true", "true", "3", "true", "64"), "C1 with profiling only");
    assertFalse(lanes("false", "true", "4", "true", "64"), "-Xint");
  }

  @Test
  void oneChunkWhereTheFlagsCannotBeRead() {
    assertFalse(lanes(null, null, null, null, null), "not HotSpot, or no jdk.management");
    assertFalse(lanes("true", "true", "4", null, "64"), "no UseSuperWord flag");
    assertFalse(lanes("true", "true", "4", "true", null), "no MaxVectorSize flag");
    assertFalse(lanes("true", "true", "4", "true", "wide"), "a value that is no number");
  }

  @Test
  void thisJvmsFlagsAreRead() {
    assumeTrue(hotSpot(), "SKIPPED: not HotSpot: " + System.getProperty("java.vm.name"));
    String[] values = LaneRule.flags();
    for (int i = 0; i < values.length; i++) {
      assertNotNull(values[i], LaneRule.FLAGS[i]);
    }
    assertEquals(LaneRule.lanesWin(values), LaneRule.lanesWin(), Arrays.toString(values));
  }

  /** HotSpot names itself "Java HotSpot(TM) ..." in Oracle's builds, "OpenJDK ... Server VM" in others. */
  private static boolean hotSpot() {
    String vm = System.getProperty("java.vm.name", "");
    return vm.contains("HotSpot") || vm.startsWith("OpenJDK");
  }

  /** The rule as a JVM started with these flags applies it, end to end. */
  @Test
  void aJvmWithoutAutoVectorizationHashesOneChunkAtATime() throws IOException, InterruptedException {
    assumeTrue(hotSpot(), "SKIPPED: not HotSpot: " + System.getProperty("java.vm.name"));
    assertEquals("lanes=false", child("-XX:-UseSuperWord"));
    assertEquals("lanes=false", child("-XX:TieredStopAtLevel=1"));
    assertEquals("lanes=" + LaneRule.lanesWin(), child());
  }

  private static String child(String... flags) throws IOException, InterruptedException {
    Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:-UsePerfData", "-Dblake3.native=false"));
    cmd.addAll(List.of(flags));
    cmd.addAll(List.of("-cp", base.resolve("target/classes") + ":" + base.resolve("target/test-classes"),
        LaneRuleTest.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  /** The child's side of {@link #child}: what the library's Java kernel uses in that JVM. */
  public static void main(String[] args) {
    System.out.println("lanes=" + JavaKernel.INSTANCE.usesLanes());
  }
}
