package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shared objects against the C libraries: the build's check (native/build-host.sh --check,
 * which Maven runs before packaging) passes on every library the jar carries and fails on one
 * that needs a newer GLIBC_ symbol or a libc function musl lacks; and the host library loads and
 * computes correct hashes under musl's dynamic loader (Debian's musl package) and glibc's, driven
 * by the mock JVM of the native checks (native/test/jni_mock.c: every native, the official vectors,
 * the error paths and JNI_OnLoad's class-name property), built once against each C library.
 */
@Tag("loader")
class LoaderMuslTest {

  private static final Path REPO = Fixture.BASEDIR.getParent();
  private static final Path JNI_MOCK = REPO.resolve("native/test/jni_mock.c");
  private static final Path VECTORS = REPO.resolve("test-vectors/test_vectors.txt");

  private static String onPath(String name) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (Files.isExecutable(Paths.get(d, name))) {
        return Paths.get(d, name).toString();
      }
    }
    return null;
  }

  private static Result sh(Path dir, String... cmd) throws IOException {
    return Fixture.run(List.of(cmd), Map.of(), dir, Duration.ofSeconds(120));
  }

  @Test
  void theBuildCheckPassesOnEveryShippedLibrary() throws IOException {
    Fixture.library();
    assumeTrue(onPath("readelf") != null, "SKIPPED: readelf (binutils) is not installed");
    Path dir = Fixture.newDir("check-shipped");
    List<String> found = new ArrayList<>();
    try (Stream<Path> s = Files.list(Fixture.CLASSES.resolve("META-INF/native"))) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path lib = p.resolve("libblake3fast.so");
        if (Files.isRegularFile(lib)) {
          Files.createDirectories(dir.resolve(p.getFileName()));
          Files.copy(lib, dir.resolve(p.getFileName()).resolve("libblake3fast.so"));
          found.add(p.getFileName().toString());
        }
      }
    }
    Result r = sh(dir, "bash", REPO.resolve("native/build-host.sh").toString(), "--check", dir.toString());
    assertEquals(0, r.exit, r::toString);
    assertTrue(r.out.contains("checked " + found.size() + " native libraries"), r::toString);
    System.out.println("LoaderMuslTest: " + r.out.trim() + " " + found);
  }

  @Test
  void theBuildCheckFailsOnANewerGlibcSymbol() throws IOException {
    String cc = cCompiler();
    assumeTrue(cc != null, "SKIPPED: needs a working C compiler: " + compilerProblem);
    assumeTrue(onPath("readelf") != null, "SKIPPED: readelf (binutils) is not installed");
    assumeTrue(System.getProperty("os.arch").equals("amd64"), "SKIPPED: the GLIBC_2.17 floor is checked on x86_64 here");
    // getrandom appeared in glibc 2.25; everything else about this library is as it should be.
    Result r = checkFakeLibrary(cc, "check-newer", "#include <sys/random.h>\n"
        + "__attribute__((visibility(\"default\"))) int JNI_OnLoad(void *vm, void *r) {\n"
        + "  char b[8]; (void)vm; (void)r; return (int)getrandom(b, sizeof b, 0);\n}\n");
    assertNotEquals(0, r.exit, r::toString);
    assertTrue(r.out.contains("needs GLIBC_2.25 (newer than 2.17)") || r.err.contains("needs GLIBC_2.25 (newer than 2.17)"), r::toString);
    assertTrue(r.out.contains("getrandom@GLIBC_2.25") || r.err.contains("getrandom@GLIBC_2.25"), r::toString);
  }

  @Test
  void theBuildCheckFailsOnAFunctionMuslLacks() throws IOException {
    String cc = cCompiler();
    assumeTrue(cc != null, "SKIPPED: needs a working C compiler: " + compilerProblem);
    assumeTrue(onPath("readelf") != null, "SKIPPED: readelf (binutils) is not installed");
    assumeTrue(Files.isRegularFile(Paths.get("/lib/x86_64-linux-musl/libc.so")),
        "SKIPPED: Debian's musl package is not installed (apt-get install musl musl-tools)");
    // _FORTIFY_SOURCE turns snprintf into __snprintf_chk: glibc has it (2.3.4), musl does not.
    Result r = checkFakeLibrary(cc, "check-musl", "#include <stdio.h>\nstatic char buf[64];\n"
        + "__attribute__((visibility(\"default\"))) int JNI_OnLoad(void *vm, void *r) {\n"
        + "  (void)r; return snprintf(buf, sizeof buf - (vm != 0), \"%p\", vm);\n}\n", "-D_FORTIFY_SOURCE=2");
    assertNotEquals(0, r.exit, r::toString);
    assertTrue(r.err.contains("imports what musl's libc") && r.err.contains("__snprintf_chk"), r::toString);
  }

  /**
   * Builds {@code source} with {@code cc} (and {@code flags}) as the x86-64 library of a new
   * directory, and runs the build's check (native/build-host.sh --check) over it.
   */
  private static Result checkFakeLibrary(String cc, String label, String source, String... flags) throws IOException {
    Path dir = Fixture.newDir(label);
    Path src = dir.resolve("lib.c");
    Files.writeString(src, source);
    Path lib = dir.resolve("linux-x86_64/libblake3fast.so");
    Files.createDirectories(lib.getParent());
    List<String> cmd = new ArrayList<>(List.of(cc, "-O2"));
    cmd.addAll(List.of(flags));
    cmd.addAll(List.of("-shared", "-fPIC", "-fvisibility=hidden", "-o", lib.toString(), src.toString()));
    Result c = sh(dir, cmd.toArray(new String[0]));
    assertEquals(0, c.exit, c::toString);
    return sh(dir, "bash", REPO.resolve("native/build-host.sh").toString(), "--check", dir.toString());
  }

  private static String compiler;
  private static String compilerProblem;

  /**
   * cc (else gcc) when it links a shared object, else null with the reason in compilerProblem:
   * gcc without libc6-dev is a compiler that cannot, and the build then goes on without the
   * native library, as these tests must.
   */
  private static synchronized String cCompiler() throws IOException {
    if (compiler == null && compilerProblem == null) {
      String cc = onPath("cc") != null ? onPath("cc") : onPath("gcc");
      if (cc == null) {
        compilerProblem = "no cc or gcc on the PATH";
      } else {
        Path dir = Fixture.newDir("cc-probe");
        Files.writeString(dir.resolve("probe.c"), "int probe(int x) { return x + 1; }\n");
        Result r = sh(dir, cc, "-shared", "-fPIC", "-o", "probe.so", "probe.c");
        if (r.exit == 0) {
          compiler = cc;
        } else {
          compilerProblem = cc + " cannot link a shared object: " + r.err.trim();
        }
      }
    }
    return compiler;
  }

  /** Builds jni_mock.c with compiler in a new directory, runs it on the host library there. */
  private static Path jniMock(String compiler, String label) throws IOException {
    byte[] lib = Fixture.library();
    Path dir = Fixture.newDir(label);
    Path so = dir.resolve("libblake3fast.so");
    Files.write(so, lib);
    Path jdk = Paths.get(System.getProperty("java.home"));
    Path include = jdk.resolve("include");
    assumeTrue(Files.isRegularFile(include.resolve("jni.h")), "SKIPPED: no jni.h under " + include + " (a JRE, not a JDK)");
    Path exe = dir.resolve("jni_mock");
    List<String> cc = new ArrayList<>(List.of(compiler, "-std=gnu11", "-O1", "-Wall", "-Wextra", "-Werror",
        "-I" + include, "-I" + include.resolve("linux"), "-o", exe.toString(), JNI_MOCK.toString()));
    if (!compiler.contains("musl")) {
      cc.add("-ldl");
    }
    Result c = sh(dir, cc.toArray(new String[0]));
    assertEquals(0, c.exit, c::toString);
    Result r = sh(dir, exe.toString(), so.toString(), VECTORS.toString(), "--quick");
    assertEquals(0, r.exit, r::toString);
    assertTrue(r.out.contains("JNI_OnLoad registered " + nativeMethods() + " natives\n"), r::toString);
    assertTrue(r.out.matches("(?s).*\n[1-9][0-9]* passed, 0 failed\n"), r::toString);
    System.out.println("LoaderMuslTest (" + label + "):\n" + r.out);
    return dir;
  }

  /** How many native methods NativeBlake3 declares: JNI_OnLoad must register each of them. */
  private static long nativeMethods() {
    try {
      return java.util.Arrays.stream(Class.forName("io.github.blake3fast.NativeBlake3").getDeclaredMethods())
          .filter(m -> java.lang.reflect.Modifier.isNative(m.getModifiers()))
          .count();
    } catch (ClassNotFoundException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void loadsAndHashesUnderMuslsDynamicLoader() throws IOException {
    Fixture.library();
    String musl = onPath("musl-gcc");
    assumeTrue(musl != null, "SKIPPED: musl-gcc not found: apt-get install musl musl-tools");
    Path exe = jniMock(musl, "musl").resolve("jni_mock");
    Result interp = sh(exe.getParent(), "readelf", "-l", exe.toString());
    assertTrue(interp.out.contains("[Requesting program interpreter: /lib/ld-musl-"), "built against musl\n" + interp);
    // musl's loader answers for the glibc soname itself: nothing else is needed at run time.
    Path ldso = Paths.get("/lib/ld-musl-x86_64.so.1");
    if (Files.isExecutable(ldso)) {
      Result list = sh(exe.getParent(), ldso.toString(), "--list", exe.getParent().resolve("libblake3fast.so").toString());
      assertEquals(0, list.exit, list::toString);
      assertTrue(list.out.contains("libc.so.6 => /lib/ld-musl-x86_64.so.1"), list::toString);
    }
  }

  @Test
  void loadsAndHashesUnderGlibcsDynamicLoader() throws IOException {
    Fixture.library();
    String cc = cCompiler();
    assumeTrue(cc != null, "SKIPPED: needs a working C compiler: " + compilerProblem);
    jniMock(cc, "glibc");
  }
}
