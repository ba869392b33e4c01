package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The loader's self-test: its stored answers are the Java engine's, every native kernel this
 * CPU runs passes it, and a native result that differs (injected through the test-only switch
 * -Dblake3.test.corruptNative=true, in a child JVM) disables native code with a warning.
 */
class LoaderSelfTestTest {

  @Test
  void theStoredAnswersAreTheJavaEngines() {
    assertNull(SelfTest.compare(JavaKernel.INSTANCE, false));
  }

  @Test
  void theCorruptSwitchIsSeen() {
    assertEquals("keyed_hash of 1025 bytes, one-shot", SelfTest.compare(JavaKernel.INSTANCE, true));
  }

  @Test
  void everyNativeKernelThisCpuRunsPasses() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    int bits = NativeBlake3.supportedIsas();
    List<String> checked = new ArrayList<>();
    for (int isa = 0; isa < NativeBlake3.ISA_NAMES.length; isa++) {
      if ((bits & (1 << isa)) != 0) {
        NativeKernel k = new NativeKernel(isa);
        assertNull(SelfTest.compare(k, false), k.name());
        checked.add(k.name());
      }
    }
    System.out.println("LoaderSelfTestTest: self-test passed on " + checked);
    assertTrue(checked.size() >= 1);
  }

  @Tag("loader")
  @Test
  void aMismatchDisablesNativeWithAWarning() throws IOException {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    Path base = Paths.get(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    Path work = base.resolve("target/loader-tests/selftest-" + ProcessHandle.current().pid());
    Files.createDirectories(work);
    String best = Blake3.implementation();
    for (String isa : new String[] {null, "portable"}) {
      List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
          "-XX:-UsePerfData", "-Djava.io.tmpdir=" + work, "-Duser.home=" + work, "-Dblake3.test.corruptNative=true"));
      if (isa != null) {
        cmd.add("-Dblake3.isa=" + isa);
      }
      if (Runtime.version().feature() >= 24) {
        cmd.add("--enable-native-access=ALL-UNNAMED");
      }
      cmd.addAll(List.of("-cp", base.resolve("target/classes") + ":" + base.resolve("target/test-classes"),
          "io.github.blake3fast.loader.Probe", "once"));
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      String err = new String(p.getErrorStream().readAllBytes());
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      String kernel = isa == null ? best : "native-" + isa;
      String reason = "native refused: " + kernel + " failed its self-test against the Java engine"
          + " (keyed_hash of 1025 bytes, one-shot)";
      String all = "$ " + String.join(" ", cmd) + "\n" + out + err;
      assertTrue(out.contains("impl=java (" + reason + ")\n"), all);
      assertTrue(out.contains("hash=ok\n"), all);
      assertTrue(err.contains("WARNING: blake3-fast: using the Java engine: " + reason + "\n"), all);
      assertEquals(1, err.split("blake3-fast:", -1).length - 1, "logged once\n" + all);
    }
  }
}
