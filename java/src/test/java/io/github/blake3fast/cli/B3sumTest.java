package io.github.blake3fast.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * b3sum behaviour that needs no official tool to compare with: known hashes, --tag and --seek
 * (newer than Debian's b3sum 1.2.0), check round trips, and the parsing helpers.
 */
class B3sumTest {
  @TempDir Path dir;

  private static final String HELLO = "ea8f163db38682925e4491c5e58d4bb3506ef8c14eb78a86e908c5624a67200f";

  private static final class Run {
    final String out;
    final String err;
    final int status;

    Run(String out, String err, int status) {
      this.out = out;
      this.err = err;
      this.status = status;
    }
  }

  private static Run run(byte[] stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = B3sum.run(args, new ByteArrayInputStream(stdin),
        new PrintStream(out, false, StandardCharsets.UTF_8), new PrintStream(err, false, StandardCharsets.UTF_8));
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), status);
  }

  private static Run run(String... args) {
    return run(new byte[0], args);
  }

  private Path file(String name, String content) throws IOException {
    return Files.write(dir.resolve(name), content.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void hashesFilesAndStdin() throws IOException {
    Path a = file("a", "hello");
    assertEquals(HELLO + "  " + a + "\n", run(a.toString()).out);
    assertEquals(HELLO + "\n", run("hello".getBytes(StandardCharsets.UTF_8), "--no-names").out);
    assertEquals(HELLO.substring(0, 10) + "  -\n", run("hello".getBytes(StandardCharsets.UTF_8), "-l5", "-").out);
  }

  @Test
  void largeAndStreamedInputsMatchTheLibrary() throws IOException {
    byte[] big = new byte[(5 << 20) + 77]; // past the small-file buffer and the parallel threshold
    new java.util.Random(3).nextBytes(big);
    Path p = Files.write(dir.resolve("big"), big);
    String expected = Blake3.toHex(Blake3.hash(big));
    assertEquals(expected + "  " + p + "\n", run(p.toString()).out);
    assertEquals(expected + "  " + p + "\n", run("--num-threads", "1", p.toString()).out);
    assertEquals(expected + "  " + p + "\n", run("--no-mmap", p.toString()).out);
    assertEquals(expected + "\n", run(big, "--no-names").out);
    byte[] small = java.util.Arrays.copyOf(big, Inputs.SMALL);
    Path s = Files.write(dir.resolve("small"), small);
    assertEquals(Blake3.toHex(Blake3.hash(small, 100)) + "\n", run("--no-names", "-l", "100", s.toString()).out);
    assertEquals(Blake3.toHex(Blake3.hash(small, 5000)) + "\n", run("--no-names", "-l", "5000", s.toString()).out);
  }

  /** Runs with the words' bytes as the process would have received them. */
  private static Run runRaw(byte[][] rawWords, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    RawArgs raw = new RawArgs(rawWords);
    int status = B3sum.run(args, raw, new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, false, StandardCharsets.UTF_8), new PrintStream(err, false, StandardCharsets.UTF_8));
    return new Run(out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), status);
  }

  private static byte[] bytes(int... b) {
    byte[] r = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      r[i] = (byte) b[i];
    }
    return r;
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  /**
   * A --derive-key context whose bytes the JVM replaced (a UTF-8 locale writes U+FFFD for what
   * does not decode, the C locale {@code ?} for every non-ASCII byte) is taken from its bytes: not
   * UTF-8 ends the run as the official tool's panic does; UTF-8 gives the context typed.
   */
  @Test
  void contextFromItsBytes() throws IOException {
    Path a = file("a", "hello");
    byte[] msg = "hello".getBytes(StandardCharsets.UTF_8);
    byte[] f = ascii(a.toString());
    byte[] nn = ascii("--no-names");
    byte[] dk = ascii("--derive-key");
    String notUtf8 = "b3sum: unexpected invalid UTF-8 code point\n";

    Run r = runRaw(new byte[][] {dk, bytes('c', 't', 'x', 0xff), nn, f}, "--derive-key", "ctx\uFFFD", "--no-names", a.toString());
    assertEquals(notUtf8, r.err);
    assertEquals("", r.out);
    assertEquals(101, r.status);
    // an encoded surrogate (CESU-8) is not UTF-8 either
    r = runRaw(new byte[][] {bytes('-', '-', 'd', 'e', 'r', 'i', 'v', 'e', '-', 'k', 'e', 'y', '=', '=', 0xed, 0xa0, 0x80), nn, f},
        "--derive-key==\uFFFD\uFFFD\uFFFD", "--no-names", a.toString());
    assertEquals(notUtf8, r.err);
    assertEquals(101, r.status);
    // a real U+FFFD, typed
    r = runRaw(new byte[][] {dk, bytes('c', 't', 'x', 0xef, 0xbf, 0xbd), nn, f}, "--derive-key", "ctx\uFFFD", "--no-names", a.toString());
    assertEquals(Blake3.toHex(Blake3.deriveKey("ctx\uFFFD", msg)) + "\n", r.out);
    assertEquals(0, r.status);
    // the C locale's decoding of "café"
    r = runRaw(new byte[][] {dk, bytes('c', 'a', 'f', 0xc3, 0xa9), nn, f}, "--derive-key", "caf??", "--no-names", a.toString());
    assertEquals(Blake3.toHex(Blake3.deriveKey("caf\u00e9", msg)) + "\n", r.out);
    // bytes that cannot be what main got (another ASCII) are not used
    r = runRaw(new byte[][] {dk, bytes('x', 'y', 'z', 0xff), nn, f}, "--derive-key", "ctx?", "--no-names", a.toString());
    assertEquals(Blake3.toHex(Blake3.deriveKey("ctx?", msg)) + "\n", r.out);
    // in process, without bytes: a string with an unpaired surrogate has no UTF-8
    r = run("--derive-key", "ctx\uD800", "--no-names", a.toString());
    assertEquals(notUtf8, r.err);
    assertEquals(101, r.status);
    r = run("--derive-key=\uD83D\uDE00", "--no-names", a.toString());
    assertEquals(Blake3.toHex(Blake3.deriveKey("\uD83D\uDE00", msg)) + "\n", r.out);
  }

  @Test
  void keyedAndDerivedModesMatchTheLibrary() throws IOException {
    Path a = file("a", "hello");
    byte[] key = new byte[32];
    for (int i = 0; i < 32; i++) {
      key[i] = (byte) i;
    }
    byte[] msg = "hello".getBytes(StandardCharsets.UTF_8);
    assertEquals(Blake3.toHex(Blake3.keyedHash(key, msg, 40)) + "\n", run(key, "--keyed", "--no-names", "-l", "40", a.toString()).out);
    assertEquals(Blake3.toHex(Blake3.deriveKey("ctx", msg)) + "\n", run("--derive-key", "ctx", "--no-names", a.toString()).out);
    Run refused = run(key, "--keyed", "-", a.toString());
    assertEquals("b3sum: -: Cannot open `-` in keyed mode\n", refused.err);
    assertEquals(1, refused.status);
  }

  @Test
  void tagLinesAreEscapedAndCheckedBack() throws IOException {
    Path a = file("a", "hello");
    Path odd = file("odd\\name\nx", "hello");
    Run r = run("--tag", a.toString(), odd.toString());
    String escaped = odd.toString().replace("\\", "\\\\").replace("\n", "\\n");
    assertEquals("BLAKE3 (" + a + ") = " + HELLO + "\n\\BLAKE3 (" + escaped + ") = " + HELLO + "\n", r.out);
    Path sums = Files.write(dir.resolve("sums"), r.out.getBytes(StandardCharsets.UTF_8));
    Run check = run("-c", sums.toString());
    assertEquals(a + ": OK\n\\" + escaped + ": OK\n", check.out);
    assertEquals(0, check.status);
  }

  @Test
  void seekReadsTheOutputFromAnOffset() throws IOException {
    Path a = file("a", "hello");
    String full = Blake3.toHex(Blake3.hash("hello".getBytes(StandardCharsets.UTF_8), 200));
    assertEquals(full.substring(2 * 50, 2 * 150) + "\n", run("--seek", "50", "-l", "100", "--no-names", a.toString()).out);
    assertEquals(full.substring(2 * 64, 2 * 96) + "\n", run("--seek=64", "--no-names", a.toString()).out);
    Run bad = run("--seek", "x1", a.toString());
    assertEquals("b3sum: " + a + ": Failed to parse seek.\n", bad.err);
    assertEquals(1, bad.status);
  }

  @Test
  void checkReportsEachKindOfResult() throws IOException {
    Path a = file("a", "hello");
    String wrong = HELLO.replace('e', 'f');
    Path sums = file("sums", HELLO + "  " + a + "\n" + wrong + "  " + a + "\n" + HELLO + "  " + dir.resolve("gone") + "\n\n");
    Run r = run("-c", sums.toString());
    assertEquals(a + ": OK\n" + a + ": FAILED\n" + dir.resolve("gone") + ": FAILED (No such file or directory (os error 2))\n", r.out);
    assertEquals("b3sum: Empty line\n", r.err);
    assertEquals(1, r.status);
    assertEquals(a + ": FAILED\n" + dir.resolve("gone") + ": FAILED (No such file or directory (os error 2))\n",
        run("-c", "--quiet", sums.toString()).out);
  }

  @Test
  void usageErrorsAndHelp() {
    Run r = run("--lenght", "4");
    assertEquals(1, r.status);
    assertEquals("error: Found argument '--lenght' which wasn't expected, or isn't valid in this context\n"
        + "\tDid you mean \u001b[32m--\u001b[0m\u001b[32mlength\u001b[0m?\n\nUSAGE:\n    b3sum --length <LEN>\n\n"
        + "For more information try --help\n", r.err);
    Run help = run("-h");
    assertEquals(0, help.status);
    assertTrue(help.out.contains("--tag") && help.out.contains("--seek <SEEK>"), help.out);
    assertTrue(run("-V").out.startsWith("b3sum "));
  }

  @Test
  void checkLinesParseAsVersion120Does() throws Exception {
    CheckLine l = CheckLine.parse("\\" + HELLO + "  a\\\\b\\nc\n");
    assertEquals("a\\b\nc", l.path);
    assertEquals("\\a\\\\b\\nc", l.shownName);
    assertEquals(HELLO, Blake3.toHex(l.expected));
    String[][] bad = {
      {"", "Empty line"}, {"\\", "Short line"}, {HELLO + "  ", "Short line"}, {HELLO + " xa", "Invalid space"},
      {HELLO.toUpperCase() + "  a", "Invalid hex"}, {"é" + HELLO.substring(2) + "  a", "Non-ASCII prefix"},
      {"\\" + HELLO + "  a\\r", "Invalid backslash escape"}, {HELLO + "  a\0", "Null character in path"},
      {HELLO + "  a\uFFFD", "Unicode replacement character in path"}, {"BLAKE3 (a) = " + HELLO.toUpperCase(), "Invalid space"},
    };
    for (String[] b : bad) {
      CheckLine.Malformed e = assertThrows(CheckLine.Malformed.class, () -> CheckLine.parse(b[0]), b[0]);
      assertEquals(b[1], e.getMessage(), b[0]);
    }
    assertEquals("a\r", CheckLine.parse(HELLO + "  a\r\n").path); // 1.2.0 keeps the CR
  }

  @Test
  void numbersParseAsRustDoes() throws Exception {
    assertEquals(5, Unsigned.parse("+5"));
    assertEquals(-1L, Unsigned.parse("18446744073709551615"));
    String[][] bad = {
      {"", "cannot parse integer from empty string"}, {"+", "invalid digit found in string"},
      {"-1", "invalid digit found in string"}, {"1x", "invalid digit found in string"},
      {"18446744073709551616", "number too large to fit in target type"},
      {"99999999999999999999x", "number too large to fit in target type"},
    };
    for (String[] b : bad) {
      Unsigned.BadNumber e = assertThrows(Unsigned.BadNumber.class, () -> Unsigned.parse(b[0]), b[0]);
      assertEquals(b[1], e.getMessage(), b[0]);
    }
  }

  @Test
  void suggestionsPickTheClosestLongName() {
    assertEquals(CliArg.NO_MMAP, Suggest.closestLong("no"));
    assertEquals(CliArg.NO_NAMES, Suggest.closestLong("nonames"));
    assertEquals(CliArg.HELP, Suggest.closestLong("he"));
    assertEquals(null, Suggest.closestLong("foo"));
  }

  /** Takes {@code room} bytes, then fails every write as a full disk does. */
  private static final class FullDisk extends OutputStream {
    final ByteArrayOutputStream kept = new ByteArrayOutputStream();
    final int room;
    int failedWrites;

    FullDisk(int room) {
      this.room = room;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (kept.size() + len > room) {
        failedWrites++;
        throw new IOException("No space left on device");
      }
      kept.write(b, off, len);
    }
  }

  private static Run runInto(OutputStream stdout, String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = B3sum.run(args, new ByteArrayInputStream(new byte[0]), stdout, err);
    return new Run(null, err.toString(StandardCharsets.UTF_8), status);
  }

  private static final String NO_SPACE = "No space left on device (os error 28)";

  @Test
  void lostOutputEndsTheRunWithAMessage() throws IOException {
    Path a = file("a", "hello");
    Path b = file("b", "world");
    String lost = "b3sum: failed printing to stdout: " + NO_SPACE + "\n";
    String[][] runs = {{a.toString(), b.toString()}, {"--tag", a.toString()}, {"--no-names", "-l", "100000", a.toString()},
      {"--help"}, {"-c", file("sums", HELLO + "  " + a + "\n").toString()}};
    for (String[] args : runs) {
      FullDisk disk = new FullDisk(0);
      Run r = runInto(disk, args);
      assertEquals(lost, r.err, String.join(" ", args));
      assertEquals(B3sum.OUTPUT_LOST, r.status, String.join(" ", args));
      assertEquals(1, disk.failedWrites, "the run ends at the first failed write: " + String.join(" ", args));
    }
    // A message due before the lost line gets out first; one due after it does not.
    Path nope = dir.resolve("nope");
    assertEquals("b3sum: " + nope + ": No such file or directory (os error 2)\n" + lost,
        runInto(new FullDisk(0), nope.toString(), a.toString()).err);
    assertEquals(lost, runInto(new FullDisk(0), a.toString(), nope.toString()).err);
    // Output gigabytes long stops at the first failure, not at its end.
    FullDisk some = new FullDisk(200_000);
    Run huge = runInto(some, "-l", "1000000000000", a.toString());
    assertEquals(lost, huge.err);
    assertEquals(1, some.failedWrites);
  }

  @Test
  void lostRawOutputIsTheInputsError() throws IOException {
    Path a = file("a", "hello");
    for (String len : new String[] {"32", "100000"}) {
      Run r = runInto(new FullDisk(10), "--raw", "-l", len, a.toString());
      assertEquals("b3sum: " + a + ": " + NO_SPACE + "\n", r.err, "-l " + len);
      assertEquals(1, r.status);
    }
  }

  @Test
  void aPrintStreamsHiddenErrorStillCounts() throws IOException {
    Path a = file("a", "hello");
    Run r = runInto(new PrintStream(new FullDisk(0), true, StandardCharsets.UTF_8), a.toString());
    assertEquals("b3sum: failed printing to stdout: write error (the PrintStream does not say which)\n", r.err);
    assertEquals(B3sum.OUTPUT_LOST, r.status);
  }

  @Test
  void aFailingStderrKeepsTheStatus() throws IOException {
    Path a = file("a", "hello");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status = B3sum.run(new String[] {dir.resolve("nope").toString(), a.toString()},
        new ByteArrayInputStream(new byte[0]), out, new FullDisk(0));
    assertEquals(1, status);
    assertEquals(HELLO + "  " + a + "\n", out.toString(StandardCharsets.UTF_8));
  }
}
