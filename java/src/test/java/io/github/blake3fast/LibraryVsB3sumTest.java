package io.github.blake3fast;

import static io.github.blake3fast.ReliabilityKit.DERIVE;
import static io.github.blake3fast.ReliabilityKit.HASH;
import static io.github.blake3fast.ReliabilityKit.KEYED;
import static io.github.blake3fast.ReliabilityKit.MODE_NAMES;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test against Debian's {@code b3sum} (the official Rust code): random inputs up to
 * 4 MiB with sizes biased to the boundaries, random modes (hash, keyed, derive-key), keys,
 * contexts and output lengths, each hashed by b3sum and, here, through every path there is:
 *
 * <ul>
 *   <li>the public API on the default engine: one-shot, streaming fed in random splits through
 *       every update entry point (arrays, heap / read-only / sliced / direct buffers, streams,
 *       channels) with a copy taken midway, {@code digest} in all three forms, the XOF reader
 *       in random pieces and after a seek, {@code updateFile} on the very file b3sum read,
 *       {@code updateParallel} (arrays and direct buffers), the MessageDigest of the provider,
 *       and {@link Blake3Hazmat} pieces combined in random order;
 *   <li>the tree driver ({@link TreeState}) and the one-shot of every kernel on its own: the Java
 *       kernel and each native ISA this CPU runs, fed with random splits.
 * </ul>
 *
 * Many inputs share one b3sum run (same flags, many files). The seed is printed; a failure
 * names its case and saves its input under target/b3sum-diff-failures. Replay with
 * {@code -Dblake3.diff.seed=SEED} (all cases) and {@code -Dblake3.diff.only=CASE} (that case);
 * {@code -Dblake3.diff.cases=N} changes the count (default 600), {@code -Dblake3.b3sum=PATH} the
 * tool. Skipped, loudly, when b3sum is not installed ({@code apt-get install b3sum}).
 */
@Tag("b3sum-diff")
class LibraryVsB3sumTest {
  private static final Path B3SUM = Paths.get(System.getProperty("blake3.b3sum", "/usr/bin/b3sum"));
  private static final int CASES = Integer.getInteger("blake3.diff.cases", 600);
  private static final int ONLY = Integer.getInteger("blake3.diff.only", -1);
  private static final int PER_BATCH = 20;
  private static final int MAX_SIZE = (4 << 20) + 1025;
  private static final long SEED = Long.getLong("blake3.diff.seed", new SecureRandom().nextLong());

  private static ExecutorService pool;
  private static List<Kernel> kernels;

  @TempDir
  Path dir;

  private final List<String> failures = new ArrayList<>();
  private long bytes;
  private long checks;
  private int b3sumRuns;
  private int maxSeen;

  @BeforeAll
  static void setUp() {
    pool = Executors.newFixedThreadPool(3);
    kernels = ReliabilityKit.kernels();
  }

