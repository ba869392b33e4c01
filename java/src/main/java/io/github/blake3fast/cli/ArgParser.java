package io.github.blake3fast.cli;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Parses b3sum's command line the way the official b3sum 1.2.0 does (it uses the clap 2 parser),
 * down to the text of its usage errors:
 *
 * <ul>
 *   <li>long options take {@code --name value} or {@code --name=value}; flags ignore {@code =...};
 *   <li>short flags combine ({@code -cl5}); a short option takes the rest of its word, without a
 *       leading {@code =}, or the next word;
 *   <li>a value may not start with {@code -} (except {@code -} itself): such a word is parsed as
 *       an argument and the option is left without a value;
 *   <li>{@code --} ends the options; {@code -h}/{@code -V} act as soon as they are read;
 *   <li>after the words are read: a missing final value, conflicts, missing requirements,
 *       repeated arguments, then values missing in the middle, in that order.
 * </ul>
 */
final class ArgParser {
  private ArgParser() {}

  /** Parsing ended the run: help or version (status 0, stdout) or a usage error (1, stderr). */
  static final class Exit extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;
    final String text;

    Exit(int status, String text) {
      super(null, null, false, false);
      this.status = status;
      this.text = text;
    }
  }

  /** Arguments that {@code --check} refuses, in the order the conflict is reported. */
  private static final CliArg[] CHECK_CONFLICTS = {
    CliArg.KEYED, CliArg.DERIVE_KEY, CliArg.LENGTH, CliArg.RAW, CliArg.NO_NAMES, CliArg.TAG
  };

  // HashMaps, not EnumMaps: from JDK 18 an EnumMap reads the enum's constants by reflection,
  // which spins classes at a JVM's start (bench/notes/startup.md).
  private final Map<CliArg, Integer> count = new HashMap<>();
  private final Set<CliArg> used = new LinkedHashSet<>();
  private final Map<CliArg, String> values = new HashMap<>();
  /** The index of the argument each value was read from: its end is the value. */
  private final Map<CliArg, Integer> valueWord = new HashMap<>();
  /** The index of the argument being read. */
  private int wordIndex = -1;
  private final List<String> files = new ArrayList<>();
  /** The first option that was followed by another argument instead of its value. */
  private CliArg valueMissing;

  static Options parse(String[] args) throws Exit {
    return new ArgParser().run(args);
  }

  private Options run(String[] args) throws Exit {
    CliArg pending = null;
    boolean positionalOnly = false;
    for (String word : args) {
      wordIndex++;
      if (positionalOnly) {
        files.add(word);
        continue;
      }
      if (pending != null) {
        if (!word.startsWith("-") || word.equals("-")) {
          value(pending, word);
          pending = null;
          continue;
        }
        if (valueMissing == null) {
          valueMissing = pending;
        }
        pending = null;
      }
      if (word.equals("--")) {
        positionalOnly = true;
      } else if (word.startsWith("--")) {
        pending = parseLong(word.substring(2));
      } else if (word.startsWith("-") && word.length() > 1) {
        pending = parseShorts(word);
      } else {
        files.add(word);
      }
    }
    if (pending != null) {
      throw error("The argument '" + pending.display() + "' requires a value but none was supplied", null);
    }
    validate();
    return options();
  }

  /** Reads {@code --name[=value]}; returns the option still waiting for its value, if any. */
  private CliArg parseLong(String body) throws Exit {
    int eq = body.indexOf('=');
    String name = eq < 0 ? body : body.substring(0, eq);
    CliArg arg = CliArg.byLong(name);
    if (arg == null) {
      CliArg suggestion = Suggest.closestLong(name);
      throw unknown("--" + name, suggestion);
    }
    occur(arg);
    if (!arg.takesValue()) {
      return null;
    }
    if (eq >= 0) {
      value(arg, attached(body.substring(eq + 1)));
      return null;
    }
    return arg;
  }

  private void value(CliArg arg, String value) {
    values.put(arg, value);
    valueWord.put(arg, wordIndex);
  }

  /**
   * A value given in the same word as its option, after '=': b3sum 1.2.0's parser (clap 2)
   * drops every '=' it starts with, so {@code --derive-key==ab} and {@code -l==8} mean "ab" and
   * "8". A value in a word of its own keeps them ({@code --derive-key =ab} means "=ab").
   */
  private static String attached(String value) {
    int i = 0;
    while (i < value.length() && value.charAt(i) == '=') {
      i++;
    }
    return value.substring(i);
  }

  /** Reads a word of short flags; returns the option still waiting for its value, if any. */
  private CliArg parseShorts(String word) throws Exit {
    int i = 1;
    while (i < word.length()) {
      int c = word.codePointAt(i);
      int next = i + Character.charCount(c);
      CliArg arg = c < 0x10000 ? CliArg.byShort((char) c) : null;
      if (arg == null) {
        throw unknown("-" + new String(Character.toChars(c)), null);
      }
      occur(arg);
      if (arg.takesValue()) {
        String rest = word.substring(next);
        if (rest.isEmpty()) {
          return arg;
        }
        value(arg, attached(rest));
        return null;
      }
      i = next;
    }
    return null;
  }

  private void occur(CliArg arg) throws Exit {
    if (arg == CliArg.HELP) {
      throw new Exit(0, Help.help());
    }
    if (arg == CliArg.VERSION) {
      throw new Exit(0, Help.version());
    }
    Integer n = count.get(arg);
    count.put(arg, n == null ? 1 : n + 1);
    used.add(arg);
  }

  private void validate() throws Exit {
    if (used.contains(CliArg.CHECK)) {
      for (CliArg a : CHECK_CONFLICTS) {
        if (used.contains(a)) {
          throw error("The argument '" + a.display() + "' cannot be used with '--check'", null);
        }
      }
    }
    if (used.contains(CliArg.KEYED) && used.contains(CliArg.DERIVE_KEY)) {
      throw error("The argument '--keyed' cannot be used with '" + CliArg.DERIVE_KEY.display() + "'", null);
    }
    for (CliArg a : used) {
      if (a == CliArg.KEYED && files.isEmpty()) {
        throw missing("<FILE>...");
      }
      if (a == CliArg.QUIET && !used.contains(CliArg.CHECK)) {
        throw missing("--check");
      }
    }
    for (CliArg a : used) {
      if (count.get(a) > 1) {
        throw error("The argument '" + a.display() + "' was provided more than once, but cannot be used multiple times", null);
      }
    }
    if (valueMissing != null) {
      throw error("The argument '" + valueMissing.display() + "' requires a value but none was supplied", null);
    }
  }

  private Options options() {
    Options o = new Options();
    o.check = used.contains(CliArg.CHECK);
    o.quiet = used.contains(CliArg.QUIET);
    o.keyed = used.contains(CliArg.KEYED);
    o.raw = used.contains(CliArg.RAW);
    o.noNames = used.contains(CliArg.NO_NAMES);
    o.noMmap = used.contains(CliArg.NO_MMAP);
    o.tag = used.contains(CliArg.TAG);
    o.length = valueOf(CliArg.LENGTH);
    o.seek = valueOf(CliArg.SEEK);
    o.numThreads = valueOf(CliArg.NUM_THREADS);
    o.deriveKey = valueOf(CliArg.DERIVE_KEY);
    o.deriveKeyWord = o.deriveKey == null ? -1 : valueWord.get(CliArg.DERIVE_KEY);
    o.files = files.isEmpty() ? List.of("-") : files;
    return o;
  }

  /** The option's value, or null when absent (an option present without a value cannot get here). */
  private String valueOf(CliArg a) {
    return used.contains(a) ? values.get(a) : null;
  }

  private Exit unknown(String shown, CliArg suggestion) {
    String msg = "Found argument '" + shown + "' which wasn't expected, or isn't valid in this context";
    if (suggestion != null) {
      msg += "\n\tDid you mean \u001b[32m--\u001b[0m\u001b[32m" + suggestion.id + "\u001b[0m?";
    }
    return error(msg, suggestion);
  }

  private Exit missing(String what) {
    return error("The following required arguments were not provided:\n    " + what, null);
  }

  private Exit error(String message, CliArg extra) {
    return new Exit(1, "error: " + message + "\n\nUSAGE:\n    " + usage(extra) + "\n\nFor more information try --help\n");
  }

  /**
   * The usage line of an error: the arguments used so far, those they require and the suggested
   * one, sorted by name, after {@code <FILE>...} when a file is required; the general usage when
   * there are none.
   */
  private String usage(CliArg extra) {
    TreeSet<String> names = new TreeSet<>();
    Set<CliArg> shown = new LinkedHashSet<>(used);
    if (extra != null) {
      shown.add(extra);
    }
    boolean fileRequired = false;
    for (CliArg a : shown) {
      names.add(a.id);
      if (a == CliArg.QUIET) {
        names.add(CliArg.CHECK.id);
      }
      fileRequired |= a == CliArg.KEYED;
    }
    if (names.isEmpty()) {
      return "b3sum [FLAGS] [OPTIONS] [FILE]...";
    }
    StringBuilder sb = new StringBuilder("b3sum");
    if (fileRequired) {
      sb.append(" <FILE>...");
    }
    for (String id : names) {
      sb.append(' ').append(CliArg.byLong(id).display());
    }
    return sb.toString();
  }
}
