package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * platforms/arch.sh is the one list of the platforms the jar carries a library for (b3sum,
 * native/build-host.sh and platforms/lib.sh source it): the loader's {@link Platform} enum and
 * the descriptors platforms/*.conf must name the same platforms, in the same order, by the same
 * machine names.
 */
class PlatformListTest {
  /** Architecture to all its machine names, as B3_PLATFORM_TABLE in platforms/arch.sh lists them. */
  private static Map<String, Set<String>> scriptList() throws IOException {
    Matcher table = Pattern.compile("(?s)\\nB3_PLATFORM_TABLE=\\((.*?)\\n\\)").matcher(RepoFiles.read(RepoFiles.root().resolve("platforms/arch.sh")));
    assertTrue(table.find(), "platforms/arch.sh has no B3_PLATFORM_TABLE=( ... )");
    Map<String, Set<String>> arches = new LinkedHashMap<>();
    Matcher entry = Pattern.compile("\"([^\"]+)\"").matcher(table.group(1));
    while (entry.find()) {
      String[] names = entry.group(1).trim().split("\\s+");
      arches.put(names[0], new TreeSet<>(Arrays.asList(names)));
    }
    assertTrue(arches.size() >= 6, "platforms/arch.sh lists " + arches.keySet());
    return arches;
  }

  @Test
  void theEnumIsTheScriptsList() throws IOException {
    Map<String, Set<String>> java = new LinkedHashMap<>();
    for (Platform p : Platform.values()) {
      // An <os>-<arch> entry of arch.sh is its own one name: no machine name leads to it there.
      Set<String> names = p.windows() ? new TreeSet<>() : new TreeSet<>(Arrays.asList(p.osArch()));
      names.add(p.listName());
      java.put(p.listName(), names);
      assertEquals(p.windows() ? p.listName() : "linux-" + p.arch, p.dir);
    }
    Map<String, Set<String>> script = scriptList();
    assertEquals(new ArrayList<>(script.keySet()), new ArrayList<>(java.keySet()),
        "the Platform enum and platforms/arch.sh list different platforms (or orders)");
    assertEquals(script, java, "the Platform enum and platforms/arch.sh give a platform different machine names");
  }

  @Test
  void everyNameTheScriptsKnowFindsItsPlatformInJava() throws IOException {
    for (Map.Entry<String, Set<String>> e : scriptList().entrySet()) {
      if (e.getKey().contains("-")) {
        continue; // windows-x86_64: found by os.name, below
      }
      for (String name : e.getValue()) {
        Platform p = Platform.forArch(name);
        assertNotNull(p, "os.arch=" + name + " finds no platform");
        assertEquals(e.getKey(), p.arch, "os.arch=" + name);
      }
    }
    assertNull(Platform.forArch("arm"));
    assertEquals(Platform.PPC64, Platform.forArch("ppc64"));
    assertFalse(Platform.PPC64.littleEndian, "ppc64 is the big-endian one");
    assertTrue(Platform.PPC64LE.littleEndian);
  }

  @Test
  void osNameChoosesBetweenLinuxAndWindows() {
    assertEquals(Platform.WINDOWS_X86_64, Platform.of("Windows 11", "amd64"));
    assertEquals(Platform.WINDOWS_X86_64, Platform.of("Windows Server 2022", "AMD64"));
    assertEquals(Platform.X86_64, Platform.of("Linux", "amd64"));
    assertNull(Platform.of("Windows 11", "aarch64"), "no Windows ARM64 library");
    assertNull(Platform.of("Mac OS X", "x86_64"), "no macOS library");
    assertEquals("windows-x86_64", Platform.WINDOWS_X86_64.dir);
    assertEquals("blake3fast.dll", Platform.WINDOWS_X86_64.libraryName());
    assertEquals("libblake3fast.so", Platform.PPC64.libraryName());
  }

  @Test
  void theDescriptorsAreTheScriptsList() throws IOException {
    List<String> confs;
    try (Stream<Path> files = Files.list(RepoFiles.root().resolve("platforms"))) {
      confs = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".conf"))
          .map(n -> n.substring(0, n.length() - ".conf".length())).sorted().collect(Collectors.toList());
    }
    assertEquals(new TreeSet<>(scriptList().keySet()), new TreeSet<>(confs), "platforms/*.conf and platforms/arch.sh");
    for (String arch : confs) {
      String conf = RepoFiles.read(RepoFiles.root().resolve("platforms/" + arch + ".conf"));
      Matcher m = Pattern.compile("(?m)^ARCH=(\\S+)").matcher(conf);
      assertTrue(m.find(), arch + ".conf names no ARCH");
      assertEquals(arch, m.group(1), arch + ".conf: ARCH is its file name");
      assertFalse(Pattern.compile("(?m)^PLATFORM=").matcher(conf).find(),
          arch + ".conf sets PLATFORM: platforms/lib.sh derives it from arch.sh");
    }
  }
}
