package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A jar whose library is missing, truncated, not ELF, or built for another architecture (real
 * jars with that entry, in a child JVM): the Java engine, the reason, no exception. And a cache
 * whose file is truncated or corrupt: checked before use and rewritten whole.
 */
@Tag("loader")
class LoaderResourceTest {

  private static final String RESOURCE = Fixture.RESOURCE;

  private static Result runWith(String label, byte[] lib) throws IOException {
    Path jar = Fixture.jarWith(label, lib);
    Jvm j = new Jvm(Fixture.newDir(label), jar);
    Result r = j.run();
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "nothing extracted");
    assertEquals(List.of(), Fixture.list(j.homeCache()), "nothing extracted");
    return r;
  }

  @Test
  void missingLibrary() throws IOException {
    Fixture.library();
    String reason = "the jar has no native library for " + Fixture.PLATFORM;
    runWith("missing", null).assertImpl("java (" + reason + ")").assertWarned(reason);
  }

  @Test
  void truncatedLibrary() throws IOException {
    byte[] lib = Fixture.library();
    for (int len : new int[] {lib.length - 1, lib.length / 2, 100}) {
      Result r = runWith("truncated-" + len, Arrays.copyOf(lib, len));
      String impl = Fixture.withoutVectorHint(r.get("impl"));
      String start = "java (native refused: " + RESOURCE + " is truncated (" + len + " bytes, its ELF headers need ";
      assertTrue(impl != null && impl.startsWith(start), r::toString);
      r.assertImpl(impl).assertWarned(impl.substring(6, impl.length() - 1));
    }
  }

  @Test
  void notAnElfFile() throws IOException {
    Fixture.library();
    byte[] page = "<html><body>404 Not Found</body></html>\n".getBytes(StandardCharsets.US_ASCII);
    String reason = "native refused: " + RESOURCE + " is not an ELF file (40 bytes)";
    runWith("html", page).assertImpl("java (" + reason + ")").assertWarned(reason);
    String empty = "native refused: " + RESOURCE + " is not an ELF file (0 bytes)";
    runWith("empty", new byte[0]).assertImpl("java (" + empty + ")").assertWarned(empty);
  }

  @Test
  void libraryForAnotherArchitecture() throws IOException {
    Object[] foreign = Fixture.foreignLibrary();
    System.out.println("LoaderResourceTest: foreign library is " + foreign[2]);
    String reason = "native refused: " + RESOURCE + " is built for " + foreign[1] + ", this JVM runs "
        + System.getProperty("os.arch");
    runWith("foreign", (byte[]) foreign[0]).assertImpl("java (" + reason + ")").assertWarned(reason);
  }

  /**
   * A jar whose directory gives the library a CRC-32 its bytes do not have (a damaged download):
   * the name of the extracted file comes from that directory, so the bytes are checked against
   * it before anything is written, and refused.
   */
  @Test
  void libraryThatDoesNotMatchTheJarsDirectory() throws IOException {
    Path jar = Fixture.jarWith("bad-crc", Fixture.library());
    byte[] zip = Files.readAllBytes(jar);
    byte[] name = RESOURCE.getBytes(StandardCharsets.US_ASCII);
    int patched = 0;
    for (int at = 0; at + 46 + name.length <= zip.length; at++) {
      // A central directory header: signature PK\1\2, CRC-32 at +16, name length at +28, name at +46.
      if (zip[at] == 'P' && zip[at + 1] == 'K' && zip[at + 2] == 1 && zip[at + 3] == 2
          && u16(zip, at + 28) == name.length && Arrays.equals(zip, at + 46, at + 46 + name.length, name, 0, name.length)) {
        zip[at + 16] ^= 0x5a;
        patched++;
      }
    }
    assertEquals(1, patched, "the library's entry in the jar's central directory");
    Files.write(jar, zip);
    Jvm j = new Jvm(Fixture.newDir("bad-crc"), jar);
    Result r = j.run();
    String reason = "native refused: " + RESOURCE + " in " + jar.toRealPath()
        + " does not match the jar's directory (size or CRC-32): a damaged jar";
    r.assertImpl("java (" + reason + ")").assertWarned(reason);
    assertEquals(List.of(), Fixture.list(j.tmpCache(Fixture.uid())), "nothing extracted");
    assertEquals(List.of(), Fixture.list(j.homeCache()), "nothing extracted");
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
  }

  @Test
  void truncatedFileInTheCacheIsRewritten() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("cache-truncated"), Fixture.jar());
    j.run().assertNative();
    Path f = Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
    // What an interrupted copy by a careless extractor would leave: the first 4 KiB.
    Files.write(f, Arrays.copyOf(lib, 4096));
    j.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
  }

  @Test
  void corruptFileInTheCacheIsRewritten() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("cache-corrupt"), Fixture.jar());
    j.run().assertNative();
    Path f = Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
    byte[] bad = lib.clone();
    for (int i = 4096; i < 8192; i++) {
      bad[i] = (byte) 0xcc; // int3 over code: loading this would crash the self-test or worse
    }
    Files.write(f, bad);
    Object inode = Files.getAttribute(f, "unix:ino");
    j.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(j.tmpCache(Fixture.uid()), lib);
    assertNotEquals(inode, Files.getAttribute(f, "unix:ino"), "replaced by rename, not rewritten in place");
  }

  @Test
  void staleTemporaryFilesAreSweptFreshOnesKept() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("sweep"), Fixture.jar());
    Path dir = j.work.resolve("libs");
    j.opt("-Dblake3.native.dir=" + dir).run().assertNative();
    Path f = Fixture.assertOneLibrary(dir, lib);
    String name = f.getFileName().toString();
    Path stale = dir.resolve(name + ".123.tmp");
    Path fresh = dir.resolve(name + ".456.tmp");
    Files.write(stale, Arrays.copyOf(lib, 1000)); // a JVM killed mid-write an hour ago
    Files.setLastModifiedTime(stale, FileTime.fromMillis(System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1)));
    Files.write(fresh, Arrays.copyOf(lib, 1000)); // a JVM writing right now
    Files.write(f, Arrays.copyOf(lib, 1000)); // and the library itself is broken: it gets rewritten
    j.run().assertNative().assertQuiet();
    assertFalse(Files.exists(stale), "stale temporary file swept");
    assertTrue(Files.exists(fresh), "a temporary file another JVM may be writing is left alone");
    Files.delete(fresh);
    Fixture.assertOneLibrary(dir, lib);
  }
}
