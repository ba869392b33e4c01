package io.github.blake3fast.cli;

import static io.github.blake3fast.bao.FileSafetyKit.assertUnchanged;
import static io.github.blake3fast.bao.FileSafetyKit.row;
import static io.github.blake3fast.bao.FileSafetyKit.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.bao.Blake3Bao;
import io.github.blake3fast.bao.FileSafetyKit;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bao command line as a process, in a child JVM on this JVM's engine (its switches passed
 * on; tag "engine" repeats it per engine): standard input and output that are the file
 * (redirections, {@code /dev/stdin}, {@code /dev/stdout}), Ctrl-C and SIGTERM in the middle of
 * an output, a read-only directory and a full file system. Mounts need root with CAP_SYS_ADMIN
 * (a private mount namespace, {@code unshare -m}); without them those cases skip, saying why.
 */
@Tag("engine")
class BaoCliProcessTest {
  @TempDir
  Path tmp;

  /** The files the commands see; {@code tmp} keeps the child's stdout and stderr beside it. */
  private Path dir;

  private static final byte[] DATA = new byte[300_000];
  private static final byte[] PREVIOUS = "important: must survive\n".getBytes(StandardCharsets.UTF_8);
  private static final Blake3Bao BAO = Blake3Bao.standard();
  private static final String HASH;

  static {
    new Random(11).nextBytes(DATA);
    HASH = Blake3.toHex(Blake3.hash(DATA));
  }

  @BeforeEach
  void files() throws IOException {
    dir = Files.createDirectory(tmp.resolve("d"));
    Files.write(dir.resolve("f"), DATA);
    Files.write(dir.resolve("f.bao"), BAO.encode(DATA));
  }

