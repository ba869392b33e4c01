package io.github.blake3fast.bao;

import static io.github.blake3fast.bao.FileSafetyKit.assertUnchanged;
import static io.github.blake3fast.bao.FileSafetyKit.row;
import static io.github.blake3fast.bao.FileSafetyKit.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.blake3fast.Blake3;
import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Bao API's file outputs ({@code encode(Path, Path)}, {@code outboard(Path, Path)}, with
 * Bao's chunks and with 16 KiB groups) never write over their input, and appear whole or not at
 * all: every same-file form is refused with the input byte-identical, every failure leaves the
 * earlier output byte-identical and no stray file, on the engine this JVM chose (tag "engine":
 * the per-engine surefire runs repeat it). The command lines' sweeps are in the cli tests.
 */
@Tag("engine")
class BaoFileSafetyTest {
  @TempDir
  Path dir;

  private static final byte[] DATA = random(300_000, 41);
  private static final byte[] PREVIOUS = "the previous output, which must survive\n".getBytes();

  /** One public method with a file output. */
  private interface FileCall {
    byte[] run(Path in, Path out) throws IOException;
  }

  /** A call expected to fail. */
  private interface Body {
    Object run() throws IOException;
  }

  private static final Map<String, FileCall> CALLS = new LinkedHashMap<>();

  static {
    Blake3Bao grouped = Blake3Bao.withChunkGroups(4);
    CALLS.put("encode(Path, Path)", Blake3Bao.standard()::encode);
    CALLS.put("outboard(Path, Path)", Blake3Bao.standard()::outboard);
    CALLS.put("encode(Path, Path), 16 KiB groups", grouped::encode);
    CALLS.put("outboard(Path, Path), 16 KiB groups", grouped::outboard);
  }

  static byte[] random(int len, long seed) {
    byte[] b = new byte[len];
    new Random(seed).nextBytes(b);
    return b;
  }

  @Test
  void anOutputThatIsTheInputIsRefusedAndNothingChanges() throws Exception {
    Path f = Files.write(dir.resolve("f"), DATA);
    Files.createDirectory(dir.resolve("sub"));
    Path link = Files.createSymbolicLink(dir.resolve("link"), Paths.get("f"));
    Path hard = Files.createLink(dir.resolve("hard"), f);
    try (FileChannel open = FileChannel.open(f)) {
      Map<String, Path[]> forms = new LinkedHashMap<>();
      forms.put("the same name", new Path[] {f, f});
      forms.put("another spelling (sub/../f)", new Path[] {f, dir.resolve("sub/../f")});
      forms.put("a symlink as output", new Path[] {f, link});
      forms.put("a symlink as input", new Path[] {link, f});
      forms.put("a hard link", new Path[] {f, hard});
      forms.put("/proc/self/fd/N", new Path[] {f, FileSafetyKit.procFd(f)});
      for (Map.Entry<String, FileCall> call : CALLS.entrySet()) {
        for (Map.Entry<String, Path[]> form : forms.entrySet()) {
          String what = call.getKey() + ", output " + form.getKey();
          Map<String, String> before = snapshot(dir);
          Path in = form.getValue()[0];
          Path out = form.getValue()[1];
          FileSystemException e = assertThrows(FileSystemException.class, () -> call.getValue().run(in, out), what);
          assertEquals("input file is output file", e.getReason(), what);
          assertEquals(in.toString(), e.getFile(), what);
          assertEquals(out.toString(), e.getOtherFile(), what);
          assertUnchanged(before, dir, what);
          assertArrayEquals(DATA, Files.readAllBytes(f), what);
          row("API " + what, "refused (" + e.getMessage().replace(dir.toString(), "$D") + "), input intact");
        }
      }
    }
  }

