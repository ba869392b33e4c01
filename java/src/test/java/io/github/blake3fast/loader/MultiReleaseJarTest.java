package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The module descriptor lives under META-INF/versions/9 only: shading tools then find no
 * top-level module-info.class to warn about, and the module path still finds the module
 * io.github.blake3fast exporting its two packages, the core and Bao (not the internal one, nor
 * the command lines). (The jar Maven packages after the tests is checked for the same by
 * platforms/release.sh.)
 */
@Tag("loader")
class MultiReleaseJarTest {
  private static final String MODULE = "io.github.blake3fast";
  private static final String VERSIONED = "META-INF/versions/9/module-info.class";

  @Test
  void theDescriptorIsVersionedOnly() throws IOException {
    assertFalse(Files.exists(Fixture.CLASSES.resolve("module-info.class")), "a top-level module-info.class");
    Path versioned = Fixture.CLASSES.resolve(VERSIONED);
    assertTrue(Files.isRegularFile(versioned), versioned + " is missing");
    try (InputStream in = Files.newInputStream(versioned)) {
      checkDescriptor(ModuleDescriptor.read(in));
    }
    byte[] bytes = Files.readAllBytes(versioned);
    int major = ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff);
    assertEquals(53, major, "class file version of " + VERSIONED + " (53 is Java 9)");
  }

  @Test
  void theModulePathFindsTheModuleInTheTestJar() throws IOException {
    Fixture.library();
    checkJar(Fixture.jar());
  }

  private static void checkJar(Path jar) {
    ModuleReference ref = ModuleFinder.of(jar).find(MODULE).orElse(null);
    assertTrue(ref != null, "no module " + MODULE + " in " + jar);
    assertFalse(ref.descriptor().isAutomatic(), jar + " gives an automatic module");
    checkDescriptor(ref.descriptor());
  }

  private static void checkDescriptor(ModuleDescriptor d) {
    assertEquals(MODULE, d.name());
    Set<String> exports = d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    assertEquals(Set.of("io.github.blake3fast", "io.github.blake3fast.bao"), exports);
    assertTrue(d.provides().stream().anyMatch(p -> p.service().equals("java.security.Provider")), d.toString());
  }
}
