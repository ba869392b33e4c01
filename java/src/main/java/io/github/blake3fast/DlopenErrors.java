package io.github.blake3fast;

import java.nio.file.Path;

/** What dlopen's complaints mean: for the reason logged, and whether another location could help. */
final class DlopenErrors {
  private DlopenErrors() {}

  /**
   * Whether dlopen refused the library itself (its C library needs, its ELF header), which no
   * other location changes; anything else (noexec, permissions, policy) may be the location's.
   */
  static boolean contentProblem(UnsatisfiedLinkError e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("GLIBC_") || m.contains("symbol not found") || m.contains("undefined symbol")
        || m.contains("wrong ELF class") || m.contains("invalid ELF header") || m.contains("file too short")
        || m.contains("unsupported JNI version");
  }

  /** dlopen's complaint in a few words, without the JDK repeating the path twice. */
  static String explain(Path file, UnsatisfiedLinkError e) {
    String msg = String.valueOf(e.getMessage());
    String p = file.toAbsolutePath().toString() + ": ";
    int at = msg.lastIndexOf(p);
    if (at >= 0) {
      msg = msg.substring(at + p.length());
    }
    String mount = NoexecMounts.noexecMount(file.getParent());
    if (mount != null) {
      return "noexec " + mount;
    }
    if (msg.contains("failed to map segment")) {
      return "cannot map " + file + " for execution, noexec? (" + msg + ")";
    }
    if (msg.contains("unsupported JNI version")) {
      return "JNI_OnLoad in " + file + " found no class " + NativeBlake3.class.getName()
          + " with the expected native methods";
    }
    if (msg.contains("GLIBC_")) {
      return file + " needs a newer C library (" + msg + ")";
    }
    return "cannot load " + file + " (" + msg + ")";
  }
}
