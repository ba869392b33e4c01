package io.github.blake3fast;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.URL;
import java.net.URLConnection;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;

/**
 * Owns everything between "the jar carries a native library" and "this kernel runs": reading
 * the switches, checking the library's ELF header, extracting it once per content into a
 * private directory, loading it (a private copy when another class loader holds the shared
 * file), checking it against the Java engine's answers ({@link SelfTest}), and saying why the
 * Java engine runs when it does.
 * {@link #choose()} never throws: every failure becomes a reason, logged once.
 *
 * <p>Locations, in order: {@code -Dblake3.native.dir} alone when it is set; otherwise
 * {@code ${java.io.tmpdir}/blake3-fast-<uid>}, then {@code ${XDG_CACHE_HOME:-~/.cache}/blake3-fast}.
 * A location is skipped when it sits on a noexec mount, cannot be written, or its copy of the
 * library does not load; and, with a warning, when anyone but root and this user could change it
 * or a directory above it ({@link TrustedPaths} says why that closes the check-then-load race).
 */
final class NativeLoader {
  private NativeLoader() {}

  static final String PROP_NATIVE = "blake3.native";
  static final String PROP_ISA = "blake3.isa";
  static final String PROP_PATH = "blake3.native.path";
  static final String PROP_DIR = "blake3.native.dir";
  /** Test-only: makes the self-test see a wrong native result, to prove it is acted upon. */
  static final String PROP_CORRUPT_FOR_TEST = "blake3.test.corruptNative";
  /** Read by the library's JNI_OnLoad: the binary name of the class to register natives on. */
  static final String PROP_JNI_CLASS = "blake3fast.jni.class";
  /** The System.Logger the choice is reported to (relocated along with the package when shaded). */
  static final String LOGGER = "io.github.blake3fast";

  private static final String LIB_PREFIX = "libblake3fast-";
  /** A temporary file this old is left over from a crashed JVM: no writer takes that long. */
  private static final long STALE_TEMP_MILLIS = 10 * 60 * 1000L;

  /** What was chosen: a kernel, and a description for {@link Blake3#implementation()}. */
  static final class Choice {
    final Kernel kernel;
    final String description;

    Choice(Kernel kernel, String description) {
      this.kernel = kernel;
      this.description = description;
    }
  }

  /**
   * Why native code does not run. {@code elsewhere}: another location might still work;
   * {@code refused}: native code was wanted and failed (said as "native refused: ...").
   */
  private static final class Refusal extends Exception {
    private static final long serialVersionUID = 1L;
    final Level level;
    final boolean elsewhere;
    final boolean refused;
    /** Someone else could change the location: said as a warning even when another one works. */
    final boolean unsafe;

    Refusal(Level level, boolean elsewhere, boolean refused, boolean unsafe, String reason) {
      super(reason, null, false, false);
      this.level = level;
      this.elsewhere = elsewhere;
      this.refused = refused;
      this.unsafe = unsafe;
    }
  }

  /** Where the library came from, and the locations refused on the way. */
  private static final class Route {
    String file;
    final List<Refusal> skipped = new ArrayList<>();

    boolean anyUnsafe() {
      for (Refusal r : skipped) {
        if (r.unsafe) {
          return true;
        }
      }
      return false;
    }

    String reasons() {
      List<String> why = new ArrayList<>();
      for (Refusal r : skipped) {
        why.add(r.getMessage());
      }
      return String.join("; ", why);
    }
  }

  /** A failure tied to one location: the next location may do better. */
  private static Refusal here(String reason) {
    return new Refusal(Level.WARNING, true, true, false, reason);
  }

  /** A location others could change between our check and the load: the next may do better. */
  private static Refusal unsafe(String reason) {
    return new Refusal(Level.WARNING, true, true, true, reason);
  }

  /** A failure no other location can fix: the Java engine runs. */
  private static Refusal fatal(String reason) {
    return new Refusal(Level.WARNING, false, true, false, reason);
  }

  /** Said as it is (a bad switch value, a jar without the library), logged as a warning. */
  private static Refusal warn(String reason) {
    return new Refusal(Level.WARNING, false, false, false, reason);
  }

  /** Not a failure: the user or the platform chose the Java engine. */
  private static Refusal chosen(String reason) {
    return new Refusal(Level.DEBUG, false, false, false, reason);
  }

