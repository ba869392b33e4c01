package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.NativeIsaList;
import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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
    return "java, " + String.join(", ", NativeIsaList.names());
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
    String impl = Fixture.withoutVectorHint(r.get("impl"));
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
    r.assertImpl(Fixture.withoutVectorHint(r.get("impl")));

    Object[] foreign = Fixture.foreignLibrary();
    Path other = j.work.resolve("other-arch.so");
    Files.write(other, (byte[]) foreign[0]);
    expectRefused(jvm("path-foreign").opt("-Dblake3.native.path=" + other),
        "-Dblake3.native.path=" + other + " is built for " + foreign[1] + ", this JVM runs " + System.getProperty("os.arch"));
  }

  @Test
  void explicitPathReadsOnlyARegularFileOfASaneSize() throws IOException {
    Fixture.library();
    Jvm j = jvm("path-special");
    // A FIFO once hung class initialisation in open(); /dev/zero was read until the heap ran out.
    Path fifo = j.work.resolve("libblake3fast.so");
    Result mk = Fixture.run(List.of("mkfifo", fifo.toString()), Map.of(), j.work, Duration.ofSeconds(10));
    assertEquals(0, mk.exit, mk::toString);
    expectRefused(jvm("path-fifo").opt("-Dblake3.native.path=" + fifo),
        "-Dblake3.native.path=" + fifo + ": is a FIFO, not a regular file");
    Path link = j.work.resolve("link-to-fifo.so");
    Files.createSymbolicLink(link, fifo);
    expectRefused(jvm("path-fifo-link").opt("-Dblake3.native.path=" + link),
        "-Dblake3.native.path=" + link + ": is a FIFO, not a regular file");
    expectRefused(jvm("path-zero").opt("-Xmx64m", "-Dblake3.native.path=/dev/zero"),
        "-Dblake3.native.path=/dev/zero: is a character device, not a regular file");
    Path huge = j.work.resolve("huge.so");
    try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
      f.setLength(17L << 20); // sparse: no disk used
    }
    expectRefused(jvm("path-huge").opt("-Dblake3.native.path=" + huge),
        "-Dblake3.native.path=" + huge + ": larger than 16 MiB, not a library of ours");
  }

  @Test
  void explicitPathToALibraryNotOursIsSaidAndNothingIsExtracted() throws IOException {
    Fixture.library();
    Path libz = null;
    String multiarch = System.getProperty("os.arch").replace("amd64", "x86_64") + "-linux-gnu";
    for (String d : new String[] {"/lib/" + multiarch, "/usr/lib/" + multiarch, "/lib64", "/usr/lib64", "/lib", "/usr/lib"}) {
      if (Files.isRegularFile(Paths.get(d, "libz.so.1"))) {
        libz = Paths.get(d, "libz.so.1");
        break;
      }
    }
    assumeTrue(libz != null, "SKIPPED: no libz.so.1 in the usual directories to name as a library that is not ours");
    Jvm j = jvm("path-libz");
    expectRefused(j.opt("-Dblake3.native.path=" + libz), "-Dblake3.native.path=" + libz
        + " is not a blake3-fast library (it lacks the blake3fast.jni.class handshake of our JNI_OnLoad)");
    assertFalse(Files.exists(j.tmpCache(Fixture.uid())), "nothing extracted, not even a directory made");
    assertFalse(Files.exists(j.homeCache()), "nothing extracted, not even a directory made");
  }

  @Test
  void explicitPathOthersCouldSwapIsRefused() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = jvm("path-unsafe");
    Path open = j.work.resolve("open");
    Files.createDirectories(open);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path file = open.resolve("libblake3fast.so");
    Files.write(file, lib);
    expectRefused(jvm("path-open-dir").opt("-Dblake3.native.path=" + file), "-Dblake3.native.path=" + file
        + ": unsafe " + file + " (" + open + " may be changed by others: writable by group or others, without the sticky bit)");
    Files.setAttribute(open, "unix:mode", 01777); // sticky: others may add files, not replace ours
    jvm("path-sticky-dir").opt("-Dblake3.native.path=" + file).run().assertNative().assertQuiet();
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));
    expectRefused(jvm("path-open-file").opt("-Dblake3.native.path=" + file), "-Dblake3.native.path=" + file
        + ": unsafe " + file + " (writable by group or others: they could replace the library)");
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
