package io.github.blake3fast.cli;

import static io.github.blake3fast.bao.FileSafetyKit.assertUnchanged;
import static io.github.blake3fast.bao.FileSafetyKit.row;
import static io.github.blake3fast.bao.FileSafetyKit.snapshot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.bao.FileSafetyKit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * b3sum writes no file, only standard output: this checks that no input it reads is changed
 * and nothing is left beside them, with odd inputs, on the engine this JVM chose (tag "engine"):
 * a checkfile that lists itself, a checkfile from stdin, a FIFO or {@code /dev/stdin}, FIFOs and
 * stdin as inputs. Where standard output points at an input ({@code b3sum f >> f}), the shell
 * made that choice, and b3sum does what the official one does, byte for byte.
 */
@Tag("engine")
class B3sumFileSafetyTest {
  @TempDir
  Path dir;

  private static String hex(byte[] b) {
    return Blake3.toHex(Blake3.hash(b));
  }

  private String[] result(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = B3sum.run(args, new ByteArrayInputStream(stdin), out, err);
    return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8),
      err.toString(StandardCharsets.UTF_8)};
  }

  private void check(String what, byte[] stdin, String status, String out, String... args) throws Exception {
    Map<String, String> before = snapshot(dir);
    String[] r = result(stdin, args);
    assertEquals(out, r[1].replace(dir.toString(), "$D"), what + ": " + r[2]);
    assertEquals(status, r[0], what + ": " + r[2]);
    assertUnchanged(before, dir, what);
    row("b3sum " + what, "status " + status + ", right output; inputs intact, nothing added");
  }

  @Test
  void oddInputsAreReadAndNeverWritten() throws Exception {
    byte[] a = new byte[100_000];
    new Random(1).nextBytes(a);
    byte[] b = "b\n".getBytes(StandardCharsets.UTF_8);
    Path fa = Files.write(dir.resolve("a"), a);
    Path fb = Files.write(dir.resolve("b"), b);
    Path sums = dir.resolve("sums");
    // It lists itself too: with the hash of what it held before that line (no file holds its own hash).
    String listing = hex(a) + "  " + fa + "\n" + hex(b) + "  " + fb + "\n";
    Files.write(sums, (listing + hex(listing.getBytes(StandardCharsets.UTF_8)) + "  " + sums + "\n")
        .getBytes(StandardCharsets.UTF_8));
    String results = "$D/a: OK\n$D/b: OK\n$D/sums: FAILED\n";
    check("--check sums (sums lists itself)", new byte[0], "1", results, "--check", sums.toString());
    check("--check - < sums", Files.readAllBytes(sums), "1", results, "--check", "-");
    Path fifo = FileSafetyKit.fifo(dir.resolve("fifo"));
    Thread w = FileSafetyKit.feed(fifo, Files.readAllBytes(sums));
    check("--check FIFO (a checkfile through a FIFO)", new byte[0], "1", results, "--check", fifo.toString());
    w.join();
    w = FileSafetyKit.feed(fifo, a);
    check("FIFO a", new byte[0], "0", hex(a) + "  $D/fifo\n" + hex(a) + "  $D/a\n", fifo.toString(), fa.toString());
    w.join();
    w = FileSafetyKit.feed(fifo, a);
    Path listsFifo = dir.resolve("fifo-sums");
    Files.write(listsFifo, (hex(a) + "  " + fifo + "\n").getBytes(StandardCharsets.UTF_8));
    check("--check sums (a line naming a FIFO)", new byte[0], "0", "$D/fifo: OK\n", "--check", listsFifo.toString());
    w.join();
    check("- (stdin) and a", a, "0", hex(a) + "  -\n" + hex(a) + "  $D/a\n", "-", fa.toString());
    check("(no names: stdin)", b, "0", hex(b) + "  -\n");
  }

  /** {@code /dev/stdin} as a checkfile and as an input, with stdin a file: the real descriptors. */
  @Test
  void devStdinAsACheckfileAndAnInput() throws Exception {
    byte[] a = new byte[70_000];
    new Random(2).nextBytes(a);
    Path fa = Files.write(dir.resolve("a"), a);
    Path sums = Files.write(dir.resolve("sums"), (hex(a) + "  a\n").getBytes(StandardCharsets.UTF_8));
    String[][] cases = {{"sums", "a: OK\n", "--check", "/dev/stdin"}, {"a", hex(a) + "  /dev/stdin\n", "/dev/stdin"}};
    for (String[] c : cases) {
      Map<String, String> before = snapshot(dir);
      List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
          "--enable-native-access=ALL-UNNAMED"));
      if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
        cmd.addAll(List.of("--add-modules", "jdk.incubator.vector"));
      }
      for (String p : new String[] {"blake3.native", "blake3.vector", "blake3.isa"}) {
        if (System.getProperty(p) != null) {
          cmd.add("-D" + p + "=" + System.getProperty(p));
        }
      }
      cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), B3sum.class.getName()));
      cmd.addAll(Arrays.asList(c).subList(2, c.length));
      Path out = Files.createTempFile("b3sum-out", ".txt");
      try {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectInput(new File(dir.toFile(), c[0]))
            .redirectOutput(out.toFile()).redirectError(Redirect.DISCARD).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          fail("timed out: " + cmd);
        }
        String what = String.join(" ", Arrays.asList(c).subList(2, c.length)) + " < " + c[0];
        assertEquals(c[1], Files.readString(out), what);
        assertEquals(0, p.exitValue(), what);
        assertUnchanged(before, dir, what);
        row("b3sum process: " + what, "status 0, right output; inputs intact, nothing added");
      } finally {
        Files.delete(out);
      }
    }
    assertEquals(hex(a) + "  a\n", Files.readString(sums));
    assertEquals(a.length, Files.size(fa));
  }
}
