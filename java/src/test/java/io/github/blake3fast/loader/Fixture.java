package io.github.blake3fast.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What the loader tests share: the library and jars built from target/classes (so they match the
 * code under test, whatever phase Maven is in), fresh work directories under
 * target/loader-tests (children mount tmpfs over their own tmpdir there, never over /tmp, which
 * may hold the checkout), and child JVMs, optionally in
 * a private mount namespace or as another user. Everything that needs privileges says so and
 * skips through an assumption when this machine cannot do it.
 */
final class Fixture {
  private Fixture() {}

  static final Path BASEDIR = Paths.get(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
  static final Path CLASSES = BASEDIR.resolve("target/classes");
  static final Path TEST_CLASSES = BASEDIR.resolve("target/test-classes");
  static final Path RUN = BASEDIR.resolve("target/loader-tests/run-" + ProcessHandle.current().pid());
  static final String PLATFORM = platform();
  static final String RESOURCE = "META-INF/native/" + PLATFORM + "/libblake3fast.so";
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static Path jar;

  static {
    clearOldRuns();
  }

  private static String platform() {
    String arch = System.getProperty("os.arch");
    switch (arch) {
      case "amd64":
        return "linux-x86_64";
      default:
        return "linux-" + arch;
    }
  }

  // ---- the library and jars ------------------------------------------------------------------

  /** The host library the build put into target/classes; skips the test when there is none. */
  static byte[] library() throws IOException {
    Path lib = CLASSES.resolve(RESOURCE);
    assumeTrue(System.getProperty("os.name").startsWith("Linux") && Files.isRegularFile(lib),
        "no native library at " + lib + " (not Linux, built with -Dblake3.skipNative, or without a working C"
            + " toolchain: see the build's WARNING): native loader tests skipped");
    return Files.readAllBytes(lib);
  }

  /** The library jar, built from target/classes, with the real manifest's native-access entry. */
  static synchronized Path jar() throws IOException {
    if (jar == null) {
      library();
      jar = writeJar("blake3-fast.jar", null, false);
    }
    return jar;
  }

  /** The jar with the host library replaced by {@code lib}, or without it when lib is null. */
  static Path jarWith(String label, byte[] lib) throws IOException {
    return writeJar("blake3-fast-" + label + ".jar", lib, true);
  }

  private static Path writeJar(String name, byte[] replacement, boolean replace) throws IOException {
    Path out = RUN.resolve("jars").resolve(name);
    Files.createDirectories(out.getParent());
    Manifest mf = new Manifest();
    mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.github.blake3fast.cli.B3sum");
    mf.getMainAttributes().putValue("Enable-Native-Access", "ALL-UNNAMED");
    // As the packaged jar: module-info.class is under META-INF/versions/9, seen only in a multi-release jar.
    mf.getMainAttributes().putValue("Multi-Release", "true");
    List<Path> files;
    try (Stream<Path> s = Files.walk(CLASSES)) {
      files = s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
    }
    try (OutputStream os = Files.newOutputStream(out); JarOutputStream jos = new JarOutputStream(os, mf)) {
      for (Path f : files) {
        String entry = CLASSES.relativize(f).toString().replace('\\', '/');
        if (entry.equals("META-INF/MANIFEST.MF")) {
          continue;
        }
        byte[] data = Files.readAllBytes(f);
        if (replace && entry.equals(RESOURCE)) {
          if (replacement == null) {
            continue;
          }
          data = replacement;
        }
        jos.putNextEntry(new JarEntry(entry));
        jos.write(data);
        jos.closeEntry();
      }
    }
    return out;
  }

  /**
   * A real library for another architecture: the aarch64 (or, on aarch64, x86_64) build when the
   * cross build made one; else the host library with its ELF machine field set to aarch64's, said
   * in the returned label.
   */
  static Object[] foreignLibrary() throws IOException {
    String other = PLATFORM.equals("linux-aarch64") ? "linux-x86_64" : "linux-aarch64";
    Path real = CLASSES.resolve("META-INF/native/" + other + "/libblake3fast.so");
    if (Files.isRegularFile(real)) {
      return new Object[] {Files.readAllBytes(real), other.substring(6), "the " + other + " build"};
    }
    byte[] lib = library().clone();
    int m = other.equals("linux-aarch64") ? 183 : 62;
    lib[18] = (byte) m;
    lib[19] = (byte) (m >> 8);
    return new Object[] {lib, other.substring(6), "the host library relabelled as " + other + " (no cross build here)"};
  }

  // ---- directories ---------------------------------------------------------------------------

  /** A fresh directory (world-traversable, so a child running as another user can reach it). */
  static Path newDir(String label) throws IOException {
    Path d = RUN.resolve(label + "-" + COUNTER.incrementAndGet());
    Files.createDirectories(d);
    return d;
  }

  /** The regular files directly in dir, by name. */
  static List<String> list(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  /** Asserts dir holds exactly one library file with the given content and nothing else. */
  static Path assertOneLibrary(Path dir, byte[] lib) throws IOException {
    List<String> names = list(dir);
    assertEquals(1, names.size(), "files in " + dir + ": " + names);
    String n = names.get(0);
    assertTrue(n.matches("libblake3fast-[0-9a-f]{16}\\.so"), "file name " + n);
    Path f = dir.resolve(n);
    assertTrue(Arrays.equals(lib, Files.readAllBytes(f)), f + " differs from the jar's library");
    return f;
  }

  private static void clearOldRuns() {
    Path parent = RUN.getParent();
    try (Stream<Path> s = Files.list(parent)) {
      long old = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
      for (Path p : s.collect(Collectors.toList())) {
        if (!p.equals(RUN) && Files.getLastModifiedTime(p).toMillis() < old) {
          deleteTree(p);
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // nothing there yet
    }
  }

  static void deleteTree(Path root) throws IOException {
    Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
        Files.delete(file);
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
        Files.delete(dir);
        return FileVisitResult.CONTINUE;
      }
    });
  }

  // ---- privileges ----------------------------------------------------------------------------

  static int uid() {
    try {
      return (Integer) Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static Boolean mounts;
  private static String mountProblem;

  /**
   * Skips the test unless this process can make a private mount namespace and mount tmpfs in it
   * (root with CAP_SYS_ADMIN, unshare(1) present): the noexec and read-only simulations need it.
   */
  static synchronized void assumeMounts() throws IOException {
    if (mounts == null) {
      Path probe = newDir("mount-probe");
      try {
        Result r = run(List.of("unshare", "-m", "--propagation", "private", "--", "sh", "-c",
            "mount -t tmpfs -o noexec tmpfs '" + probe + "' && grep -q ' " + probe + " .*noexec' /proc/self/mountinfo"),
            Map.of(), probe, Duration.ofSeconds(20));
        mounts = r.exit == 0;
        mountProblem = "exit " + r.exit + ": " + r.err.trim();
      } catch (IOException e) { // no unshare(1)
        mounts = false;
        mountProblem = e.getMessage();
      }
    }
    assumeTrue(mounts, "SKIPPED, cannot mount here: `unshare -m` + `mount -t tmpfs -o noexec` failed (" + mountProblem
        + "); this test needs root with CAP_SYS_ADMIN to simulate noexec / read-only directories for real");
  }

  /** Skips unless this process is root and setpriv(1) can drop to uid 65534 (nobody). */
  static void assumeCanBecomeNobody() throws IOException {
    assumeTrue(uid() == 0, "SKIPPED: running as another user needs root (uid is " + uid() + ")");
    List<String> id = new ArrayList<>(AS_NOBODY);
    id.addAll(List.of("id", "-u"));
    Result r;
    try {
      r = run(id, Map.of(), Paths.get("/"), Duration.ofSeconds(10));
    } catch (IOException e) { // no setpriv(1)
      r = new Result(id, -1, "", e.getMessage());
    }
    assumeTrue(r.exit == 0 && r.out.trim().equals("65534"), "SKIPPED: setpriv cannot switch to uid 65534: " + r.err);
  }

  private static final List<String> AS_NOBODY = List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--");

  /** The command prefix that runs the rest as uid 65534 (after {@link #assumeCanBecomeNobody}). */
  static List<String> asNobody() {
    return AS_NOBODY;
  }

  private static boolean nobodyCanRead(Path file) throws IOException {
    List<String> c = new ArrayList<>(AS_NOBODY);
    c.addAll(List.of("test", "-r", file.toString()));
    return run(c, Map.of(), Paths.get("/"), Duration.ofSeconds(10)).exit == 0;
  }

  /**
   * A child JVM to run as uid 65534, in a fresh work directory that user can enter, on a jar and
   * test classes it can read: those under target/ when it can read them there, else copies in a
   * new world-readable directory under java.io.tmpdir (removed when this JVM exits). A checkout
   * under a home only its owner may enter, as root's 0700 /root, hides target/ from that user.
   * Skips, saying why, when uid 65534 cannot read even the copies.
   */
  static Jvm jvmForNobody(String label) throws IOException {
    Path jar = jar();
    Path probe = TEST_CLASSES.resolve(ProbeMain.class.getName().replace('.', '/') + ".class");
    if (nobodyCanRead(jar) && nobodyCanRead(probe)) {
      return new Jvm(newDir(label), jar);
    }
    Path base = reachableTempDir("blake3-fast-nobody-");
    Path jarCopy = base.resolve(jar.getFileName());
    Path classesCopy = base.resolve("test-classes");
    copyReadable(jar, jarCopy);
    copyReadable(TEST_CLASSES, classesCopy);
    Path work = base.resolve(label);
    Files.createDirectories(work);
    Jvm j = new Jvm(work, jarCopy);
    j.classPath = jarCopy + ":" + classesCopy;
    for (Path d : List.of(base, work, j.tmp(), j.home())) {
      Files.setPosixFilePermissions(d, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    Path probeCopy = classesCopy.resolve(TEST_CLASSES.relativize(probe));
    assumeTrue(nobodyCanRead(probeCopy), "SKIPPED: uid 65534 cannot read " + probeCopy
        + " either (the checkout's " + probe + " is out of its reach too)");
    // The child extracts the library under work/home: that needs a mount that allows exec.
    assumeTrue(canRunProgramsIn(base), "SKIPPED: " + base + " is on a noexec mount, and uid 65534 cannot reach the"
        + " checkout's " + probe + ": nowhere to run this test");
    return j;
  }

  /**
   * A work directory uid 65534 can enter: {@code newDir(label)} when it can, else a new
   * rwxr-xr-x directory under java.io.tmpdir (removed when this JVM exits), for a checkout under
   * a home only its owner may enter. Skips, saying why, when even that is out of reach or on a
   * noexec mount (the tests using it run programs there).
   */
  static Path dirForNobody(String label) throws IOException {
    Path dir = newDir(label);
    if (nobodyCanRead(dir)) {
      return dir;
    }
    Path base = reachableTempDir("blake3-fast-" + label + "-");
    Files.setPosixFilePermissions(base, PosixFilePermissions.fromString("rwxr-xr-x"));
    assumeTrue(nobodyCanRead(base), "SKIPPED: uid 65534 can reach neither " + dir + " nor " + base);
    assumeTrue(canRunProgramsIn(base), "SKIPPED: " + base + " is on a noexec mount, and uid 65534 cannot reach "
        + dir + ": nowhere to run this test");
    return base;
  }

  /** Whether a program in {@code dir} can be run: false on a noexec mount. */
  private static boolean canRunProgramsIn(Path dir) throws IOException {
    Path exe = dir.resolve("exec-probe");
    Files.writeString(exe, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
    try {
      return run(List.of(exe.toString()), Map.of(), dir, Duration.ofSeconds(10)).exit == 0;
    } catch (IOException e) { // noexec: permission denied
      return false;
    } finally {
      Files.delete(exe);
    }
  }

  /** A new directory under java.io.tmpdir, removed with its contents when this JVM exits. */
  private static Path reachableTempDir(String prefix) throws IOException {
    Path base = Files.createTempDirectory(Paths.get(System.getProperty("java.io.tmpdir")), prefix);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        deleteTree(base);
      } catch (IOException ignored) {
        // a leftover in java.io.tmpdir, not a test failure
      }
    }));
    return base;
  }

  /** Copies a file or a tree, world-readable (directories rwxr-xr-x, files rw-r--r--). */
  private static void copyReadable(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path f : s.collect(Collectors.toList())) {
        Path t = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(t);
          Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.copy(f, t);
          Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }

  /** The command prefix that runs the rest in a private mount namespace after {@code script}. */
  static List<String> inNamespace(String script) {
    return List.of("unshare", "-m", "--propagation", "private", "--", "sh", "-ec", script + "\nexec \"$@\"", "sh");
  }

  /** A mount script line: dir becomes a read-only view of itself. */
  static String readOnlyBind(Path dir) {
    return "mount --bind '" + dir + "' '" + dir + "'\nmount -o remount,bind,ro '" + dir + "' '" + dir + "'";
  }

  // ---- child JVMs ----------------------------------------------------------------------------

  /** A child JVM command: java [opts] -cp JAR:test-classes ProbeMain MODE...; tmpdir and home in work. */
  static final class Jvm {
    final List<String> prefix = new ArrayList<>();
    final List<String> opts = new ArrayList<>();
    final List<String> args = new ArrayList<>();
    final Map<String, String> env = new LinkedHashMap<>();
    String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
    /**
     * Adds --enable-native-access=ALL-UNNAMED when the child is this JVM's java and that is JDK
     * 24+, as the README tells users to, so the JDK's warning does not drown what a test checks.
     */
    boolean nativeAccess = true;
    String classPath;
    String main = ProbeMain.class.getName();
    final Path work;

    Jvm(Path work, Path jar) throws IOException {
      this.work = work;
      this.classPath = jar + ":" + TEST_CLASSES;
      Files.createDirectories(work.resolve("tmp"));
      Files.createDirectories(work.resolve("home"));
      opts.add("-XX:-UsePerfData");
      opts.add("-XX:TieredStopAtLevel=1");
      opts.add("-Xshare:auto");
      opts.add("-Djava.io.tmpdir=" + work.resolve("tmp"));
      opts.add("-Duser.home=" + work.resolve("home"));
    }

    Jvm opt(String... o) {
      opts.addAll(Arrays.asList(o));
      return this;
    }

    Jvm args(String... a) {
      args.addAll(Arrays.asList(a));
      return this;
    }

    Path tmp() {
      return work.resolve("tmp");
    }

    Path home() {
      return work.resolve("home");
    }

    /** Where the loader extracts by default: ${java.io.tmpdir}/blake3-fast-UID. */
    Path tmpCache(int uid) {
      return tmp().resolve("blake3-fast-" + uid);
    }

    Path homeCache() {
      return home().resolve(".cache/blake3-fast");
    }

    List<String> command() {
      List<String> c = new ArrayList<>(prefix);
      c.add(java);
      if (nativeAccess && Runtime.version().feature() >= 24
          && java.equals(Paths.get(System.getProperty("java.home"), "bin", "java").toString())) {
        c.add("--enable-native-access=ALL-UNNAMED");
      }
      c.addAll(opts);
      c.add("-cp");
      c.add(classPath);
      c.add(main);
      c.addAll(args.isEmpty() ? List.of("once") : args);
      return c;
    }

    Result run() throws IOException {
      return Fixture.run(command(), env, work, Duration.ofSeconds(90));
    }

    Process start() throws IOException {
      return Fixture.start(command(), env, work);
    }
  }

  static final class Result {
    final List<String> command;
    final int exit;
    final String out;
    final String err;

    Result(List<String> command, int exit, String out, String err) {
      this.command = command;
      this.exit = exit;
      this.out = out;
      this.err = err;
    }

    /** The value of a key=value line on stdout, or null. */
    String get(String key) {
      for (String line : out.split("\n")) {
        if (line.startsWith(key + "=")) {
          return line.substring(key.length() + 1);
        }
      }
      return null;
    }

    @Override
    public String toString() {
      return "$ " + String.join(" ", command) + "\nexit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }

    /** Ran to the end, nothing thrown, the hash right, and the implementation as expected. */
    Result assertImpl(String expected) {
      assertEquals(0, exit, this::toString);
      assertFalse(out.contains("thrown"), this::toString);
      assertEquals("ok", get("hash"), this::toString);
      assertEquals(expected, withoutVectorHint(get("impl")), this::toString);
      return this;
    }

    Result assertNative() {
      assertEquals(0, exit, this::toString);
      assertEquals("ok", get("hash"), this::toString);
      assertTrue(get("impl").startsWith("native-"), this::toString);
      return this;
    }

    /** stderr holds the loader's one warning, with this reason, and nothing else of ours. */
    Result assertWarned(String reason) {
      String line = "WARNING: blake3-fast: using the Java engine: " + reason;
      List<String> ours = Arrays.stream(err.split("\n")).filter(l -> l.contains("blake3-fast:")).collect(Collectors.toList());
      assertEquals(List.of(line), ours, this::toString);
      return this;
    }

    Result assertQuiet() {
      assertEquals("", err, this::toString);
      return this;
    }
  }

  static Process start(List<String> command, Map<String, String> env, Path dir) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
    pb.environment().remove("XDG_CACHE_HOME");
    pb.environment().remove("JAVA_TOOL_OPTIONS");
    pb.environment().remove("_JAVA_OPTIONS");
    pb.environment().remove("JDK_JAVA_OPTIONS");
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    return pb.start();
  }

  static Result finish(List<String> command, Process p, Duration timeout) throws IOException {
    // Read both streams on their own threads so a chatty child never blocks on a full pipe.
    StringBuilder out = new StringBuilder();
    StringBuilder err = new StringBuilder();
    Thread to = drain(p.getInputStream(), out);
    Thread te = drain(p.getErrorStream(), err);
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.descendants().forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        p.waitFor();
        to.join();
        te.join();
        return new Result(command, -999, out.toString(), err + "\n[killed after " + timeout + "]");
      }
      to.join();
      te.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
    return new Result(command, p.exitValue(), out.toString(), err.toString());
  }

  static Result run(List<String> command, Map<String, String> env, Path dir, Duration timeout) throws IOException {
    return finish(command, start(command, env, dir), timeout);
  }

  private static Thread drain(java.io.InputStream in, StringBuilder sink) {
    Thread t = new Thread(() -> {
      try (in) {
        String s = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        synchronized (sink) {
          sink.append(s);
        }
      } catch (IOException ignored) {
        // the child died; what was read is kept
      }
    });
    t.setDaemon(true);
    t.start();
    return t;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** What every Java-engine description ends with where jdk.incubator.vector is not readable. */
  static final String VECTOR_HINT = "; add --add-modules jdk.incubator.vector for the Vector API engine";

  /**
   * A description without the hint above: the loader tests check why native is off; whether the
   * hint is there is VectorEngineTest's to check.
   */
  static String withoutVectorHint(String impl) {
    return impl == null ? null : impl.replace(VECTOR_HINT + ")", ")");
  }
}
