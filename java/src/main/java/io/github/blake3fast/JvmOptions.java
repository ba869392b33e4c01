package io.github.blake3fast;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The options this JVM was started with, in the order the JVM reads them: JAVA_TOOL_OPTIONS,
 * JDK_JAVA_OPTIONS, the command line, _JAVA_OPTIONS. The decisions taken from them
 * ({@link CriticalArrays}, {@link LaneRule}) read them here rather than from
 * java.lang.management, whose classes cost a fresh JVM far more than the decisions themselves;
 * read once, at the first question.
 */
final class JvmOptions {
  private JvmOptions() {}

  /** The options, or null when they cannot be read (no /proc): the callers' safe choice then. */
  static List<String> list() {
    return Read.OPTIONS;
  }

  private static final class Read {
    static final List<String> OPTIONS = read();

    private static List<String> read() {
      try {
        List<String> all = new ArrayList<>();
        addWords(all, System.getenv("JAVA_TOOL_OPTIONS"));
        addWords(all, System.getenv("JDK_JAVA_OPTIONS"));
        byte[] cmdline;
        try (InputStream in = new FileInputStream("/proc/self/cmdline")) {
          cmdline = in.readAllBytes();
        }
        split(all, new String(cmdline, StandardCharsets.UTF_8), '\0');
        addWords(all, System.getenv("_JAVA_OPTIONS"));
        return Collections.unmodifiableList(all);
      } catch (IOException | RuntimeException e) {
        return null;
      }
    }
  }

  /** Whether an option names a file the JVM reads more options from, which this class does not. */
  static boolean fromFile(String option) {
    return option.startsWith("-XX:Flags=") || option.startsWith("-XX:VMOptionsFile=") || option.startsWith("@");
  }

  /**
   * Whether C2 compiles Java code in a JVM started with these options (the last of each wins):
   * not with {@code -Xint}, {@code -XX:-UseCompiler}, a JVMCI compiler, or tiers stopped below 4.
   */
  static boolean c2(List<String> options) {
    boolean compiler = true;
    boolean tiered = true;
    long stopAtLevel = 4;
    for (String o : options) {
      if (o.equals("-Xint") || o.equals("-XX:-UseCompiler") || o.equals("-XX:+UseJVMCICompiler")) {
        compiler = false;
      } else if (o.equals("-Xmixed") || o.equals("-XX:+UseCompiler") || o.equals("-XX:-UseJVMCICompiler")) {
        compiler = true;
      } else if (o.equals("-XX:-TieredCompilation") || o.equals("-XX:+TieredCompilation")) {
        tiered = o.charAt(4) == '+';
      } else if (o.startsWith("-XX:TieredStopAtLevel=")) {
        stopAtLevel = number(o);
      }
    }
    return compiler && (!tiered || stopAtLevel >= 4);
  }

  /** The value after '=', or -1 (which no rule accepts) if it is no plain number. */
  static long number(String option) {
    try {
      return Long.parseLong(option.substring(option.indexOf('=') + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static void addWords(List<String> to, String value) {
    if (value != null) {
      split(to, value.replace('\t', ' ').replace('\n', ' '), ' ');
    }
  }

  /** The non-empty pieces between separators (no regular expression: class init stays cheap). */
  private static void split(List<String> to, String s, char separator) {
    int from = 0;
    for (int i = 0; i <= s.length(); i++) {
      if (i == s.length() || s.charAt(i) == separator) {
        if (i > from) {
          to.add(s.substring(from, i));
        }
        from = i + 1;
      }
    }
  }
}
