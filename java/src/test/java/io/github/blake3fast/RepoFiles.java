package io.github.blake3fast;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The checkout's own files, for tests that compare the Java side with C sources and scripts. */
final class RepoFiles {
  private RepoFiles() {}

  /** The checkout's root: the parent of test-vectors/ as surefire names it, else of java/. */
  static Path root() {
    String vectors = System.getProperty("blake3.vectors.dir");
    Path base = vectors != null ? Paths.get(vectors).getParent()
        : Paths.get(System.getProperty("basedir", System.getProperty("user.dir"))).getParent();
    return base.toAbsolutePath().normalize();
  }

  /** A file of the checkout, as UTF-8 text. */
  static String read(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }
}
