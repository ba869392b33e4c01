package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kernel that stands for the Vector API engine until it is warm passes on every kernel
 * method the vector kernel has its own version of: one left to the interface's default would
 * quietly run the default (correct, but not the vector kernel's way) once the engine took over.
 */
class WarmingVectorKernelTest {
  @Test
  void passesOnEveryMethodTheVectorKernelOverrides() {
    List<String> missing = new ArrayList<>();
    for (Method m : Kernel.class.getMethods()) {
      if (declares(VectorKernel.class, m) && !declares(WarmingVectorKernel.class, m)) {
        missing.add(m.getName());
      }
    }
    assertEquals(List.of(), missing, "VectorKernel overrides these, WarmingVectorKernel does not pass them on");
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
