package io.github.blake3fast.cli;

import java.nio.charset.StandardCharsets;

/**
 * One line of a checkfile, parsed as b3sum 1.2.0 does: {@code <64 lowercase hex>  <name>}, with
 * a leading backslash meaning the name is escaped ({@code \\} and {@code \n} only). Beyond that
 * version, a line in the BSD form that {@code --tag} writes, {@code BLAKE3 (<name>) = <hex>},
 * is accepted too; any line that is not such a line gets exactly the 1.2.0 treatment.
 */
final class CheckLine {
  static final int HASH_LEN = 32;
  private static final int HEX_LEN = 2 * HASH_LEN;
  private static final int PREFIX_LEN = HEX_LEN + 2;
  private static final String TAG_START = "BLAKE3 (";
  private static final String TAG_SEP = ") = ";

  /** The name as the line spells it, with the leading backslash of an escaped line. */
  final String shownName;
  /** The path to open. */
  final String path;
  final byte[] expected;

  private CheckLine(String shownName, String path, byte[] expected) {
    this.shownName = shownName;
    this.path = path;
    this.expected = expected;
  }

  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  /** Parses a line (valid UTF-8, its final newline included or not). */
  static CheckLine parse(String line) throws Malformed {
    int end = line.length();
    while (end > 0 && line.charAt(end - 1) == '\n') {
      end--;
    }
    line = line.substring(0, end);
    if (line.isEmpty()) {
      throw new Malformed("Empty line");
    }
    boolean escaped = line.charAt(0) == '\\';
    if (escaped) {
      line = line.substring(1);
    }
    CheckLine tagged = parseTagged(line, escaped);
    if (tagged != null) {
      return tagged;
    }
    if (utf8Length(line) <= PREFIX_LEN) {
      throw new Malformed("Short line");
    }
    for (int i = 0; i < PREFIX_LEN; i++) {
      if (line.charAt(i) >= 0x80) {
        throw new Malformed("Non-ASCII prefix");
      }
    }
    if (line.charAt(HEX_LEN) != ' ' || line.charAt(HEX_LEN + 1) != ' ') {
      throw new Malformed("Invalid space");
    }
    byte[] hash = decodeHex(line, 0);
    if (hash == null) {
      throw new Malformed("Invalid hex");
    }
    return finish(line.substring(PREFIX_LEN), escaped, hash);
  }

  /** The BSD form, or null when the line is not entirely such a line. */
  private static CheckLine parseTagged(String line, boolean escaped) throws Malformed {
    if (!line.startsWith(TAG_START)) {
      return null;
    }
    int sep = line.lastIndexOf(TAG_SEP);
    if (sep < TAG_START.length() + 1 || line.length() != sep + TAG_SEP.length() + HEX_LEN) {
      return null;
    }
    byte[] hash = decodeHex(line, sep + TAG_SEP.length());
    if (hash == null) {
      return null;
    }
    return finish(line.substring(TAG_START.length(), sep), escaped, hash);
  }

  private static CheckLine finish(String name, boolean escaped, byte[] hash) throws Malformed {
    String path = escaped ? unescape(name) : name;
    if (path.indexOf('\0') >= 0) {
      throw new Malformed("Null character in path");
    }
    if (path.indexOf('\uFFFD') >= 0) {
      throw new Malformed("Unicode replacement character in path");
    }
    return new CheckLine(escaped ? "\\" + name : name, path, hash);
  }

  private static String unescape(String s) throws Malformed {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      if (i + 1 >= s.length()) {
        throw new Malformed("Invalid backslash escape");
      }
      char n = s.charAt(++i);
      if (n == 'n') {
        sb.append('\n');
      } else if (n == '\\') {
        sb.append('\\');
      } else {
        throw new Malformed("Invalid backslash escape");
      }
    }
    return sb.toString();
  }

  /** 64 lowercase hex digits from {@code from}, or null if any is not one. */
  private static byte[] decodeHex(String s, int from) {
    byte[] out = new byte[HASH_LEN];
    for (int i = 0; i < HASH_LEN; i++) {
      int hi = digit(s.charAt(from + 2 * i));
      int lo = digit(s.charAt(from + 2 * i + 1));
      if (hi < 0 || lo < 0) {
        return null;
      }
      out[i] = (byte) (hi << 4 | lo);
    }
    return out;
  }

  private static int digit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    return -1;
  }

  private static int utf8Length(String s) {
    int ascii = 0;
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) >= 0x80) {
        return s.getBytes(StandardCharsets.UTF_8).length;
      }
      ascii++;
    }
    return ascii;
  }
}
