package io.github.blake3fast;

import static io.github.blake3fast.Refusal.fatal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Refuses, before anything runs it, a library file that dlopen would refuse or that is not a
 * build of ours, with a clearer reason than dlopen gives.
 */
final class ElfCheck {
  private ElfCheck() {}

  /**
   * Refuses what dlopen would refuse, with a clearer reason: not ELF, not a shared object, built
   * for another architecture, or shorter than its own headers say (a truncated copy).
   */
  static void checkElf(byte[] lib, String what) throws Refusal {
    if (lib.length < 64 || lib[0] != 0x7f || lib[1] != 'E' || lib[2] != 'L' || lib[3] != 'F') {
      throw fatal(what + " is not an ELF file (" + lib.length + " bytes)");
    }
    boolean is64 = lib[4] == 2;
    boolean little = lib[5] == 1;
    int machine = u16(lib, 18, little);
    Platform expected = Platform.current();
    if (expected != null && (machine != expected.elfMachine || !is64 || little != expected.littleEndian)) {
      throw fatal(what + " is built for " + machineName(machine, is64, little) + ", this JVM runs "
          + System.getProperty("os.arch"));
    }
    int type = u16(lib, 16, little);
    if (type != 3) {
      throw fatal(what + " is not a shared library (ELF type " + type + ")");
    }
    if (!is64) {
      return;
    }
    long phoff = u64(lib, 32, little);
    long shoff = u64(lib, 40, little);
    int phentsize = u16(lib, 54, little);
    int phnum = u16(lib, 56, little);
    int shentsize = u16(lib, 58, little);
    int shnum = u16(lib, 60, little);
    long need = phoff + (long) phnum * phentsize;
    if (shoff != 0) {
      need = Math.max(need, shoff + (long) shnum * shentsize);
    }
    for (int i = 0; i < phnum && phentsize >= 56; i++) {
      long ph = phoff + (long) i * phentsize;
      if (ph < 0 || ph + 56 > lib.length) {
        break;
      }
      if (u32(lib, (int) ph, little) == 1) { // PT_LOAD
        need = Math.max(need, u64(lib, (int) ph + 8, little) + u64(lib, (int) ph + 32, little));
      }
    }
    if (need < 0 || need > lib.length) {
      throw fatal(what + " is truncated (" + lib.length + " bytes, its ELF headers need " + need + ")");
    }
  }

  /**
   * The Windows counterpart of {@link #checkElf}: refuses what LoadLibrary would refuse, with a
   * clearer reason than its error code: not a PE image, not x86-64, not a DLL, not PE32+, or
   * shorter than its section table says (a truncated copy).
   */
  static void checkPe(byte[] lib, String what) throws Refusal {
    if (lib.length < 64 || lib[0] != 'M' || lib[1] != 'Z') {
      throw fatal(what + " is not a Windows DLL (" + lib.length + " bytes, no MZ header)");
    }
    long pe = u32(lib, 0x3c, true);
    if (pe < 64 || pe + 24 + 2 > lib.length || lib[(int) pe] != 'P' || lib[(int) pe + 1] != 'E'
        || lib[(int) pe + 2] != 0 || lib[(int) pe + 3] != 0) {
      throw fatal(what + " is not a Windows DLL (no PE header)");
    }
    int at = (int) pe;
    int machine = u16(lib, at + 4, true);
    if (machine != 0x8664) {
      throw fatal(what + " is built for " + peMachineName(machine) + ", this JVM runs " + System.getProperty("os.arch"));
    }
    int sections = u16(lib, at + 6, true);
    int optional = u16(lib, at + 20, true);
    if ((u16(lib, at + 22, true) & 0x2000) == 0) {
      throw fatal(what + " is not a DLL (an executable)");
    }
    if (u16(lib, at + 24, true) != 0x20b) {
      throw fatal(what + " is not a 64-bit (PE32+) DLL");
    }
    long need = (long) at + 24 + optional + 40L * sections;
    for (int i = 0; i < sections; i++) {
      long sh = (long) at + 24 + optional + 40L * i;
      if (sh + 40 > lib.length) {
        break;
      }
      need = Math.max(need, u32(lib, (int) sh + 20, true) + u32(lib, (int) sh + 16, true));
    }
    if (need > lib.length) {
      throw fatal(what + " is truncated (" + lib.length + " bytes, its PE headers need " + need + ")");
    }
  }

  private static String peMachineName(int machine) {
    switch (machine) {
      case 0x14c:
        return "x86 (32-bit)";
      case 0xaa64:
        return "arm64";
      default:
        return "PE machine 0x" + Integer.toHexString(machine);
    }
  }

  private static int u16(byte[] b, int i, boolean little) {
    return little ? (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 : (b[i] & 0xff) << 8 | (b[i + 1] & 0xff);
  }

  private static long u32(byte[] b, int i, boolean little) {
    return little ? (u16(b, i, true) | (long) u16(b, i + 2, true) << 16)
        : ((long) u16(b, i, false) << 16 | u16(b, i + 2, false));
  }

  private static long u64(byte[] b, int i, boolean little) {
    return little ? (u32(b, i, true) | u32(b, i + 4, true) << 32) : (u32(b, i, false) << 32 | u32(b, i + 4, false));
  }

  /** The architecture a library's ELF header names, as a refusal says it. */
  private static String machineName(int machine, boolean is64, boolean little) {
    String name = machine == 21 && !little ? "ppc64 (big-endian)" : otherMachine(machine);
    for (Platform p : Platform.values()) {
      if (p.elfMachine == machine && name == null) {
        name = p.arch;
      }
    }
    if (name == null) {
      name = "ELF machine " + machine;
    }
    return is64 ? name : name + " (32-bit)";
  }

  /** Machines no platform of ours runs, that a wrong build is likely to be made for. */
  private static String otherMachine(int machine) {
    switch (machine) {
      case 3:
        return "i386";
      case 8:
        return "mips";
      case 20:
        return "ppc";
      case 40:
        return "arm";
      default:
        return null;
    }
  }

  /**
   * Refuses an ELF library that is not a build of ours before anything runs it: every build
   * carries the name of the property its JNI_OnLoad reads ({@link NativeLoader#PROP_JNI_CLASS});
   * without it the library would load, bind nothing, and look like one held by another copy of
   * these classes.
   */
  static void checkOurs(byte[] lib, String what) throws Refusal {
    if (contains(lib, NativeLoader.PROP_JNI_CLASS.getBytes(StandardCharsets.US_ASCII))) {
      return;
    }
    throw fatal(what + " is not a blake3-fast library (it lacks the " + NativeLoader.PROP_JNI_CLASS + " handshake of our JNI_OnLoad)");
  }

  /**
   * Whether {@code mark} occurs in {@code b}. Boyer-Moore-Horspool: the loader runs this once
   * per start over the whole library, in the interpreter, where a byte-by-byte scan cost
   * milliseconds; skipping up to the mark's length at a time looks at a small part of it.
   */
  static boolean contains(byte[] b, byte[] mark) {
    int m = mark.length;
    int[] shift = new int[256];
    Arrays.fill(shift, m);
    for (int i = 0; i < m - 1; i++) {
      shift[mark[i] & 0xff] = m - 1 - i;
    }
    for (int at = 0; at + m <= b.length; at += shift[b[at + m - 1] & 0xff]) {
      int j = m - 1;
      while (j >= 0 && b[at + j] == mark[j]) {
        j--;
      }
      if (j < 0) {
        return true;
      }
    }
    return false;
  }
}
