package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.probe.JcaInstallMain;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ways the README gives to install the provider, each in a child JVM that asks the JCA by
 * name alone ({@link JcaInstallMain}), on this JDK and on the other JDKs found here (OpenJDK 17,
 * Temurin 25): an unsigned provider's {@code Mac} must work on each.
 *
 * <p>Routes: {@code Security.addProvider} in code; {@code -Djava.security.properties=FILE} with
 * {@code security.provider.N=} the provider's name or its class name; each from the class path
 * and from the module path. With none of them the services are missing: the
 * {@code ServiceLoader} registration alone does not install the provider.
 */
class JcaInstallTest {
  @TempDir Path tmp;

  private static final Path CLASSES = location(Blake3Provider.class);
  private static final Path TEST_CLASSES = location(JcaInstallMain.class);

  private static Path location(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Path moduleJar;

  /**
   * The classes as the packaged jar holds them: the descriptor is under META-INF/versions/9, which
   * only a multi-release jar shows to the module system (a classes directory would be no module).
   */
  private static synchronized Path moduleJar() throws IOException {
    if (moduleJar != null) {
      return moduleJar;
    }
    Path jar = CLASSES.getParent().resolve("jca-install-test").resolve("blake3-fast.jar");
    Files.createDirectories(jar.getParent());
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().putValue("Multi-Release", "true");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(CLASSES)) {
      files = walk.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), mf)) {
      for (Path f : files) {
        out.putNextEntry(new JarEntry(CLASSES.relativize(f).toString().replace('\\', '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    moduleJar = jar;
    return jar;
  }

  private static List<Path> jdks() {
    Set<Path> homes = new LinkedHashSet<>();
    homes.add(Path.of(System.getProperty("java.home")).toAbsolutePath().normalize());
    for (String h : new String[] {"/usr/lib/jvm/java-17-openjdk-amd64", "/usr/lib/jvm/temurin-25-jdk-amd64"}) {
      Path p = Path.of(h);
      if (Files.isExecutable(p.resolve("bin/java"))) {
        homes.add(p.toAbsolutePath().normalize());
      }
    }
    List<Path> real = new ArrayList<>();
    Set<Path> seen = new LinkedHashSet<>();
    for (Path h : homes) {
      try {
        if (seen.add(h.toRealPath())) {
          real.add(h);
        }
      } catch (IOException e) {
        // not there after all
      }
    }
    return real;
  }

  /** The first free {@code security.provider.N}: the JDK stops reading the list at the first gap. */
  private static int nextProviderNumber(Path jdk) throws IOException {
    Pattern entry = Pattern.compile("^security\\.provider\\.(\\d+)=.*");
    int max = 0;
    for (String line : Files.readAllLines(jdk.resolve("conf/security/java.security"), StandardCharsets.ISO_8859_1)) {
      java.util.regex.Matcher m = entry.matcher(line);
      if (m.matches()) {
        max = Math.max(max, Integer.parseInt(m.group(1)));
      }
    }
    return max + 1;
  }

  private static String expected(boolean found) {
    byte[] in = "abc".getBytes(StandardCharsets.US_ASCII);
    byte[] key = new byte[32];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) i;
    }
    HexFormat hex = HexFormat.of();
    if (!found) {
      return "MessageDigest BLAKE3 missing\nMessageDigest BLAKE3-256 missing\nMac BLAKE3 missing\n";
    }
    String h = hex.formatHex(Blake3.hash(in));
    return "MessageDigest BLAKE3 BLAKE3Fast " + h + "\nMessageDigest BLAKE3-256 BLAKE3Fast " + h + "\nMac BLAKE3 BLAKE3Fast "
        + hex.formatHex(Blake3.keyedHash(key, in)) + "\n";
  }

  @TestFactory
  Stream<DynamicTest> installRoutes() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Path jdk : jdks()) {
      for (boolean modulePath : new boolean[] {false, true}) {
        String where = jdk.getFileName() + (modulePath ? ", module path" : ", class path");
        tests.add(DynamicTest.dynamicTest(where + ": not installed", () -> probe(jdk, modulePath, null, false, false)));
        tests.add(DynamicTest.dynamicTest(where + ": Security.addProvider", () -> probe(jdk, modulePath, null, true, true)));
        tests.add(DynamicTest.dynamicTest(where + ": java.security, name",
            () -> probe(jdk, modulePath, Blake3Provider.NAME, false, true)));
        tests.add(DynamicTest.dynamicTest(where + ": java.security, class name",
            () -> probe(jdk, modulePath, Blake3Provider.class.getName(), false, true)));
      }
    }
    return tests.stream();
  }

  private void probe(Path jdk, boolean modulePath, String providerEntry, boolean add, boolean found) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(jdk.resolve("bin/java").toString());
    if (modulePath) {
      cmd.addAll(List.of("--module-path", moduleJar().toString(), "-cp", TEST_CLASSES.toString()));
      cmd.add("--enable-native-access=io.github.blake3fast");
    } else {
      cmd.addAll(List.of("-cp", CLASSES + java.io.File.pathSeparator + TEST_CLASSES));
      cmd.add("--enable-native-access=ALL-UNNAMED");
    }
    if (providerEntry != null) {
      Path props = Files.createTempFile(tmp, "java", ".security");
      Files.writeString(props, "security.provider." + nextProviderNumber(jdk) + "=" + providerEntry + "\n");
      cmd.add("-Djava.security.properties=" + props);
    }
    cmd.add(JcaInstallMain.class.getName());
    if (add) {
      cmd.add("add");
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    p.getOutputStream().close();
    String out = read(p.getInputStream());
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("timed out: " + cmd);
    }
    String module = modulePath ? "io.github.blake3fast" : "null";
    assertEquals(expected(found) + "module " + module + "\n", out, String.join(" ", cmd));
    assertEquals(0, p.exitValue(), out);
  }

  private static String read(InputStream in) throws IOException {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    in.transferTo(b);
    return b.toString(StandardCharsets.UTF_8);
  }
}
