package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The library shaded into a user's jar and relocated to com.example.vendor.blake3 by
 * maven-shade-plugin (the project in src/test/shade-project, built here offline with Maven
 * against a local repository that holds the jar under test). JNI_OnLoad registers the natives
 * on the relocated class, so the shaded copy runs native code; and a shaded copy next to an
 * unshaded one in the same class loader both get native code.
 */
@Tag("loader")
class LoaderShadeTest {

  private static Path shaded;
  private static final String RELOCATED = "com.example.vendor.blake3.Blake3";

  @BeforeAll
  static void build() throws IOException {
    Path jar = Fixture.jar();
    Path work = Fixture.newDir("shade");
    Path userRepo = Paths.get(System.getProperty("maven.repo.local",
        Paths.get(System.getProperty("user.home"), ".m2", "repository").toString()));
    assumeTrue(Files.isDirectory(userRepo), "SKIPPED: no local Maven repository at " + userRepo + " to build the shade project offline");
    String mvn = onPath("mvn");
    assumeTrue(mvn != null, "SKIPPED: mvn is not on the PATH, cannot build src/test/shade-project");

    // A local repository that is the user's (plugins and all, through symbolic links) plus the
    // jar under test as io.github.blake3fast:blake3-fast:0.1.0: nothing is written into ~/.m2.
    Path repo = work.resolve("repo");
    String version = "0.1.0";
    Path art = mirror(userRepo, repo, List.of("io", "github", "blake3fast", "blake3-fast", version));
    Files.copy(jar, art.resolve("blake3-fast-" + version + ".jar"));
    Files.write(art.resolve("blake3-fast-" + version + ".pom"), ("<project><modelVersion>4.0.0</modelVersion>"
        + "<groupId>io.github.blake3fast</groupId><artifactId>blake3-fast</artifactId><version>" + version
        + "</version></project>\n").getBytes(StandardCharsets.UTF_8));

    // Offline first (the plugins are normally cached by then); if maven-shade-plugin is not in
    // the local repository yet (a fresh CI machine), once more online, unless told to stay offline.
    Path out = work.resolve("out");
    Result r = mvn(mvn, repo, out, work, true);
    if (r.exit != 0 && missingOffline(r) && !Boolean.getBoolean("blake3.test.offline")) {
      r = mvn(mvn, repo, out, work, false);
    }
    assumeTrue(r.exit == 0 || !(missingOffline(r) || (r.out + r.err).contains("Could not transfer")),
        "SKIPPED: maven-shade-plugin is not in the local repository and cannot be downloaded here:\n" + r);
    assertEquals(0, r.exit, r::toString);
    shaded = out.resolve("shade-check.jar");
  }

  private static Result mvn(String mvn, Path repo, Path out, Path work, boolean offline) throws IOException {
    List<String> cmd = new java.util.ArrayList<>(List.of(mvn, "-q", "-B", "-Dmaven.repo.local=" + repo, "-f",
        Fixture.BASEDIR.resolve("src/test/shade-project/pom.xml").toString(), "package", "-Dshade.out=" + out));
    if (offline) {
      cmd.add(1, "-o");
    }
    return Fixture.run(cmd, Map.of("JAVA_HOME", System.getProperty("java.home")), work, Duration.ofMinutes(5));
  }

  private static boolean missingOffline(Result r) {
    String text = r.out + r.err;
    return text.contains("offline") && (text.contains("has not been downloaded") || text.contains("Cannot access"));
  }

  private static String onPath(String name) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      Path p = Paths.get(d, name);
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    return null;
  }

  /** dst mirrors src by symbolic links, except along rel, where real directories are made. */
  private static Path mirror(Path src, Path dst, List<String> rel) throws IOException {
    Files.createDirectories(dst);
    for (String c : rel) {
      if (Files.isDirectory(src)) {
        try (var s = Files.list(src)) {
          for (Path child : (Iterable<Path>) s::iterator) {
            if (!child.getFileName().toString().equals(c)) {
              Files.createSymbolicLink(dst.resolve(child.getFileName().toString()), child);
            }
          }
        }
      }
      src = src.resolve(c);
      dst = dst.resolve(c);
      Files.createDirectories(dst);
    }
    return dst;
  }

  @Test
  void theJarIsRelocated() throws IOException {
    try (JarFile j = new JarFile(shaded.toFile())) {
      boolean relocated = false;
      for (Enumeration<? extends ZipEntry> e = j.entries(); e.hasMoreElements();) {
        String n = e.nextElement().getName();
        assertFalse(n.startsWith("io/github/blake3fast/"), n + " was not relocated");
        relocated |= n.equals("com/example/vendor/blake3/NativeBlake3.class");
      }
      assertTrue(relocated);
      assertTrue(j.getEntry(Fixture.RESOURCE) != null, "the native library is in the shaded jar");
    }
  }

  @Test
  void theShadedCopyRunsNativeCode() throws IOException {
    Jvm j = new Jvm(Fixture.newDir("shaded-run"), shaded);
    j.classPath = shaded.toString();
    j.main = "com.example.app.ShadeMain";
    Result r = j.run();
    assertEquals(RELOCATED, r.get("class"), r::toString);
    assertEquals("ok", r.get("digest"), r::toString);
    r.assertNative().assertQuiet();
  }

  @Test
  void theShadedCopySaysWhenJavaRuns() throws IOException {
    Jvm j = new Jvm(Fixture.newDir("shaded-java"), shaded).opt("-Dblake3.native=false");
    j.classPath = shaded.toString();
    j.main = "com.example.app.ShadeMain";
    j.run().assertImpl("java (native disabled by -Dblake3.native=false)").assertQuiet();
  }

  @Test
  void shadedAndUnshadedCopiesInOneClassLoader() throws IOException {
    Path jar = Fixture.jar();
    String[][] orders = {{RELOCATED, ProbeMain.BLAKE3}, {ProbeMain.BLAKE3, RELOCATED}};
    for (String[] order : orders) {
      Jvm j = new Jvm(Fixture.newDir("shaded-both"), jar).args("classes", order[0], order[1]);
      j.classPath = shaded + File.pathSeparator + jar + File.pathSeparator + Fixture.TEST_CLASSES;
      Result r = j.run();
      assertEquals(0, r.exit, r::toString);
      assertFalse(r.out.contains("thrown"), r::toString);
      for (int i = 1; i <= 2; i++) {
        assertEquals("ok", r.get("hash." + i), r::toString);
        assertTrue(r.get("impl." + i).startsWith("native-"), r::toString);
      }
      r.assertQuiet();
    }
  }
}
