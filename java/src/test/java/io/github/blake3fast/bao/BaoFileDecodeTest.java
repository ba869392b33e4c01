package io.github.blake3fast.bao;

import static io.github.blake3fast.bao.BaoFileSafetyTest.random;
import static io.github.blake3fast.bao.FileSafetyKit.assertUnchanged;
import static io.github.blake3fast.bao.FileSafetyKit.row;
import static io.github.blake3fast.bao.FileSafetyKit.snapshot;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.Blake3;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Decoding a file into a file ({@code decode(hash, Path, Path)}, {@code decodeOutboard(hash,
 * Path, Path, Path)}), whose windows are verified on several threads: the content byte for byte
 * at every size around the window and group boundaries, for Bao's chunks, 16 KiB groups and
 * 2 MiB groups (a window of one group); a mismatch is always the one the streaming decoder meets
 * first reading from the start, whichever thread finds which; and the output is whole and
 * verified or as it was.
 */
@Tag("engine")
class BaoFileDecodeTest {
  @TempDir
  Path dir;

  private static final int MIB = 1 << 20;
  private static final byte[] PREVIOUS = "the previous output, which must survive\n".getBytes();

  @Test
  void everySizeAroundTheBoundariesDecodesToItsContent() throws Exception {
    int[] sizes = {0, 1, 1023, 1024, 1025, 16383, 16384, 16385, MIB - 1, MIB, MIB + 1, 2 * MIB, 3 * MIB + 4097,
        5 * MIB + 1, 2 * MIB + 16384};
    Blake3Bao[] baos = {Blake3Bao.standard(), Blake3Bao.withChunkGroups(4), Blake3Bao.withChunkGroups(11)};
    byte[] all = random(5 * MIB + 1, 7);
    for (Blake3Bao bao : baos) {
      for (int n : sizes) {
        byte[] content = java.util.Arrays.copyOf(all, n);
        Path c = Files.write(dir.resolve("c"), content);
        Path enc = Files.write(dir.resolve("enc"), bao.encode(content));
        Path ob = Files.write(dir.resolve("ob"), bao.outboard(content));
        byte[] hash = Blake3.hash(content);
        String what = bao + ", " + n + " bytes";
        Path out = dir.resolve("out");
        Files.deleteIfExists(out);
        bao.decode(hash, enc, out);
        assertArrayEquals(content, Files.readAllBytes(out), what + ", combined");
        Files.write(out, PREVIOUS);
        bao.decodeOutboard(hash, c, ob, out);
        assertArrayEquals(content, Files.readAllBytes(out), what + ", outboard");
      }
    }
  }

  /** The failure the streaming decoder meets reading from the start. */
  private static String streamingFailure(InputStream decoder) {
    Blake3BaoException e = assertThrows(Blake3BaoException.class, () -> {
      try (decoder) {
        decoder.readAllBytes();
      }
    });
    return e.getMessage();
  }

