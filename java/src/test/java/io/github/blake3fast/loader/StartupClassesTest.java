package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a JVM's first hash loads, from {@code -Xlog:class+load} of a child JVM, so that start-up
 * cost that creeps back shows as a failure, with no timing (bench/notes/startup.md has the
 * figures): the first hash, native or Java engine, and {@code b3sum} on a small file initialise
 * no logging framework, no JCA provider, no management beans, no regular expression, formatter or
 * stream; no class of ours that they load bootstraps a lambda or an invokedynamic string
 * concatenation, each of which spins classes at its first use; on JDK 24+, where the JDK's
 * own classes leave it possible, nothing is spun at all; the native engine never creates a
 * byte-array view VarHandle, and the Java engine creates its one when it is chosen (spinning on
 * JDK 17 what the JDK spins for it, nothing more).
 */
@Tag("loader")
class StartupClassesTest {

  /** Packages and classes whose first use costs milliseconds, none of which an empty main loads. */
  private static final String[] FORBIDDEN = {
      "java.util.logging.", "jdk.internal.logger.", "sun.util.logging.", "java.lang.System$LoggerFinder",
      "java.security.MessageDigest", "sun.security.provider.", "sun.security.jca.",
      "java.lang.management.", "sun.management.", "com.sun.management.",
      "java.util.regex.", "java.util.Formatter", "java.util.stream.",
  };

  /** Constant-pool names of the two bootstraps (LambdaMetafactory, StringConcatFactory). */
  private static final String[] BOOTSTRAPS = {"metafactory", "makeConcatWithConstants", "makeConcat"};

  private static final String OURS = "io.github.blake3fast.";

  /**
   * What a first short hash on the native engine does without: the tree driver and the Java
   * engine (the self-test calls the kernel directly), and a byte-array view VarHandle, each
   * milliseconds of a fresh JVM.
   */
  private static final String[] NOT_FOR_A_NATIVE_SHORT_HASH = {
      OURS + "TreeState", OURS + "CvStack", OURS + "ChunkBuffer", OURS + "OutputNode", OURS + "Compress",
      "java.lang.invoke.VarHandleByteArrayAs", "java.lang.invoke.VarHandleInts$Array",
  };

  /**
   * What a start that finds its extracted library already there does without: the jar's copy is
   * not inflated and checked again (its size and CRC-32 identify the file, ElfCheck ran when it
   * was written), nothing is written (LibraryWriter), and the file is read without a
   * FileChannel, whose NIO classes an empty main does not load.
   */
  private static final String[] NOT_WHEN_REUSING = {OURS + "ElfCheck", OURS + "LibraryWriter", "sun.nio.ch.FileChannelImpl"};

  /** What a first short hash on the Java engine does without: its classes for longer inputs. */
  private static final String[] NOT_FOR_A_JAVA_SHORT_HASH = {OURS + "JavaLanes", OURS + "TreeState"};

  /**
   * On this JDK (17 in the build) too, it spins no class beyond those an empty main spins when
   * it creates the byte-array view the engine reads blocks through (once, when it is chosen).
   */
  @Test
  void javaEngineFirstHash() throws IOException {
    Fixture.jar();
    Jvm j = jvm("java-engine").opt("-Dblake3.native=false");
    List<String> loaded = firstHash(j, "java (native disabled by -Dblake3.native=false)");
    assertLeanStart(loaded);
    assertTrue(loaded.contains(OURS + "Compress$View"), "the view is made when the engine is chosen: " + loaded);
    for (String name : loaded) {
      for (String not : NOT_FOR_A_JAVA_SHORT_HASH) {
        assertTrue(!name.startsWith(not), name + " loaded by a first short Java-engine hash: " + loaded);
      }
    }
    assertSpinsNoMoreThan(j, "view", "a first Java-engine hash");
  }

  /** The first start extracts the library (a fresh container's every start), the second reuses it. */
  @Test
  void nativeFirstHashExtractingAndReusing() throws IOException {
    Fixture.library();
    Jvm j = jvm("native");
    for (int run = 0; run < 2; run++) {
      List<String> loaded = firstHash(j, null);
      assertTrue(loaded.contains(OURS + "NativeKernel"), "the native engine ran: " + loaded);
      assertLeanStart(loaded);
      for (String name : loaded) {
        for (String not : NOT_FOR_A_NATIVE_SHORT_HASH) {
          assertTrue(!name.startsWith(not), name + " loaded by a first short native hash: " + loaded);
        }
        for (String not : run == 1 ? NOT_WHEN_REUSING : new String[0]) {
          assertTrue(!name.startsWith(not), name + " loaded by a start that reuses the extracted library: " + loaded);
        }
      }
    }
    assertEquals(1, Fixture.list(j.tmpCache(Fixture.uid())).size(), "one library extracted, then reused");
  }

