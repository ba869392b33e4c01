package io.github.blake3fast.cli;

import static io.github.blake3fast.bao.FileSafetyKit.assertUnchanged;
import static io.github.blake3fast.bao.FileSafetyKit.row;
import static io.github.blake3fast.bao.FileSafetyKit.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.bao.Blake3Bao;
import io.github.blake3fast.bao.FileSafetyKit;
import io.github.blake3fast.internal.SameFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bao command line never writes over its input and a file output appears whole or not at
 * all, run in this JVM on its engine (tag "engine": the per-engine surefire runs repeat it):
 * every command with an output (encode, encode --outboard, decode, decode --outboard, slice,
 * decode-slice) against every same-file form (a name, a symlink, a hard link,
 * {@code /proc/self/fd/N}, standard input or output being the file), every way a decode fails
 * (wrong hash, corruption, truncation), outputs that cannot be written (a directory,
 * {@code /dev/full}, a missing directory), and FIFOs and streams as inputs. Standard streams as
 * real descriptors, signals, read-only and full file systems: {@link BaoCliProcessTest}.
 */
@Tag("engine")
class BaoCliFileSafetyTest {
  @TempDir
  Path dir;

  private static final byte[] DATA = new byte[300_000];
  private static final byte[] PREVIOUS = "important: must survive\n".getBytes(StandardCharsets.UTF_8);
  private static final Blake3Bao BAO = Blake3Bao.standard();
  private static final String HASH;

  static {
    new Random(5).nextBytes(DATA);
    HASH = Blake3.toHex(Blake3.hash(DATA));
  }

  private static final class Run {
    int status;
    byte[] out;
    String err;
  }

  private static Run run(StdFiles std, InputStream stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Run r = new Run();
    r.status = Bao.run(args, std, stdin, out, err);
    r.out = out.toByteArray();
    r.err = err.toString(StandardCharsets.UTF_8);
    return r;
  }

  private static Run run(String... args) {
    return run(StdFiles.NONE, new ByteArrayInputStream(new byte[0]), args);
  }

  private Path f;
  private Path enc;
  private Path ob;
  private Path slice;

  private void files() throws Exception {
    f = Files.write(dir.resolve("f"), DATA);
    enc = Files.write(dir.resolve("f.bao"), BAO.encode(DATA));
    ob = Files.write(dir.resolve("f.obao"), BAO.outboard(DATA));
    slice = Files.write(dir.resolve("s.slice"), BAO.slice(BAO.encode(DATA), 1000, 5000));
  }

  /** Runs a command that must be refused; checks the message, the status, and that nothing changed. */
  private void refused(String what, String name, StdFiles std, InputStream stdin, String... args) throws Exception {
    Map<String, String> before = snapshot(dir);
    Run r = run(std, stdin, args);
    String line = "Error: " + name + ": input file is output file\n";
    assertEquals(line, r.err.replace(dir.toString(), "$D"), what);
    assertEquals(1, r.status, what);
    assertEquals(0, r.out.length, what + ": nothing on stdout");
    assertUnchanged(before, dir, what);
    row("bao " + what, "status 1, " + line.trim() + "; nothing changed");
  }

  private void refused(String what, String name, String... args) throws Exception {
    refused(what, name, StdFiles.NONE, new ByteArrayInputStream(new byte[0]), args);
  }

  @Test
  void anOutputThatIsAnInputIsRefusedByAnyName() throws Exception {
    files();
    Path link = Files.createSymbolicLink(dir.resolve("link"), Paths.get("f.bao"));
    Path hard = Files.createLink(dir.resolve("hard"), f);
    String fs = f.toString();
    refused("encode f f", "$D/f", "encode", fs, fs);
    refused("encode f --outboard=f", "$D/f", "encode", fs, "--outboard=" + fs);
    refused("encode f --outboard=HARDLINK", "$D/f", "encode", fs, "--outboard=" + hard);
    refused("decode H f.bao f.bao", "$D/f.bao", "decode", HASH, enc.toString(), enc.toString());
    refused("decode H f.bao SYMLINK-TO-f.bao", "$D/f.bao", "decode", HASH, enc.toString(), link.toString());
    refused("decode H f --outboard=f.obao f.obao", "$D/f.obao", "decode", HASH, fs, "--outboard=" + ob, ob.toString());
    refused("decode H f --outboard=f.obao f (the content)", "$D/f", "decode", HASH, fs, "--outboard=" + ob, fs);
    refused("decode H f.bao f.bao --start=5 --count=9", "$D/f.bao", "decode", HASH, enc.toString(), enc.toString(),
        "--start=5", "--count=9");
    refused("slice 0 100 f.bao f.bao", "$D/f.bao", "slice", "0", "100", enc.toString(), enc.toString());
    refused("slice 0 100 f --outboard=f.obao HARDLINK-TO-f", "$D/f", "slice", "0", "100", fs, "--outboard=" + ob,
        hard.toString());
    refused("decode-slice H 1000 5000 s.slice s.slice", "$D/s.slice", "decode-slice", HASH, "1000", "5000",
        slice.toString(), slice.toString());
    try (FileChannel open = FileChannel.open(enc)) {
      Path fd = FileSafetyKit.procFd(enc);
      refused("decode H f.bao /proc/self/fd/N", "$D/f.bao", "decode", HASH, enc.toString(), fd.toString());
      refused("decode H /proc/self/fd/N f.bao", fd.toString(), "decode", HASH, fd.toString(), enc.toString());
    }
  }