  @Test
  void theFailureReportedIsTheFirstInContentOrderWhicheverThreadFindsIt() throws Exception {
    Blake3Bao bao = Blake3Bao.standard();
    byte[] content = random(6 * MIB + 5000, 8);
    byte[] hash = Blake3.hash(content);
    byte[] encoding = bao.encode(content);
    byte[] outboard = bao.outboard(content);
    Random r = new Random(9);
    // Damage in two windows (the later one first in time for any thread that takes it first),
    // in a parent of a window, in the tail, and a content file cut short.
    for (int round = 0; round < 30; round++) {
      byte[] c = content.clone();
      byte[] o = outboard.clone();
      byte[] e = encoding.clone();
      String kind;
      switch (round % 5) {
        case 0: {
          int late = 4 * MIB + r.nextInt(MIB);
          int early = 2 * MIB + r.nextInt(MIB);
          c[late] ^= 1;
          c[early] ^= 1;
          e[8 + 64 * (late / 1024) + late] ^= 1; // near their chunks: a parent or a chunk
          e[8 + 64 * (early / 1024) + early] ^= 1;
          kind = "two damaged windows";
          break;
        }
        case 1: {
          int p = 8 + 64 * (1024 + r.nextInt(3000));
          o[p] ^= 0x40;
          kind = "a damaged parent";
          break;
        }
        case 2: {
          c[c.length - 1 - r.nextInt(5000)] ^= 2;
          kind = "damage in the tail after the last whole window";
          break;
        }
        case 3:
          c = java.util.Arrays.copyOf(c, 3 * MIB + r.nextInt(MIB));
          kind = "content cut short";
          break;
        default:
          // A thread finds the cut at once, the damage before it only after hashing its window.
          c[2 * MIB + r.nextInt(MIB)] ^= 4;
          c = java.util.Arrays.copyOf(c, 3 * MIB + 1 + r.nextInt(1000));
          kind = "a damaged window, then the content cut short";
      }
      Path cf = Files.write(dir.resolve("c"), c);
      Path of = Files.write(dir.resolve("o"), o);
      Path ef = Files.write(dir.resolve("e"), e);
      Path out = Files.write(dir.resolve("out"), PREVIOUS);
      Map<String, String> before = snapshot(dir);
      String expected = streamingFailure(bao.outboardDecoder(hash, c, o));
      Blake3BaoException got = assertThrows(Blake3BaoException.class, () -> bao.decodeOutboard(hash, cf, of, out),
          kind);
      assertEquals(expected, got.getMessage(), kind + ", outboard, round " + round);
      assertUnchanged(before, dir, kind);
      if (round % 5 == 0) {
        String expectedCombined = streamingFailure(bao.decoder(hash, e));
        Blake3BaoException g = assertThrows(Blake3BaoException.class, () -> bao.decode(hash, ef, out), kind);
        assertEquals(expectedCombined, g.getMessage(), kind + ", combined, round " + round);
        assertUnchanged(before, dir, kind);
      }
      if (round < 5) {
        row("API decodeOutboard(hash, Path, Path, Path), " + kind, "refused (" + got.getMessage()
            + ", as the streaming decoder says); earlier output intact, no stray file");
      }
    }
  }

