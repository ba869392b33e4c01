package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.blake3fast.Blake3Hazmat.Mode;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The batched Hazmat methods ({@link Blake3Hazmat#hashSubtrees(byte[], int, int, long, int, Mode,
 * byte[], int)}, its ByteBuffer form, and {@link Blake3Hazmat#mergeSubtrees(byte[], int, int, Mode,
 * byte[], int)}) on every engine (tag "engine", see {@link Engines}): each value is the one the
 * one-at-a-time methods give ({@code hashSubtree}, {@code mergeSubtrees(left, right, mode)}),
 * for subtrees of 1 chunk to 8 MiB, counts that cross a kernel call's limit, offsets far into a
 * long input, the three modes, heap, direct and read-only buffers, and outputs that overlap the
 * input at random, which must come out as if all the input had been read first. No byte outside
 * the output is written.
 */
@Tag("engine")
class HazmatBatchTest {
  private static final Mode[] MODES = {
    Mode.hash(), Mode.keyedHash(Arrays.copyOf("HazmatBatchTest key".getBytes(), 32)),
    Mode.deriveKey("blake3-fast HazmatBatchTest 2026 context"),
  };
  private static final byte GUARD = 0x5a;

  static Stream<Engines.Api> engines() {
    return Engines.all().stream();
  }

  static byte[] random(SplittableRandom r, int len) {
    byte[] b = new byte[len];
    r.nextBytes(b);
    return b;
  }

  /** A multiple of {@code subtreeLen}: 0, small, or far into a long input. */
  static long inputOffset(SplittableRandom r, int subtreeLen) {
    switch (r.nextInt(3)) {
      case 0: return 0;
      case 1: return (long) r.nextInt(1000) * subtreeLen;
      default: return r.nextLong(1L << 52) / subtreeLen * subtreeLen;
    }
  }

  /** The values one {@code hashSubtree} call per subtree gives. */
  static byte[] oneAtATime(byte[] in, int off, int count, long inputOffset, int subtreeLen, Mode mode) {
    byte[] out = new byte[32 * count];
    for (int i = 0; i < count; i++) {
      byte[] cv = Blake3Hazmat.hashSubtree(in, off + i * subtreeLen, subtreeLen, inputOffset + (long) i * subtreeLen,
          mode);
      System.arraycopy(cv, 0, out, 32 * i, 32);
    }
    return out;
  }

  /** The values one {@code mergeSubtrees(left, right, mode)} call per parent gives. */
  static byte[] oneByOne(byte[] children, int off, int count, Mode mode) {
    byte[] out = new byte[32 * count];
    for (int i = 0; i < count; i++) {
      int at = off + 64 * i;
      byte[] cv = Blake3Hazmat.mergeSubtrees(Arrays.copyOfRange(children, at, at + 32),
          Arrays.copyOfRange(children, at + 32, at + 64), mode);
      System.arraycopy(cv, 0, out, 32 * i, 32);
    }
    return out;
  }

  /** An output array of guard bytes with room for {@code len} bytes at a random offset. */
  static byte[] guarded(SplittableRandom r, int len, int[] at) {
    at[0] = r.nextInt(40);
    byte[] out = new byte[at[0] + len + r.nextInt(40)];
    Arrays.fill(out, GUARD);
    return out;
  }