  /** The bao command in a child JVM of this one's java, class path and engine switches. */
  private static List<String> bao(String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--enable-native-access=ALL-UNNAMED");
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      cmd.addAll(List.of("--add-modules", "jdk.incubator.vector"));
    }
    for (String p : new String[] {"blake3.native", "blake3.vector", "blake3.isa", "blake3.native.path"}) {
      if (System.getProperty(p) != null) {
        cmd.add("-D" + p + "=" + System.getProperty(p));
      }
    }
    cmd.addAll(List.of("-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"), Bao.class.getName()));
    cmd.addAll(Arrays.asList(args));
    return cmd;
  }

  private static final class Result {
    final int status;
    final String err;

    Result(int status, String err) {
      this.status = status;
      this.err = err;
    }
  }

  /** Runs in {@code dir}; stdin, stdout as given (null: none, a file in tmp). */
  private Result exec(List<String> cmd, Redirect in, Redirect out) throws Exception {
    Path err = tmp.resolve("stderr");
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
        .redirectInput(in != null ? in : Redirect.from(new File("/dev/null")))
        .redirectOutput(out != null ? out : Redirect.to(tmp.resolve("stdout").toFile()))
        .redirectError(err.toFile());
    Process p = pb.start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("timed out: " + cmd);
    }
    return new Result(p.exitValue(), Files.readString(err));
  }

  private void refused(String what, String name, Redirect in, Redirect out, String... args) throws Exception {
    Map<String, String> before = snapshot(dir);
    Result r = exec(bao(args), in, out);
    String line = "Error: " + name + ": input file is output file\n";
    assertTrue(r.err.endsWith(line), what + ": " + r.err);
    assertEquals(1, r.status, what);
    assertUnchanged(before, dir, what);
    row("bao process: " + what, "status 1, " + line.trim() + "; nothing changed");
  }

  @Test
  void standardStreamsThatAreTheFileAreRefused() throws Exception {
    File f = dir.resolve("f").toFile();
    File enc = dir.resolve("f.bao").toFile();
    refused("encode - f < f", "-", Redirect.from(f), null, "encode", "-", "f");
    refused("encode f /dev/stdin < f", "f", Redirect.from(f), null, "encode", "f", "/dev/stdin");
    refused("decode H f.bao /dev/stdin < f.bao", "f.bao", Redirect.from(enc), null, "decode", HASH, "f.bao",
        "/dev/stdin");
    refused("decode H /dev/stdin f.bao < f.bao", "/dev/stdin", Redirect.from(enc), null, "decode", HASH, "/dev/stdin",
        "f.bao");
    refused("decode H f.bao >> f.bao", "f.bao", null, Redirect.appendTo(enc), "decode", HASH, "f.bao");
    refused("decode H < f.bao >> f.bao", "-", Redirect.from(enc), Redirect.appendTo(enc), "decode", HASH);
    refused("encode f /dev/stdout >> f", "f", null, Redirect.appendTo(f), "encode", "f", "/dev/stdout");
    refused("slice 0 100 f.bao >> f.bao", "f.bao", null, Redirect.appendTo(enc), "slice", "0", "100", "f.bao");
  }

  /** {@code /dev/stdout} and {@code /dev/null} as output names: written in place, as streams. */
  @Test
  void devStdoutOnAPipeAndDevNullAreWrittenInPlace() throws Exception {
    Map<String, String> before = snapshot(dir);
    Process p = new ProcessBuilder(bao("decode", HASH, "f.bao", "/dev/stdout")).directory(dir.toFile())
        .redirectError(tmp.resolve("stderr").toFile()).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), Files.readString(tmp.resolve("stderr")));
    assertArrayEquals(DATA, out, "decode to /dev/stdout, a pipe");
    Result r = exec(bao("encode", "f", "/dev/null"), null, null);
    assertEquals(0, r.status, r.err);
    assertUnchanged(before, dir, "decode to /dev/stdout, encode to /dev/null");
    row("bao process: decode H f.bao /dev/stdout | ..., encode f /dev/null", "status 0, streamed in place");
  }

  /**
   * Ctrl-C (SIGINT) and SIGTERM while a decode from a pipe writes its output: the JVM's exit
   * removes the temporary file; the earlier output stays.
   */
  @Test
  void aSignalInTheMiddleLeavesTheEarlierOutputAndNoStrayFile() throws Exception {
    Process probe;
    try {
      probe = new ProcessBuilder("env", "--default-signal=INT", "true").start();
    } catch (IOException e) {
      probe = null;
    }
    assumeTrue(probe != null && probe.waitFor() == 0, "SKIPPED: no `env --default-signal` (coreutils 8.31+) to let "
        + "the child take Ctrl-C when this JVM ignores it");
    byte[] enc = BAO.encode(DATA);
    Files.write(dir.resolve("out"), PREVIOUS);
    for (String signal : new String[] {"INT", "TERM"}) {
      Map<String, String> before = snapshot(dir);
      // A JVM started with SIGINT ignored (a background job) ignores Ctrl-C: reset it for the child.
      List<String> cmd = new ArrayList<>(List.of("env", "--default-signal=INT"));
      cmd.addAll(bao("decode", HASH, "-", "out"));
      Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(Redirect.DISCARD)
          .redirectError(tmp.resolve("stderr").toFile()).start();
      // Standard input stays open until the child is gone: an end of input would race the signal.
      OutputStream in = p.getOutputStream();
      try {
        in.write(enc, 0, enc.length / 2); // then nothing: the decode waits, its output half written
        in.flush();
        waitForTemporaryFile(p);
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start();
        assertEquals(0, kill.waitFor(), "kill -" + signal);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the decode did not end on SIG" + signal);
      } finally {
        try {
          in.close();
        } catch (IOException e) {
          // the child is gone, with its end of the pipe
        }
        p.destroyForcibly();
      }
      int status = p.exitValue();
      String err = Files.readString(tmp.resolve("stderr"));
      assertEquals(signal.equals("INT") ? 130 : 143, status, "SIG" + signal + ": " + err);
      assertUnchanged(before, dir, "SIG" + signal);
      row("bao process: decode H - out < (half an encoding, then waiting), SIG" + signal,
          "exit " + status + "; temporary file removed at exit, earlier out intact");
    }
  }

  private void waitForTemporaryFile(Process p) throws Exception {
    for (int i = 0; i < 600; i++) {
      try (Stream<Path> s = Files.list(dir)) {
        if (s.anyMatch(x -> x.getFileName().toString().startsWith(".out."))) {
          Thread.sleep(200); // well into the copy loop
          return;
        }
      }
      if (!p.isAlive()) {
        fail("the decode ended early: " + Files.readString(tmp.resolve("stderr")));
      }
      Thread.sleep(50);
    }
    fail("no temporary output appeared in 30 s");
  }

  private static Boolean mounts;

  /** Skips unless this process can mount in a private namespace (root with CAP_SYS_ADMIN, unshare(1)). */
  private synchronized void assumeMounts() throws Exception {
    if (mounts == null) {
      Path probe = Files.createDirectory(tmp.resolve("probe"));
      try {
        Process p = new ProcessBuilder("unshare", "-m", "--propagation", "private", "--", "mount", "-t", "tmpfs",
            "tmpfs", probe.toString()).redirectErrorStream(true).redirectOutput(Redirect.DISCARD).start();
        mounts = p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException e) {
        mounts = false; // no unshare(1)
      }
    }
    assumeTrue(mounts, "SKIPPED: cannot mount here (`unshare -m` + `mount -t tmpfs` failed): a read-only or full "
        + "file system needs root with CAP_SYS_ADMIN");
  }

  /** The command, run in a private mount namespace after {@code script} (sh, in {@code dir}). */
  private static List<String> inNamespace(String script, List<String> cmd) {
    List<String> all = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "--", "sh", "-ec",
        script + "\n\"$@\"", "sh"));
    all.addAll(cmd);
    return all;
  }

  @Test
  void aReadOnlyDirectoryIsAClearErrorAndNothingChanges() throws Exception {
    Path ro = Files.createDirectory(dir.resolve("ro"));
    Files.write(ro.resolve("out"), PREVIOUS);
    boolean root = FileSafetyKit.uid() == 0;
    if (root) {
      assumeMounts();
    } else {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    }
    String[][] commands = {{"encode", "f", "ro/out"}, {"encode", "f", "--outboard=ro/out"},
      {"decode", HASH, "f.bao", "ro/out"}, {"slice", "0", "100", "f.bao", "ro/out"}};
    try {
      for (String[] c : commands) {
        Map<String, String> before = snapshot(dir);
        List<String> cmd = bao(c);
        if (root) {
          cmd = inNamespace("mount --bind ro ro\nmount -o remount,bind,ro ro", cmd);
        }
        Result r = exec(cmd, null, null);
        String expect = root ? "Error: Read-only file system (os error 30)\n"
            : "Error: Permission denied (os error 13)\n";
        String what = String.join(" ", c).replace(HASH, "H") + (root ? " (read-only mount)" : " (directory r-x)");
        assertTrue(r.err.endsWith(expect), what + ": " + r.err);
        assertEquals(1, r.status, what);
        assertUnchanged(before, dir, what);
        row("bao process: " + what, "status 1, " + expect.trim() + "; earlier out intact, no stray");
      }
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  /**
   * A 1 MiB tmpfs filled by each output (an encoding, an outboard, a decode of 20 MiB): each
   * fails with ENOSPC, the earlier file on it is byte-identical and nothing else is left there.
   * The mount lives in the child's namespace, so the checks run there too.
   */
  @Test
  void aFullFileSystemIsAClearErrorAndNothingChanges() throws Exception {
    assumeMounts();
    byte[] big = new byte[20 << 20];
    new Random(3).nextBytes(big);
    Files.write(dir.resolve("big"), big);
    Files.write(dir.resolve("big.bao"), BAO.encode(big));
    Files.write(dir.resolve("prev"), PREVIOUS);
    Files.createDirectory(dir.resolve("small"));
    String h = Blake3.toHex(Blake3.hash(big));
    String[][] commands = {{"encode", "big", "small/out"}, {"encode", "big", "--outboard=small/out"},
      {"decode", h, "big.bao", "small/out"}};
    for (String[] c : commands) {
      String check = "s=$?; cmp -s prev small/out && echo intact; ls -A small; exit $s";
      List<String> cmd = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "--", "sh", "-c",
          "mount -t tmpfs -o size=1m tmpfs small && cp prev small/out || exit 99\n\"$@\"\n" + check, "sh"));
      cmd.addAll(bao(c));
      Path listing = tmp.resolve("stdout");
      Result r = exec(cmd, null, null);
      String what = String.join(" ", c).replace(h, "H") + " (1 MiB tmpfs)";
      assertEquals("Error: No space left on device (os error 28)\n",
          r.err.substring(Math.max(0, r.err.lastIndexOf("Error: "))), what + ": " + r.err);
      assertEquals(1, r.status, what);
      assertEquals("intact\nout\n", Files.readString(listing), what + ": the earlier file, and nothing else");
      row("bao process: " + what, "status 1, Error: No space left on device (os error 28); earlier out intact, "
          + "nothing else on the file system");
    }
    assertArrayEquals(PREVIOUS, Files.readAllBytes(dir.resolve("prev")));
  }
}