  @Test
  void b3sumOnASmallFile() throws IOException {
    Fixture.jar();
    Jvm j = jvm("b3sum");
    Path file = j.work.resolve("small");
    Files.write(file, new byte[] {1, 2, 3});
    j.main = "io.github.blake3fast.cli.B3sum";
    j.args(file.toString());
    Result r = j.run();
    assertEquals(0, r.exit, r::toString);
    assertEquals(HASH_123 + "  " + file + "\n", r.out, r::toString);
    assertLeanStart(loaded(j));
  }

  /**
   * A first hashFile of a file mapped in several windows and hashed on several threads spins
   * nothing either (no lambda in the parallel path: the first one would make the method-handle
   * machinery, about 5 ms), and creates no byte-array view VarHandle.
   */
  @Test
  void firstHashFileSpinsNothing() throws IOException {
    Fixture.library();
    Jvm j = jvm("hash-file");
    Path file = j.work.resolve("sixteen-mib");
    int size = 16 << 20;
    try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size); // zeros, sparse
    }
    j.main = FirstHashMain.class.getName();
    j.args("file", file.toString());
    Result r = j.run();
    assertEquals(0, r.exit, r::toString);
    String[] lines = r.out.split("\n");
    assertEquals(2, lines.length, r::toString);
    assertTrue(lines[0].startsWith("native-"), r::toString);
    assertEquals(Blake3.toHex(Blake3.hash(new byte[size])), lines[1], r::toString);
    List<String> loaded = loaded(j);
    assertTrue(loaded.contains(OURS + "internal.Parallel"), "hashed on several threads: " + loaded);
    assertLeanStart(loaded);
    for (String name : loaded) {
      assertTrue(!name.startsWith("java.lang.invoke.VarHandleByteArrayAs"), name + " loaded by a first hashFile");
    }
    assertSpinsNoMoreThanAnEmptyMain(j, "a first hashFile");
  }

  /**
   * On JDK 24 and later the three starts spin no class (lambda proxy or method-handle form, as
   * reflection makes too) beyond those an empty main spins by itself. On JDK 17, the first
   * byte-array VarHandle spins the JDK's own lambda, which the Java engine's first hash makes
   * ({@link #javaEngineFirstHash}).
   */
  @Test
  void onJdk24AndLaterNothingIsSpun() throws IOException {
    String java = newestJdk();
    Fixture.library();
    List<Jvm> runs = new ArrayList<>();
    for (String engine : new String[] {"true", "false"}) {
      Jvm j = jvm("jdk25-" + engine);
      j.java = java;
      j.opt("--enable-native-access=ALL-UNNAMED", "-Dblake3.native=" + engine);
      firstHash(j, engine.equals("true") ? null : "java (native disabled by -Dblake3.native=false)");
      runs.add(j);
    }
    Jvm b = jvm("jdk25-b3sum");
    b.java = java;
    b.opt("--enable-native-access=ALL-UNNAMED");
    Path file = b.work.resolve("small");
    Files.write(file, new byte[] {1, 2, 3});
    b.main = "io.github.blake3fast.cli.B3sum";
    b.args(file.toString());
    Result r = b.run();
    assertEquals(HASH_123 + "  " + file + "\n", r.out, r::toString);
    runs.add(b);
    Jvm nothing = jvm("jdk25-nothing");
    nothing.java = java;
    nothing.main = FirstHashMain.class.getName();
    nothing.args("nothing");
    assertEquals(0, nothing.run().exit);
    List<String> jvmsOwn = spun(nothing);
    for (Jvm j : runs) {
      assertLeanStart(loaded(j));
      List<String> ours = spun(j);
      ours.removeAll(jvmsOwn);
      assertEquals(List.of(), ours, "classes spun at start-up on " + java + " in " + j.work);
    }
  }

  /** The classes j spun, less those a JVM started the same way with an empty main spins. */
  private static void assertSpinsNoMoreThanAnEmptyMain(Jvm j, String what) throws IOException {
    assertSpinsNoMoreThan(j, "nothing", what);
  }

  /** The classes j spun, less those a JVM started the same way spins running FirstHashMain with {@code mode}. */
  private static void assertSpinsNoMoreThan(Jvm j, String mode, String what) throws IOException {
    Jvm reference = jvm(mode);
    reference.main = FirstHashMain.class.getName();
    reference.args(mode);
    assertEquals(0, reference.run().exit);
    List<String> ours = spun(j);
    ours.removeAll(spun(reference));
    assertEquals(List.of(), ours, "classes spun by " + what + " in " + j.work);
  }

  /**
   * Lambda proxies and method-handle forms the child made (not mapped from the JDK's archive),
   * named without their addresses.
   */
  private static List<String> spun(Jvm j) throws IOException {
    List<String> spun = new ArrayList<>();
    for (String name : loaded(j, false)) {
      if (name.contains("$$Lambda") || name.contains("LambdaForm$")) {
        int at = name.indexOf("/0x");
        spun.add(at < 0 ? name : name.substring(0, at));
      }
    }
    return spun;
  }

  /** A JDK 24 or later: -Dblake3.test.jdk25, this one, or Temurin 25; else the test is skipped. */
  private static String newestJdk() {
    List<String> homes = new ArrayList<>();
    String given = System.getProperty("blake3.test.jdk25");
    if (given != null) {
      homes.add(given);
    }
    if (Runtime.version().feature() >= 24) {
      homes.add(System.getProperty("java.home"));
    }
    homes.add("/usr/lib/jvm/temurin-25-jdk-amd64");
    for (String home : homes) {
      Path bin = Path.of(home, "bin", "java");
      if (Files.isExecutable(bin)) {
        return bin.toString();
      }
    }
    Assumptions.assumeTrue(false, "SKIPPED: no JDK 24+ found (tried " + homes + "; set -Dblake3.test.jdk25=JAVA_HOME)");
    return null;
  }

  /** BLAKE3 of the bytes 1, 2, 3. */
  private static final String HASH_123 = "b177ec1bf26dfb3b7010d473e6d44713b29b765b99c6e60ecbfae742de496543";

  private static Jvm jvm(String label) throws IOException {
    Jvm j = new Jvm(Fixture.newDir("startup-" + label), Fixture.jar());
    j.opt("-Xlog:class+load=info:file=" + log(j));
    return j;
  }

  private static Path log(Jvm j) {
    return j.work.resolve("class-load.log");
  }

  /** Runs FirstHashMain, checks its answer and engine (null: any native one), returns what loaded. */
  private static List<String> firstHash(Jvm j, String impl) throws IOException {
    j.main = FirstHashMain.class.getName();
    Result r = j.run();
    assertEquals(0, r.exit, r::toString);
    String[] lines = r.out.split("\n");
    assertEquals(2, lines.length, r::toString);
    if (impl == null) {
      assertTrue(lines[0].startsWith("native-"), r::toString);
    } else {
      assertEquals(impl, Fixture.withoutVectorHint(lines[0]), r::toString);
    }
    assertEquals(HASH_123, lines[1], r::toString);
    return loaded(j);
  }

  /** The names of the classes the child loaded, in order. */
  private static List<String> loaded(Jvm j) throws IOException {
    List<String> names = loaded(j, true);
    assertTrue(names.contains(OURS + "Blake3"), "the class-load log lists the library: " + names);
    return names;
  }

  /** The classes the child loaded, or only those it did not map from a CDS archive. */
  private static List<String> loaded(Jvm j, boolean archivedToo) throws IOException {
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(log(j), StandardCharsets.UTF_8)) {
      int at = line.indexOf("[class,load] ");
      if (at >= 0 && (archivedToo || !line.contains("source: shared objects file"))) {
        String rest = line.substring(at + "[class,load] ".length());
        int end = rest.indexOf(' ');
        names.add(end < 0 ? rest : rest.substring(0, end));
      }
    }
    return names;
  }

  private static void assertLeanStart(List<String> loaded) throws IOException {
    List<String> wrong = new ArrayList<>();
    for (String name : loaded) {
      for (String f : FORBIDDEN) {
        if (name.startsWith(f)) {
          wrong.add(name);
        }
      }
      if (name.startsWith(OURS)) {
        if (name.contains("$$Lambda")) {
          wrong.add(name);
        } else {
          String bootstrap = bootstrapIn(name);
          if (bootstrap != null) {
            wrong.add(name + " (calls " + bootstrap + ")");
          }
        }
      }
    }
    assertEquals(List.of(), wrong, "loaded by the first hash, costly at start-up");
  }

  /** The lambda or string-concatenation bootstrap the class file names, or null. */
  private static String bootstrapIn(String className) throws IOException {
    Path f = Fixture.CLASSES.resolve(className.replace('.', '/') + ".class");
    if (!Files.isRegularFile(f)) {
      return null; // a class of the test side (FirstHashMain is in the loader package, not OURS)
    }
    String text = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1);
    for (String b : BOOTSTRAPS) {
      // A constant-pool Utf8 entry: a two-byte length, then the name.
      String entry = "" + (char) (b.length() >> 8) + (char) (b.length() & 0xff) + b;
      if (text.contains(entry)) {
        return b;
      }
    }
    return null;
  }
}