  @AfterAll
  static void tearDown() throws InterruptedException {
    pool.shutdown();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  private static SplittableRandom rng(long stream) {
    return new SplittableRandom(SEED ^ (stream * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L));
  }

  @Test
  void sameAsOfficialB3sum() throws Exception {
    if (!Files.isExecutable(B3SUM)) {
      String msg = "LibraryVsB3sumTest SKIPPED: " + B3SUM + " is not installed (apt-get install b3sum); "
          + "nothing was compared against the official implementation";
      System.err.println("*** " + msg + " ***");
      Assumptions.abort(msg);
    }
    List<String> names = new ArrayList<>();
    for (Kernel k : kernels) {
      names.add(k.name());
    }
    System.out.println("LibraryVsB3sumTest: seed " + SEED + " (replay: -Dblake3.diff.seed=" + SEED + "), " + CASES
        + " inputs, default engine " + Blake3.implementation() + ", kernels " + names);
    long t0 = System.nanoTime();
    int batches = (CASES + PER_BATCH - 1) / PER_BATCH;
    int inputs = 0;
    for (int b = 0; b < batches; b++) {
      int first = b * PER_BATCH;
      int last = Math.min(CASES, first + PER_BATCH);
      if (ONLY >= 0 && (ONLY < first || ONLY >= last)) {
        continue;
      }
      inputs += batch(b, first, last);
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    System.out.printf("LibraryVsB3sumTest: %d inputs (%.1f MiB, largest %d bytes) in %d b3sum runs, %d comparisons, "
        + "%d mismatches, %.1f s%n", inputs, bytes / 1048576.0, maxSeen, b3sumRuns, checks, failures.size(), secs);
    if (!failures.isEmpty()) {
      fail(failures.size() + " mismatches against b3sum (seed " + SEED + "; replay one case with -Dblake3.diff.seed="
          + SEED + " -Dblake3.diff.only=CASE):\n  " + String.join("\n  ", failures.subList(0, Math.min(30,
          failures.size()))));
    }
  }

  /** One b3sum run over the cases [first, last), which share mode, key or context and length. */
  private int batch(int b, int first, int last) throws Exception {
    SplittableRandom br = rng(-1 - b);
    int mode = br.nextInt(10) < 4 ? HASH : br.nextBoolean() ? KEYED : DERIVE;
    byte[] key = new byte[32];
    int keyKind = br.nextInt(8);
    if (keyKind == 0) {
      Arrays.fill(key, (byte) 0xFF);
    } else if (keyKind > 1) {
      for (int i = 0; i < 32; i++) {
        key[i] = (byte) br.nextInt();
      }
    }
    String context = context(br);
    int p = br.nextInt(10);
    int outLen = p < 5 ? 32 : p < 7 ? br.nextInt(65) : p < 9 ? 65 + br.nextInt(2000) : 2065 + br.nextInt(20000);

    List<String> cmd = new ArrayList<>(List.of(B3SUM.toString(), "--no-names", "--length=" + outLen));
    if (mode == KEYED) {
      cmd.add("--keyed");
    } else if (mode == DERIVE) {
      if (context.startsWith("=")) {
        // b3sum's parser drops the '=' signs an attached value starts with; as a word of its
        // own the context reaches it whole (and cannot be taken for a flag: it starts with '=').
        cmd.add("--derive-key");
        cmd.add(context);
      } else {
        cmd.add("--derive-key=" + context); // attached, so a context starting with '-' is a value
      }
    }
    List<byte[]> inputs = new ArrayList<>();
    List<Path> files = new ArrayList<>();
    for (int c = first; c < last; c++) {
      SplittableRandom cr = rng(c);
      byte[] in = ReliabilityKit.content(cr, ReliabilityKit.size(cr, MAX_SIZE));
      Path f = dir.resolve("case-" + c);
      Files.write(f, in);
      inputs.add(in);
      files.add(f);
      cmd.add(f.toString());
      bytes += in.length;
      maxSeen = Math.max(maxSeen, in.length);
    }
    List<String> official = runB3sum(cmd, mode == KEYED ? key : null, last - first);
    b3sumRuns++;
    String batchInfo = "batch " + b + " (" + MODE_NAMES[mode] + (mode == KEYED ? " key " + Blake3.toHex(key) : "")
        + (mode == DERIVE ? " context \"" + context + "\"" : "") + ", length " + outLen + ")";
    for (int c = first; c < last; c++) {
      if (ONLY >= 0 && c != ONLY) {
        continue;
      }
      byte[] want = Blake3.fromHex(official.get(c - first));
      assertEquals(outLen, want.length, "b3sum printed a hash of another length");
      check(c, batchInfo, mode, key, context, inputs.get(c - first), files.get(c - first), outLen, want);
    }
    for (Path f : files) {
      Files.delete(f);
    }
    return ONLY >= 0 ? 1 : last - first;
  }

  /** Derive-key contexts: ASCII of any kind, empty, and non-ASCII when arguments reach b3sum as UTF-8. */
  private static String context(SplittableRandom r) {
    int k = r.nextInt(10);
    if (k == 0) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    boolean utf8Args = Charset.forName(System.getProperty("sun.jnu.encoding", "US-ASCII")).equals(StandardCharsets.UTF_8);
    int n = 1 + r.nextInt(k < 8 ? 60 : 300);
    for (int i = 0; i < n; i++) {
      if (utf8Args && k == 9 && r.nextInt(4) == 0) {
        sb.append(new char[] {'\u00e9', '\u4e16', '\u03a9', '\u00df'}[r.nextInt(4)]);
      } else {
        sb.append((char) (' ' + r.nextInt(95)));
      }
    }
    return sb.toString();
  }

  private static List<String> runB3sum(List<String> cmd, byte[] stdin, int expected) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.PIPE);
    Process proc = pb.start();
    try (OutputStream os = proc.getOutputStream()) {
      if (stdin != null) {
        os.write(stdin);
      }
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread errReader = new Thread(() -> {
      try (InputStream es = proc.getErrorStream()) {
        es.transferTo(err);
      } catch (IOException e) {
        // the exit status tells
      }
    });
    errReader.start();
    byte[] out;
    try (InputStream is = proc.getInputStream()) {
      out = is.readAllBytes();
    }
    assertTrue(proc.waitFor(120, TimeUnit.SECONDS), "b3sum did not finish");
    errReader.join();
    String cmdLine = String.join(" ", cmd);
    assertEquals(0, proc.exitValue(), "b3sum failed: " + cmdLine + "\n" + err.toString(StandardCharsets.UTF_8));
    String text = new String(out, StandardCharsets.US_ASCII);
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    assertEquals("", lines.remove(lines.size() - 1), "b3sum output ends with a newline");
    assertEquals(expected, lines.size(), "one line per file from " + cmdLine);
    return lines;
  }

  // ---- the paths -------------------------------------------------------------------------------

  private void check(int c, String batchInfo, int mode, byte[] key, String context, byte[] in, Path file, int outLen,
      byte[] want) throws Exception {
    SplittableRandom r = rng(c).split(); // independent of the content's stream
    String caseInfo = "case " + c + ", " + in.length + " bytes, " + batchInfo;

    compare(c, caseInfo, "Blake3 one-shot", ReliabilityKit.publicOneShot(mode, key, context, in, outLen), want, in);

    // streaming through every entry point, a copy taken at a random update
    int[] splits = ReliabilityKit.splits(r, in.length);
    Blake3Hasher h = ReliabilityKit.publicHasher(mode, key, context);
    Blake3Hasher copy = null;
    int copyAt = r.nextInt(splits.length + 1);
    int off = 0;
    StringBuilder how = new StringBuilder();
    for (int i = 0; i < splits.length; i++) {
      if (i == copyAt) {
        copy = h.copy();
        copy.update(in, off, in.length - off);
      }
      int kind = r.nextInt(9);
      how.append(kind);
      feed(h, in, off, splits[i], kind, r);
      off += splits[i];
    }
    if (copy == null) {
      copy = h.copy();
    }
    String streamInfo = "splits " + ReliabilityKit.describe(splits) + " entry points " + how;
    byte[] got;
    int finish = r.nextInt(3);
    if (finish == 0) {
      got = outLen == 32 && r.nextBoolean() ? h.digest() : h.digest(outLen);
    } else if (finish == 1) {
      int pad = r.nextInt(8);
      byte[] out = new byte[pad + outLen + r.nextInt(8)];
      h.digest(out, pad, outLen);
      got = Arrays.copyOfRange(out, pad, pad + outLen);
    } else {
      got = readInPieces(h.xof(), outLen, r);
    }
    compare(c, caseInfo, "Blake3Hasher streaming (" + streamInfo + ", finish " + finish + ")", got, want, in);
    compare(c, caseInfo, "Blake3Hasher copy at update " + copyAt + " (" + streamInfo + ")", copy.digest(outLen), want,
        in);

    // the XOF after a seek, twice from the same reader
    if (outLen > 0) {
      Blake3OutputReader xof = h.xof();
      int s = r.nextInt(outLen);
      xof.seek(s);
      byte[] tail = new byte[outLen - s];
      xof.read(tail);
      compare(c, caseInfo, "xof seek " + s, tail, Arrays.copyOfRange(want, s, outLen), in);
      assertEquals(outLen, xof.position());
    }

    // the file b3sum read, through updateFile (parallel from 4 MiB)
    Blake3Hasher fh = ReliabilityKit.publicHasher(mode, key, context);
    if (r.nextBoolean()) {
      fh.updateFile(file);
    } else {
      fh.updateFile(file, 1 + r.nextInt(4));
    }
    compare(c, caseInfo, "updateFile", fh.digest(outLen), want, in);

    // parallel updates (arrays, direct buffers), on a pool and on the common pool
    Blake3Hasher ph = ReliabilityKit.publicHasher(mode, key, context);
    int pre = r.nextInt(Math.min(in.length, 3000) + 1);
    ph.update(in, 0, pre);
    if (r.nextBoolean()) {
      ph.updateParallel(in, pre, in.length - pre, pool);
    } else {
      ByteBuffer d = ReliabilityKit.direct(in, pre, in.length - pre, r);
      ph.updateParallel(d);
      assertEquals(d.limit(), d.position(), "updateParallel leaves the position at the limit");
    }
    compare(c, caseInfo, "updateParallel after " + pre + " bytes", ph.digest(outLen), want, in);

    // 32-byte outputs are the prefix of longer ones: the MessageDigest and the hash-mode shortcuts
    if (mode == HASH && outLen >= 32) {
      MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
      off = 0;
      for (int piece : splits) {
        if (piece == 1 && r.nextBoolean()) {
          md.update(in[off]);
        } else if (r.nextBoolean()) {
          md.update(in, off, piece);
        } else {
          md.update(ByteBuffer.wrap(in, off, piece));
        }
        off += piece;
      }
      byte[] prefix = Arrays.copyOf(want, 32);
      compare(c, caseInfo, "MessageDigest", md.digest(), prefix, in);
      compare(c, caseInfo, "Blake3.hashParallel", Blake3.hashParallel(in, pool), prefix, in);
      compare(c, caseInfo, "Blake3.hashFile", Blake3.hashFile(file), prefix, in);
    }

    // Blake3Hazmat: pieces cut at random chunk boundaries, combined in random order
    hazmat(c, caseInfo, mode, key, context, in, outLen, want, r);

    // every kernel on its own: one-shot and the tree driver fed in random splits
    for (Kernel k : kernels) {
      int[] kw = ReliabilityKit.keyWords(k, mode, key, context);
      int flags = ReliabilityKit.flags(mode);
      byte[] out = new byte[outLen];
      OneShot.hash(k, in, 0, in.length, kw, flags, out, 0, outLen);
      compare(c, caseInfo, k.name() + " one-shot", out, want, in);
      int[] ks = ReliabilityKit.splits(r, in.length);
      TreeState s = new TreeState(k, kw, flags);
      off = 0;
      for (int piece : ks) {
        if (r.nextInt(3) == 0) {
          s.update(ReliabilityKit.direct(in, off, piece, r));
        } else {
          s.update(in, off, piece);
        }
        off += piece;
      }
      out = new byte[outLen];
      s.finish(out, 0, outLen);
      compare(c, caseInfo, k.name() + " tree driver (splits " + ReliabilityKit.describe(ks) + ")", out, want, in);
    }
  }

  /** One update of in[off, off+len) through the entry point {@code kind}. */
  private static void feed(Blake3Hasher h, byte[] in, int off, int len, int kind, SplittableRandom r)
      throws IOException {
    switch (kind) {
      case 0:
        h.update(in, off, len);
        break;
      case 1:
        h.update(Arrays.copyOfRange(in, off, off + len));
        break;
      case 2: {
        ByteBuffer b = ByteBuffer.wrap(in, off, len);
        h.update(b);
        assertEquals(off + len, b.position());
        break;
      }
      case 3: { // a slice: arrayOffset() is not 0
        ByteBuffer b = ByteBuffer.wrap(in).position(off).limit(off + len).slice();
        h.update(b);
        assertEquals(len, b.position());
        break;
      }
      case 4: { // read-only: no array access
        ByteBuffer b = ByteBuffer.wrap(in, off, len).asReadOnlyBuffer();
        h.update(b);
        assertEquals(off + len, b.position());
        break;
      }
      case 5: {
        ByteBuffer d = ReliabilityKit.direct(in, off, len, r);
        int limit = d.limit();
        h.update(r.nextBoolean() ? d : d.duplicate());
        assertTrue(d.position() == limit || d.position() == limit - len);
        break;
      }
      case 6: { // a read-only direct buffer
        h.update(ReliabilityKit.direct(in, off, len, r).asReadOnlyBuffer());
        break;
      }
      case 7:
        h.update(new ByteArrayInputStream(in, off, len));
        break;
      default:
        h.update(Channels.newChannel(new ByteArrayInputStream(in, off, len)));
        break;
    }
  }

  private static byte[] readInPieces(Blake3OutputReader xof, int outLen, SplittableRandom r) {
    byte[] out = new byte[outLen];
    int off = 0;
    while (off < outLen) {
      int n = Math.min(outLen - off, r.nextInt(4) == 0 ? r.nextInt(3) : 1 + r.nextInt(200));
      xof.read(out, off, n);
      off += n;
    }
    xof.read(out, outLen, 0);
    return out;
  }

  private void hazmat(int c, String caseInfo, int mode, byte[] key, String context, byte[] in, int outLen,
      byte[] want, SplittableRandom r) {
    Blake3Hazmat.Mode m = ReliabilityKit.hazmatMode(mode, key, context);
    List<Blake3Hazmat.Piece> pieces = new ArrayList<>();
    int chunks = (in.length + 1023) / 1024;
    int off = 0;
    while (true) {
      int rest = in.length - off;
      int take = rest <= 1024 || r.nextInt(3) == 0 ? rest : 1024 * (1 + r.nextInt(Math.max(1, (rest - 1) / 1024)));
      Blake3Hazmat.Piece p = r.nextBoolean()
          ? Blake3Hazmat.hashPiece(in, off, take, off, m)
          : Blake3Hazmat.hashPiece(ByteBuffer.wrap(in, off, take), off, m);
      pieces.add(r.nextBoolean() ? p : Blake3Hazmat.Piece.fromByteArray(p.toByteArray()));
      off += take;
      if (off == in.length) {
        break;
      }
    }
    Collections.shuffle(pieces, new java.util.Random(r.nextLong()));
    byte[] out = new byte[outLen];
    Blake3Hazmat.rootOutputReader(pieces, m).read(out);
    compare(c, caseInfo, "Blake3Hazmat " + pieces.size() + " pieces of " + chunks + " chunks", out, want, in);
  }

  private void compare(int c, String caseInfo, String path, byte[] got, byte[] want, byte[] in) {
    checks++;
    if (Arrays.equals(got, want)) {
      return;
    }
    int at = ReliabilityKit.firstDifference(got, want);
    String saved = save(c, in);
    failures.add(path + " differs from b3sum at byte " + at + ": " + caseInfo + "; input " + saved);
  }

  private static String save(int c, byte[] in) {
    try {
      Path d = Paths.get("target", "b3sum-diff-failures");
      Files.createDirectories(d);
      Path f = d.resolve("seed" + SEED + "-case" + c + ".bin");
      Files.write(f, in);
      return f.toAbsolutePath().toString();
    } catch (IOException e) {
      return "(not saved: " + e + ")";
    }
  }
}
