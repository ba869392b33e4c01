package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The check-then-load race, with a real attacker: java.io.tmpdir is a directory every user may
 * write and that has no sticky bit; uid 65534 exchanges the loader's directory there with one of
 * its own, holding a library of the same name, as fast as renameat2 allows, while root starts
 * JVM after JVM. The planted library's constructor leaves a marker when it is loaded: there must
 * be none, and every start must load the real library from a safe place, saying why it skipped
 * the unsafe one. Needs root, setpriv and a C compiler; skips saying which is missing.
 */
@Tag("loader")
class LoaderRaceTest {
  private static final Path SOURCES = Fixture.BASEDIR.resolve("src/test/native-check");
  private static final int STARTS = Integer.getInteger("blake3.race.starts", 100);

  @Test
  void anotherUserSwappingTheDirectoryNeverGetsItsLibraryLoaded() throws Exception {
    byte[] lib = Fixture.library();
    Fixture.newDir("race"); // also the run directory the privilege probe starts in
    Fixture.assumeCanBecomeNobody();
    // The racer, as uid 65534, runs its program and swaps directories in here.
    Path work = Fixture.dirForNobody("race");
    String cc = cCompiler();
    assumeTrue(cc != null, "SKIPPED: the race test builds its planted library and racer with cc or gcc; neither is on PATH");

    Jvm j = new Jvm(work, Fixture.jar());
    Path shared = j.tmp(); // writable by everyone, no sticky bit: the misconfiguration under test
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path marks = Files.createDirectories(work.resolve("marks")); // root's alone: markers cannot be faked
    Path bin = Files.createDirectories(work.resolve("bin"));
    Path attacker = Files.createDirectories(work.resolve("attacker"));
    Files.setAttribute(attacker, "unix:uid", 65534);

    // The name the loader gives the library, learnt from an extraction into a directory of ours.
    Path probeDir = work.resolve("probe");
    new Jvm(work, Fixture.jar()).opt("-Dblake3.native.dir=" + probeDir).run().assertNative();
    String name = Fixture.assertOneLibrary(probeDir, lib).getFileName().toString();

    Path planted = attacker.resolve("planted.so");
    compile(cc, bin, "-shared", "-fPIC", "-DMARKS=\"" + marks + "\"", "-o", planted.toString(),
        SOURCES.resolve("planted_library.c").toString());
    Path swapper = bin.resolve("directory_swapper");
    compile(cc, bin, "-o", swapper.toString(), SOURCES.resolve("directory_swapper.c").toString());
    Files.setAttribute(planted, "unix:uid", 65534);

    Path checked = j.tmpCache(0);
    Files.createDirectories(checked);
    Files.setPosixFilePermissions(checked, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.write(checked.resolve(name), lib);
    Path own = shared.resolve("attackers-own");
    Files.createDirectories(own);
    Files.createLink(own.resolve(name), planted);
    Files.setAttribute(own, "unix:uid", 65534);

    Path stop = work.resolve("stop");
    List<String> race = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--", "nice", "-n", "5",
        swapper.toString(), shared.toString(), checked.getFileName().toString(), own.getFileName().toString(),
        planted.toString(), name, stop.toString(), "600");
    Process racer = Fixture.start(race, Map.of(), work);
    List<Result> results = new ArrayList<>();
    Result swaps;
    try {
      for (int i = 0; i < STARTS; i++) {
        results.add(j.run());
      }
    } finally {
      Files.createFile(stop);
      swaps = Fixture.finish(race, racer, Duration.ofSeconds(30));
    }
    assertEquals(0, swaps.exit, swaps::toString);

    String[] foreign = marks.toFile().list();
    int foreignLoads = foreign == null ? 0 : foreign.length;
    String figures = STARTS + " root JVM starts against " + swaps.out.trim() + " directory swaps by uid 65534: "
        + foreignLoads + " loaded the planted library";
    System.out.println("LoaderRaceTest: " + figures);
    assertEquals(0, foreignLoads, figures);

    // Each start refused the unsafe place, said so once, and hashed with the real library from home.
    Path home = j.homeCache().resolve(name);
    String why = "unsafe " + checked + " (" + shared + " may be changed by others: writable by group or others, without the sticky bit)";
    for (Result r : results) {
      LoaderLocationsTest.assertSkippedWithAWarning(r, home, why);
    }
  }

  private static void compile(String cc, Path dir, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(cc, "-O2", "-Wall", "-Werror"));
    cmd.addAll(List.of(args));
    Result r = Fixture.run(cmd, Map.of(), dir, Duration.ofSeconds(60));
    assertEquals(0, r.exit, r::toString);
  }

  private static String cCompiler() {
    for (String name : new String[] {"cc", "gcc"}) {
      for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
        Path p = Path.of(d, name);
        if (Files.isExecutable(p)) {
          return p.toString();
        }
      }
    }
    return null;
  }
}
