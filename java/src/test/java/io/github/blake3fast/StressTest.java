package io.github.blake3fast;

import static io.github.blake3fast.ReliabilityKit.HASH;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 16 threads hash a mix of sizes (0 to 6 MiB), modes and output lengths through every entry
 * point at once for {@code -Dblake3.stress.seconds} (30; CI passes 8), sharing the common pool,
 * a fixed pool, a direct buffer and files, and check every result against the Java reference
 * (the Java kernel, one-shot). Prints what each entry point did; any mismatch, exception or hung
 * thread fails the test with the thread's seed. {@code -Dblake3.stress.threads} changes 16,
 * {@code -Dblake3.stress.seed} replays.
 */
@Tag("stress")
class StressTest {
  private static final int THREADS = Integer.getInteger("blake3.stress.threads", 16);
  private static final long SEED = Long.getLong("blake3.stress.seed", System.nanoTime());
  private static final int POOL_LEN = 8 << 20;

  private static final String[] ENTRY = {
    "Blake3 one-shot", "Blake3Hasher arrays", "Blake3Hasher buffers", "updateParallel (common pool)",
    "updateParallel (fixed pool)", "updateParallel (direct)", "Blake3.hashParallel", "MessageDigest",
    "XOF seek", "copy()", "Blake3Hazmat pieces", "update(InputStream)", "updateFile", "digest(out, off, len)",
    "reset() and reuse",
  };

  private final AtomicLongArray ops = new AtomicLongArray(ENTRY.length);
  private final AtomicLongArray bytes = new AtomicLongArray(ENTRY.length);
  private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

  private byte[] pool;
  private ByteBuffer sharedDirect;
  private ExecutorService fixed;
  private final List<Path> files = new ArrayList<>();
  private final List<byte[]> fileData = new ArrayList<>();
  private final byte[][] keys = new byte[3][32];
  private final String[] contexts = {"", "blake3-fast stress 2026-11-30", "\u00e9t\u00e9 \u4e16\u754c context"};

