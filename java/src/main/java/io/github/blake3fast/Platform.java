package io.github.blake3fast;

import java.util.Locale;

/**
 * The platforms the jar can carry a native library for, with what the loader needs to know of
 * each: the jar directory and file name it lives under, the {@code os.arch} names a JVM reports
 * for it, and the header fields a library built for it carries (ELF e_machine and byte order;
 * the Windows DLL is checked as PE instead). platforms/arch.sh is the one list the scripts read;
 * PlatformListTest keeps this enum, that list and platforms/*.conf in step.
 */
enum Platform {
  X86_64("linux", "x86_64", 62, true, "amd64", "x86_64"),
  AARCH64("linux", "aarch64", 183, true, "aarch64"),
  PPC64LE("linux", "ppc64le", 21, true, "ppc64le"),
  RISCV64("linux", "riscv64", 243, true, "riscv64"),
  LOONGARCH64("linux", "loongarch64", 258, true, "loongarch64"),
  S390X("linux", "s390x", 22, false, "s390x"),
  PPC64("linux", "ppc64", 21, false, "ppc64"),
  WINDOWS_X86_64("windows", "x86_64", 0, true, "amd64", "x86_64");

  /** The architecture as the build and the refusals name it. */
  final String arch;
  /** linux or windows. */
  final String os;
  /** The directory below META-INF/native/ that holds this platform's library: OS-ARCH. */
  final String dir;
  /** ELF e_machine of a library for this platform (0: not ELF). */
  final int elfMachine;
  /** ELF EI_DATA: little-endian (else big-endian). */
  final boolean littleEndian;
  /** The os.arch values (lower case) of a JVM on this platform. */
  private final String[] osArch;

  Platform(String os, String arch, int elfMachine, boolean littleEndian, String... osArch) {
    this.os = os;
    this.arch = arch;
    this.dir = os + "-" + arch;
    this.elfMachine = elfMachine;
    this.littleEndian = littleEndian;
    this.osArch = osArch;
  }

  /** Whether the library is a Windows DLL (PE) rather than an ELF shared object. */
  boolean windows() {
    return os.equals("windows");
  }

  /** The library's file name inside {@link #dir}: Windows DLLs carry no lib prefix. */
  String libraryName() {
    return windows() ? "blake3fast.dll" : "libblake3fast.so";
  }

  /** The name platforms/arch.sh gives it: the architecture on Linux, else OS-ARCH. */
  String listName() {
    return windows() ? dir : arch;
  }

  /** The platform of this JVM, or null where the jar has no library (macOS, another arch). */
  static Platform current() {
    return of(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
  }

  /** The platform of a JVM reporting these os.name and os.arch, or null. */
  static Platform of(String osName, String osArch) {
    String os = osName.toLowerCase(Locale.ROOT);
    String arch = osArch.toLowerCase(Locale.ROOT);
    if (os.startsWith("windows")) {
      return WINDOWS_X86_64.osArchIs(arch) ? WINDOWS_X86_64 : null;
    }
    if (!os.startsWith("linux")) {
      return null;
    }
    return forArch(arch);
  }

  /** The Linux platform whose JVMs report {@code arch} (lower case) as os.arch, or null. */
  static Platform forArch(String arch) {
    for (Platform p : values()) {
      if (!p.windows() && p.osArchIs(arch)) {
        return p;
      }
    }
    return null;
  }

  private boolean osArchIs(String arch) {
    for (String a : osArch) {
      if (a.equals(arch)) {
        return true;
      }
    }
    return false;
  }

  /** The os.arch values of this platform. */
  String[] osArch() {
    return osArch.clone();
  }
}
