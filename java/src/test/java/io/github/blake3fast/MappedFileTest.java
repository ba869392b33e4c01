package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.RandomAccessFile;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files read through memory mappings by the native kernel (native/src/blake3_mapped.c): the
 * same values as from memory, and a file that shrinks under a mapping gives a fault code or an
 * IOException, never a SIGBUS that ends the JVM. Without the guard, the tests that read past
 * the end of a file kill this JVM.
 */
class MappedFileTest {
  private static final int MIB = 1 << 20;

  @TempDir
  Path dir;

  private static NativeKernel nativeKernel() {
    Kernel k = Engine.kernel();
    assumeTrue(k instanceof NativeKernel, "the native kernel maps files; this JVM runs " + k.name());
    return (NativeKernel) k;
  }

  private Path write(String name, byte[] data) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, data);
    return p;
  }

  @Test
  void aMappedRangeHashesAsTheSameBytesInMemory() throws IOException {
    NativeKernel k = nativeKernel();
    byte[] data = new byte[3 * MIB + 4096 + 1024];
    new Random(5).nextBytes(data);
    Path p = write("same", data);
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "r")) {
      // Offsets on and off page boundaries, counters of aligned and unaligned subtrees.
      long[][] cases = {{0, MIB, 0}, {4096, MIB, 1024}, {1024, 2 * MIB, 3}, {3 * MIB, 5120, 77}};
      for (long[] c : cases) {
        int[] mapped = new int[8 * 128];
        int[] copied = new int[8 * 128];
        int n = k.hashMapped(raf.getFD(), c[0], (int) c[1], data.length, Spec.iv(), c[2], 0, mapped, 0);
        int m = k.hashSubtrees(data, (int) c[0], (int) c[1], Spec.iv(), c[2], 0, copied, 0);
        assertEquals(m, n, Arrays.toString(c));
        // The values only: a kernel may use the room after them as a work area.
        assertArrayEquals(Arrays.copyOf(copied, 8 * m), Arrays.copyOf(mapped, 8 * n), Arrays.toString(c));
      }
    }
  }

  @Test
  void aRangePastTheEndIsAFaultNotACrash() throws IOException {
    NativeKernel k = nativeKernel();
    byte[] data = new byte[2 * MIB];
    new Random(6).nextBytes(data);
    Path p = write("short", data);
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "r")) {
      try (RandomAccessFile w = new RandomAccessFile(p.toFile(), "rw")) {
        w.setLength(MIB + 100); // as if truncated after the caller took the size
      }
      int[] cvs = new int[8 * 128];
      for (int i = 0; i < 3; i++) {
        assertEquals(Kernel.MAPPED_FAULT,
            k.hashMapped(raf.getFD(), 0, 2 * MIB, 2 * MIB, Spec.iv(), 0, 0, cvs, 0), "try " + i);
        assertEquals(Kernel.MAPPED_FAULT,
            k.hashMapped(raf.getFD(), 2 * MIB - 4096, 4096, 2 * MIB, Spec.iv(), 0, 0, cvs, 0), "a page past the end");
      }
      // What is still there maps and hashes as before.
      int[] copied = new int[8 * 128];
      assertEquals(1, k.hashMapped(raf.getFD(), 0, MIB, 2 * MIB, Spec.iv(), 0, 0, cvs, 0));
      k.hashSubtrees(data, 0, MIB, Spec.iv(), 0, 0, copied, 0);
      assertArrayEquals(Arrays.copyOf(copied, 8), Arrays.copyOf(cvs, 8));
    }
  }

  @Test
  void theJvmStillTurnsItsOwnMappedFaultsIntoErrors() throws IOException {
    NativeKernel k = nativeKernel();
    Path p = write("jvm", new byte[64 << 10]);
    try (RandomAccessFile raf = new RandomAccessFile(p.toFile(), "r");
        FileChannel ch = raf.getChannel()) {
      int[] cvs = new int[8 * 128];
      assertEquals(1, k.hashMapped(raf.getFD(), 0, 1024, 64 << 10, Spec.iv(), 0, 0, cvs, 0)); // handler installed
      MappedByteBuffer m = ch.map(FileChannel.MapMode.READ_ONLY, 0, 64 << 10);
      try (RandomAccessFile w = new RandomAccessFile(p.toFile(), "rw")) {
        w.setLength(0);
      }
      // The SIGBUS of Java code is not the library's: forwarded to the JVM, which throws an
      // InternalError, from compiled code at its next check (so the sleep inside the try).
      InternalError error = null;
      try {
        byte b = m.get(40_000);
        Thread.sleep(50);
        fail("read " + b + " past the end of the file");
      } catch (InternalError e) {
        error = e;
      } catch (InterruptedException e) {
        throw new AssertionError(e);
      }
      assertTrue(String.valueOf(error.getMessage()).contains("fault"), String.valueOf(error.getMessage()));
    }
  }

  /**
   * Another thread truncates the file at a random moment while hashFile reads it: every call
   * ends in an IOException saying so or in the hash of one whole version of the file.
   */
  @Test
  void aFileTruncatedWhileHashedIsAnErrorOrAHashOfOneVersion() throws Exception {
    nativeKernel();
    byte[] data = new byte[24 * MIB];
    new Random(7).nextBytes(data);
    int shrankSeen = 0;
    for (int round = 0; round < 12; round++) {
      int cut = ThreadLocalRandom.current().nextInt(data.length);
      Path p = write("racing" + round, data);
      AtomicBoolean go = new AtomicBoolean();
      Thread cutter = new Thread(() -> {
        while (!go.get()) {
          Thread.onSpinWait();
        }
        try {
          Thread.sleep(ThreadLocalRandom.current().nextInt(4));
          try (RandomAccessFile w = new RandomAccessFile(p.toFile(), "rw")) {
            w.setLength(cut);
          }
        } catch (Exception e) {
          throw new AssertionError(e);
        }
      });
      cutter.start();
      go.set(true);
      try {
        byte[] h = Blake3.hashFile(p);
        if (!Arrays.equals(h, Blake3.hash(data)) && !Arrays.equals(h, Blake3.hash(Arrays.copyOf(data, cut)))) {
          fail("round " + round + ": a hash of neither version (cut at " + cut + ")");
        }
      } catch (IOException e) {
        assertTrue(e.getMessage().contains("shrank"), e.getMessage());
        shrankSeen++;
      }
      cutter.join();
      Files.delete(p);
    }
    System.out.println("MappedFileTest: " + shrankSeen + " of 12 truncations seen while hashing");
  }

  /** The switch: only "false" turns mapping off. */
  @Test
  void theMmapSwitchTurnsMappingOffOnlyWhenFalse() {
    assertTrue(FileWindows.mapSwitch(null));
    assertTrue(FileWindows.mapSwitch("true"));
    assertTrue(FileWindows.mapSwitch("yes"));
    assertEquals(false, FileWindows.mapSwitch("false"));
    assertEquals(false, FileWindows.mapSwitch(" FALSE "));
  }

  /**
   * {@code -Dblake3.native.mmap=false} keeps {@code hashFile} from mapping the file at all (the
   * library's SIGBUS handler then is never installed), and the hash stays the same: a child JVM
   * watches its own /proc/self/maps while it hashes, with and without the switch.
   */
  @Test
  void hashFileMapsByDefaultAndNeverWithTheSwitchOff() throws Exception {
    nativeKernel();
    assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "files are mapped only with helper threads");
    byte[] data = new byte[40 * MIB + 77];
    new Random(6).nextBytes(data);
    Path p = write("watched", data);
    String expected = Blake3.toHex(Blake3.hash(data));
    ReliabilityKit.Child on = ReliabilityKit.runJava(List.of(), MapWatchMain.class, List.of(p.toString()), 120);
    ReliabilityKit.Child off = ReliabilityKit.runJava(List.of("-Dblake3.native.mmap=false"), MapWatchMain.class,
        List.of(p.toString()), 120);
    assertEquals(0, on.status, on.output);
    assertEquals(0, off.status, off.output);
    assertTrue(on.output.contains("hash " + expected + " mapped true"), on.output);
    assertTrue(off.output.contains("hash " + expected + " mapped false"), off.output);
  }

  /** Child of the test above: hashes the file a few times while a thread looks for it in its maps. */
  static final class MapWatchMain {
    public static void main(String[] args) throws Exception {
      Path file = Path.of(args[0]);
      String name = file.toRealPath().toString();
      AtomicBoolean seen = new AtomicBoolean();
      AtomicBoolean done = new AtomicBoolean();
      Thread watcher = new Thread(() -> {
        while (!done.get() && !seen.get()) {
          try {
            for (String line : Files.readAllLines(Path.of("/proc/self/maps"))) {
              if (line.endsWith(name)) {
                seen.set(true);
              }
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      });
      watcher.start();
      byte[] h = null;
      for (int i = 0; i < 20 && !seen.get(); i++) {
        h = Blake3.hashFile(file);
      }
      done.set(true);
      watcher.join();
      System.out.println("hash " + Blake3.toHex(h) + " mapped " + seen.get());
    }
  }
}
