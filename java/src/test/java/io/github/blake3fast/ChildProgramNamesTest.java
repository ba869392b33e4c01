package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One naming pattern for the programs the tests start in child JVMs: a class of the test tree
 * with a {@code main} method is named {@code *Main} (nested in its test when only that test
 * starts it). A test class is never itself a child's program, so that its name says what it is.
 */
class ChildProgramNamesTest {

  /** Entry points run by scripts, not by tests: platforms/test-all.sh runs PlatformCheck. */
  static final Set<String> SCRIPT_ENTRY_POINTS = Set.of("PlatformCheck");

  private static final Pattern CLASS = Pattern.compile("\\b(?:class|enum|record)\\s+(\\w+)");
  private static final Pattern MAIN = Pattern.compile("\\bstatic\\s+void\\s+main\\s*\\(");

  /** The innermost class declared before each main method of a source text. */
  static List<String> mainClasses(String source) {
    List<String> out = new ArrayList<>();
    Matcher main = MAIN.matcher(source);
    while (main.find()) {
      Matcher c = CLASS.matcher(source.substring(0, main.start()));
      String last = null;
      while (c.find()) {
        last = c.group(1);
      }
      out.add(last);
    }
    return out;
  }

  @Test
  void findsTheDeclaringClass() {
    assertEquals(List.of("A", "BMain"), mainClasses(
        "class A { public static void main(String[] a) {} static final class BMain {"
            + " public static void main(String[] a) {} } }"));
  }

  @Test
  void everyChildProgramIsNamedMain() throws IOException {
    Path tests = RepoFiles.root().resolve("java/src/test/java");
    Set<String> wrong = new TreeSet<>();
    int found = 0;
    try (Stream<Path> files = Files.walk(tests)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        String code = RepoFiles.read(f).replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
        for (String c : mainClasses(code)) {
          found++;
          if (c == null || !(c.endsWith("Main") || SCRIPT_ENTRY_POINTS.contains(c))) {
            wrong.add(tests.relativize(f) + ": " + c);
          }
        }
      }
    }
    assertTrue(found >= 10, "main methods found in the test tree: " + found);
    assertEquals(Set.of(), wrong, "child-JVM programs not named *Main");
  }
}