  /** Standard input or output being the file, as the process's descriptors would say. */
  @Test
  void standardStreamsThatAreTheFileAreRefused() throws Exception {
    files();
    Object keyF = SameFile.key(f);
    Object keyEnc = SameFile.key(enc);
    Object keySlice = SameFile.key(slice);
    try (InputStream in = Files.newInputStream(f)) {
      refused("encode - f < f", "-", new StdFiles(keyF, null), in, "encode", "-", f.toString());
    }
    try (InputStream in = Files.newInputStream(f)) {
      refused("encode - --outboard=f < f", "-", new StdFiles(keyF, null), in, "encode", "-", "--outboard=" + f);
    }
    try (InputStream in = Files.newInputStream(enc)) {
      refused("decode H - f.bao < f.bao", "-", new StdFiles(keyEnc, null), in, "decode", HASH, "-", enc.toString());
    }
    try (InputStream in = Files.newInputStream(slice)) {
      refused("decode-slice H 1000 5000 < s.slice > s.slice", "-", new StdFiles(keySlice, keySlice), in,
          "decode-slice", HASH, "1000", "5000");
    }
    InputStream none = new ByteArrayInputStream(new byte[0]);
    refused("decode H f.bao >> f.bao", "$D/f.bao", new StdFiles(null, keyEnc), none, "decode", HASH, enc.toString());
    refused("decode H f --outboard=f.obao 1<>f", "$D/f", new StdFiles(null, keyF), none, "decode", HASH, f.toString(),
        "--outboard=" + ob);
    refused("slice 0 100 f.bao - >> f.bao", "$D/f.bao", new StdFiles(null, keyEnc), none, "slice", "0", "100",
        enc.toString(), "-");
    // Standard output that is a file, but not an input, streams as before.
    Run ok = run(new StdFiles(null, SameFile.key(Files.write(dir.resolve("elsewhere"), PREVIOUS))), none, "decode",
        HASH, enc.toString());
    assertEquals(0, ok.status, ok.err);
    assertArrayEquals(DATA, ok.out);
    row("bao decode H f.bao > elsewhere (stdout a file, not an input)", "status 0, decoded");
  }

  /** Runs a command that must fail with one Error line; the directory must be as it was. */
  private Run fails(String what, String expect, String... args) throws Exception {
    return fails(what, expect, new byte[0], args);
  }

  private Run fails(String what, String expect, byte[] stdin, String... args) throws Exception {
    Map<String, String> before = snapshot(dir);
    Run r = run(StdFiles.NONE, new ByteArrayInputStream(stdin), args);
    assertEquals(1, r.status, what + ": " + r.err);
    assertTrue(r.err.startsWith("Error: ") && r.err.indexOf('\n') == r.err.length() - 1, what + ": " + r.err);
    assertTrue(r.err.contains(expect), what + ": " + r.err);
    assertUnchanged(before, dir, what);
    row("bao " + what, "status 1, " + r.err.trim().replace(dir.toString(), "$D") + "; earlier file intact, no stray");
    return r;
  }

