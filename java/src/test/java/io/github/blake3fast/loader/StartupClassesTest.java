package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.loader.Fixture.Jvm;
import io.github.blake3fast.loader.Fixture.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a JVM's first hash loads, from {@code -Xlog:class+load} of a child JVM, so that start-up
 * cost that creeps back shows as a failure, with no timing (bench/results/startup.md has the
 * figures): the first hash, native or Java engine, and {@code b3sum} on a small file initialise
 * no logging framework, no JCA provider, no management beans, no regular expression, formatter or
 * stream; and no class of ours that they load bootstraps a lambda or an invokedynamic string
 * concatenation, each of which spins classes at its first use.
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

  @Test
  void javaEngineFirstHash() throws IOException {
    Fixture.jar();
    Jvm j = jvm("java-engine").opt("-Dblake3.native=false");
    List<String> loaded = firstHash(j, "java (native disabled by -Dblake3.native=false)");
    assertLeanStart(loaded);
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

  /** Runs FirstHash, checks its answer and engine (null: any native one), returns what loaded. */
  private static List<String> firstHash(Jvm j, String impl) throws IOException {
    j.main = FirstHash.class.getName();
    Result r = j.run();
    assertEquals(0, r.exit, r::toString);
    String[] lines = r.out.split("\n");
    assertEquals(2, lines.length, r::toString);
    if (impl == null) {
      assertTrue(lines[0].startsWith("native-"), r::toString);
    } else {
      assertEquals(impl, lines[0], r::toString);
    }
    assertEquals(HASH_123, lines[1], r::toString);
    return loaded(j);
  }

  /** The names of the classes the child loaded, in order. */
  private static List<String> loaded(Jvm j) throws IOException {
    List<String> names = new ArrayList<>();
    for (String line : Files.readAllLines(log(j), StandardCharsets.UTF_8)) {
      int at = line.indexOf("[class,load] ");
      if (at >= 0) {
        String rest = line.substring(at + "[class,load] ".length());
        int end = rest.indexOf(' ');
        names.add(end < 0 ? rest : rest.substring(0, end));
      }
    }
    assertTrue(names.contains(OURS + "Blake3"), "the class-load log lists the library: " + names);
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
      return null; // a class of the test side (FirstHash is in the loader package, not OURS)
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
