package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Where the library can go, simulated for real: each child JVM runs in its own mount namespace
 * (unshare -m) where java.io.tmpdir or the cache directory is a real noexec, read-only or full
 * tmpfs (mounted on the child's own tmpdir, not on /tmp, which may hold the checkout), or
 * as uid 65534 (setpriv) against root-owned directories. Root ignores permission bits, so "not
 * writable" for root is a read-only mount here. Without root these tests skip, saying why.
 */
@Tag("loader")
class LoaderLocationsTest {

  /**
   * A child whose java.io.tmpdir is a tmpfs mounted with {@code options} in its namespace, then
   * {@code more} mounts.
   */
  private static Jvm realTmp(String label, String options, String more) throws IOException {
    Fixture.assumeMounts();
    Jvm j = new Jvm(Fixture.newDir(label), Fixture.jar());
    j.prefix.addAll(Fixture.inNamespace(tmpfsOnTmp(j, options) + more));
    return j;
  }

  private static String tmpfsOnTmp(Jvm j, String options) {
    return "mount -t tmpfs -o " + options + " tmpfs '" + j.tmp() + "'\n";
  }

  private static Jvm realMount(String label, String mounts) throws IOException {
    Fixture.assumeMounts();
    Jvm j = new Jvm(Fixture.newDir(label), Fixture.jar());
    j.prefix.addAll(Fixture.inNamespace(mounts));
    return j;
  }

  @Test
  void noexecTmpFallsBackToTheUserCache() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = realTmp("noexec-tmp", "noexec", "");
    j.run().assertNative().assertQuiet();
    Path f = Fixture.assertOneLibrary(j.homeCache(), lib);
    // With the logger at FINE (DEBUG), it says where the library came from and what it skipped.
    Path config = j.work.resolve("logging.properties");
    Files.writeString(config, "handlers=java.util.logging.ConsoleHandler\n"
        + "java.util.logging.ConsoleHandler.level=ALL\nio.github.blake3fast.level=FINE\n");
    Result r = j.opt("-Djava.util.logging.config.file=" + config).run().assertNative();
    assertTrue(r.err.contains("FINE: blake3-fast: using " + r.get("impl") + " from " + f + " (skipped: noexec " + j.tmp() + ")\n"),
        r::toString);
  }

  @Test
  void aLinkPlantedByAnotherUserIsNotFollowed() throws IOException {
    byte[] lib = Fixture.library();
    Fixture.assumeCanBecomeNobody(); // root, so it can hand the link to someone else
    Jvm j = new Jvm(Fixture.newDir("planted-link"), Fixture.jar());
    Path target = j.work.resolve("root-owned");
    Files.createDirectories(target);
    Path link = j.tmpCache(0);
    Files.createSymbolicLink(link, target);
    Files.setAttribute(link, "unix:uid", 65534, LinkOption.NOFOLLOW_LINKS);
    Result r = j.run();
    assertEquals(List.of(), Fixture.list(target), "nothing written through the other user's link");
    Path f = Fixture.assertOneLibrary(j.homeCache(), lib);
    assertSkippedWithAWarning(r, f, "unsafe " + link + " (a link owned by uid 65534, this process runs as uid 0)");
  }

  @Test
  void noexecTmpAndNativeDir() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = realTmp("noexec-tmp-dir", "noexec", "");
    Path dir = j.work.resolve("libs");
    j.opt("-Dblake3.native.dir=" + dir).run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(dir, lib);
    assertEquals(List.of(), Fixture.list(j.homeCache()));
  }

  /** A shared sticky directory named as native.dir (root's /tmp, say) keeps its mode. */
  @Test
  void aStickyNativeDirIsNeverReModedButGetsAPrivateSubdirectory() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("sticky-native-dir"), Fixture.jar());
    Path dir = j.work.resolve("shared");
    Files.createDirectories(dir);
    Files.setAttribute(dir, "unix:mode", 01777);
    j.opt("-Dblake3.native.dir=" + dir).run().assertNative().assertQuiet();
    assertEquals(01777, (Integer) Files.getAttribute(dir, "unix:mode") & 07777, "the shared directory's mode");
    Path own = dir.resolve("blake3-fast-" + Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    Fixture.assertOneLibrary(own, lib);
    assertEquals(0755, (Integer) Files.getAttribute(own, "unix:mode") & 07777);
  }

  @Test
  void noexecTmpAndReadOnlyCacheGiveJavaWithBothReasons() throws IOException {
    Fixture.library();
    Path work = Fixture.newDir("noexec-ro");
    Path home = work.resolve("home");
    Files.createDirectories(home);
    Jvm j = realTmp("noexec-ro", "noexec", Fixture.readOnlyBind(home));
    j.opt("-Duser.home=" + home);
    LoaderSwitchesTest.expectRefused(j, "noexec " + j.tmp() + "; read-only " + home.resolve(".cache/blake3-fast"));
  }

  @Test
  void noexecNativeDirIsSaidAndNotBypassed() throws IOException {
    Fixture.library();
    Path work = Fixture.newDir("noexec-native-dir");
    Path dir = work.resolve("libs");
    Files.createDirectories(dir);
    Jvm j = realMount("noexec-native-dir", "mount -t tmpfs -o noexec tmpfs '" + dir + "'");
    LoaderSwitchesTest.expectRefused(j.opt("-Dblake3.native.dir=" + dir), "noexec " + dir);
  }

  @Test
  void explicitPathOnNoexecMount() throws IOException {
    byte[] lib = Fixture.library();
    Path work = Fixture.newDir("noexec-path");
    Path dir = work.resolve("libs");
    Files.createDirectories(dir);
    Files.write(work.resolve("lib.so"), lib);
    Path file = dir.resolve("libblake3fast.so");
    Jvm j = realMount("noexec-path", "mount -t tmpfs -o noexec tmpfs '" + dir + "'\ncp '" + work.resolve("lib.so") + "' '" + file + "'");
    LoaderSwitchesTest.expectRefused(j.opt("-Dblake3.native.path=" + file),
        "-Dblake3.native.path=" + file + ": noexec " + dir);
  }

  @Test
  void readOnlyTmpFallsBackToTheUserCache() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = realTmp("ro-tmp", "ro", "");
    j.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(j.homeCache(), lib);
  }

  @Test
  void fullTmpFallsBackToTheUserCache() throws IOException {
    byte[] lib = Fixture.library();
    // 16 KiB: the directory fits, the library (about 100 KiB) does not.
    Jvm j = realTmp("full-tmp", "size=16k", "");
    j.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(j.homeCache(), lib);
    j.prefix.clear();
    j.prefix.addAll(Fixture.inNamespace(tmpfsOnTmp(j, "size=16k") + Fixture.readOnlyBind(j.home())));
    Path x = j.tmp().resolve("x");
    LoaderSwitchesTest.expectRefused(j.opt("-Dblake3.native.dir=" + x), "disk full " + x);
  }

  @Test
  void readOnlyDirWithTheLibraryAlreadyThereIsUsed() throws IOException {
    byte[] lib = Fixture.library();
    Path work = Fixture.newDir("ro-prefilled");
    Path dir = work.resolve("libs");
    // First run extracts; the second finds it in a now read-only directory: pre-extraction at
    // image build time, then a read-only file system at run time.
    new Jvm(work, Fixture.jar()).opt("-Dblake3.native.dir=" + dir).run().assertNative();
    Jvm j = realMount("ro-prefilled", Fixture.readOnlyBind(dir)).opt("-Dblake3.native.dir=" + dir);
    j.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(dir, lib);
  }

  @Test
  void notWritableForThisUser() throws IOException {
    byte[] lib = Fixture.library();
    Fixture.assumeCanBecomeNobody();
    Jvm j = Fixture.jvmForNobody("nobody");
    j.prefix.addAll(Fixture.asNobody());
    // tmp and home belong to root (rwxr-xr-x): uid 65534 can read but not write them.
    LoaderSwitchesTest.expectRefused(j, "not writable " + j.tmpCache(65534) + "; not writable " + j.homeCache());
    Files.createDirectories(j.homeCache().getParent());
    Files.setAttribute(j.homeCache().getParent(), "unix:uid", 65534);
    j.run().assertNative().assertQuiet();
    Path f = Fixture.assertOneLibrary(j.homeCache(), lib);
    assertEquals(65534, Files.getAttribute(f, "unix:uid"));
  }

  @Test
  void aDirectoryOfAnotherUserIsNotTrusted() throws IOException {
    byte[] lib = Fixture.library();
    Fixture.assumeCanBecomeNobody(); // root, so it can hand the directory to someone else
    Jvm j = new Jvm(Fixture.newDir("unsafe"), Fixture.jar());
    Path planted = j.tmpCache(0);
    Files.createDirectories(planted);
    Files.setAttribute(planted, "unix:uid", 65534);
    Result r = j.run();
    assertEquals(List.of(), Fixture.list(planted), "nothing written into the other user's directory");
    Path f = Fixture.assertOneLibrary(j.homeCache(), lib);
    assertSkippedWithAWarning(r, f, "unsafe " + planted + " (owned by uid 65534, this process runs as uid 0)");
    LoaderSwitchesTest.expectRefused(j.opt("-Dblake3.native.dir=" + planted),
        "unsafe " + planted + " (owned by uid 65534, this process runs as uid 0)");
  }

  @Test
  void aLocationBelowADirectoryOthersCanWriteIsRefused() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("open-parent"), Fixture.jar());
    // Not the parent but one above it: whoever can rename "open/a" can swap everything below it.
    Path open = j.work.resolve("open");
    Path dir = open.resolve("a/libs");
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxr-x"));
    LoaderSwitchesTest.expectRefused(j.opt("-Dblake3.native.dir=" + dir), "unsafe " + dir + " (" + open
        + " may be changed by others: writable by group or others, without the sticky bit)");
    assertEquals(List.of(), Fixture.list(dir), "nothing written below it");
    // A name that passes through it by a link is refused too, though its real path is safe:
    // whoever can write there can point the name elsewhere while it is resolved.
    Path safe = Files.createDirectories(j.work.resolve("safe"));
    Files.createSymbolicLink(open.resolve("to-safe"), safe);
    Path viaLink = open.resolve("to-safe/libs");
    LoaderSwitchesTest.expectRefused(new Jvm(j.work, Fixture.jar()).opt("-Dblake3.native.dir=" + viaLink), "unsafe " + viaLink
        + " (" + open + " may be changed by others: writable by group or others, without the sticky bit)");
    assertEquals(List.of(), Fixture.list(safe), "nothing written through it");

    // The default location in a temp directory others may write: skipped, with a warning.
    Jvm k = new Jvm(Fixture.newDir("open-tmp"), Fixture.jar());
    Files.setPosixFilePermissions(k.tmp(), PosixFilePermissions.fromString("rwxrwxrwx"));
    Result r = k.run();
    assertSkippedWithAWarning(r, Fixture.assertOneLibrary(k.homeCache(), lib), "unsafe " + k.tmpCache(Fixture.uid()) + " ("
        + k.tmp() + " may be changed by others: writable by group or others, without the sticky bit)");
    assertFalse(Files.exists(k.tmpCache(Fixture.uid())), "nothing made in it");

    // Sticky, as /tmp is: others may add entries but not rename or remove ours.
    Files.setAttribute(k.tmp(), "unix:mode", 01777);
    k.run().assertNative().assertQuiet();
    Fixture.assertOneLibrary(k.tmpCache(Fixture.uid()), lib);
  }

  /**
   * Native from {@code file}, and one warning that names the location(s) refused as unsafe on the
   * way: someone else could change them, which is worth knowing even though another one worked.
   */
  static void assertSkippedWithAWarning(Result r, Path file, String reasons) {
    r.assertNative();
    String line = "WARNING: blake3-fast: using " + r.get("impl") + " from " + file + " (skipped: " + reasons + ")";
    List<String> ours = Arrays.stream(r.err.split("\n")).filter(l -> l.contains("blake3-fast:")).collect(Collectors.toList());
    assertEquals(List.of(line), ours, r::toString);
  }

  @Test
  void aDirectoryOthersCanWriteIsTightenedWhenItIsOurs() throws IOException {
    byte[] lib = Fixture.library();
    Jvm j = new Jvm(Fixture.newDir("loose"), Fixture.jar());
    Path dir = j.work.resolve("loose");
    Files.createDirectories(dir);
    Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
    j.opt("-Dblake3.native.dir=" + dir).run().assertNative().assertQuiet();
    assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
    Fixture.assertOneLibrary(dir, lib);
    assertFalse(Files.exists(j.tmpCache(Fixture.uid())));
  }
}