  @Test
  void aFailedDecodeLeavesTheEarlierFileAndNoStrayFile() throws Exception {
    files();
    String out = Files.write(dir.resolve("important.txt"), PREVIOUS).toString();
    String wrong = "00" + HASH.substring(2);
    byte[] e = BAO.encode(DATA);
    byte[] corrupt = e.clone();
    corrupt[corrupt.length - 100] ^= 1;
    String bad = Files.write(dir.resolve("corrupt.bao"), corrupt).toString();
    String cut = Files.write(dir.resolve("cut.bao"), Arrays.copyOf(e, e.length / 2)).toString();
    byte[] o = BAO.outboard(DATA);
    String cutOb = Files.write(dir.resolve("cut.obao"), Arrays.copyOf(o, o.length - 64)).toString();
    byte[] content = DATA.clone();
    content[123_456] ^= 1;
    String badContent = Files.write(dir.resolve("corrupt-content"), content).toString();
    byte[] s = Files.readAllBytes(slice);
    s[s.length - 1] ^= 1;
    String badSlice = Files.write(dir.resolve("corrupt.slice"), s).toString();
    String encs = enc.toString();
    fails("decode WRONGHASH f.bao important.txt", "does not match the hash", "decode", wrong, encs, out);
    fails("decode H corrupt.bao important.txt (last chunk)", "chunk 292", "decode", HASH, bad, out);
    fails("decode H truncated.bao important.txt", "ends inside", "decode", HASH, cut, out);
    fails("decode H f --outboard=truncated.obao important.txt", "ends inside", "decode", HASH, f.toString(),
        "--outboard=" + cutOb, out);
    fails("decode H corrupt-content --outboard=f.obao important.txt", "chunk 120", "decode", HASH, badContent,
        "--outboard=" + ob, out);
    fails("decode H corrupt.bao important.txt --start=290000 --count=10000", "chunk 292", "decode", HASH, bad, out,
        "--start=290000", "--count=10000");
    fails("decode-slice H 1000 5000 corrupt.slice important.txt", "does not match", "decode-slice", HASH, "1000",
        "5000", badSlice, out);
    fails("decode WRONGHASH - important.txt < f.bao (stdin)", "does not match", e, "decode", wrong, "-", out);
    fails("decode H - important.txt < truncated.bao (stdin)", "ends inside", Arrays.copyOf(e, 99_999), "decode",
        HASH, "-", out);
  }

  @Test
  void outputsThatCannotBeWrittenAreClearErrors() throws Exception {
    files();
    Path sub = Files.createDirectory(dir.resolve("sub"));
    Files.write(sub.resolve("kept"), PREVIOUS);
    String fs = f.toString();
    String encs = enc.toString();
    String missing = dir.resolve("none/out").toString();
    fails("encode f DIRECTORY", "Is a directory (os error 21)", "encode", fs, sub.toString());
    fails("encode f --outboard=DIRECTORY", "Is a directory (os error 21)", "encode", fs, "--outboard=" + sub);
    fails("decode H f.bao DIRECTORY", "Is a directory (os error 21)", "decode", HASH, encs, sub.toString());
    fails("slice 0 100 f.bao DIRECTORY", "Is a directory (os error 21)", "slice", "0", "100", encs, sub.toString());
    fails("encode f none/out (missing directory)", "No such file or directory (os error 2)", "encode", fs, missing);
    fails("decode H f.bao none/out", "No such file or directory (os error 2)", "decode", HASH, encs, missing);
    fails("encode missing out", "No such file or directory (os error 2)", "encode", dir.resolve("missing").toString(),
        dir.resolve("out").toString());
    if (Files.exists(Paths.get("/dev/full"))) {
      String full = "No space left on device (os error 28)";
      fails("encode f /dev/full", full, "encode", fs, "/dev/full");
      fails("encode f --outboard=/dev/full", full, "encode", fs, "--outboard=/dev/full");
      fails("decode H f.bao /dev/full", full, "decode", HASH, encs, "/dev/full");
      fails("slice 0 100000 f.bao /dev/full", full, "slice", "0", "100000", encs, "/dev/full");
      fails("decode-slice H 1000 5000 s.slice /dev/full", full, "decode-slice", HASH, "1000", "5000",
          slice.toString(), "/dev/full");
    }
  }

