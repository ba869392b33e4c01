package io.github.blake3fast;

import static io.github.blake3fast.Refusal.chosen;
import static io.github.blake3fast.Refusal.fatal;
import static io.github.blake3fast.Refusal.warn;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;

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
}