  @Test
  void lyingLengthHeadersFailFastAsTheStreamingDecoderFails() throws Exception {
    for (int n : new int[] {2500, 3 * MIB + 100}) {
      byte[] content = random(n, 12);
      byte[] hash = Blake3.hash(content);
      Path c = Files.write(dir.resolve("c"), content);
      for (int groupLog : n > MIB ? new int[] {0, 4} : new int[] {0, 4, 16}) {
        Blake3Bao bao = Blake3Bao.withChunkGroups(groupLog);
        byte[] enc = bao.encode(content);
        byte[] ob = bao.outboard(content);
        for (long claim : new long[] {1L << 63, -1L, Long.MAX_VALUE, 1L << 62, 1L << 40, 1L << 22, n - 1, n + 1, 0}) {
          System.arraycopy(BaoTree.header(claim), 0, enc, 0, 8);
          System.arraycopy(BaoTree.header(claim), 0, ob, 0, 8);
          Path e = Files.write(dir.resolve("e"), enc);
          Path o = Files.write(dir.resolve("o"), ob);
          Path out = dir.resolve("out");
          String what = n + " bytes claiming " + Long.toUnsignedString(claim) + ", groups of 2^" + groupLog;
          String combined = streamingFailure(bao.decoder(hash, enc));
          String outboard = streamingFailure(bao.outboardDecoder(hash, content, ob));
          assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            assertEquals(combined, assertThrows(Blake3BaoException.class, () -> bao.decode(hash, e, out), what)
                .getMessage(), what);
            assertEquals(outboard, assertThrows(Blake3BaoException.class, () -> bao.decodeOutboard(hash, c, o, out),
                what).getMessage(), what);
          }, what);
          assertFalse(Files.exists(out), what + ": no output");
        }
      }
    }
  }

  @Test
  void manyDecodesAtOnceShareTheCommonPool() throws Exception {
    Blake3Bao bao = Blake3Bao.standard();
    ExecutorService callers = Executors.newFixedThreadPool(4);
    try {
      Future<?>[] f = new Future<?>[8];
      for (int i = 0; i < f.length; i++) {
        int seed = i;
        f[i] = callers.submit(() -> {
          byte[] content = random(MIB * (1 + seed % 3) + seed * 777, 100 + seed);
          Path c = Files.write(dir.resolve("c" + seed), content);
          Path ob = Files.write(dir.resolve("ob" + seed), bao.outboard(content));
          Path out = dir.resolve("out" + seed);
          bao.decodeOutboard(Blake3.hash(content), c, ob, out);
          assertArrayEquals(content, Files.readAllBytes(out), "decode " + seed);
          return null;
        });
      }
      for (Future<?> x : f) {
        x.get();
      }
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void anOutputThatIsAnInputIsRefusedAndAFailedWriteLeavesNothing() throws Exception {
    Blake3Bao bao = Blake3Bao.standard();
    byte[] content = random(2 * MIB + 3, 10);
    byte[] hash = Blake3.hash(content);
    Path c = Files.write(dir.resolve("c"), content);
    Path ob = Files.write(dir.resolve("ob"), bao.outboard(content));
    Path enc = Files.write(dir.resolve("enc"), bao.encode(content));
    Path link = Files.createSymbolicLink(dir.resolve("link"), Paths.get("ob"));
    Path[][] same = {{enc, enc}, {c, c}, {c, link}};
    for (Path[] s : same) {
      Map<String, String> before = snapshot(dir);
      FileSystemException e = assertThrows(FileSystemException.class,
          () -> {
            if (s[0] == enc) {
              bao.decode(hash, enc, s[1]);
            } else if (s[1] == link) {
              bao.decodeOutboard(hash, c, ob, link);
            } else {
              bao.decodeOutboard(hash, c, ob, c);
            }
          });
      assertEquals("input file is output file", e.getReason());
      assertUnchanged(before, dir, "output " + s[1]);
    }
    if (Files.exists(Paths.get("/dev/full"))) {
      IOException e = assertThrows(IOException.class, () -> bao.decodeOutboard(hash, c, ob, Paths.get("/dev/full")));
      assertTrue(String.valueOf(e.getMessage()).contains("No space left on device"), e.toString());
    }
    Path out = Files.write(dir.resolve("out"), PREVIOUS);
    Map<String, String> before = snapshot(dir);
    Thread.currentThread().interrupt();
    try {
      bao.decodeOutboard(hash, c, ob, out);
      fail("an interrupted caller's decode went on");
    } catch (java.nio.channels.ClosedByInterruptException expected) {
      // the channel closed: nothing was committed
    } finally {
      Thread.interrupted();
    }
    assertUnchanged(before, dir, "interrupted");
    assertArrayEquals(PREVIOUS, Files.readAllBytes(out));
  }

  @Test
  void aFifoInputOrOutputGoesThroughTheStreamingDecoder() throws Exception {
    Blake3Bao bao = Blake3Bao.standard();
    byte[] content = random(MIB + 99, 11);
    Path enc = Files.write(dir.resolve("enc"), bao.encode(content));
    Path fifo = FileSafetyKit.fifo(dir.resolve("fifo"));
    ExecutorService reader = Executors.newSingleThreadExecutor();
    try {
      Future<byte[]> got = reader.submit(() -> {
        try (FileChannel ch = FileChannel.open(fifo)) {
          return java.nio.channels.Channels.newInputStream(ch).readAllBytes();
        }
      });
      bao.decode(Blake3.hash(content), enc, fifo);
      assertArrayEquals(content, got.get());
    } finally {
      reader.shutdownNow();
    }
  }
}
