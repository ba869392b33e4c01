package io.github.blake3fast;

import java.util.Locale;

/**
 * The platforms the jar can carry a native library for, with what the loader needs to know of
 * each: the jar directory it lives in, the {@code os.arch} names a JVM reports for it, and the
 * ELF header fields a library built for it carries. platforms/arch.sh is the one list the
 * scripts read; PlatformListTest keeps this enum, that list and platforms/*.conf in step.
 */
enum Platform {
  X86_64("x86_64", 62, true, "amd64", "x86_64"),
  AARCH64("aarch64", 183, true, "aarch64"),
  PPC64LE("ppc64le", 21, true, "ppc64le"),
  RISCV64("riscv64", 243, true, "riscv64"),
  LOONGARCH64("loongarch64", 258, true, "loongarch64"),
  S390X("s390x", 22, false, "s390x");

  /** The architecture as the build and the refusals name it. */
  final String arch;
  /** The directory below META-INF/native/ that holds this platform's library: linux-ARCH. */
  final String dir;
  /** ELF e_machine of a library for this platform. */
  final int elfMachine;
  /** ELF EI_DATA: little-endian (else big-endian). */
  final boolean littleEndian;
  /** The os.arch values (lower case) of a JVM on this platform. */
  private final String[] osArch;

  Platform(String arch, int elfMachine, boolean littleEndian, String... osArch) {
    this.arch = arch;
    this.dir = "linux-" + arch;
    this.elfMachine = elfMachine;
    this.littleEndian = littleEndian;
    this.osArch = osArch;
  }

  /** The platform of this JVM, or null where the jar has no library (not Linux, another arch). */
  static Platform current() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return null;
    }
    return forArch(System.getProperty("os.arch", "").toLowerCase(Locale.ROOT));
  }

  /** The platform whose JVMs report {@code arch} (lower case) as os.arch, or null. */
  static Platform forArch(String arch) {
    for (Platform p : values()) {
      for (String a : p.osArch) {
        if (a.equals(arch)) {
          return p;
        }
      }
    }
    return null;
  }

  /** The os.arch values of this platform. */
  String[] osArch() {
    return osArch.clone();
  }
}