  static Choice choose() {
    // File channels are interruptible: a pending interrupt would make extraction fail for good.
    boolean interrupted = Thread.interrupted();
    try {
      Route route = new Route();
      NativeKernel k = load(route);
      if (!route.skipped.isEmpty()) {
        // Only a detour is worth a record: System.getLogger alone costs ~30 ms of start-up. A
        // location others could change is worth a warning: someone may be trying to plant a library.
        log(route.anyUnsafe() ? Level.WARNING : Level.DEBUG, "blake3-fast: using " + k.name() + " from " + route.file
            + " (skipped: " + route.reasons() + ")");
      }
      return new Choice(k, k.name());
    } catch (Refusal r) {
      return javaBecause(r.level, (r.refused ? "native refused: " : "") + r.getMessage());
    } catch (Throwable t) { // whatever native code or the environment throws, class init must not
      return javaBecause(Level.WARNING, "native refused: " + t);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static Choice javaBecause(Level level, String reason) {
    String description = "java (" + reason + ")";
    log(level, "blake3-fast: using the Java engine: " + reason);
    return new Choice(JavaKernel.INSTANCE, description);
  }

  private static void log(Level level, String message) {
    try {
      System.getLogger(LOGGER).log(level, message);
    } catch (Throwable ignored) { // a broken logging setup must not stop hashing
    }
  }

  // ---- switches ------------------------------------------------------------------------------

  /** The trimmed value of a switch, null when unset; an empty value is an error. */
  private static String setting(String name) throws Refusal {
    String v = System.getProperty(name);
    if (v == null) {
      return null;
    }
    if (v.trim().isEmpty()) {
      throw warn("bad -D" + name + "= (empty)");
    }
    return v.trim();
  }

  private static NativeKernel load(Route route) throws Refusal {
    String enabled = setting(PROP_NATIVE);
    if (enabled != null) {
      switch (enabled.toLowerCase(Locale.ROOT)) {
        case "true":
          break;
        case "false":
          throw chosen("native disabled by -D" + PROP_NATIVE + "=false");
        default:
          throw warn("bad -D" + PROP_NATIVE + "=" + enabled + ": use true or false");
      }
    }
    int cap = -1;
    String isa = setting(PROP_ISA);
    if (isa != null) {
      isa = isa.toLowerCase(Locale.ROOT);
      if (isa.equals("java")) {
        throw chosen("native disabled by -D" + PROP_ISA + "=java");
      }
      cap = NativeBlake3.isaNumber(isa);
      if (cap < 0) {
        throw warn("bad -D" + PROP_ISA + "=" + isa + ": use one of java, " + String.join(", ", NativeBlake3.ISA_NAMES));
      }
    }
    String explicit = setting(PROP_PATH);
    String dir = setting(PROP_DIR);

    Path file = explicit != null ? loadExplicit(explicit, dir, route) : loadBundled(dir, route);
    route.file = file.toString();

    int abi;
    try {
      abi = NativeBlake3.abiVersion();
    } catch (LinkageError e) {
      throw fatal(file + " registered no natives for " + NativeBlake3.class.getName() + " (" + e + ")");
    }
    if (abi != NativeBlake3.ABI_VERSION) {
      throw fatal(file + " speaks ABI " + abi + ", this jar " + NativeBlake3.ABI_VERSION);
    }
    int chosen = NativeBlake3.selectIsa(cap);
    if (chosen < 0 || chosen >= NativeBlake3.ISA_NAMES.length) {
      throw warn("-D" + PROP_ISA + "=" + isa + " cannot run on this CPU, which runs " + supported());
    }
    NativeKernel kernel = new NativeKernel(chosen);
    String mismatch = SelfTest.compare(kernel, Boolean.getBoolean(PROP_CORRUPT_FOR_TEST));
    if (mismatch != null) {
      throw fatal(kernel.name() + " failed its self-test against the Java engine (" + mismatch + ")");
    }
    return kernel;
  }

  private static String supported() {
    int bits = NativeBlake3.supportedIsas();
    List<String> names = new ArrayList<>();
    for (int i = 0; i < NativeBlake3.ISA_NAMES.length; i++) {
      if ((bits & (1 << i)) != 0) {
        names.add(NativeBlake3.ISA_NAMES[i]);
      }
    }
    return String.join(", ", names);
  }

  // ---- platforms -----------------------------------------------------------------------------

  /** linux-x86_64 and friends, or null where the jar has no library. */
  static String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (!os.startsWith("linux")) {
      return null;
    }
    switch (System.getProperty("os.arch", "").toLowerCase(Locale.ROOT)) {
      case "amd64":
      case "x86_64":
        return "linux-x86_64";
      case "aarch64":
        return "linux-aarch64";
      case "ppc64le":
        return "linux-ppc64le";
      case "riscv64":
        return "linux-riscv64";
      case "loongarch64":
        return "linux-loongarch64";
      case "s390x":
        return "linux-s390x";
      default:
        return null;
    }
  }

  /** The ELF e_machine a library for this JVM must carry, or -1 when this JVM's arch is unknown. */
  private static int expectedMachine() {
    String p = platform();
    if (p == null) {
      return -1;
    }
    switch (p) {
      case "linux-x86_64":
        return 62;
      case "linux-aarch64":
        return 183;
      case "linux-ppc64le":
        return 21;
      case "linux-riscv64":
        return 243;
      case "linux-loongarch64":
        return 258;
      default: // linux-s390x
        return 22;
    }
  }

  private static String machineName(int machine, boolean is64, boolean little) {
    String name;
    switch (machine) {
      case 3:
        name = "i386";
        break;
      case 8:
        name = "mips";
        break;
      case 20:
        name = "ppc";
        break;
      case 21:
        name = little ? "ppc64le" : "ppc64 (big-endian)";
        break;
      case 22:
        name = "s390x";
        break;
      case 40:
        name = "arm";
        break;
      case 62:
        name = "x86_64";
        break;
      case 183:
        name = "aarch64";
        break;
      case 243:
        name = "riscv64";
        break;
      case 258:
        name = "loongarch64";
        break;
      default:
        name = "ELF machine " + machine;
    }
    return is64 ? name : name + " (32-bit)";
  }

  /**
   * Refuses what dlopen would refuse, with a clearer reason: not ELF, not a shared object, built
   * for another architecture, or shorter than its own headers say (a truncated copy).
   */
  private static void checkElf(byte[] lib, String what) throws Refusal {
    if (lib.length < 64 || lib[0] != 0x7f || lib[1] != 'E' || lib[2] != 'L' || lib[3] != 'F') {
      throw fatal(what + " is not an ELF file (" + lib.length + " bytes)");
    }
    boolean is64 = lib[4] == 2;
    boolean little = lib[5] == 1;
    int machine = u16(lib, 18, little);
    int expected = expectedMachine();
    if (expected >= 0 && (machine != expected || !is64 || little != (expected != 22))) {
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

  // ---- the library from the jar --------------------------------------------------------------

  private static Path loadBundled(String dirSetting, Route route) throws Refusal {
    String platform = platform();
    if (platform == null) {
      throw chosen("no native library for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
    }
    String resource = "META-INF/native/" + platform + "/libblake3fast.so";
    byte[] lib = readResource(resource);
    if (lib == null) {
      throw warn("the jar has no native library for " + platform);
    }
    checkElf(lib, resource);
    checkOurs(lib, resource);
    String name = LIB_PREFIX + contentId(lib) + ".so";
    for (Path dir : locations(dirSetting)) {
      try {
        return extractAndLoad(lib, dir, name, route);
      } catch (Refusal r) {
        if (!r.elsewhere) {
          throw r;
        }
        route.skipped.add(r);
      }
    }
    if (route.skipped.isEmpty()) {
      throw fatal("no directory to extract the library to (no java.io.tmpdir, no home): set -D" + PROP_DIR);
    }
    throw fatal(route.reasons());
  }

  /**
   * The resource from the jar this class came from (so a stale copy of the library elsewhere on
   * the class path is never picked up), else from the class loader; null if there is none.
   */
  private static byte[] readResource(String resource) throws Refusal {
    try {
      URL self = NativeLoader.class.getResource("NativeLoader.class");
      String cls = NativeLoader.class.getName().replace('.', '/') + ".class";
      if (self != null && self.toString().endsWith(cls)) {
        String s = self.toString();
        URLConnection c = new URL(s.substring(0, s.length() - cls.length()) + resource).openConnection();
        c.setUseCaches(false); // do not keep the jar open
        try (InputStream in = c.getInputStream()) {
          return in.readAllBytes();
        } catch (IOException absent) {
          // not in this jar: ask the class loader below
        }
      }
      try (InputStream in = NativeLoader.class.getResourceAsStream("/" + resource)) {
        return in == null ? null : in.readAllBytes();
      }
    } catch (IOException | RuntimeException e) {
      throw fatal("cannot read " + resource + " from the jar: " + e);
    }
  }

  /** Where the library may be extracted, in order. */
  private static List<Path> locations(String dirSetting) throws Refusal {
    List<Path> dirs = new ArrayList<>();
    if (dirSetting != null) {
      try {
        dirs.add(Paths.get(dirSetting).toAbsolutePath().normalize());
      } catch (InvalidPathException e) {
        throw warn("bad -D" + PROP_DIR + "=" + dirSetting + ": " + e.getMessage());
      }
      return dirs;
    }
    int uid = ownUid();
    String who = uid >= 0 ? Integer.toString(uid)
        : System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
    String tmp = System.getProperty("java.io.tmpdir");
    addDir(dirs, tmp, "blake3-fast-" + who);
    String xdg = System.getenv("XDG_CACHE_HOME");
    if (xdg != null && xdg.startsWith("/")) {
      addDir(dirs, xdg, "blake3-fast");
    } else {
      String home = System.getProperty("user.home");
      if (home != null && home.startsWith("/")) {
        addDir(dirs, home, ".cache/blake3-fast");
      }
    }
    return dirs;
  }

  private static void addDir(List<Path> dirs, String base, String child) {
    if (base == null || base.isEmpty()) {
      return;
    }
    try {
      Path p = Paths.get(base).resolve(child).toAbsolutePath().normalize();
      if (!dirs.contains(p)) {
        dirs.add(p);
      }
    } catch (InvalidPathException ignored) {
      // an unusable base directory is no location
    }
  }

  /**
   * The library at dir/name (written first unless it is there, ours, with the same content),
   * loaded. Everything goes through the directory's real path, checked once by prepareDir.
   */
  private static Path extractAndLoad(byte[] lib, Path dir, String name, Route route) throws Refusal {
    Path real;
    Path file;
    try {
      real = prepareDir(dir);
      file = real.resolve(name);
      if (!sameContent(file, lib)) { // absent, truncated, corrupt or not ours: (re)write it whole
        sweep(real);
        Path tmp = writeTemp(real, name, lib);
        try {
          try {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
          } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
          }
        } finally {
          Files.deleteIfExists(tmp);
        }
      }
    } catch (IOException e) {
      throw here(writeFailure(e, dir));
    } catch (RuntimeException e) { // SecurityException, UnsupportedOperationException, ...
      throw here("cannot write " + dir + " (" + e + ")");
    }
    return loadShared(file, lib, List.of(dir), route);
  }

  /**
   * Loads {@code file}. The JVM lets one class loader own a library file, and runs its JNI_OnLoad
   * once: when another class loader owns it, or when this loader loaded it already for another
   * copy of these classes (a relocated, shaded copy next to this one), this copy's natives stay
   * unbound. Then a private copy is written into the first of {@code copyDirs} that takes it,
   * loaded (its JNI_OnLoad binds this copy) and deleted at once: Linux keeps it mapped.
   */
  private static Path loadShared(Path file, byte[] lib, List<Path> copyDirs, Route route) throws Refusal {
    UnsatisfiedLinkError e = systemLoad(file);
    if (e == null && bound()) {
      return file;
    }
    if (e != null && !String.valueOf(e.getMessage()).contains("already loaded in another classloader")) {
      String reason = explain(file, e);
      throw contentProblem(e) ? fatal(reason) : here(reason);
    }
    String owner = e != null ? "another class loader" : "another copy of these classes";
    List<Refusal> why = new ArrayList<>();
    for (Path dir : copyDirs) {
      Path copy = null;
      try {
        copy = writeTemp(prepareDir(dir), file.getFileName().toString(), lib);
        UnsatisfiedLinkError e2 = systemLoad(copy);
        if (e2 == null && bound()) {
          route.skipped.addAll(why);
          return copy;
        }
        why.add(here(e2 != null ? explain(copy, e2) : copy + " loaded but bound nothing"));
      } catch (Refusal r) {
        if (!r.elsewhere) {
          throw r;
        }
        why.add(r);
      } catch (IOException x) {
        why.add(here(writeFailure(x, dir)));
      } catch (RuntimeException x) {
        why.add(here("cannot write " + dir + " (" + x + ")"));
      } finally {
        deleteQuietly(copy);
      }
    }
    List<String> reasons = new ArrayList<>();
    for (Refusal r : why) {
      reasons.add(r.getMessage());
    }
    throw here(file + " is loaded by " + owner + " and no private copy loaded: " + String.join("; ", reasons));
  }

  /**
   * Whether dlopen refused the library itself (its C library needs, its ELF header), which no
   * other location changes; anything else (noexec, permissions, policy) may be the location's.
   */
  private static boolean contentProblem(UnsatisfiedLinkError e) {
    String m = String.valueOf(e.getMessage());
    return m.contains("GLIBC_") || m.contains("symbol not found") || m.contains("undefined symbol")
        || m.contains("wrong ELF class") || m.contains("invalid ELF header") || m.contains("file too short")
        || m.contains("unsupported JNI version");
  }

  /** Whether this copy of NativeBlake3 has its natives registered. */
  private static boolean bound() {
    try {
      NativeBlake3.abiVersion();
      return true;
    } catch (UnsatisfiedLinkError e) {
      return false;
    }
  }

  // ---- an explicit library -------------------------------------------------------------------

  /**
   * The named file, loaded as it is: nothing is extracted, except a private copy (deleted once
   * loaded) when another class loader or copy of these classes holds the file already. It is
   * read only when it is a regular file in a place only its owners can change, and at most
   * {@link #MAX_LIBRARY_BYTES}; a library that is not ours is refused before it can run.
   */
  private static Path loadExplicit(String value, String dirSetting, Route route) throws Refusal {
    String what = "-D" + PROP_PATH + "=" + value;
    Path file;
    try {
      file = Paths.get(value).toAbsolutePath().normalize();
    } catch (InvalidPathException e) {
      throw warn("bad " + what + ": " + e.getMessage());
    }
    if (!Files.exists(file)) {
      throw fatal(what + ": no such file");
    }
    if (Files.isDirectory(file)) {
      throw fatal(what + ": is a directory, not the library file");
    }
    Path real;
    byte[] lib;
    try {
      real = trusted().chosenFile(file);
      lib = readAtMost(real, MAX_LIBRARY_BYTES);
    } catch (TrustedPaths.Untrusted e) {
      throw fatal(what + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw fatal(what + ": cannot read it (" + e + ")");
    }
    if (lib == null) {
      throw fatal(what + ": larger than " + (MAX_LIBRARY_BYTES >> 20) + " MiB, not a library of ours");
    }
    checkElf(lib, what);
    checkOurs(lib, what);
    try {
      return loadShared(real, lib, locations(dirSetting), route);
    } catch (Refusal r) {
      throw fatal(what + ": " + r.getMessage());
    }
  }

  /** Far above any build of the library (a few hundred KiB), far below what would hurt a heap. */
  static final int MAX_LIBRARY_BYTES = 16 << 20;

  /** The file's bytes, or null when it holds more than {@code max}; never follows a link. */
  private static byte[] readAtMost(Path file, int max) throws IOException {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      byte[] b = in.readNBytes(max + 1);
      return b.length > max ? null : b;
    }
  }

  /**
   * Refuses an ELF library that is not a build of ours before anything runs it: every build
   * carries the name of the property its JNI_OnLoad reads ({@link #PROP_JNI_CLASS}); without it
   * the library would load, bind nothing, and look like one held by another copy of these classes.
   */
  private static void checkOurs(byte[] lib, String what) throws Refusal {
    byte[] mark = PROP_JNI_CLASS.getBytes(StandardCharsets.US_ASCII);
    outer:
    for (int i = 0; i + mark.length <= lib.length; i++) {
      for (int j = 0; j < mark.length; j++) {
        if (lib[i + j] != mark[j]) {
          continue outer;
        }
      }
      return;
    }
    throw fatal(what + " is not a blake3-fast library (it lacks the " + PROP_JNI_CLASS + " handshake of our JNI_OnLoad)");
  }

  // ---- loading -------------------------------------------------------------------------------

  /**
   * System.load with the JNI class-name handshake: the library's JNI_OnLoad reads the property
   * to find the (possibly relocated) class to register on. Every copy of this class, in any
   * class loader or package, locks the same object, so two loads never see each other's name.
   * Returns the UnsatisfiedLinkError instead of throwing it.
   */
  private static UnsatisfiedLinkError systemLoad(Path file) throws Refusal {
    synchronized (System.getProperties()) {
      String previous = System.getProperty(PROP_JNI_CLASS);
      System.setProperty(PROP_JNI_CLASS, NativeBlake3.class.getName());
      try {
        System.load(file.toAbsolutePath().toString());
        return null;
      } catch (UnsatisfiedLinkError e) {
        return e;
      } catch (IllegalCallerException e) { // JDK 24+ with --illegal-native-access=deny
        Module m = NativeLoader.class.getModule();
        String who = m.isNamed() ? m.getName() : "ALL-UNNAMED";
        throw fatal("native access denied (" + e.getMessage() + "): allow it with --enable-native-access=" + who);
      } catch (SecurityException e) {
        throw fatal("a security manager refused System.load (" + e.getMessage() + ")");
      } finally {
        if (previous == null) {
          System.clearProperty(PROP_JNI_CLASS);
        } else {
          System.setProperty(PROP_JNI_CLASS, previous);
        }
      }
    }
  }

  /** dlopen's complaint in a few words, without the JDK repeating the path twice. */
  private static String explain(Path file, UnsatisfiedLinkError e) {
    String msg = String.valueOf(e.getMessage());
    String p = file.toAbsolutePath().toString() + ": ";
    int at = msg.lastIndexOf(p);
    if (at >= 0) {
      msg = msg.substring(at + p.length());
    }
    String mount = noexecMount(file.getParent());
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

  // ---- files ---------------------------------------------------------------------------------

  /**
   * The real path of the directory, created (rwxr-xr-x) when missing, to be used for every later
   * step; refused when someone other than root and this user could change it or a directory
   * above it (see {@link TrustedPaths}), or when it is not a directory.
   */
  private static Path prepareDir(Path dir) throws IOException, Refusal {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw here("not a directory " + dir);
    }
    try {
      return trusted().privateDirectory(dir);
    } catch (TrustedPaths.Untrusted e) {
      throw unsafe("unsafe " + dir + " (" + e.getMessage() + ")");
    }
  }

  private static TrustedPaths trusted() {
    return new TrustedPaths(ownUid());
  }

  /** The effective uid of this process (owner of /proc/self), or -1 if unknown. */
  private static int ownUid() {
    try {
      return (Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Whether file is ours (see {@link TrustedPaths#ownFile}) and holds exactly lib. */
  private static boolean sameContent(Path file, byte[] lib) {
    try {
      return trusted().ownFile(file) && Files.size(file) == lib.length
          && Arrays.equals(readAtMost(file, lib.length), lib);
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** A new file dir/name.NNN.tmp holding lib, on disk (fsync) before it is renamed or loaded. */
  private static Path writeTemp(Path dir, String name, byte[] lib) throws IOException {
    Path tmp = Files.createTempFile(dir, name + ".", ".tmp");
    boolean ok = false;
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer b = ByteBuffer.wrap(lib);
        while (b.hasRemaining()) {
          ch.write(b);
        }
        ch.force(true);
      }
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      ok = true;
      return tmp;
    } finally {
      if (!ok) {
        deleteQuietly(tmp);
      }
    }
  }

  /** Removes temporary files a crashed JVM left behind. */
  private static void sweep(Path dir) {
    long old = System.currentTimeMillis() - STALE_TEMP_MILLIS;
    try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, LIB_PREFIX + "*.tmp")) {
      for (Path p : s) {
        try {
          if (Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toMillis() < old) {
            Files.deleteIfExists(p);
          }
        } catch (IOException | RuntimeException ignored) {
          // another JVM swept it first, or it is not ours to remove
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // sweeping is a courtesy
    }
  }

  private static void deleteQuietly(Path p) {
    if (p == null) {
      return;
    }
    try {
      Files.deleteIfExists(p);
    } catch (IOException | RuntimeException e) {
      p.toFile().deleteOnExit();
    }
  }

  private static String writeFailure(IOException e, Path dir) {
    String reason = e instanceof FileSystemException ? ((FileSystemException) e).getReason() : e.getMessage();
    if (reason != null && reason.contains("Read-only file system")) {
      return "read-only " + dir;
    }
    if (reason != null && reason.contains("No space left")) {
      return "disk full " + dir;
    }
    if (e instanceof AccessDeniedException) {
      return "not writable " + dir;
    }
    return "cannot write " + dir + " (" + e + ")";
  }

  // ---- mounts --------------------------------------------------------------------------------

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

  /**
   * 16 hex digits that tell library builds apart: CRC-32C and CRC-32 of the bytes. Both are
   * intrinsics, so this costs well under a millisecond where a cold SHA-256 costs tens (it would
   * pull in the JCA providers). The name only separates versions: the whole content is compared
   * byte for byte before a file is used, and the directory is writable by its owner alone.
   */
  static String contentId(byte[] lib) {
    CRC32C c = new CRC32C();
    c.update(lib, 0, lib.length);
    CRC32 d = new CRC32();
    d.update(lib, 0, lib.length);
    return Long.toHexString(1L << 32 | c.getValue()).substring(1) + Long.toHexString(1L << 32 | d.getValue()).substring(1);
  }
}
