package io.github.blake3fast.cli;

/**
 * File names in output lines, as b3sum 1.2.0 writes them: a name holding a backslash or a
 * newline gets {@code \\} and {@code \n} in their place, and its line starts with a backslash.
 * Other characters (a carriage return too, in this version) stay as they are.
 */
final class Names {
  private Names() {}

  static boolean needsEscape(String name) {
    return name.indexOf('\\') >= 0 || name.indexOf('\n') >= 0;
  }

  static String escape(String name) {
    if (!needsEscape(name)) {
      return name;
    }
    StringBuilder sb = new StringBuilder(name.length() + 8);
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '\\') {
        sb.append("\\\\");
      } else if (c == '\n') {
        sb.append("\\n");
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
