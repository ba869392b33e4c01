package io.github.blake3fast;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ISA names in the order of the one list the native code is generated from, the X-macro
 * BLAKE3_ISAS in native/src/blake3_impl.h, read from the source so that a test compares the
 * Java side with it instead of with a third copy.
 */
public final class NativeIsaList {

  private static final Pattern ENTRY = Pattern.compile("^\\s*X\\(\\s*(\\w+)\\s*,\\s*(\\w+)\\s*,");

  private NativeIsaList() {}

  /** The names, "portable" first, as -Dblake3.isa spells them. */
  public static List<String> names() {
    Path header = Paths.get(System.getProperty("blake3.native.src", "../native/src"), "blake3_impl.h");
    List<String> lines;
    try {
      lines = Files.readAllLines(header, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + header, e);
    }
    List<String> names = new ArrayList<>();
    boolean inList = false;
    for (String line : lines) {
      if (line.startsWith("#define BLAKE3_ISAS(X)")) {
        inList = true;
        continue;
      }
      if (!inList) {
        continue;
      }
      Matcher m = ENTRY.matcher(line);
      if (!m.find()) {
        throw new IllegalStateException(header + ": not an X(ID, name, ...) entry: " + line);
      }
      names.add(m.group(2));
      if (!line.trim().endsWith("\\")) {
        break;
      }
    }
    if (names.isEmpty()) {
      throw new IllegalStateException(header + ": no BLAKE3_ISAS list");
    }
    return names;
  }
}
