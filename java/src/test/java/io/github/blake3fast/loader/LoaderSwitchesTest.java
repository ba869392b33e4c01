package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The switches, each in a fresh JVM: -Dblake3.native, -Dblake3.isa, -Dblake3.native.path,
 * -Dblake3.native.dir. A deliberate choice of the Java engine is quiet; a value the loader does
 * not take gets the Java engine, the reason in implementation() and one logged warning.
 */
@Tag("loader")
class LoaderSwitchesTest {

  private static Jvm jvm(String label) throws IOException {
    return new Jvm(Fixture.newDir(label), Fixture.jar());
  }

  private static String isas() {
    return "java, portable, sse2, sse41, avx2, avx512, neon, vsx, rvv, lsx, vx";
  }

  @Test
  void nativeFalseIsQuietJava() throws IOException {
    Jvm j = jvm("native-false").opt("-Dblake3.native=false");
    j.run().assertImpl("java (native disabled by -Dblake3.native=false)").assertQuiet();
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "nothing extracted");
  }

  @Test
  void nativeTrueInAnyCaseIsNative() throws IOException {
    jvm("native-true").opt("-Dblake3.native= TRUE ").run().assertNative().assertQuiet();
  }

  @Test
  void nativeBadValueIsSaid() throws IOException {
    jvm("native-bad").opt("-Dblake3.native=yes").run()
        .assertImpl("java (bad -Dblake3.native=yes: use true or false)")
        .assertWarned("bad -Dblake3.native=yes: use true or false");
    jvm("native-empty").opt("-Dblake3.native=").run()
        .assertImpl("java (bad -Dblake3.native= (empty))")
        .assertWarned("bad -Dblake3.native= (empty)");
  }

  @Test
  void isaCapsTheKernel() throws IOException {
    Fixture.library();
    String arch = System.getProperty("os.arch");
    if (arch.equals("amd64")) {
      jvm("isa-sse41").opt("-Dblake3.isa=sse41").run().assertImpl("native-sse41").assertQuiet();
      jvm("isa-sse2").opt("-Dblake3.isa=SSE2").run().assertImpl("native-sse2").assertQuiet();
    }
    jvm("isa-portable").opt("-Dblake3.isa=portable").run().assertImpl("native-portable").assertQuiet();
  }

  @Test
  void isaJavaIsQuietJava() throws IOException {
    jvm("isa-java").opt("-Dblake3.isa=java").run().assertImpl("java (native disabled by -Dblake3.isa=java)").assertQuiet();
  }

  @Test
  void isaBadValueListsTheNames() throws IOException {
    String reason = "bad -Dblake3.isa=avx3: use one of " + isas();
    jvm("isa-bad").opt("-Dblake3.isa=avx3").run().assertImpl("java (" + reason + ")").assertWarned(reason);
  }

  @Test
  void isaThisCpuCannotRunIsSaid() throws IOException {
    Fixture.library();
    String foreign = System.getProperty("os.arch").equals("aarch64") ? "avx2" : "neon";
    Result r = jvm("isa-foreign").opt("-Dblake3.isa=" + foreign).run();
    String impl = r.get("impl");
    String start = "java (-Dblake3.isa=" + foreign + " cannot run on this CPU, which runs portable";
    assertTrue(impl.startsWith(start), r::toString);
    r.assertImpl(impl).assertWarned(impl.substring(6, impl.length() - 1));
  }

  @Test
  void explicitPathLoadsThatFileAndExtractsNothing() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = jvm("path-good");
    Path file = j.work.resolve("mine/libblake3fast.so");
    Files.createDirectories(file.getParent());
    Files.write(file, lib);
    j.opt("-Dblake3.native.path=" + file).run().assertNative().assertQuiet();
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())));
    assertEquals(List.of(), Fixture.list(j.homeCache()));
  }

  @Test
  void explicitPathProblemsAreSaid() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = jvm("path-bad");
    Path missing = j.work.resolve("nowhere/libblake3fast.so");
    expectRefused(jvm("path-missing").opt("-Dblake3.native.path=" + missing),
        "-Dblake3.native.path=" + missing + ": no such file");

    expectRefused(jvm("path-dir").opt("-Dblake3.native.path=" + j.work),
        "-Dblake3.native.path=" + j.work + ": is a directory, not the library file");

    Path html = j.work.resolve("libblake3fast.so.html");
    Files.write(html, "<html><body>404 Not Found</body></html>\n".getBytes(StandardCharsets.US_ASCII));
    expectRefused(jvm("path-html").opt("-Dblake3.native.path=" + html),
        "-Dblake3.native.path=" + html + " is not an ELF file (40 bytes)");

    Path cut = j.work.resolve("truncated.so");
    Files.write(cut, Arrays.copyOf(lib, lib.length / 3));
    Result r = jvm("path-cut").opt("-Dblake3.native.path=" + cut).run();
    String prefix = "java (native refused: -Dblake3.native.path=" + cut + " is truncated (" + lib.length / 3
        + " bytes, its ELF headers need ";
    assertTrue(r.get("impl").startsWith(prefix), r::toString);
    r.assertImpl(r.get("impl"));

    Object[] foreign = Fixture.foreignLibrary();
    Path other = j.work.resolve("other-arch.so");
    Files.write(other, (byte[]) foreign[0]);
    expectRefused(jvm("path-foreign").opt("-Dblake3.native.path=" + other),
        "-Dblake3.native.path=" + other + " is built for " + foreign[1] + ", this JVM runs " + System.getProperty("os.arch"));
  }

  @Test
  void nativeDirIsWhereTheLibraryGoes() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = jvm("dir-good");
    Path dir = j.work.resolve("native-libs");
    j.opt("-Dblake3.native.dir=" + dir).run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(dir, lib);
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "the default location stays untouched");
  }

  @Test
  void nativeDirThatIsAFileIsSaidAndNothingElseIsTried() throws IOException {
    Fixture.library();
    Jvm j = jvm("dir-file");
    Path file = j.work.resolve("a-file");
    Files.write(file, new byte[] {1});
    expectRefused(j.opt("-Dblake3.native.dir=" + file), "not a directory " + file);
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "no silent fallback to the default location");
    assertEquals(List.of(), Fixture.list(j.homeCache()));
  }

  /** Java engine, "native refused: REASON" in implementation() and in one warning. */
  static Result expectRefused(Jvm j, String reason) throws IOException {
    Result r = j.run();
    r.assertImpl("java (native refused: " + reason + ")").assertWarned("native refused: " + reason);
    return r;
  }
}
