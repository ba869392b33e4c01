package io.github.blake3fast;

import static io.github.blake3fast.Refusal.chosen;
import static io.github.blake3fast.Refusal.fatal;
import static io.github.blake3fast.Refusal.warn;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.security.CodeSource;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The library the jar carries for this JVM's platform, known by its size and CRC-32 and checked
 * before anything runs it. When the jar is a file on disk, the size and CRC-32 come from the
 * jar's directory and the library itself is inflated only if it has to be written out: a start
 * that finds its extracted copy already there reads that copy alone, once (bench/notes/startup.md).
 */
final class BundledLibrary {
  /** What a refusal names: the jar resource, or the file the user chose. */
  final String what;
  final int size;
  final long crc;
  /** The jar to inflate the library from when it is needed, or null once it is in {@link #bytes}. */
  private final File jar;
  private byte[] bytes;

  private BundledLibrary(String what, int size, long crc, File jar, byte[] bytes) {
    this.what = what;
    this.size = size;
    this.crc = crc;
    this.jar = jar;
    this.bytes = bytes;
  }

  /** The jar's library for this platform; its bytes are read by {@link #bytes()}. */
  static BundledLibrary find() throws Refusal {
    Platform here = Platform.current();
    if (here == null) {
      throw chosen("no native library for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
    }
    String platform = here.dir;
    String resource = "META-INF/native/" + platform + "/" + here.libraryName();
    try {
      BundledLibrary inJar = fromOwnJarFile(resource);
      if (inJar != null) {
        return inJar;
      }
      byte[] lib = readResource(resource);
      if (lib == null) {
        throw warn("the jar has no native library for " + platform);
      }
      return inMemory(lib, resource);
    } catch (IOException | RuntimeException e) {
      throw fatal("cannot read " + resource + " from the jar: " + e);
    }
  }

  /** Tests of the extraction rules: these bytes as the library, unchecked. */
  static BundledLibrary forTest(byte[] lib) {
    return new BundledLibrary("test library", lib.length, crcOf(lib), null, lib);
  }

  /** A library already read (one the user named), checked as the jar's would be. */
  static BundledLibrary inMemory(byte[] lib, String what) throws Refusal {
    BundledLibrary b = new BundledLibrary(what, lib.length, crcOf(lib), null, lib);
    b.check(lib);
    return b;
  }

  /**
   * The library's bytes, checked: ELF for this platform, ours, and (inflated from the jar) of the
   * size and CRC-32 the jar's directory gave, so that what is written out is what the name says.
   */
  byte[] bytes() throws Refusal {
    if (bytes == null) {
      byte[] lib;
      try (ZipFile zip = new ZipFile(jar)) {
        ZipEntry entry = zip.getEntry(what);
        if (entry == null) {
          throw fatal(what + " vanished from " + jar);
        }
        try (InputStream in = zip.getInputStream(entry)) {
          lib = in.readNBytes(size + 1);
        }
      } catch (IOException | RuntimeException e) {
        throw fatal("cannot read " + what + " from the jar: " + e);
      }
      if (!sameAs(lib)) {
        throw fatal(what + " in " + jar + " does not match the jar's directory (size or CRC-32): a damaged jar");
      }
      check(lib);
      bytes = lib;
    }
    return bytes;
  }

  /** Whether {@code data} is this library: the same size and CRC-32. */
  boolean sameAs(byte[] data) {
    return data != null && data.length == size && crcOf(data) == crc;
  }

  /** Refuses bytes that are not a library of ours for this platform (ELF, or PE on Windows). */
  void check(byte[] lib) throws Refusal {
    Platform here = Platform.current();
    if (here != null && here.windows()) {
      ElfCheck.checkPe(lib, what);
    } else {
      ElfCheck.checkElf(lib, what);
    }
    ElfCheck.checkOurs(lib, what);
  }

  private static long crcOf(byte[] data) {
    CRC32 c = new CRC32();
    c.update(data, 0, data.length);
    return c.getValue();
  }

  /**
   * The entry's size and CRC-32 from the jar file this class was loaded from, or null when this
   * class did not come from a jar file on disk, the jar lacks the entry, or its directory does
   * not give both (the URL route below then decides). A ZipFile of the same file shares the
   * class loader's open one and loads no class, where the first jar: URL loads the URL protocol
   * handlers: milliseconds of a start (bench/notes/startup.md).
   */
  private static BundledLibrary fromOwnJarFile(String resource) throws IOException, Refusal {
    File jar;
    try {
      CodeSource source = BundledLibrary.class.getProtectionDomain().getCodeSource();
      URL where = source == null ? null : source.getLocation();
      if (where == null || !"file".equals(where.getProtocol()) || !where.getPath().endsWith(".jar")) {
        return null;
      }
      jar = new File(where.toURI());
    } catch (SecurityException | URISyntaxException | IllegalArgumentException e) {
      return null;
    }
    if (!jar.isFile()) {
      return null;
    }
    try (ZipFile zip = new ZipFile(jar)) {
      ZipEntry entry = zip.getEntry(resource);
      if (entry == null || entry.isDirectory() || entry.getSize() < 0 || entry.getCrc() < 0) {
        return null;
      }
      if (entry.getSize() > NativeLoader.MAX_LIBRARY_BYTES) {
        throw fatal(resource + " in " + jar + " says it holds " + entry.getSize() + " bytes: not a library of ours");
      }
      return new BundledLibrary(resource, (int) entry.getSize(), entry.getCrc(), jar, null);
    }
  }

  /**
   * The resource from the jar this class came from through its URL (so a stale copy of the
   * library elsewhere on the class path is never picked up), else from the class loader; null if
   * there is none.
   */
  private static byte[] readResource(String resource) throws IOException {
    URL self = BundledLibrary.class.getResource("BundledLibrary.class");
    String cls = BundledLibrary.class.getName().replace('.', '/') + ".class";
    if (self != null && self.toString().endsWith(cls)) {
      String s = self.toString();
      URLConnection c = new URL(s.substring(0, s.length() - cls.length()) + resource).openConnection();
      c.setUseCaches(false); // do not keep the jar open
      try (InputStream in = c.getInputStream()) {
        return readAtMost(in);
      } catch (IOException absent) {
        // not in this jar: ask the class loader below
      }
    }
    try (InputStream in = BundledLibrary.class.getResourceAsStream("/" + resource)) {
      return in == null ? null : readAtMost(in);
    }
  }

  private static byte[] readAtMost(InputStream in) throws IOException {
    byte[] b = ExtractionDir.readAtMost(in, NativeLoader.MAX_LIBRARY_BYTES);
    if (b == null) {
      throw new IOException("more than " + (NativeLoader.MAX_LIBRARY_BYTES >> 20) + " MiB: not a library of ours");
    }
    return b;
  }
}
