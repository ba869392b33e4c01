package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The notes in bench/notes/ name the classes and constants their figures stand behind
 * ({@code `Parallel.MIN_LEN`}): every such name must still exist, in this repository's Java
 * sources or the JDK, so that a rename cannot leave a note pointing at nothing. A name the note
 * marks as former ({@code (was `TreeState.SMALL_COPY`)}) is history and not checked.
 */
class BenchNotesTest {

  /** Names the notes quote that are neither classes of ours nor public JDK classes. */
  static final Set<String> FOREIGN = Set.of(
      "GetByteArrayRegion", // a JNI function
      "InlineSmallCode", "MaxVectorSize", "DesiredMethodLimit", // HotSpot flags
      "FileChannelImpl", "IOUtil", "UnixChannelFactory", "ChannelInputStream", "Util", // JDK internals
      "DontCompileHugeMethods", // a HotSpot flag
      "IntVector"); // jdk.incubator.vector, not readable by the tests' JVM

  private static final List<String> JDK_PACKAGES = List.of("java.lang.", "java.lang.System$",
      "java.lang.invoke.", "java.lang.management.", "java.util.", "java.util.concurrent.",
      "java.util.concurrent.atomic.", "java.util.zip.", "java.io.", "java.nio.", "java.nio.file.",
      "java.nio.channels.", "java.security.", "com.sun.management.");

  private static final Pattern SPAN = Pattern.compile("`([^`\\n]+)`");
  /** A class (one lowercase letter at least, so not SIGBUS), then maybe a member. */
  private static final Pattern NAME =
      Pattern.compile("([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)(?:[.#]([A-Za-z_][A-Za-z0-9_]*))?(?:\\(.*\\))?");
  private static final Pattern DECLARATION = Pattern.compile("\\b(?:class|interface|enum|record)\\s+([A-Z]\\w*)");

  /** The names a note's text quotes in code spans, former names left out. */
  static List<String[]> quotedNames(String text) {
    List<String[]> out = new ArrayList<>();
    Matcher span = SPAN.matcher(text);
    while (span.find()) {
      String before = text.substring(Math.max(0, span.start() - 5), span.start());
      Matcher m = NAME.matcher(span.group(1).trim());
      if (m.matches() && !before.endsWith("was ")) {
        out.add(new String[] {m.group(1), m.group(2)});
      }
    }
    return out;
  }

  /** Whether a source text declares {@code member} (a field, method or enum constant). */
  static boolean declares(String source, String member) {
    return Pattern.compile("\\b" + Pattern.quote(member) + "\\b\\s*([=;(,{]|$)", Pattern.MULTILINE)
        .matcher(source).find();
  }

  static boolean jdkClass(String name) {
    for (String p : JDK_PACKAGES) {
      try {
        Class.forName(p + name, false, ClassLoader.getSystemClassLoader());
        return true;
      } catch (ClassNotFoundException | LinkageError e) {
        // try the next package
      }
    }
    return false;
  }

  /** Every class of the repository's Java sources, by simple name, with the files declaring it. */
  static Map<String, List<String>> sources(Path root) throws IOException {
    Map<String, List<String>> out = new HashMap<>();
    for (String dir : List.of("java/src/main/java", "java/src/main/java-vector", "java/src/test/java", "bench/src",
        "bench/timing", "bench/native")) {
      try (Stream<Path> files = Files.walk(root.resolve(dir))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).collect(Collectors.toList())) {
          String text = RepoFiles.read(f);
          Matcher d = DECLARATION.matcher(text);
          while (d.find()) {
            out.computeIfAbsent(d.group(1), k -> new ArrayList<>()).add(text);
          }
        }
      }
    }
    return out;
  }

  @Test
  void readsNamesAsMeant() {
    List<String[]> names = quotedNames(
        "`Parallel.MIN_LEN`, `SIGBUS`, `blake3_hash_many`, `CvStack`, (was `TreeState.SMALL_COPY`),"
            + " `Blake3.hash(byte[])`");
    assertEquals("Parallel MIN_LEN|CvStack null|Blake3 hash", names.stream()
        .map(n -> n[0] + " " + n[1]).collect(Collectors.joining("|")));
    assertTrue(declares("  static final int MIN_LEN = 1 << 20;", "MIN_LEN"));
    assertTrue(!declares("  static final int MIN_LENGTH = 1;", "MIN_LEN"));
    assertTrue(jdkClass("ByteBuffer") && jdkClass("LoggerFinder") && !jdkClass("TreeState"));
  }

  @Test
  void everyNameANoteQuotesExists() throws IOException {
    Path root = RepoFiles.root();
    Map<String, List<String>> classes = sources(root);
    Set<String> missing = new TreeSet<>();
    int checked = 0;
    try (Stream<Path> notes = Files.list(root.resolve("bench/notes"))) {
      for (Path note : notes.filter(p -> p.toString().endsWith(".md")).sorted().collect(Collectors.toList())) {
        for (String[] n : quotedNames(RepoFiles.read(note))) {
          checked++;
          String where = note.getFileName() + ": `" + n[0] + (n[1] == null ? "" : "." + n[1]) + "`";
          List<String> declaring = classes.get(n[0]);
          if (declaring != null) {
            if (n[1] != null && declaring.stream().noneMatch(s -> declares(s, n[1]))) {
              missing.add(where + " (no such member)");
            }
          } else if (!FOREIGN.contains(n[0]) && !jdkClass(n[0])) {
            missing.add(where + " (no such class here or in the JDK)");
          }
        }
      }
    }
    assertTrue(checked > 100, "names found in the notes: " + checked);
    assertEquals(Set.of(), missing, "names in bench/notes/ that no longer exist");
  }
}
