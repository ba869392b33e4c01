package io.github.blake3fast.bao;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.Blake3;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What the file-safety sweeps share (the Bao API's, the bao and b3sum command lines'): a
 * directory's state to compare before and after (every name, what it is, its bytes' hash and
 * permissions), named pipes, the {@code /proc/self/fd/N} of an open file, and one line per case
 * for the failure matrix ({@code FILE-SAFETY | engine | case | result}, printed where surefire
 * shows it).
 */
public final class FileSafetyKit {
  private FileSafetyKit() {}

  /**
   * Every entry of {@code dir} (not following links, one level down into subdirectories): name
   * to kind, permissions and content hash. Equal snapshots: nothing lost, nothing added.
   */
  public static Map<String, String> snapshot(Path dir) throws IOException {
    Map<String, String> m = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir, 2)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String name = dir.relativize(p).toString();
        if (Files.isSymbolicLink(p)) {
          m.put(name, "link -> " + Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          m.put(name, "dir " + permissions(p));
        } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
          m.put(name, "file " + permissions(p) + " " + sha256(p));
        } else {
          m.put(name, "other");
        }
      }
    }
    return m;
  }

  /** SHA-256, not the engine under test: a broken engine must not hide a changed file. */
  private static String sha256(Path p) throws IOException {
    try {
      return Blake3.toHex(java.security.MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static String permissions(Path p) throws IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
  }

  /** Asserts that {@code dir} is as {@code before}: every file byte-identical, none added. */
  public static void assertUnchanged(Map<String, String> before, Path dir, String what) throws IOException {
    assertEquals(before, snapshot(dir), what + ": the directory changed (a file lost, or a stray one left)");
  }

  /** Prints one row of the failure matrix. */
  public static void row(String what, String result) {
    System.out.println("FILE-SAFETY | " + Blake3.implementation() + " | " + what + " | " + result);
  }

  /** A new named pipe; skips the test where mkfifo cannot make one. */
  public static Path fifo(Path at) throws IOException, InterruptedException {
    Process mk;
    try {
      mk = new ProcessBuilder("mkfifo", at.toString()).start();
    } catch (IOException e) {
      mk = null;
    }
    assumeTrue(mk != null && mk.waitFor() == 0, "SKIPPED: mkfifo cannot make a named pipe here");
    return at;
  }

  /** Writes {@code bytes} into the pipe on a thread of its own (opening blocks until a reader comes). */
  public static Thread feed(Path fifo, byte[] bytes) {
    Thread t = new Thread(() -> {
      try (OutputStream out = Files.newOutputStream(fifo, StandardOpenOption.WRITE)) {
        out.write(bytes);
      } catch (IOException e) {
        // the reader went away: what it did with that is the test's to check
      }
    }, "fifo-feeder");
    t.setDaemon(true);
    t.start();
    return t;
  }

  /**
   * The {@code /proc/self/fd/N} name of a descriptor this JVM has open on {@code file} (open one
   * first); skips the test where there is no /proc.
   */
  public static Path procFd(Path file) throws IOException {
    Path fds = Paths.get("/proc/self/fd");
    assumeTrue(Files.isDirectory(fds), "SKIPPED: no /proc/self/fd here");
    Path real = file.toRealPath();
    List<Path> all = new ArrayList<>();
    try (Stream<Path> s = Files.list(fds)) {
      s.forEach(all::add);
    }
    for (Path fd : all) {
      try {
        if (Files.readSymbolicLink(fd).equals(real)) {
          return fd;
        }
      } catch (IOException e) {
        // closed since it was listed (the listing's own descriptor)
      }
    }
    throw new AssertionError("no descriptor of this JVM is open on " + real);
  }

  /** The uid of this process; -1 if unknown. */
  public static int uid() {
    try {
      return (Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }
}
