package io.github.blake3fast;

import static io.github.blake3fast.Refusal.chosen;
import static io.github.blake3fast.Refusal.fatal;
import static io.github.blake3fast.Refusal.here;
import static io.github.blake3fast.Refusal.warn;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Owns everything between "the jar carries a native library" and "this kernel runs": reading
 * the switches, loading the library (a private copy when another class loader holds the shared
 * file), checking it against the Java engine's answers ({@link SelfTest}), and saying why the
 * Java engine runs when it does. The steps in between are their own small classes:
 * {@link BundledLibrary} finds the jar's library for this {@link Platform}, {@link ElfCheck}
 * refuses one that cannot be ours, {@link ExtractionDir} picks the private directory and reuses
 * the copy there or has {@link LibraryWriter} write it once per content, {@link DlopenErrors}
 * and {@link NoexecMounts} say why a load failed, and each step says no with a {@link Refusal}.
 * {@link #choose()} never throws: every failure becomes a reason, logged once. System.load is
 * called here alone: JDK 24 and later name this class in their native-access warning.
 *
 * <p>Locations, in order: {@code -Dblake3.native.dir} alone when it is set; otherwise
 * {@code ${java.io.tmpdir}/blake3-fast-<uid>}, then {@code ${XDG_CACHE_HOME:-~/.cache}/blake3-fast};
 * on Windows {@code %LOCALAPPDATA%\blake3-fast}, then {@code ${java.io.tmpdir}\blake3-fast-<user>},
 * checked by {@link WindowsTrust}, the DLL named {@code blake3fast-<id>.dll} and never replaced
 * while it may be loaded (a private copy for another class loader stays until a later start can
 * delete it: Windows cannot delete a loaded DLL).
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
  /** Read by the library's JNI_OnLoad: the binary name of the class to register natives on. */
  static final String PROP_JNI_CLASS = "blake3fast.jni.class";
  /** The System.Logger the choice is reported to (relocated along with the package when shaded). */
  static final String LOGGER = "io.github.blake3fast";

  /** What was chosen: a kernel, and a description for {@link Blake3#implementation()}. */
  static final class Choice {
    final Kernel kernel;
    final String description;

    Choice(Kernel kernel, String description) {
      this.kernel = kernel;
      this.description = description;
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

  static Choice choose() {
    return choose(false);
  }

  /**
   * As {@link #choose()}; with {@code corruptSelfTest} the self-test sees a wrong native result
   * (for the test that proves a mismatch is acted upon).
   */
  static Choice choose(boolean corruptSelfTest) {
    // File channels are interruptible: a pending interrupt would make extraction fail for good.
    boolean interrupted = Thread.interrupted();
    try {
      Route route = new Route();
      NativeKernel k = load(route, corruptSelfTest);
      if (!route.skipped.isEmpty()) {
        // Only a detour is worth a record: System.getLogger alone is a measurable share of
        // start-up (bench/notes/decisions.md). A location others could change is worth a
        // warning: someone may be trying to plant a library.
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

  /**
   * The Java engine (the Vector API one or the scalar one, {@link VectorChoice} says), with the
   * reason; logged at {@code level} unless that is null.
   */
  private static Choice javaBecause(Level level, String reason) {
    if (level != null) {
      log(level, "blake3-fast: using the Java engine: " + reason);
    }
    return VectorChoice.choose(reason);
  }

  static void log(Level level, String message) {
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

  private static NativeKernel load(Route route, boolean corruptSelfTest) throws Refusal {
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
    String mismatch = SelfTest.compare(kernel, corruptSelfTest);
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

  // ---- the library from the jar --------------------------------------------------------------

  private static Path loadBundled(String dirSetting, Route route) throws Refusal {
    BundledLibrary lib = BundledLibrary.find();
    String name = ExtractionDir.fileName(lib);
    for (Path dir : ExtractionDir.locations(dirSetting)) {
      try {
        return loadShared(ExtractionDir.extract(lib, dir, name), lib, List.of(dir), route);
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
   * Loads {@code file}. The JVM lets one class loader own a library file, and runs its JNI_OnLoad
   * once: when another class loader owns it, or when this loader loaded it already for another
   * copy of these classes (a relocated, shaded copy next to this one), this copy's natives stay
   * unbound. Then a private copy is written into the first of {@code copyDirs} that takes it,
   * loaded (its JNI_OnLoad binds this copy) and deleted at once: Linux keeps it mapped.
   */
  private static Path loadShared(Path file, BundledLibrary lib, List<Path> copyDirs, Route route) throws Refusal {
    UnsatisfiedLinkError e = systemLoad(file);
    if (e == null && bound()) {
      return file;
    }
    if (e != null && !String.valueOf(e.getMessage()).contains("already loaded in another classloader")) {
      String reason = DlopenErrors.explain(file, e);
      throw DlopenErrors.contentProblem(e) ? fatal(reason) : here(reason);
    }
    String owner = e != null ? "another class loader" : "another copy of these classes";
    List<Refusal> why = new ArrayList<>();
    for (Path dir : copyDirs) {
      Path copy = null;
      try {
        copy = ExtractionDir.privateCopy(dir, file.getFileName().toString(), lib);
        UnsatisfiedLinkError e2 = systemLoad(copy);
        if (e2 == null && bound()) {
          route.skipped.addAll(why);
          return copy;
        }
        why.add(here(e2 != null ? DlopenErrors.explain(copy, e2) : copy + " loaded but bound nothing"));
      } catch (Refusal r) {
        if (!r.elsewhere) {
          throw r;
        }
        why.add(r);
      } catch (IOException x) {
        why.add(here(LibraryWriter.writeFailure(x, dir)));
      } catch (RuntimeException x) {
        why.add(here("cannot write " + dir + " (" + x + ")"));
      } finally {
        LibraryWriter.deleteQuietly(copy);
      }
    }
    List<String> reasons = new ArrayList<>();
    for (Refusal r : why) {
      reasons.add(r.getMessage());
    }
    throw here(file + " is loaded by " + owner + " and no private copy loaded: " + String.join("; ", reasons));
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
      real = HostOs.current().windows ? chosenOnWindows(file) : ExtractionDir.trusted().chosenFile(file);
      lib = ExtractionDir.readAtMost(real, MAX_LIBRARY_BYTES);
    } catch (TrustedPaths.Untrusted e) {
      throw fatal(what + ": " + e.getMessage());
    } catch (IOException | RuntimeException e) {
      throw fatal(what + ": cannot read it (" + e + ")");
    }
    if (lib == null) {
      throw fatal(what + ": larger than " + (MAX_LIBRARY_BYTES >> 20) + " MiB, not a library of ours");
    }
    BundledLibrary chosen = BundledLibrary.inMemory(lib, what);
    try {
      return loadShared(real, chosen, ExtractionDir.locations(dirSetting), route);
    } catch (Refusal r) {
      throw fatal(what + ": " + r.getMessage());
    }
  }

  /**
   * A library the user named, on Windows: a regular file, taken as chosen. Owners and ACLs are
   * not checked there (WindowsTrust checks the directories the loader picks itself): the user
   * named this file, and Windows gives no mode bits to tell a shared place by.
   */
  private static Path chosenOnWindows(Path file) throws IOException, TrustedPaths.Untrusted {
    Path real = file.toRealPath();
    if (!Files.isRegularFile(real, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      throw new TrustedPaths.Untrusted("is not a regular file");
    }
    return real;
  }

  /** Far above any build of the library (a few hundred KiB), far below what would hurt a heap. */
  static final int MAX_LIBRARY_BYTES = 16 << 20;

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
}
