package io.github.blake3fast.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * The bao command line parsed, as docopt reads the official tool's usage ({@link Bao#USAGE}):
 * the command, its positional arguments and the {@code --outboard}, {@code --start} and
 * {@code --count} options, each as {@code --name=value} or {@code --name value}, anywhere
 * before a {@code --}.
 */
final class BaoArgs {
  String command;
  final List<String> positional = new ArrayList<>();
  String outboard;
  Long start;
  Long count;

  /** Null when the words do not fit the usage. */
  static BaoArgs parse(String[] words) throws Fatal {
    BaoArgs a = new BaoArgs();
    boolean dashes = false;
    for (int i = 0; i < words.length; i++) {
      String w = words[i];
      if (!dashes && w.equals("--")) {
        dashes = true;
      } else if (!dashes && w.startsWith("--") && w.length() > 2) {
        String name = w.contains("=") ? w.substring(0, w.indexOf('=')) : w;
        String value = w.contains("=") ? w.substring(w.indexOf('=') + 1) : null;
        if (name.equals("--help") || name.equals("--version")) {
          if (words.length != 1) {
            return null;
          }
          a.command = name;
          return a;
        }
        if (!name.equals("--outboard") && !name.equals("--start") && !name.equals("--count")) {
          return null;
        }
        if (value == null) {
          if (i + 1 >= words.length) {
            return null;
          }
          value = words[++i];
        }
        switch (name) {
          case "--outboard": a.outboard = value; break;
          case "--start": a.start = number(value); break;
          default: a.count = number(value); break;
        }
      } else if (a.command == null) {
        a.command = w;
      } else {
        a.positional.add(w);
      }
    }
    return a.fits() ? a : null;
  }

  private boolean fits() {
    if (command == null) {
      return false;
    }
    int n = positional.size();
    boolean noDecodeFlags = start == null && count == null;
    switch (command) {
      case "hash": return outboard == null && noDecodeFlags;
      case "encode": return noDecodeFlags && (outboard == null ? n == 2 : n == 1);
      case "decode": return n >= 1 && n <= 3;
      case "slice": return noDecodeFlags && n >= 2 && n <= 4;
      case "decode-slice": return outboard == null && noDecodeFlags && n >= 3 && n <= 5;
      default: return false;
    }
  }

  /** An unsigned decimal count or offset, capped at {@link Long#MAX_VALUE}, as the official tool reads one. */
  static long number(String s) throws Fatal {
    try {
      return Long.parseUnsignedLong(s) < 0 ? Long.MAX_VALUE : Long.parseUnsignedLong(s);
    } catch (NumberFormatException e) {
      throw new Fatal("invalid number: " + s);
    }
  }

  /** Positional argument {@code i}, or null if there are fewer. */
  String at(int i) {
    return i < positional.size() ? positional.get(i) : null;
  }
}
