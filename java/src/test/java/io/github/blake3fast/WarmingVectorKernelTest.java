package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel that stands for the Vector API engine until it is warm: it passes on every kernel
 * method either Java kernel has its own version of (one left to the interface's default would
 * quietly run the default, correct but not that kernel's way, before or after the switch); and
 * what runs is decided without clocks, counts of callers' calls or test switches in the main
 * code: the warm-up is a fixed amount of work, and tests pass the self-test's corruption in.
 * (VectorEngineTest runs it, in child JVMs with the module.)
 */
class WarmingVectorKernelTest {
  @Test
  void passesOnEveryMethodEitherJavaKernelOverrides() {
    List<String> missing = new ArrayList<>();
    for (Method m : Kernel.class.getMethods()) {
      for (Class<?> k : List.of(JavaKernel.class, VectorKernel.class)) {
        if (declares(k, m) && !declares(WarmingVectorKernel.class, m) && !missing.contains(m.getName())) {
          missing.add(m.getName());
        }
      }
    }
    assertEquals(List.of(), missing, "a Java kernel overrides these, WarmingVectorKernel does not pass them on");
  }

  @Test
  void theChoiceReadsNoClockAndNoTestSwitch() throws IOException {
    Path main = RepoFiles.root().resolve("java/src/main/java/io/github/blake3fast");
    for (String file : List.of("WarmingVectorKernel.java", "VectorChoice.java")) {
      String src = RepoFiles.read(main.resolve(file));
      for (String banned : List.of("nanoTime", "currentTimeMillis", "Instant.", "blake3.test.", "Boolean.getBoolean")) {
        assertFalse(src.contains(banned), file + " uses " + banned);
      }
    }
  }

  private static boolean declares(Class<?> c, Method m) {
    try {
      c.getDeclaredMethod(m.getName(), m.getParameterTypes());
      return true;
    } catch (NoSuchMethodException e) {
      return false;
    }
  }
}
