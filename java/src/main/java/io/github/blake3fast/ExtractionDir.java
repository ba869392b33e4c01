package io.github.blake3fast;

import static io.github.blake3fast.Refusal.here;
import static io.github.blake3fast.Refusal.unsafe;
import static io.github.blake3fast.Refusal.warn;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The directories the library is extracted to: which ones, in order ({@link #locations}); each
 * made private to this user and checked ({@link TrustedPaths}); the file named by its content,
 * reused when it has the same size and CRC-32, else written ({@link LibraryWriter}); and the
 * private copies written when another class loader holds the file.
 */
final class ExtractionDir {
  private ExtractionDir() {}

  /** How the extracted library's name starts; its temporary files' names too. */
  static final String LIB_PREFIX = "libblake3fast-";
  /** The same on Windows, where libraries carry no lib prefix. */
  static final String DLL_PREFIX = "blake3fast-";

  /** How this OS's extracted libraries' names start. */
  static String prefix() {
    return HostOs.current().windows ? DLL_PREFIX : LIB_PREFIX;
  }

  /** The name of the extracted library: one per content, so that versions never meet. */
  static String fileName(BundledLibrary lib) {
    return prefix() + contentId(lib.crc, lib.size) + (HostOs.current().windows ? ".dll" : ".so");
  }

  /**
   * A loaded DLL can be neither replaced nor deleted while any process has it loaded: when the
   * file of that name is not ours and cannot be replaced, the library goes to the next of
   * these names instead (Windows only), and a file of any of them is reused if it holds it.
   */
  private static final int WINDOWS_NAMES = 4;

  private static String alternateName(String name, int i) {
    if (i == 0) {
      return name;
    }
    int dot = name.lastIndexOf('.');
    return name.substring(0, dot) + "-" + i + name.substring(dot);
  }

  /** Where the library may be extracted, in order. */
  static List<Path> locations(String dirSetting) throws Refusal {
    List<Path> dirs = new ArrayList<>();
    if (dirSetting != null) {
      try {
        dirs.add(Paths.get(dirSetting).toAbsolutePath().normalize());
      } catch (InvalidPathException e) {
        throw warn("bad -D" + NativeLoader.PROP_DIR + "=" + dirSetting + ": " + e.getMessage());
      }
      return dirs;
    }
    HostOs os = HostOs.current();
    if (os.windows) {
      // The per-user local (not roaming) application data, then the temporary directory, which
      // on Windows is itself in the profile (%LOCALAPPDATA%\Temp) unless set otherwise.
      String local = os.getenv("LOCALAPPDATA");
      if (local != null && isAbsolute(local)) {
        addDir(dirs, local, "blake3-fast");
      }
      String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
      addDir(dirs, System.getProperty("java.io.tmpdir"), "blake3-fast-" + user);
      return dirs;
    }
    int uid = Uid.OWN;
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

  private static boolean isAbsolute(String path) {
    try {
      return Paths.get(path).isAbsolute();
    } catch (InvalidPathException e) {
      return false;
    }
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
   * The library at dir/name, written first unless it is there, ours, with the same content.
   * Everything goes through the directory's real path, checked once by prepareDir; the file's
   * path below it is returned, to be loaded. A copy found there is used when it has the jar
   * library's size and CRC-32: the bytes it was written from passed {@link BundledLibrary#bytes()}'s
   * checks (ELF for this platform, ours), and a start that reuses it need not inflate them again.
   */
  static Path extract(BundledLibrary lib, Path dir, String name) throws Refusal {
    try {
      Path real = prepareDir(dir);
      int names = HostOs.current().windows ? WINDOWS_NAMES : 1;
      for (int i = 0;; i++) {
        Path file = real.resolve(alternateName(name, i));
        if (sameContent(file, lib)) {
          return file;
        }
        try { // absent, truncated, corrupt or not ours: (re)write it whole
          LibraryWriter.install(real, file.getFileName().toString(), lib.bytes());
          return file;
        } catch (FileSystemException e) {
          if (i + 1 >= names) {
            throw e;
          }
          // Windows: a DLL some process has loaded cannot be replaced; never rewrite it in
          // place either (that process maps it): the next name.
        }
      }
    } catch (IOException e) {
      throw here(LibraryWriter.writeFailure(e, dir));
    } catch (RuntimeException e) { // SecurityException, UnsupportedOperationException, ...
      throw here("cannot write " + dir + " (" + e + ")");
    }
  }

  /**
   * A new private copy of the library in dir, for one System.load by a class loader that cannot
   * share the file: the caller deletes it once loaded.
   */
  static Path privateCopy(Path dir, String name, BundledLibrary lib) throws IOException, Refusal {
    return LibraryWriter.writeTemp(prepareDir(dir), name, lib.bytes());
  }

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
      HostOs os = HostOs.current();
      return os.windows ? new WindowsTrust(os).privateDirectory(dir) : trusted().privateDirectory(dir);
    } catch (TrustedPaths.Untrusted e) {
      throw unsafe("unsafe " + dir + " (" + e.getMessage() + ")");
    }
  }

  static TrustedPaths trusted() {
    return new TrustedPaths(Uid.OWN);
  }

  /** Read once: the JVM never changes its uid, and reading it is a lookup of /proc/self. */
  private static final class Uid {
    static final int OWN = ownUid();
  }

  /** The effective uid of this process (owner of /proc/self), or -1 if unknown. */
  private static int ownUid() {
    try {
      return (Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * Whether file is ours (see {@link TrustedPaths#ownFile}) and holds lib (its size and
   * CRC-32). Read through FileInputStream, which follows a link, where
   * {@link #readAtMost} does not: here that is no gap, since the directory is one only root and
   * this user can change (prepareDir) and ownFile saw a regular file in it, and System.load
   * opens it by name again anyway. The channel readAtMost needs would load some thirty NIO
   * classes at every start (bench/notes/startup.md).
   */
  private static boolean sameContent(Path file, BundledLibrary lib) {
    try {
      HostOs os = HostOs.current();
      if (os.windows ? !new WindowsTrust(os).ownFile(file) : !trusted().ownFile(file)) {
        return false;
      }
      try (InputStream in = new FileInputStream(file.toFile())) {
        return lib.sameAs(in.readNBytes(lib.size + 1));
      }
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** The file's bytes, or null when it holds more than {@code max}; never follows a link. */
  static byte[] readAtMost(Path file, int max) throws IOException {
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      return readAtMost(in, max);
    }
  }

  /** What is left of {@code in}, or null when that is more than {@code max} bytes. */
  static byte[] readAtMost(InputStream in, int max) throws IOException {
    byte[] b = in.readNBytes(max + 1);
    return b.length > max ? null : b;
  }

  /**
   * 16 hex digits that tell library builds apart: the CRC-32 and the size, both of which the
   * jar's directory gives without inflating the library. A cryptographic digest would need the
   * bytes and, cold, the JCA providers (bench/notes/decisions.md, bench/notes/startup.md).
   * The name separates versions; it is no defence and needs none: a file found under it is used
   * only when its own size and CRC-32 are the jar's, in a directory only root and this user can
   * change, so the one way to a wrong file with the right name is an accident, which a CRC-32
   * catches.
   */
  static String contentId(long crc, int size) {
    return Long.toHexString(1L << 32 | crc).substring(1) + Long.toHexString(1L << 32 | size).substring(1);
  }
}