  @Test
  void anOutputIsReplacedWholeKeepingItsPermissionsAndLinks() throws Exception {
    Path in = Files.write(dir.resolve("in"), DATA);
    Blake3Bao bao = Blake3Bao.standard();
    Path out = Files.write(dir.resolve("out"), PREVIOUS);
    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
    assertArrayEquals(Blake3.hash(DATA), bao.encode(in, out));
    assertArrayEquals(bao.encode(DATA), Files.readAllBytes(out));
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));

    Path link = Files.createSymbolicLink(dir.resolve("link"), Paths.get("out"));
    bao.outboard(in, link);
    assertTrue(Files.isSymbolicLink(link), "the link stays a link");
    assertArrayEquals(bao.outboard(DATA), Files.readAllBytes(out), "its target gets the new content");
    assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));

    Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), Paths.get("made"));
    bao.encode(in, dangling);
    assertTrue(Files.isSymbolicLink(dangling));
    assertArrayEquals(bao.encode(DATA), Files.readAllBytes(dir.resolve("made")), "a link to nothing makes its target");

    Path fresh = dir.resolve("fresh");
    bao.encode(in, fresh);
    Path plain = Files.write(dir.resolve("plain"), new byte[1]);
    assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(fresh),
        "a new output gets a new file's permissions (the umask's), as the official tool's");
    assertEquals(Map.of(), strays(), "no temporary file left");
    row("API encode/outboard over an existing file, a symlink, a dangling symlink",
        "replaced whole; permissions kept, links kept");
  }

  /** Names in the directory that look like this library's temporary files. */
  private Map<String, String> strays() throws IOException {
    Map<String, String> m = new LinkedHashMap<>();
    snapshot(dir).forEach((k, v) -> {
      if (k.endsWith(".tmp")) {
        m.put(k, v);
      }
    });
    return m;
  }

  @Test
  void aFailedWriteLeavesTheEarlierOutputAndNoStrayFile() throws Exception {
    Path in = Files.write(dir.resolve("in"), DATA);
    Path out = Files.write(dir.resolve("out"), PREVIOUS);
    Path sub = Files.createDirectory(dir.resolve("sub"));
    Files.write(sub.resolve("kept"), PREVIOUS);
    for (Map.Entry<String, FileCall> call : CALLS.entrySet()) {
      FileCall c = call.getValue();
      failure(call.getKey() + ", output is a directory", () -> c.run(in, sub), FileSystemException.class);
      failure(call.getKey() + ", output in a missing directory", () -> c.run(in, dir.resolve("none/out")),
          NoSuchFileException.class);
      failure(call.getKey() + ", input missing", () -> c.run(dir.resolve("missing"), out), NoSuchFileException.class);
      failure(call.getKey() + ", input unreadable (a directory)", () -> c.run(sub, out), IOException.class);
      failure(call.getKey() + ", caller interrupted", () -> {
        Thread.currentThread().interrupt();
        try {
          return c.run(in, out);
        } finally {
          Thread.interrupted();
        }
      }, ClosedByInterruptException.class);
      if (Files.exists(Paths.get("/dev/full"))) {
        IOException e = failure(call.getKey() + ", output /dev/full", () -> c.run(in, Paths.get("/dev/full")),
            IOException.class);
        assertTrue(String.valueOf(e.getMessage()).contains("No space left on device"), e.toString());
      }
    }
  }

  private <T extends Throwable> T failure(String what, Body body, Class<T> expected) throws IOException {
    Map<String, String> before = snapshot(dir);
    T e = assertThrows(expected, body::run, what);
    assertUnchanged(before, dir, what);
    String message = String.valueOf(e.getMessage()).replace(dir.toString(), "$D");
    row("API " + what, e.getClass().getSimpleName() + " (" + message + "); earlier output intact, no stray file");
    return e;
  }

  @Test
  void aReadOnlyDirectoryIsAClearErrorAndNothingChanges() throws Exception {
    assumeTrue(FileSafetyKit.uid() != 0, "SKIPPED: root writes into a directory without write permission; "
        + "BaoCliProcessTest makes a read-only mount for root instead");
    Path in = Files.write(dir.resolve("in"), DATA);
    Path ro = Files.createDirectory(dir.resolve("ro"));
    Files.write(ro.resolve("out"), PREVIOUS);
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      for (Map.Entry<String, FileCall> call : CALLS.entrySet()) {
        failure(call.getKey() + ", read-only directory", () -> call.getValue().run(in, ro.resolve("out")),
            AccessDeniedException.class);
      }
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  /**
   * An interrupt from another thread at any moment of a large encode (several windows on
   * several threads): the output is then the earlier file or the whole new encoding, nothing
   * between, and no temporary file stays.
   */
  @Test
  void anInterruptAtAnyMomentLeavesTheOldOutputOrTheWholeNewOne() throws Exception {
    byte[] big = random(24 << 20, 7);
    Path in = Files.write(dir.resolve("big"), big);
    Path out = dir.resolve("out");
    byte[] whole = Blake3Bao.standard().outboard(big);
    int kept = 0;
    int completed = 0;
    for (int delayMs : new int[] {0, 1, 3, 5, 10, 20, 40, 80}) {
      Files.write(out, PREVIOUS);
      AtomicReference<Throwable> failure = new AtomicReference<>();
      Thread t = new Thread(() -> {
        try {
          Blake3Bao.standard().outboard(in, out);
        } catch (Throwable e) {
          failure.set(e);
        }
      });
      t.start();
      Thread.sleep(delayMs);
      t.interrupt();
      t.join();
      byte[] now = Files.readAllBytes(out);
      if (failure.get() != null) {
        assertTrue(failure.get() instanceof IOException, failure.get().toString());
        assertArrayEquals(PREVIOUS, now, "interrupted after " + delayMs + " ms: " + failure.get());
        kept++;
      } else {
        assertTrue(Arrays.equals(whole, now), "completed after an interrupt at " + delayMs + " ms, but not whole");
        completed++;
      }
      assertEquals(Map.of(), strays(), "after an interrupt at " + delayMs + " ms");
    }
    row("API outboard of 24 MiB, interrupted at 0 to 80 ms (8 runs)", kept + " failed with the earlier output intact, "
        + completed + " completed whole; no stray file");
  }

  @Test
  void aFifoInputIsReadAsAStream() throws Exception {
    Path fifo = FileSafetyKit.fifo(dir.resolve("fifo"));
    Blake3Bao bao = Blake3Bao.standard();
    for (Map.Entry<String, FileCall> call : CALLS.entrySet()) {
      Path out = Files.write(dir.resolve("out"), PREVIOUS);
      Thread w = FileSafetyKit.feed(fifo, DATA);
      assertArrayEquals(Blake3.hash(DATA), call.getValue().run(fifo, out), call.getKey());
      w.join();
      Path fromFile = dir.resolve("from-file");
      call.getValue().run(Files.write(dir.resolve("in"), DATA), fromFile);
      assertArrayEquals(Files.readAllBytes(fromFile), Files.readAllBytes(out), call.getKey() + " from a FIFO");
    }
    byte[] hash = Blake3.hash(DATA);
    FileSafetyKit.feed(fifo, bao.encode(DATA));
    try (Blake3BaoDecoder d = bao.decoder(hash, fifo)) {
      assertArrayEquals(DATA, d.readAllBytes(), "decoder(hash, FIFO)");
    }
    Path ob = Files.write(dir.resolve("ob"), bao.outboard(DATA));
    FileSafetyKit.feed(fifo, DATA);
    try (Blake3BaoDecoder d = bao.outboardDecoder(hash, fifo, ob)) {
      assertArrayEquals(DATA, d.readAllBytes(), "outboardDecoder(hash, FIFO, file)");
    }
    row("API encode/outboard(FIFO, file), decoder(hash, FIFO), outboardDecoder(hash, FIFO, file)",
        "right result (read as a stream)");
  }
}
