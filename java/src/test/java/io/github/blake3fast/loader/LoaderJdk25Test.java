package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * JDK 24+ (JEP 472) on Temurin 25: System.load from code without native access prints the JDK's
 * four-line warning and still loads; --enable-native-access silences it; with
 * --illegal-native-access=deny the Java engine runs and says why; the b3sum jar's manifest
 * carries Enable-Native-Access: ALL-UNNAMED, so `java -jar` is quiet. The README's text on this
 * is what these tests check, line by line.
 */
@Tag("loader")
class LoaderJdk25Test {

  private static String java25;

  @BeforeAll
  static void findJdk() {
    List<String> candidates = new ArrayList<>();
    String given = System.getProperty("blake3.test.jdk25");
    if (given != null) {
      candidates.add(given);
    }
    if (Runtime.version().feature() >= 24) {
      candidates.add(System.getProperty("java.home"));
    }
    candidates.add("/usr/lib/jvm/temurin-25-jdk-amd64");
    for (String home : candidates) {
      Path bin = Paths.get(home, "bin", "java");
      if (Files.isExecutable(bin)) {
        java25 = bin.toString();
        return;
      }
    }
    assumeTrue(false, "SKIPPED: no JDK 24+ found (tried " + candidates + "; set -Dblake3.test.jdk25=JAVA_HOME)");
  }

  private static Jvm jvm(String label) throws IOException {
    Jvm j = new Jvm(Fixture.newDir(label), Fixture.jar());
    j.java = java25;
    j.nativeAccess = false; // each test says what it passes
    return j;
  }

  /** The JDK's warning for a caller in the unnamed module of jar, or in module name. */
  static List<String> jdkWarning(String caller, String module, Path jar) {
    String where = module == null ? "an unnamed module" : "module " + module;
    return List.of(
        "WARNING: A restricted method in java.lang.System has been called",
        "WARNING: java.lang.System::load has been called by " + caller + " in " + where + " (file:" + jar.toAbsolutePath() + ")",
        "WARNING: Use --enable-native-access=" + (module == null ? "ALL-UNNAMED" : module)
            + " to avoid a warning for callers in this module",
        "WARNING: Restricted methods will be blocked in a future release unless native access is enabled");
  }

  static List<String> lines(String s) {
    return s.isEmpty() ? List.of() : Stream.of(s.split("\n")).filter(l -> !l.isEmpty()).collect(Collectors.toList());
  }

  @Test
  void classPathWithoutTheFlagWarnsAndLoads() throws IOException {
    Fixture.library();
    Result r = jvm("jdk25-plain").run().assertNative();
    assertEquals(jdkWarning("io.github.blake3fast.NativeLoader", null, Fixture.jar()), lines(r.err), r::toString);
  }

  @Test
  void classPathWithTheFlagIsQuiet() throws IOException {
    Fixture.library();
    jvm("jdk25-flag").opt("--enable-native-access=ALL-UNNAMED").run().assertNative().assertQuiet();
  }

  @Test
  void modulePath() throws IOException {
    Fixture.library();
    Path jar = Fixture.jar();
    for (boolean flag : new boolean[] {false, true}) {
      Jvm j = jvm("jdk25-module").opt("--module-path", jar.toString(), "--add-modules", "io.github.blake3fast");
      if (flag) {
        j.opt("--enable-native-access=io.github.blake3fast");
      }
      j.classPath = Fixture.TEST_CLASSES.toString();
      Result r = j.run().assertNative();
      assertEquals(flag ? List.of() : jdkWarning("io.github.blake3fast.NativeLoader", "io.github.blake3fast", jar),
          lines(r.err), r::toString);
    }
  }

  @Test
  void deniedNativeAccessGivesJavaAndSaysWhy() throws IOException {
    Fixture.library();
    String reason = "native refused: native access denied (Illegal native access from an unnamed module ("
        + "file:" + Fixture.jar().toAbsolutePath() + ")): allow it with --enable-native-access=ALL-UNNAMED";
    jvm("jdk25-deny").opt("--illegal-native-access=deny").run().assertImpl("java (" + reason + ")").assertWarned(reason);
  }

  @Test
  void javaDashJarIsQuietThanksToTheManifest() throws IOException {
    Fixture.library();
    checkB3sumJar(Fixture.jar(), "the test jar built from target/classes");
  }

  @Test
  void thePackagedB3sumJarCarriesEnableNativeAccess() throws IOException {
    Fixture.library();
    Path jar;
    try (Stream<Path> s = Files.list(Fixture.BASEDIR.resolve("target"))) {
      jar = s.filter(p -> p.getFileName().toString().matches("blake3-fast-[0-9.]+(-SNAPSHOT)?\\.jar")).findFirst().orElse(null);
    }
    assumeTrue(jar != null, "SKIPPED: no packaged jar in target/ yet (mvn package makes it; CI's second run, on JDK 25, has it)");
    try (JarFile j = new JarFile(jar.toFile())) {
      assertEquals("ALL-UNNAMED", j.getManifest().getMainAttributes().getValue("Enable-Native-Access"), jar.toString());
      assertEquals("io.github.blake3fast.cli.B3sum", j.getManifest().getMainAttributes().getValue("Main-Class"));
      assumeTrue(j.getEntry(Fixture.RESOURCE) != null, "SKIPPED: " + jar + " has no " + Fixture.RESOURCE);
    }
    checkB3sumJar(jar, jar.toString());
  }

  /** `java -jar JAR` hashes stdin natively without a word on stderr; `-cp JAR` gets the warning. */
  private void checkB3sumJar(Path jar, String what) throws IOException {
    Path work = Fixture.newDir("jdk25-b3sum");
    Path input = work.resolve("abc.txt");
    Files.writeString(input, "abc");
    String expected = "6437b3ac38465133ffb63b75273a8db548c558465d79db03fd359c6cd5bd9d85  " + input;
    List<String> common = List.of("-XX:-UsePerfData", "-Djava.io.tmpdir=" + work, "-Duser.home=" + work);

    List<String> viaJar = new ArrayList<>(List.of(java25));
    viaJar.addAll(common);
    viaJar.addAll(List.of("-jar", jar.toString(), input.toString()));
    Result r = Fixture.run(viaJar, Map.of(), work, Duration.ofSeconds(60));
    assertEquals(0, r.exit, r::toString);
    assertEquals(expected + "\n", r.out, r::toString);
    assertEquals("", r.err, what + ": java -jar printed something\n" + r);
    assertTrue(Files.isDirectory(work.resolve("blake3-fast-" + Fixture.uid())), "the library was extracted, so loaded\n" + r);

    List<String> viaCp = new ArrayList<>(List.of(java25));
    viaCp.addAll(common);
    viaCp.addAll(List.of("-cp", jar.toString(), "io.github.blake3fast.cli.B3sum", input.toString()));
    r = Fixture.run(viaCp, Map.of(), work, Duration.ofSeconds(60));
    assertEquals(expected + "\n", r.out, r::toString);
    assertEquals(jdkWarning("io.github.blake3fast.NativeLoader", null, jar), lines(r.err),
        "the manifest entry is honoured by java -jar only\n" + r);
  }
}