  static void assertWritten(byte[] expected, byte[] out, int at, String what) {
    assertArrayEquals(expected, Arrays.copyOfRange(out, at, at + expected.length), what);
    for (int i = 0; i < out.length; i++) {
      if (i < at || i >= at + expected.length) {
        assertEquals(GUARD, out[i], what + ": byte " + i + " outside the output was written");
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void subtreesAreOneAtATimeValues(Engines.Api e) {
    SplittableRandom r = new SplittableRandom(41);
    // {log2 chunks per subtree, count}: kernel calls take 4 MiB at most, so 4099 chunks, 257
    // subtrees of 16 KiB and two of 4 MiB take two calls or more; 8 MiB subtrees exceed a call.
    int[][] shapes = {{0, 0}, {0, 1}, {0, 2}, {0, 3}, {0, 17}, {0, 4099}, {1, 5}, {2, 9}, {3, 1}, {4, 3}, {4, 257},
      {7, 6}, {10, 5}, {12, 2}, {13, 1}};
    for (int s = 0; s < shapes.length; s++) {
      int subtreeLen = 1024 << shapes[s][0];
      int count = shapes[s][1];
      for (int m = 0; m < MODES.length; m++) {
        if (count * (long) subtreeLen > (1 << 20) && m != s % MODES.length) {
          continue; // the large shapes in one mode each
        }
        int off = r.nextInt(100);
        byte[] in = random(r, off + count * subtreeLen + r.nextInt(100));
        long inputOffset = inputOffset(r, subtreeLen);
        String what = e + ": " + count + " subtrees of " + subtreeLen + " at " + inputOffset + ", " + MODES[m];
        byte[] expected = oneAtATime(in, off, count, inputOffset, subtreeLen, MODES[m]);
        int[] at = new int[1];
        byte[] out = guarded(r, 32 * count, at);
        byte[] before = in.clone();
        e.hashSubtrees(in, off, count * subtreeLen, inputOffset, subtreeLen, MODES[m], out, at[0]);
        assertWritten(expected, out, at[0], what);
        assertArrayEquals(before, in, what + ": the input changed");
        if (count * (long) subtreeLen <= (1 << 20) || m == s % MODES.length) {
          buffers(e, r, Arrays.copyOfRange(in, off, off + count * subtreeLen), inputOffset, subtreeLen, MODES[m],
              expected, what);
        }
      }
    }
  }

  /** The same subtrees from a heap, a direct and two read-only buffers with room around them. */
  static void buffers(Engines.Api e, SplittableRandom r, byte[] bytes, long inputOffset, int subtreeLen, Mode mode,
      byte[] expected, String what) {
    int pad = r.nextInt(64);
    byte[] backing = new byte[pad + bytes.length + 17];
    System.arraycopy(bytes, 0, backing, pad, bytes.length);
    ByteBuffer heap = ByteBuffer.wrap(backing).position(pad).limit(pad + bytes.length);
    ByteBuffer sliced = ByteBuffer.wrap(backing).position(pad).slice().limit(bytes.length); // array offset pad
    ByteBuffer direct = ByteBuffer.allocateDirect(backing.length).put(backing).position(pad).limit(pad + bytes.length);
    ByteBuffer[] all = {heap, heap.asReadOnlyBuffer(), sliced, direct, direct.asReadOnlyBuffer()};
    String[] names = {"heap", "read-only heap", "heap slice", "direct", "read-only direct"};
    for (int i = 0; i < all.length; i++) {
      ByteBuffer b = all[i];
      int limit = b.limit();
      int[] at = new int[1];
      byte[] out = guarded(r, expected.length, at);
      e.hashSubtrees(b, inputOffset, subtreeLen, mode, out, at[0]);
      assertWritten(expected, out, at[0], what + ", " + names[i] + " buffer");
      assertEquals(limit, b.position(), what + ", " + names[i] + ": the position moves to the limit");
      assertEquals(limit, b.limit(), what + ", " + names[i] + ": the limit stays");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void parentsAreOneByOneValues(Engines.Api e) {
    SplittableRandom r = new SplittableRandom(42);
    // 65536 parents fill a 4 MiB kernel call: 65541 take two.
    int[] counts = {0, 1, 2, 3, 7, 16, 33, 1000, 65536 + 5};
    for (int c = 0; c < counts.length; c++) {
      int count = counts[c];
      for (int m = 0; m < MODES.length; m++) {
        if (count > 1000 && m != c % MODES.length) {
          continue;
        }
        int off = r.nextInt(100);
        byte[] in = random(r, off + 64 * count + r.nextInt(100));
        String what = e + ": " + count + " parents, " + MODES[m];
        byte[] expected = oneByOne(in, off, count, MODES[m]);
        int[] at = new int[1];
        byte[] out = guarded(r, 32 * count, at);
        byte[] before = in.clone();
        e.mergeSubtrees(in, off, count, MODES[m], out, at[0]);
        assertWritten(expected, out, at[0], what);
        assertArrayEquals(before, in, what + ": the input changed");
      }
    }
  }

  /**
   * Parents merged within one array, the output at a random place that overlaps the input in
   * any way (before, after, inside, exactly in place, or apart): as if all was read first.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void parentsOverlappingTheirChildren(Engines.Api e) {
    SplittableRandom r = new SplittableRandom(43);
    for (int round = 0; round < 300; round++) {
      int count = 1 + r.nextInt(round < 250 ? 40 : 3000);
      int size = 64 * count + r.nextInt(64 * count);
      int off = r.nextInt(size - 64 * count + 1);
      int outOff = round % 10 == 0 ? off : r.nextInt(size - 32 * count + 1);
      Mode mode = MODES[round % MODES.length];
      byte[] a = random(r, size);
      byte[] expected = a.clone();
      System.arraycopy(oneByOne(a, off, count, mode), 0, expected, outOff, 32 * count);
      e.mergeSubtrees(a, off, count, mode, a, outOff);
      assertArrayEquals(expected, a, e + ": " + count + " parents from " + off + " to " + outOff + " of " + size);
    }
  }

  /** Subtrees hashed into their own array (and from views of it), overlapping in any way. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("engines")
  void subtreesOverlappingTheirValues(Engines.Api e) {
    SplittableRandom r = new SplittableRandom(44);
    for (int round = 0; round < 120; round++) {
      int subtreeLen = 1024 << r.nextInt(3);
      int count = 1 + r.nextInt(round < 100 ? 9 : 300);
      int len = count * subtreeLen;
      int size = len + r.nextInt(2048);
      int off = r.nextInt(size - len + 1);
      int cvsOff = round % 10 == 0 ? off : off + r.nextInt(len) - r.nextInt(Math.min(off, 32 * count) + 1);
      cvsOff = Math.max(0, Math.min(cvsOff, size - 32 * count));
      long inputOffset = inputOffset(r, subtreeLen);
      Mode mode = MODES[round % MODES.length];
      byte[] a = random(r, size);
      byte[] expected = a.clone();
      System.arraycopy(oneAtATime(a, off, count, inputOffset, subtreeLen, mode), 0, expected, cvsOff, 32 * count);
      String what = e + ": " + count + " subtrees of " + subtreeLen + " from " + off + ", values to " + cvsOff + " of "
          + size;
      byte[] copy = a.clone();
      e.hashSubtrees(copy, off, len, inputOffset, subtreeLen, mode, copy, cvsOff);
      assertArrayEquals(expected, copy, what);
      copy = a.clone();
      e.hashSubtrees(ByteBuffer.wrap(copy, off, len), inputOffset, subtreeLen, mode, copy, cvsOff);
      assertArrayEquals(expected, copy, what + ", a heap buffer");
      copy = a.clone();
      e.hashSubtrees(ByteBuffer.wrap(copy, off, len).asReadOnlyBuffer(), inputOffset, subtreeLen, mode, copy, cvsOff);
      assertArrayEquals(expected, copy, what + ", a read-only view");
    }
  }
}
