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
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** The library the jar carries for this JVM's platform, checked before anything runs it. */
final class BundledLibrary {
  private BundledLibrary() {}

  static byte[] read() throws Refusal {
    Platform here = Platform.current();
    if (here == null) {
      throw chosen("no native library for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
    }
    String platform = here.dir;
    String resource = "META-INF/native/" + platform + "/libblake3fast.so";
    byte[] lib = readResource(resource);
    if (lib == null) {
      throw warn("the jar has no native library for " + platform);
    }
    ElfCheck.checkElf(lib, resource);
    ElfCheck.checkOurs(lib, resource);
    return lib;
  }

  /**
   * The resource from the jar this class came from (so a stale copy of the library elsewhere on
   * the class path is never picked up), else from the class loader; null if there is none.
   */
  private static byte[] readResource(String resource) throws Refusal {
    try {
      byte[] direct = fromOwnJarFile(resource);
      if (direct != null) {
        return direct;
      }
      URL self = BundledLibrary.class.getResource("BundledLibrary.class");
      String cls = BundledLibrary.class.getName().replace('.', '/') + ".class";
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
      try (InputStream in = BundledLibrary.class.getResourceAsStream("/" + resource)) {
        return in == null ? null : in.readAllBytes();
      }
    } catch (IOException | RuntimeException e) {
      throw fatal("cannot read " + resource + " from the jar: " + e);
    }
  }

  /**
   * The entry read straight from the jar file this class was loaded from, or null when this
   * class did not come from a jar file on disk or the jar lacks the entry (the URL route above
   * then decides). A ZipFile of the same file shares the class loader's open one and loads no
   * class, where the first jar: URL loads the URL protocol handlers: milliseconds of a start
   * (bench/results/startup.md).
   */
  private static byte[] fromOwnJarFile(String resource) throws IOException {
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
      if (entry == null || entry.isDirectory()) {
        return null;
      }
      try (InputStream in = zip.getInputStream(entry)) {
        return in.readAllBytes();
      }
    }
  }
}