  @Test
  void aSuccessfulOutputReplacesTheFileWholeKeepingItsPermissions() throws Exception {
    files();
    Path out = Files.write(dir.resolve("out"), PREVIOUS);
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-------"));
    String[][] commands = {
      {"encode", f.toString(), out.toString()},
      {"encode", f.toString(), "--outboard=" + out},
      {"encode", "-", out.toString()},
      {"decode", HASH, enc.toString(), out.toString()},
      {"decode", HASH, f.toString(), "--outboard=" + ob, out.toString()},
      {"decode", HASH, "-", out.toString()},
      {"slice", "1000", "5000", enc.toString(), out.toString()},
      {"decode-slice", HASH, "1000", "5000", slice.toString(), out.toString()},
    };
    byte[][] expected = {BAO.encode(DATA), BAO.outboard(DATA), BAO.encode(DATA), DATA, DATA, DATA,
        Files.readAllBytes(slice), Arrays.copyOfRange(DATA, 1000, 6000)};
    byte[][] stdin = {{}, {}, DATA, {}, {}, BAO.encode(DATA), {}, {}};
    for (int i = 0; i < commands.length; i++) {
      String what = String.join(" ", commands[i]).replace(dir.toString(), "$D").replace(HASH, "H");
      Files.write(out, PREVIOUS);
      Run r = run(StdFiles.NONE, new ByteArrayInputStream(stdin[i]), commands[i]);
      assertEquals(0, r.status, what + ": " + r.err);
      assertArrayEquals(expected[i], Files.readAllBytes(out), what);
      assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)), what);
      row("bao " + what + " (out existed, rw-------)", "status 0, replaced whole, permissions kept");
    }
    assertEquals(java.util.Set.of("", "f", "f.bao", "f.obao", "s.slice", "out"), snapshot(dir).keySet(),
        "no stray file");
  }

  @Test
  void fifosAndStreamsAsInputs() throws Exception {
    files();
    Path fifo = FileSafetyKit.fifo(dir.resolve("fifo"));
    Path out = dir.resolve("out");
    Object[][] cases = {
      {"encode FIFO out", DATA, BAO.encode(DATA), new String[] {"encode", fifo.toString(), out.toString()}},
      {"encode FIFO --outboard=out", DATA, BAO.outboard(DATA),
        new String[] {"encode", fifo.toString(), "--outboard=" + out}},
      {"decode H FIFO out", BAO.encode(DATA), DATA, new String[] {"decode", HASH, fifo.toString(), out.toString()}},
      {"decode H FIFO --outboard=f.obao out", DATA, DATA,
        new String[] {"decode", HASH, fifo.toString(), "--outboard=" + ob, out.toString()}},
      {"decode-slice H 1000 5000 FIFO out", Files.readAllBytes(slice), Arrays.copyOfRange(DATA, 1000, 6000),
        new String[] {"decode-slice", HASH, "1000", "5000", fifo.toString(), out.toString()}},
    };
    for (Object[] c : cases) {
      Files.write(out, PREVIOUS);
      Thread w = FileSafetyKit.feed(fifo, (byte[]) c[1]);
      Run r = run((String[]) c[3]);
      w.join();
      assertEquals(0, r.status, c[0] + ": " + r.err);
      assertArrayEquals((byte[]) c[2], Files.readAllBytes(out), (String) c[0]);
      row("bao " + c[0], "status 0, right output");
    }
    Thread w = FileSafetyKit.feed(fifo, BAO.encode(DATA));
    Map<String, String> before = snapshot(dir);
    Run r = run("slice", "0", "100", fifo.toString(), out.toString());
    w.interrupt();
    assertEquals("Error: Illegal seek (os error 29)\n", r.err, "slice reads by position, as the official tool's");
    assertUnchanged(before, dir, "slice of a FIFO");
    row("bao slice 0 100 FIFO out", "status 1, Error: Illegal seek (os error 29) (the official tool seeks too); "
        + "earlier file intact");
    // A failed stream to stdout keeps the verified bytes written before the failure (windows of
    // 1 MiB are verified at once: the content is longer than a few).
    byte[] big = new byte[3 << 20];
    new Random(8).nextBytes(big);
    byte[] corrupt = BAO.encode(big);
    corrupt[corrupt.length - 100] ^= 1;
    Run partial = run(StdFiles.NONE, new ByteArrayInputStream(corrupt), "decode", Blake3.toHex(Blake3.hash(big)));
    assertEquals(1, partial.status);
    assertTrue(partial.out.length > 0 && partial.out.length < big.length, "some verified bytes: " + partial.out.length);
    assertArrayEquals(Arrays.copyOf(big, partial.out.length), partial.out, "stdout holds verified bytes only");
    row("bao decode H < corrupt.bao (3 MiB, last chunk bad; to stdout)",
        "status 1, stdout keeps the " + partial.out.length + " verified bytes before the bad chunk (documented)");
  }
}