  @Test
  void manyThreadsEveryEntryPoint(@TempDir Path dir) throws Exception {
    int seconds = ReliabilityKit.stressSeconds();
    SplittableRandom setup = new SplittableRandom(SEED);
    pool = ReliabilityKit.content(setup, POOL_LEN);
    sharedDirect = ByteBuffer.allocateDirect(POOL_LEN).put(pool).flip().asReadOnlyBuffer();
    for (byte[] k : keys) {
      for (int i = 0; i < 32; i++) {
        k[i] = (byte) setup.nextInt();
      }
    }
    for (int n : new int[] {0, 1000, 70_000, (4 << 20) + 4097}) {
      byte[] d = Arrays.copyOfRange(pool, 17, 17 + n);
      files.add(Files.write(dir.resolve("f" + n), d));
      fileData.add(d);
    }
    fixed = Executors.newFixedThreadPool(4);
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    Thread[] ts = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final long seed = SEED + 1_000_003L * t;
      ts[t] = new Thread(() -> work(seed, deadline), "stress-" + t);
      ts[t].start();
    }
    List<String> hung = new ArrayList<>();
    for (Thread t : ts) {
      t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000) + 120_000);
      if (t.isAlive()) {
        hung.add(t.getName() + "\n" + stack(t));
      }
    }
    fixed.shutdownNow();
    long totalOps = 0;
    long totalBytes = 0;
    StringBuilder table = new StringBuilder();
    for (int i = 0; i < ENTRY.length; i++) {
      table.append(String.format("  %-30s %9d calls %10.1f MiB%n", ENTRY[i], ops.get(i), bytes.get(i) / 1048576.0));
      totalOps += ops.get(i);
      totalBytes += bytes.get(i);
    }
    System.out.printf("StressTest: %d threads, %d s, seed %d (replay: -Dblake3.stress.seed=%d), engine %s:%n%s"
        + "  %-30s %9d calls %10.1f MiB, %d failures, %d hung%n", THREADS, seconds, SEED, SEED,
        Blake3.implementation(), table, "total", totalOps, totalBytes / 1048576.0, failures.size(), hung.size());
    if (!hung.isEmpty()) {
      fail("threads still running two minutes after the deadline:\n" + String.join("\n", hung));
    }
    if (!failures.isEmpty()) {
      List<String> some = new ArrayList<>(failures);
      fail(failures.size() + " failures (seed " + SEED + "):\n  " + String.join("\n  ", some.subList(0, Math.min(20,
          some.size()))));
    }
    for (int i = 0; i < ENTRY.length; i++) {
      if (ops.get(i) == 0 && seconds >= 5) {
        fail("entry point never ran: " + ENTRY[i]);
      }
    }
  }

  private static String stack(Thread t) {
    StringBuilder sb = new StringBuilder();
    for (StackTraceElement e : t.getStackTrace()) {
      sb.append("    at ").append(e).append('\n');
    }
    return sb.toString();
  }

  private void work(long seed, long deadline) {
    SplittableRandom r = new SplittableRandom(seed);
    Blake3Hasher reused = null;
    int reusedMode = -1;
    while (System.nanoTime() < deadline) {
      long opSeed = r.nextLong();
      SplittableRandom o = new SplittableRandom(opSeed);
      int entry = o.nextInt(ENTRY.length);
      try {
        if (entry == 14) {
          // a long-lived hasher of this thread, reset and reused
          int mode = o.nextInt(3);
          if (reused == null || mode != reusedMode) {
            reused = ReliabilityKit.publicHasher(mode, keys[0], contexts[1]);
            reusedMode = mode;
          }
          one(o, entry, mode, reused.reset());
        } else {
          one(o, entry, o.nextInt(3), null);
        }
      } catch (Throwable e) {
        failures.add(Thread.currentThread().getName() + " op seed " + opSeed + " " + ENTRY[entry] + ": " + e);
      }
    }
  }

  /** One operation: an input, a mode, an output length, an entry point; checked. */
  private void one(SplittableRandom o, int entry, int mode, Blake3Hasher reused) throws Exception {
    byte[] key = keys[o.nextInt(keys.length)];
    String context = contexts[o.nextInt(contexts.length)];
    if (reused != null) {
      key = keys[0];
      context = contexts[1];
    }
    int p = o.nextInt(100);
    int len = p < 45 ? o.nextInt(1100) : p < 70 ? o.nextInt(20_000) : p < 87 ? o.nextInt(300_000)
        : p < 97 ? o.nextInt(2 << 20) : o.nextInt(6 << 20);
    if (entry >= 3 && entry <= 6 && o.nextInt(3) == 0) {
      len = (1 << 20) + o.nextInt(5 << 20); // make the parallel paths go parallel
    }
    int q = o.nextInt(100);
    int outLen = q < 60 ? 32 : q < 85 ? o.nextInt(200) : 200 + o.nextInt(4800);
    int off = o.nextInt(POOL_LEN - len + 1);
    final int poolOff = off; // in[off, off + len) is pool[poolOff, poolOff + len), as in the shared direct buffer
    byte[] in = pool;
    if (o.nextInt(4) == 0) { // a fresh array now and then: garbage for the collector
      in = Arrays.copyOfRange(pool, off, off + len);
      off = 0;
    }
    Path file = null;
    if (entry == 12) {
      int f = o.nextInt(files.size());
      file = files.get(f);
      in = fileData.get(f);
      off = 0;
      len = in.length;
    }
    byte[] got;
    byte[] want;
    Blake3Hasher used = null; // a derive-key failure's message says what key it held
    switch (entry) {
      case 0:
        got = ReliabilityKit.publicOneShot(mode, key, context, Arrays.copyOfRange(in, off, off + len), outLen);
        break;
      case 1:
      case 2: {
        Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context);
        used = h;
        int at = off;
        for (int piece : ReliabilityKit.splits(o, len)) {
          if (entry == 1) {
            h.update(in, at, piece);
          } else {
            int k = o.nextInt(3);
            int pa = poolOff + (at - off);
            h.update(k == 0 ? ByteBuffer.wrap(in, at, piece) : k == 1 ? ByteBuffer.wrap(in, at, piece).asReadOnlyBuffer()
                : sharedDirect.duplicate().position(pa).limit(pa + piece));
          }
          at += piece;
        }
        got = h.digest(outLen);
        break;
      }
      case 3:
      case 4:
        got = ReliabilityKit.publicHasher(mode, key, context)
            .updateParallel(in, off, len, entry == 3 ? java.util.concurrent.ForkJoinPool.commonPool() : fixed)
            .digest(outLen);
        break;
      case 5: {
        ByteBuffer d = sharedDirect.duplicate().position(poolOff).limit(poolOff + len);
        got = ReliabilityKit.publicHasher(mode, key, context).updateParallel(d, fixed).digest(outLen);
        break;
      }
      case 6:
        mode = HASH;
        outLen = 32;
        got = Blake3.hashParallel(Arrays.copyOfRange(in, off, off + len), o.nextBoolean() ? fixed
            : java.util.concurrent.ForkJoinPool.commonPool());
        break;
      case 7: {
        mode = HASH;
        outLen = 32;
        MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
        int at = off;
        for (int piece : ReliabilityKit.splits(o, len)) {
          md.update(in, at, piece);
          at += piece;
        }
        got = md.digest();
        break;
      }
      case 8: {
        Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context).update(in, off, len);
        used = h;
        Blake3OutputReader x = h.xof();
        int seek = o.nextInt(3000);
        x.seek(seek);
        byte[] tail = new byte[outLen];
        x.read(tail);
        want = ReliabilityKit.reference(mode, key, context, in, off, len, seek + outLen);
        check(entry, Arrays.copyOfRange(want, seek, seek + outLen), tail, mode, len, outLen, "seek " + seek);
        bytes.addAndGet(entry, len);
        ops.incrementAndGet(entry);
        return;
      }
      case 9: {
        Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context);
        used = h;
        int half = o.nextInt(len + 1);
        h.update(in, off, half);
        Blake3Hasher c = h.copy();
        h.update(in, off + half, len - half);
        c.update(ByteBuffer.wrap(in, off + half, len - half));
        byte[] a = h.digest(outLen);
        got = c.digest(outLen);
        check(entry, a, got, mode, len, outLen, "original vs copy at " + half);
        break;
      }
      case 10: {
        Blake3Hazmat.Mode m = ReliabilityKit.hazmatMode(mode, key, context);
        List<Blake3Hazmat.Piece> pieces = new ArrayList<>();
        int at = 0;
        while (true) {
          int rest = len - at;
          int take = rest <= 1024 || o.nextInt(3) == 0 ? rest : 1024 * (1 + o.nextInt((rest - 1) / 1024));
          pieces.add(Blake3Hazmat.hashPiece(in, off + at, take, at, m));
          at += take;
          if (at == len) {
            break;
          }
        }
        java.util.Collections.shuffle(pieces, new java.util.Random(o.nextLong()));
        got = new byte[outLen];
        Blake3Hazmat.rootOutputReader(pieces, m).read(got);
        break;
      }
      case 11:
        got = ReliabilityKit.publicHasher(mode, key, context).update(new ByteArrayInputStream(in, off, len))
            .digest(outLen);
        break;
      case 12: {
        Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context);
        used = h;
        if (o.nextBoolean()) {
          h.updateFile(file);
        } else {
          h.updateFile(file, 1 + o.nextInt(3));
        }
        got = h.digest(outLen);
        break;
      }
      case 13: {
        Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context).update(in, off, len);
        used = h;
        byte[] out = new byte[outLen + 10];
        h.digest(out, 5, outLen);
        got = Arrays.copyOfRange(out, 5, 5 + outLen);
        break;
      }
      default:
        used = reused;
        got = reused.update(in, off, len).digest(outLen);
        break;
    }
    want = ReliabilityKit.reference(mode, key, context, in, off, len, outLen);
    String more = "";
    if (mode == ReliabilityKit.DERIVE && !Arrays.equals(want, got)) {
      // enough to tell offline which key gave the output (the ones seen were a key of zeros)
      more = "context \"" + context + "\", output " + Blake3.toHex(Arrays.copyOf(got, Math.min(16, outLen)))
          + (used != null ? ", " + ReliabilityKit.deriveDiagnosis(used, context) : "");
    }
    check(entry, want, got, mode, len, outLen, more);
    bytes.addAndGet(entry, len);
    ops.incrementAndGet(entry);
  }

  private void check(int entry, byte[] want, byte[] got, int mode, int len, int outLen, String more) {
    if (!Arrays.equals(want, got)) {
      failures.add(Thread.currentThread().getName() + " " + ENTRY[entry] + ": wrong output, "
          + ReliabilityKit.MODE_NAMES[mode] + ", " + len + " bytes, output " + outLen + " bytes, first difference at "
          + ReliabilityKit.firstDifference(want, got) + (more.isEmpty() ? "" : ", " + more));
    }
  }

}
