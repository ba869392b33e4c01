package io.github.blake3fast;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;

/**
 * Whether a directory sits on a noexec mount, where dlopen cannot map a library: read from
 * /proc/self/mountinfo, so that a refusal can say so instead of dlopen's "failed to map segment".
 */
final class NoexecMounts {
  private NoexecMounts() {}

  /** The mount point holding dir (or its nearest existing parent) if it is mounted noexec. */
  static String noexecMount(Path dir) {
    try {
      Path p = dir.toAbsolutePath();
      while (p != null && !Files.exists(p)) {
        p = p.getParent();
      }
      if (p == null) {
        return null;
      }
      String real = p.toRealPath().toString();
      String best = null;
      boolean noexec = false;
      for (String line : Files.readAllLines(Paths.get("/proc/self/mountinfo"), StandardCharsets.UTF_8)) {
        String[] f = line.split(" ");
        if (f.length < 6) {
          continue;
        }
        String mount = unescapeMount(f[4]);
        boolean inside = real.equals(mount) || real.startsWith(mount.endsWith("/") ? mount : mount + "/");
        // ">=": a later entry for the same point is a mount on top of the earlier one
        if (inside && (best == null || mount.length() >= best.length())) {
          best = mount;
          noexec = Arrays.asList(f[5].split(",")).contains("noexec");
        }
      }
      return noexec ? best : null;
    } catch (IOException | RuntimeException e) {
      return null; // no /proc: dlopen's own error will tell
    }
  }

  /** mountinfo writes space, tab, newline and backslash as \ooo. */
  private static String unescapeMount(String s) {
    if (s.indexOf('\\') < 0) {
      return s;
    }
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && isOctal(s, i + 1)) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static boolean isOctal(String s, int i) {
    for (int j = i; j < i + 3; j++) {
      if (j >= s.length() || s.charAt(j) < '0' || s.charAt(j) > '7') {
        return false;
      }
    }
    return true;
  }
}
