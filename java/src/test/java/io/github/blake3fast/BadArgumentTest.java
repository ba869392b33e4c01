package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.internal.Parallel;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.Pipe;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.security.DigestException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.TreeSet;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every public method of Blake3, Blake3Hasher, Blake3OutputReader and the provider's
 * MessageDigest, called with every kind of bad argument: null; negative, past-the-end and huge
 * offsets and lengths; offset + length overflowing int; 0-, 31- and 33-byte keys; negative
 * output lengths; bad hex; bad thread counts, executors that reject, drop, run inline or throw;
 * streams that lie about what they read or fail; non-blocking channels; missing files and
 * directories. Each gets the documented exception before any hashing, and a hasher that got a
 * bad call still has exactly its earlier input. ByteBuffers of every kind (heap, read-only,
 * sliced, duplicated, with position and limit, direct, read-only direct, mapped from a file
 * whose channel is closed) hash their remaining bytes and end at their limit.
 * {@link #everyPublicMethodIsCovered} fails when a public method of the core package appears
 * that this class (or {@link BadArgumentHazmatTest}) does not list, so new API gets its
 * bad-argument cases; the Bao package's test does the same for its package.
 *
 * <p>Not tested, a known JVM limitation: a MappedByteBuffer whose file is truncated after
 * mapping. Reading the lost pages raises SIGBUS; JDK code turns that into an InternalError, but
 * no native code can (the native engine reads direct buffers in C), so the JVM ends. Hash such
 * files with {@link Blake3#hashFile} (which maps only under its own SIGBUS guard, see
 * MappedFileTest) or with {@code -Dblake3.native=false}.
 */
public class BadArgumentTest {
  private static final byte[] PRIOR = ReliabilityKit.content(new SplittableRandom(7), 5000);
  private static final byte[] PRIOR_HASH = Blake3.hash(PRIOR);
  private static final byte[] KEY = Arrays.copyOf("0123456789abcdef0123456789abcdef".getBytes(), 32);

  /**
   * Ranges that are bad for an array of length n; the last overflows int in offset + length.
   *
   * @param n the array's length
   * @return {offset, length} pairs
   */
  public static int[][] badRanges(int n) {
    return new int[][] {
      {-1, 1}, {0, -1}, {-1, -1}, {n + 1, 0}, {n / 2, n - n / 2 + 1}, {n, 1}, {Integer.MAX_VALUE, 1},
      {1, Integer.MAX_VALUE}, {Integer.MAX_VALUE, Integer.MAX_VALUE}, {Integer.MIN_VALUE, 0}, {0, Integer.MIN_VALUE},
      {Integer.MIN_VALUE, Integer.MIN_VALUE}, {n / 2 + 1, Integer.MAX_VALUE - n / 2},
    };
  }

  static final int[] ARRAY_LENGTHS = {0, 10, 3 << 20};

  interface RangeCall {
    void call(byte[] array, int offset, int length) throws Exception;
  }

  /**
   * A method taking (array, offset, length): null is an NPE, every bad range an
   * IndexOutOfBoundsException, and {@code intact} still holds after each.
   */
  static void rangesChecked(String what, RangeCall call, Runnable intact) {
    assertThrows(NullPointerException.class, () -> call.call(null, 0, 0), what + " null");
    intact.run();
    for (int n : ARRAY_LENGTHS) {
      byte[] a = new byte[n];
      for (int[] r : badRanges(n)) {
        assertThrows(IndexOutOfBoundsException.class, () -> call.call(a, r[0], r[1]),
            what + " array[" + n + "] offset " + r[0] + " length " + r[1]);
        intact.run();
      }
    }
  }

  /** A hasher fed PRIOR, and the check that it holds exactly that. */
  static Blake3Hasher primed() {
    return Blake3.newHasher().update(PRIOR);
  }

  static Runnable holdsPrior(Blake3Hasher h) {
    return () -> assertArrayEquals(PRIOR_HASH, h.digest(), "a failed call changed the hasher");
  }

  // ---- Blake3 ---------------------------------------------------------------------------------

  @Test
  void blake3Statics() {
    Executable[] nulls = {
      () -> Blake3.hash((byte[]) null), () -> Blake3.hash((String) null), () -> Blake3.hash(null, 32),
      () -> Blake3.hash(null, 0, 0), () -> Blake3.keyedHash(null, PRIOR), () -> Blake3.keyedHash(KEY, null),
      () -> Blake3.keyedHash(null, PRIOR, 32), () -> Blake3.keyedHash(KEY, null, 32),
      () -> Blake3.deriveKey(null, PRIOR), () -> Blake3.deriveKey("c", null), () -> Blake3.deriveKey(null, PRIOR, 5),
      () -> Blake3.deriveKey("c", null, 5), () -> Blake3.newKeyedHasher(null), () -> Blake3.newDeriveKeyHasher(null),
      () -> Blake3.hashFile(null), () -> Blake3.hashParallel((byte[]) null), () -> Blake3.hashParallel((ByteBuffer) null),
      () -> Blake3.hashParallel((byte[]) null, ForkJoinPool.commonPool()), () -> Blake3.hashParallel(PRIOR, null),
      () -> Blake3.hashParallel((ByteBuffer) null, ForkJoinPool.commonPool()),
      () -> Blake3.hashParallel(ByteBuffer.wrap(PRIOR), null), () -> Blake3.toHex(null), () -> Blake3.fromHex(null),
    };
    for (int i = 0; i < nulls.length; i++) {
      assertThrows(NullPointerException.class, nulls[i], "null case " + i);
    }
    rangesChecked("Blake3.hash(byte[], int, int)", Blake3::hash, () -> { });
    // Into an array: the input's range as above, then every bad place for the 32 bytes; nothing written.
    byte[] sink = new byte[40];
    rangesChecked("Blake3.hash(byte[], int, int, byte[], int)", (a, o, l) -> Blake3.hash(a, o, l, sink, 0),
        () -> assertArrayEquals(new byte[40], sink, "written before the throw"));
    assertThrows(NullPointerException.class, () -> Blake3.hash(PRIOR, 0, 1, null, 0));
    for (int n : new int[] {0, 31, 32, 40}) {
      byte[] out = new byte[n];
      for (int at : new int[] {-1, n - 31, n, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 31}) {
        if (at >= 0 && at + 32 <= n) {
          continue;
        }
        assertThrows(IndexOutOfBoundsException.class, () -> Blake3.hash(PRIOR, 0, 10, out, at),
            "out[" + n + "] at " + at);
        assertArrayEquals(new byte[n], out, "out[" + n + "] at " + at + ": written before the throw");
      }
    }
    for (int bad : new int[] {-1, -32, Integer.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> Blake3.hash(PRIOR, bad));
      assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHash(KEY, PRIOR, bad));
      assertThrows(IllegalArgumentException.class, () -> Blake3.deriveKey("c", PRIOR, bad));
    }
    // The largest lengths are the JVM's array limit, an OutOfMemoryError before any hashing.
    assertThrows(OutOfMemoryError.class, () -> Blake3.hash(PRIOR, Integer.MAX_VALUE));
    for (int n : new int[] {0, 1, 16, 31, 33, 64}) {
      byte[] k = new byte[n];
      assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHash(k, PRIOR), n + "-byte key");
      assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHash(k, PRIOR, 32), n + "-byte key");
      assertThrows(IllegalArgumentException.class, () -> Blake3.newKeyedHasher(k), n + "-byte key");
    }
    for (String hex : new String[] {"a", "abc", "zz", "0g", "g0", " 0", "0 ", "0x00", "+1", "-1", "\u0660\u0660",
        "\uff10\uff10", "\u00e9\u00e9", "\0\0"}) {
      assertThrows(IllegalArgumentException.class, () -> Blake3.fromHex(hex), "hex '" + hex + "'");
    }
    assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xcd}, Blake3.fromHex(new StringBuilder("AbcD")));
    assertArrayEquals(new byte[] {0x01, 0x23}, Blake3.fromHex(CharBuffer.wrap("xx0123").position(2)));
    assertEquals(0, Blake3.fromHex("").length);
    assertEquals("", Blake3.toHex(new byte[0]));
    assertTrue(Blake3.implementation().startsWith("native-") || Blake3.implementation().startsWith("java"));
    // empty inputs and zero-length outputs are fine everywhere
    assertEquals(0, Blake3.hash(PRIOR, 0).length);
    assertEquals(0, Blake3.deriveKey("", new byte[0], 0).length);
    assertArrayEquals(Blake3.hash(new byte[0]), Blake3.hash(""));
  }

  @Test
  void keysAndContextsAreCopied() {
    byte[] key = KEY.clone();
    Blake3Hasher h = Blake3.newKeyedHasher(key);
    Blake3Hazmat.Mode m = Blake3Hazmat.Mode.keyedHash(key);
    Arrays.fill(key, (byte) 0);
    h.update(PRIOR);
    assertArrayEquals(Blake3.keyedHash(KEY, PRIOR), h.digest(), "the hasher kept a reference to the key array");
    assertArrayEquals(Blake3.keyedHash(KEY, PRIOR),
        Blake3Hazmat.rootHash(List.of(Blake3Hazmat.hashPiece(PRIOR, 0, PRIOR.length, 0, m)), m));
    byte[] input = PRIOR.clone();
    byte[] before = Blake3.hash(input);
    Blake3Hasher h2 = Blake3.newHasher().update(input, 0, 100);
    Arrays.fill(input, 0, 100, (byte) 1); // changing an array after update changes nothing
    assertArrayEquals(Blake3.hash(PRIOR, 0, 100), h2.digest());
    assertArrayEquals(before, Blake3.hash(PRIOR));
  }

  @Test
  void files(@TempDir Path dir) throws Exception {
    Path missing = dir.resolve("missing");
    assertThrows(NoSuchFileException.class, () -> Blake3.hashFile(missing));
    assertThrows(IOException.class, () -> Blake3.hashFile(dir), "a directory");
    Blake3Hasher h = primed();
    assertThrows(NoSuchFileException.class, () -> h.updateFile(missing));
    assertThrows(NoSuchFileException.class, () -> h.updateFile(missing, 2));
    assertThrows(NullPointerException.class, () -> h.updateFile(null));
    assertThrows(NullPointerException.class, () -> h.updateFile(null, 2));
    Path f = Files.write(dir.resolve("f"), PRIOR);
    for (int t : new int[] {0, -1, Integer.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> h.updateFile(f, t), t + " threads");
    }
    holdsPrior(h).run();
    assertArrayEquals(PRIOR_HASH, Blake3.newHasher().updateFile(f, Integer.MAX_VALUE).digest(),
        "a huge thread count is capped by the file's windows");
  }

  // ---- Blake3Hasher --------------------------------------------------------------------------

  @Test
  void hasherUpdates() throws Exception {
    Blake3Hasher h = primed();
    Runnable intact = holdsPrior(h);
    assertThrows(NullPointerException.class, () -> h.update((byte[]) null));
    assertThrows(NullPointerException.class, () -> h.update((ByteBuffer) null));
    assertThrows(NullPointerException.class, () -> h.update((InputStream) null));
    assertThrows(NullPointerException.class, () -> h.update((java.nio.channels.ReadableByteChannel) null));
    assertThrows(NullPointerException.class, () -> h.updateParallel((byte[]) null));
    assertThrows(NullPointerException.class, () -> h.updateParallel((ByteBuffer) null));
    assertThrows(NullPointerException.class, () -> h.updateParallel((ByteBuffer) null, ForkJoinPool.commonPool()));
    assertThrows(NullPointerException.class, () -> h.updateParallel(ByteBuffer.allocate(1), null));
    assertThrows(NullPointerException.class, () -> h.updateParallel(new byte[1], 0, 1, null));
    intact.run();
    rangesChecked("update(byte[], int, int)", h::update, intact);
    rangesChecked("updateParallel(byte[], int, int)", h::updateParallel, intact);
    rangesChecked("updateParallel(byte[], int, int, Executor)",
        (a, o, l) -> h.updateParallel(a, o, l, ForkJoinPool.commonPool()), intact);
    // the edges that are fine
    byte[] a = ReliabilityKit.content(new SplittableRandom(3), 3 << 20);
    for (int[] r : new int[][] {{0, 0}, {a.length, 0}, {0, a.length}, {a.length - 1, 1}, {5, a.length - 5}}) {
      byte[] want = Blake3.hash(a, r[0], r[1]);
      assertArrayEquals(want, Blake3.newHasher().update(a, r[0], r[1]).digest());
      assertArrayEquals(want, Blake3.newHasher().updateParallel(a, r[0], r[1]).digest());
      assertArrayEquals(want, Blake3.newHasher().updateParallel(a, r[0], r[1], Runnable::run).digest());
    }
  }

  @Test
  void hasherOutputs() {
    Blake3Hasher h = primed();
    Runnable intact = holdsPrior(h);
    for (int bad : new int[] {-1, Integer.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> h.digest(bad));
    }
    assertThrows(OutOfMemoryError.class, () -> h.digest(Integer.MAX_VALUE));
    rangesChecked("digest(byte[], int, int)", h::digest, intact);
    byte[] out = new byte[100];
    h.digest(out, 100, 0);
    h.digest(out, 68, 32);
    assertArrayEquals(PRIOR_HASH, Arrays.copyOfRange(out, 68, 100));
    assertArrayEquals(Blake3.hash(PRIOR, 100), h.digest(100));
    // copy, reset and xof need no arguments: they work after every failure above
    Blake3Hasher c = h.copy();
    h.reset();
    assertArrayEquals(Blake3.hash(new byte[0]), h.digest());
    assertArrayEquals(PRIOR_HASH, c.digest());
  }

  @Test
  void outputReader() {
    Blake3OutputReader xof = primed().xof();
    byte[] first = new byte[64];
    xof.read(first, 0, 16);
    Runnable intact = () -> {
      assertEquals(16, xof.position(), "a failed call moved the reader");
    };
    assertThrows(NullPointerException.class, () -> xof.read(null));
    assertThrows(NullPointerException.class, () -> xof.read(null, 0, 0));
    rangesChecked("Blake3OutputReader.read", xof::read, intact);
    for (long bad : new long[] {-1, Long.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> xof.seek(bad));
      intact.run();
    }
    xof.read(first, 16, 48);
    assertArrayEquals(Blake3.hash(PRIOR, 64), first);
    // the end of the output space
    xof.seek(Long.MAX_VALUE);
    xof.read(new byte[0]);
    xof.read(first, 64, 0);
    assertThrows(IllegalStateException.class, () -> xof.read(new byte[1]));
    assertEquals(Long.MAX_VALUE, xof.position());
    xof.seek(Long.MAX_VALUE - 5);
    assertThrows(IllegalStateException.class, () -> xof.read(new byte[6]));
    assertEquals(Long.MAX_VALUE - 5, xof.position());
    byte[] last = new byte[5];
    xof.read(last);
    assertEquals(Long.MAX_VALUE, xof.position());
    // the same bytes through a fresh reader, read across the 64-byte block boundary before them
    Blake3OutputReader again = primed().xof();
    again.seek(Long.MAX_VALUE - 69);
    byte[] wide = new byte[69];
    again.read(wide);
    assertArrayEquals(last, Arrays.copyOfRange(wide, 64, 69));
  }

  @Test
  void messageDigest() throws Exception {
    MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
    md.update(PRIOR);
    Runnable intact = () -> {
      try {
        MessageDigest c = (MessageDigest) md.clone();
        assertArrayEquals(PRIOR_HASH, c.digest(), "a failed call changed the MessageDigest");
      } catch (CloneNotSupportedException e) {
        throw new AssertionError(e);
      }
    };
    assertThrows(NullPointerException.class, () -> md.update((byte[]) null));
    assertThrows(NullPointerException.class, () -> md.update((ByteBuffer) null));
    assertThrows(IllegalArgumentException.class, () -> md.update(null, 0, 0)); // the JDK's own check
    intact.run();
    for (int n : ARRAY_LENGTHS) {
      byte[] a = new byte[n];
      for (int[] r : badRanges(n)) {
        Throwable t = assertThrows(RuntimeException.class, () -> md.update(a, r[0], r[1]));
        assertTrue(t instanceof IllegalArgumentException || t instanceof IndexOutOfBoundsException, t.toString());
        intact.run();
      }
    }
    byte[] out = new byte[40];
    assertThrows(IllegalArgumentException.class, () -> md.digest(null, 0, 32));
    for (int[] r : new int[][] {{-5, 40}, {0, 31}, {0, -1}, {-1, 32}}) {
      assertThrows(DigestException.class, () -> md.digest(out, r[0], r[1]), r[0] + ", " + r[1]);
      intact.run();
    }
    for (int[] r : new int[][] {{10, 32}, {9, 32}, {Integer.MAX_VALUE, 32}, {Integer.MIN_VALUE, 40}, {0, 41}}) {
      assertThrows(IllegalArgumentException.class, () -> md.digest(out, r[0], r[1]), r[0] + ", " + r[1]);
      intact.run();
    }
    assertEquals(32, md.digest(out, 8, 32));
    assertArrayEquals(PRIOR_HASH, Arrays.copyOfRange(out, 8, 40));
    assertArrayEquals(Blake3.hash(new byte[0]), md.digest(), "digest(buf, off, len) reset it");
  }

  // ---- buffers --------------------------------------------------------------------------------

  /** A named ByteBuffer of some kind and the bytes between its position and limit. */
  static final class Buf {
    final String kind;
    final Supplier<ByteBuffer> make;
    final byte[] remaining;

    Buf(String kind, Supplier<ByteBuffer> make) {
      this.kind = kind;
      this.make = make;
      ByteBuffer b = make.get();
      byte[] r = new byte[b.remaining()];
      b.duplicate().get(r);
      this.remaining = r;
    }
  }

  static List<Buf> buffers(byte[] data, Path mapped) {
    int n = data.length;
    int p = Math.min(n, 7);
    int l = Math.max(p, n - 3);
    List<Buf> bs = new ArrayList<>();
    bs.add(new Buf("heap", () -> ByteBuffer.wrap(data)));
    bs.add(new Buf("heap position/limit", () -> ByteBuffer.wrap(data).position(p).limit(l)));
    bs.add(new Buf("heap slice", () -> ByteBuffer.wrap(data).position(p).slice()));
    bs.add(new Buf("heap slice position/limit", () -> ByteBuffer.wrap(data).position(p).slice().position(1 % (n - p + 1))));
    bs.add(new Buf("heap duplicate", () -> ByteBuffer.wrap(data).position(p).duplicate()));
    bs.add(new Buf("read-only heap", () -> ByteBuffer.wrap(data).asReadOnlyBuffer()));
    bs.add(new Buf("read-only heap slice", () -> ByteBuffer.wrap(data).position(p).limit(l).slice().asReadOnlyBuffer()));
    bs.add(new Buf("heap little-endian", () -> ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN)));
    bs.add(new Buf("empty (position = limit)", () -> ByteBuffer.wrap(data).position(p).limit(p)));
    ByteBuffer direct = ByteBuffer.allocateDirect(n).put(data).clear();
    bs.add(new Buf("direct", direct::duplicate));
    bs.add(new Buf("direct position/limit", () -> direct.duplicate().position(p).limit(l)));
    bs.add(new Buf("direct slice", () -> direct.duplicate().position(p).slice()));
    bs.add(new Buf("read-only direct", direct::asReadOnlyBuffer));
    bs.add(new Buf("read-only direct slice", () -> direct.duplicate().position(p).limit(l).slice().asReadOnlyBuffer()));
    if (mapped != null) {
      try (FileChannel ch = FileChannel.open(mapped, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        MappedByteBuffer ro = ch.map(FileChannel.MapMode.READ_ONLY, 0, n);
        MappedByteBuffer priv = ch.map(FileChannel.MapMode.PRIVATE, 0, n);
        // the channel is closed when these are used: the mappings stay valid
        bs.add(new Buf("mapped read-only, channel closed", ro::duplicate));
        bs.add(new Buf("mapped private, position/limit", () -> priv.duplicate().position(p).limit(l)));
        bs.add(new Buf("mapped slice", () -> ro.duplicate().position(p).slice()));
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
    return bs;
  }

  interface BufferPath {
    byte[] hash(ByteBuffer b) throws Exception;
  }

  @Test
  void buffersOfEveryKind(@TempDir Path dir) throws Exception {
    Blake3Hazmat.Mode m = Blake3Hazmat.Mode.hash();
    List<String> paths = List.of("Blake3Hasher.update", "updateParallel", "updateParallel(inline executor)",
        "Blake3.hashParallel", "Blake3.hashParallel(pool)", "MessageDigest.update", "Blake3Hazmat.hashPiece",
        "SubtreeHasher.update", "Blake3Hazmat.hashSubtree");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int n : new int[] {0, 1, 1025, (16 << 10) + 1, (1 << 20) + 5000, (4 << 20) + 1}) {
        byte[] data = ReliabilityKit.content(new SplittableRandom(n), n);
        Path f = Files.write(dir.resolve("m" + n), data);
        for (Buf b : buffers(data, n == 0 ? null : f)) {
          byte[] want = Blake3.hash(b.remaining);
          for (String path : paths) {
            if (path.equals("Blake3Hazmat.hashSubtree") && b.remaining.length == 0) {
              continue; // a subtree has at least one byte (BadArgumentHazmatTest)
            }
            ByteBuffer bb = b.make.get();
            int limit = bb.limit();
            byte[] got = bufferPath(path, pool, m).hash(bb);
            String what = path + " on " + b.kind + " of " + b.remaining.length + " bytes";
            if (path.equals("Blake3Hazmat.hashSubtree")) {
              want = Blake3Hazmat.hashSubtree(b.remaining, 0, m);
            }
            assertArrayEquals(want, got, what);
            assertEquals(limit, bb.position(), what + ": position at the limit");
            assertEquals(limit, bb.limit(), what + ": limit unchanged");
            ByteBuffer again = b.make.get();
            byte[] now = new byte[again.remaining()];
            again.get(now);
            assertArrayEquals(b.remaining, now, what + ": contents unchanged");
          }
        }
      }
    } finally {
      pool.shutdown();
    }
  }

  private static BufferPath bufferPath(String path, Executor pool, Blake3Hazmat.Mode m) {
    switch (path) {
      case "Blake3Hasher.update":
        return b -> Blake3.newHasher().update(b).digest();
      case "updateParallel":
        return b -> Blake3.newHasher().updateParallel(b).digest();
      case "updateParallel(inline executor)":
        return b -> Blake3.newHasher().updateParallel(b, Runnable::run).digest();
      case "Blake3.hashParallel":
        return Blake3::hashParallel;
      case "Blake3.hashParallel(pool)":
        return b -> Blake3.hashParallel(b, pool);
      case "MessageDigest.update":
        return b -> {
          MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
          md.update(b);
          return md.digest();
        };
      case "Blake3Hazmat.hashPiece":
        return b -> Blake3Hazmat.rootHash(List.of(Blake3Hazmat.hashPiece(b, 0, m)), m);
      case "SubtreeHasher.update":
        return b -> Blake3Hazmat.rootHash(List.of(Blake3Hazmat.newSubtreeHasher(0, m).update(b).piece()), m);
      default:
        return b -> Blake3Hazmat.hashSubtree(b, 0, m);
    }
  }

  // ---- streams, channels, executors --------------------------------------------------------------

  /** A stream that breaks its contract: read(b, off, len) claims more than len bytes. */
  static final class LyingStream extends InputStream {
    private final int extra;
    private boolean done;

    LyingStream(int extra) {
      this.extra = extra;
    }

    @Override
    public int read() {
      return -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (done) {
        return -1;
      }
      done = true;
      return len + extra;
    }
  }

  @Test
  void streamsAndChannels() throws Exception {
    // streams that claim more than they were asked for: once these made native code read past the
    // array (a wrong hash, or with a large claim a SIGSEGV); now an IOException
    for (int extra : new int[] {1, 2048, 1 << 30, Integer.MAX_VALUE - (1 << 20)}) {
      Blake3Hasher h = primed();
      assertThrows(IOException.class, () -> h.update(new LyingStream(extra)), "a stream claiming " + extra + " more");
      Blake3Hazmat.SubtreeHasher s = Blake3Hazmat.newSubtreeHasher(0, Blake3Hazmat.Mode.hash());
      assertThrows(IOException.class, () -> s.update(new LyingStream(extra)));
    }
    // a stream that fails midway: the IOException comes through, the bytes before it stay added
    Blake3Hasher h = Blake3.newHasher();
    InputStream failing = new InputStream() {
      private final InputStream in = new ByteArrayInputStream(PRIOR);

      @Override
      public int read() throws IOException {
        int b = in.read();
        if (b < 0) {
          throw new IOException("disk on fire");
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int r = in.read(b, off, Math.min(len, 1000));
        if (r < 0) {
          throw new IOException("disk on fire");
        }
        return r;
      }
    };
    assertEquals("disk on fire", assertThrows(IOException.class, () -> h.update(failing)).getMessage());
    assertArrayEquals(PRIOR_HASH, h.digest(), "the bytes read before the failure stay added");
    // a non-blocking channel is refused; a blocking one works
    Pipe pipe = Pipe.open();
    try {
      pipe.source().configureBlocking(false);
      Blake3Hasher p = primed();
      assertThrows(IllegalBlockingModeException.class, () -> p.update(pipe.source()));
      holdsPrior(p).run();
    } finally {
      pipe.source().close();
      pipe.sink().close();
    }
    assertArrayEquals(PRIOR_HASH, Blake3.newHasher().update(Channels.newChannel(new ByteArrayInputStream(PRIOR))).digest());
    assertArrayEquals(PRIOR_HASH, Blake3.newHasher().update(new ByteArrayInputStream(PRIOR)).digest());
  }

  @Test
  void executorsOfEveryKind() throws Exception {
    byte[] big = ReliabilityKit.content(new SplittableRandom(11), (6 << 20) + 123);
    byte[] want = Blake3.hash(big);
    ByteBuffer direct = ByteBuffer.allocateDirect(big.length).put(big).flip();
    AtomicInteger dropped = new AtomicInteger();
    ExecutorService shut = Executors.newFixedThreadPool(2);
    shut.shutdown();
    Executor[] good = {
      r -> {
        throw new RejectedExecutionException("full");
      },
      r -> dropped.incrementAndGet(), // accepts and never runs: the caller does all the work
      Runnable::run,
      r -> {
        r.run();
        r.run(); // runs the job twice
      },
      shut,
      new ForkJoinPool(1),
    };
    String[] names = {"rejecting", "dropping", "inline", "running twice", "shut down", "ForkJoinPool(1)"};
    for (int i = 0; i < good.length; i++) {
      Executor e = good[i];
      String name = names[i];
      assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
        assertArrayEquals(want, Blake3.hashParallel(big, e), name);
        assertArrayEquals(want, Blake3.hashParallel(direct.duplicate(), e), name + ", direct");
        assertArrayEquals(want, Blake3.newHasher().updateParallel(big, 0, big.length, e).digest(), name);
      }, name);
    }
    ((ForkJoinPool) good[5]).shutdown();
    // an executor that throws something else: that exception comes through, no crash, and the
    // hasher is as before the call (ParallelFailureTest has every kind and position)
    Blake3Hasher h = Blake3.newHasher();
    RuntimeException boom = new IllegalStateException("boom");
    Executor throwing = r -> {
      throw boom;
    };
    if (Parallel.helpers(throwing) > 0) {
      assertEquals(boom, assertThrows(IllegalStateException.class, () -> h.updateParallel(big, 0, big.length, throwing)));
    } else {
      h.updateParallel(big, 0, big.length, throwing); // one processor: no helper is asked for
    }
    assertArrayEquals(want, h.update(big).digest());
    // an interrupted caller: the hash is right, the interrupt is kept
    Thread.currentThread().interrupt();
    try {
      assertArrayEquals(want, Blake3.hashParallel(big, ForkJoinPool.commonPool()));
      assertTrue(Thread.currentThread().isInterrupted(), "the interrupt was swallowed");
    } finally {
      Thread.interrupted();
    }
  }

  // ---- the guard ----------------------------------------------------------------------------------

  /** Every public method and constructor of the package's public classes, as tested here. */
  static final Set<String> COVERED = new TreeSet<>(Arrays.asList(
      "Blake3.deriveKey(String,byte[])", "Blake3.deriveKey(String,byte[],int)", "Blake3.fromHex(CharSequence)",
      "Blake3.hash(String)", "Blake3.hash(byte[])", "Blake3.hash(byte[],int)", "Blake3.hash(byte[],int,int)",
      "Blake3.hash(byte[],int,int,byte[],int)",
      "Blake3.hashFile(Path)", "Blake3.hashParallel(ByteBuffer)", "Blake3.hashParallel(ByteBuffer,Executor)",
      "Blake3.hashParallel(byte[])", "Blake3.hashParallel(byte[],Executor)", "Blake3.implementation()",
      "Blake3.keyedHash(byte[],byte[])", "Blake3.keyedHash(byte[],byte[],int)", "Blake3.newDeriveKeyHasher(String)",
      "Blake3.newHasher()", "Blake3.newKeyedHasher(byte[])", "Blake3.toHex(byte[])",
      "Blake3Hasher.copy()", "Blake3Hasher.digest()", "Blake3Hasher.digest(byte[],int,int)", "Blake3Hasher.digest(int)",
      "Blake3Hasher.reset()", "Blake3Hasher.update(ByteBuffer)", "Blake3Hasher.update(InputStream)",
      "Blake3Hasher.update(ReadableByteChannel)", "Blake3Hasher.update(byte[])", "Blake3Hasher.update(byte[],int,int)",
      "Blake3Hasher.updateFile(Path)", "Blake3Hasher.updateFile(Path,int)", "Blake3Hasher.updateParallel(ByteBuffer)",
      "Blake3Hasher.updateParallel(ByteBuffer,Executor)", "Blake3Hasher.updateParallel(byte[])",
      "Blake3Hasher.updateParallel(byte[],int,int)", "Blake3Hasher.updateParallel(byte[],int,int,Executor)",
      "Blake3Hasher.xof()",
      "Blake3OutputReader.position()", "Blake3OutputReader.read(byte[])", "Blake3OutputReader.read(byte[],int,int)",
      "Blake3OutputReader.seek(long)", "Blake3Provider.<init>()",
      "Blake3.hashMany(byte[][])", "Blake3.hashMany(byte[],int[],int[],byte[])",
      "Blake3.keyedHashMany(byte[],byte[][])", "Blake3.keyedHashMany(byte[],byte[],int[],int[],byte[])",
      "Blake3.deriveKeyMany(String,byte[][])", "Blake3.deriveKeyMany(String,byte[],int[],int[],byte[])"));

  interface PackedCall {
    void call(byte[] data, int[] offsets, int[] lengths, byte[] out);
  }

  /**
   * The packed batch functions: a bad range at any position (every one of {@link #badRanges}),
   * null arrays, arrays that disagree and a short {@code out} each throw, and nothing is written
   * to {@code out} before the throw. The array forms: a null array or element.
   */
  @Test
  void manyMessages() {
    List<PackedCall> packed = Arrays.asList(Blake3::hashMany, (d, o, l, out) -> Blake3.keyedHashMany(KEY, d, o, l, out),
        (d, o, l, out) -> Blake3.deriveKeyMany("BadArgumentTest", d, o, l, out));
    for (PackedCall call : packed) {
      for (int n : ARRAY_LENGTHS) {
        byte[] data = new byte[n];
        for (int[] r : badRanges(n)) {
          byte[] out = new byte[96];
          Arrays.fill(out, (byte) 9);
          assertThrows(IndexOutOfBoundsException.class,
              () -> call.call(data, new int[] {0, r[0], 0}, new int[] {0, r[1], 0}, out),
              "data[" + n + "] offset " + r[0] + " length " + r[1]);
          for (byte b : out) {
            assertEquals(9, b, "out written before the throw");
          }
        }
      }
      byte[] d = new byte[8];
      int[] one = {0};
      assertThrows(NullPointerException.class, () -> call.call(null, one, one, new byte[32]));
      assertThrows(NullPointerException.class, () -> call.call(d, null, one, new byte[32]));
      assertThrows(NullPointerException.class, () -> call.call(d, one, null, new byte[32]));
      assertThrows(NullPointerException.class, () -> call.call(d, one, one, null));
      assertThrows(IllegalArgumentException.class, () -> call.call(d, one, new int[2], new byte[64]));
      assertThrows(IllegalArgumentException.class, () -> call.call(d, one, one, new byte[31]));
    }
    byte[][] withNull = {new byte[3], null};
    assertThrows(NullPointerException.class, () -> Blake3.hashMany((byte[][]) null));
    assertThrows(NullPointerException.class, () -> Blake3.hashMany(withNull));
    assertThrows(NullPointerException.class, () -> Blake3.keyedHashMany(KEY, withNull));
    assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHashMany(new byte[31], new byte[1][]));
    assertThrows(IllegalArgumentException.class, () -> Blake3.keyedHashMany(new byte[31], new byte[0], new int[0],
        new int[0], new byte[0]));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKeyMany("c", withNull));
    assertThrows(NullPointerException.class, () -> Blake3.deriveKeyMany(null, new byte[1][]));
    assertArrayEquals(PRIOR_HASH, Blake3.hashMany(new byte[][] {PRIOR})[0]);
  }

  @Test
  void everyPublicMethodIsCovered() throws Exception {
    Set<String> covered = new TreeSet<>(COVERED);
    covered.addAll(BadArgumentHazmatTest.COVERED);
    Set<String> found = publicApi("io.github.blake3fast");
    List<String> missing = new ArrayList<>();
    for (String s : found) {
      if (!covered.contains(s)) {
        missing.add(s);
      }
    }
    if (!missing.isEmpty()) {
      fail("public methods without bad-argument cases (add them to BadArgumentTest or BadArgumentHazmatTest, and "
          + "to COVERED):\n  " + String.join("\n  ", missing));
    }
    System.out.println("BadArgumentTest: " + found.size() + " public methods and constructors, all covered");
  }

  /**
   * The public methods and constructors of the public classes of one package of the library (its
   * subpackages not included), named without the package: {@code "Blake3.hash(byte[])"}.
   *
   * @param pkg the package, as {@code "io.github.blake3fast"}
   * @return the signatures, sorted
   * @throws Exception if the package's class files cannot be listed or loaded
   */
  public static Set<String> publicApi(String pkg) throws Exception {
    Path dir = Paths.get(Blake3.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .resolve(pkg.replace('.', '/'));
    Set<String> out = new TreeSet<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.class")) {
      for (Path p : ds) {
        String simple = p.getFileName().toString().replace(".class", "");
        if (simple.equals("package-info")) {
          continue;
        }
        Class<?> c = Class.forName(pkg + "." + simple, false, BadArgumentTest.class.getClassLoader());
        boolean visible = !c.isAnonymousClass() && !c.isSynthetic();
        for (Class<?> e = c; e != null; e = e.getEnclosingClass()) {
          visible &= Modifier.isPublic(e.getModifiers());
        }
        if (!visible) {
          continue;
        }
        String name = c.getName().substring(pkg.length() + 1).replace('$', '.');
        for (Method m : c.getDeclaredMethods()) {
          if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge()) {
            out.add(name + "." + m.getName() + params(m.getParameterTypes()));
          }
        }
        for (Constructor<?> k : c.getDeclaredConstructors()) {
          if (Modifier.isPublic(k.getModifiers())) {
            out.add(name + ".<init>" + params(k.getParameterTypes()));
          }
        }
      }
    }
    return out;
  }

  private static String params(Class<?>[] ps) {
    StringJoiner j = new StringJoiner(",", "(", ")");
    for (Class<?> p : ps) {
      j.add(p.getSimpleName());
    }
    return j.toString();
  }
}
