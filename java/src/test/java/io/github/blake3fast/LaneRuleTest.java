package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the Java kernel's lane rule picks for given JVM options, and, in JVMs started with them,
 * that it agrees with the JIT flags HotSpot itself reports (which the library does not read:
 * see {@link LaneRule}).
 */
class LaneRuleTest {
  private static boolean lanes(String arch, String... options) {
    return LaneRule.lanesWin(arch, List.of(options));
  }

  @Test
  void lanesWhereC2VectorizesThemOrInlinesTheirGLoop() {
    assertTrue(lanes("amd64"));
    assertTrue(lanes("aarch64", "-Xmx1g", "-cp", "x.jar", "Main"));
    assertTrue(lanes("amd64", "-XX:UseAVX=0"), "SSE2: 16-byte vectors");
    assertTrue(lanes("amd64", "-XX:MaxVectorSize=16"));
    assertTrue(lanes("amd64", "-XX:-TieredCompilation"), "C2 alone, vectorizing");
    assertTrue(lanes("amd64", "-XX:-TieredCompilation", "-XX:TieredStopAtLevel=1"), "the stop level needs tiers");
    assertTrue(lanes("amd64", "-XX:-UseSuperWord"), "scalar lanes, the G loop inlined (tiered default)");
    assertTrue(lanes("amd64", "-XX:-TieredCompilation", "-XX:-UseSuperWord", "-XX:InlineSmallCode=2500"));
    assertTrue(lanes("amd64", "-XX:MaxVectorSize=8", "-XX:InlineSmallCode=1000", "-XX:InlineSmallCode=4000"),
        "the last one wins");
    assertTrue(lanes("amd64", "-Xint", "-Xmixed"), "the last one wins");
  }

  @Test
  void oneChunkWhereTheLanesWouldLose() {
    assertFalse(lanes("amd64", "-XX:TieredStopAtLevel=1"), "C1 only");
    assertFalse(lanes("amd64", "-XX:TieredStopAtLevel=3"), "C1 with profiling only");
    assertFalse(lanes("amd64", "-Xint"));
    assertFalse(lanes("amd64", "-XX:-UseCompiler"));
    assertFalse(lanes("amd64", "-XX:+UseJVMCICompiler"), "another JIT");
    assertFalse(lanes("amd64", "-XX:-TieredCompilation", "-XX:-UseSuperWord"), "scalar, G not inlined (1000)");
    assertFalse(lanes("amd64", "-XX:-UseSuperWord", "-XX:InlineSmallCode=1000"));
    assertFalse(lanes("amd64", "-XX:MaxVectorSize=8", "-XX:InlineSmallCode=2499"));
    assertFalse(lanes("amd64", "-XX:UseSSE=1", "-XX:-TieredCompilation"));
    assertFalse(lanes("amd64", "-XX:-TieredCompilation", "-XX:+UseSuperWord", "-XX:-UseSuperWord"), "the last one wins");
  }

  @Test
  void oneChunkWhereTheRuleCannotTell() {
    assertFalse(lanes("riscv64"), "another architecture");
    assertFalse(lanes("ppc64le"));
    assertFalse(lanes("amd64", "-XX:Flags=.hotspotrc"), "options in a file the JVM reads itself");
    assertFalse(lanes("amd64", "-XX:VMOptionsFile=jvm.options"));
    assertFalse(lanes("amd64", "@argfile"));
    assertFalse(lanes("amd64", "-XX:-UseSuperWord", "-XX:InlineSmallCode=2k"), "a value that is no plain number");
  }

  /**
   * In JVMs started with each option set, the rule (read from the options) and HotSpot's own
   * flags agree, so the defaults the rule assumes hold on this machine, and the library's Java
   * kernel uses what the rule says.
   */
  @Test
  void theRuleAgreesWithHotSpotsFlagsInJvmsStartedWithThem() throws IOException, InterruptedException {
    assumeTrue(hotSpot(), "SKIPPED: not HotSpot: " + System.getProperty("java.vm.name"));
    String arch = System.getProperty("os.arch");
    assumeTrue(arch.equals("amd64") || arch.equals("aarch64"), "SKIPPED: no lane rule for " + arch);
    String[][] sets = {{}, {"-XX:-UseSuperWord"}, {"-XX:-TieredCompilation", "-XX:-UseSuperWord"},
        {"-XX:-TieredCompilation"}, {"-XX:TieredStopAtLevel=1"}, {"-Xint"},
        {"-XX:-UseSuperWord", "-XX:InlineSmallCode=1000"}, {"-XX:-TieredCompilation", "-XX:MaxVectorSize=8"}};
    for (String[] flags : sets) {
      String out = child(flags);
      boolean expected = lanes(arch, flags);
      assertEquals("rule=" + expected + " flags=" + expected + " kernel=" + expected, out, String.join(" ", flags));
    }
  }

  private static boolean hotSpot() {
    String vm = System.getProperty("java.vm.name", "");
    return vm.contains("HotSpot") || vm.startsWith("OpenJDK");
  }

  private static String child(String... flags) throws IOException, InterruptedException {
    Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:-UsePerfData", "-Dblake3.native=false"));
    cmd.addAll(List.of(flags));
    cmd.addAll(List.of("-cp", base.resolve("target/classes") + ":" + base.resolve("target/test-classes"),
        RuleMain.class.getName()));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    assertEquals(0, p.waitFor(), out);
    return out;
  }

  /** The child JVM's program for {@link #child}: prints {@link #childSide}. */
  public static final class RuleMain {
    public static void main(String[] args) {
      childSide();
    }
  }

  /**
   * The child's side of {@link #child}: the rule, the same rule applied to the values of the JIT
   * flags HotSpot reports, and what the library's Java kernel uses.
   */
  static void childSide() {
    HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    boolean c2 = vm.getVMOption("UseCompiler").getValue().equals("true")
        && (vm.getVMOption("TieredCompilation").getValue().equals("false")
            || Long.parseLong(vm.getVMOption("TieredStopAtLevel").getValue()) >= 4);
    boolean vectorized = vm.getVMOption("UseSuperWord").getValue().equals("true")
        && Long.parseLong(vm.getVMOption("MaxVectorSize").getValue()) >= LaneRule.MIN_VECTOR;
    boolean inlined = Long.parseLong(vm.getVMOption("InlineSmallCode").getValue()) >= LaneRule.MIN_INLINE_SMALL_CODE;
    boolean flags = c2 && (vectorized || inlined);
    System.out.println("rule=" + LaneRule.lanesWin() + " flags=" + flags + " kernel=" + JavaKernel.INSTANCE.usesLanes());
  }
}
