package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.blake3fast.Blake3Hazmat.Mode;
import io.github.blake3fast.Blake3Hazmat.Piece;
import io.github.blake3fast.Blake3Hazmat.SubtreeHasher;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Subtree hashing (Blake3Hazmat) agrees with one-machine hashing, however the input is split. */
class SubtreeHashTest {
  private static final int MIB = 1 << 20;
  private static final int K = Blake3Hazmat.CHUNK_LEN;
  private static byte[] big;
  private static final byte[] KEY = new byte[32];
  private static final String CONTEXT = "blake3-fast 2026 subtree test";

  @BeforeAll
  static void setUp() {
    big = new byte[64 * MIB];
    new Random(64).nextBytes(big);
    new Random(32).nextBytes(KEY);
  }

  private static byte[] reference(Mode mode, byte[] in, int outLen) {
    switch (mode.toString()) {
      case "Mode.hash":
        return Blake3.hash(in, outLen);
      case "Mode.keyedHash":
        return Blake3.keyedHash(KEY, in, outLen);
      default:
        return Blake3.deriveKey(CONTEXT, in, outLen);
    }
  }

  private static List<Mode> modes() {
    return List.of(Mode.hash(), Mode.keyedHash(KEY), Mode.deriveKey(CONTEXT));
  }

  /** Piece boundaries: count pieces of about equal size, on chunk boundaries. */
  private static long[] split(long len, int count) {
    long[] b = new long[count + 1];
    for (int i = 1; i < count; i++) {
      b[i] = len * i / count / K * K;
    }
    b[count] = len;
    return b;
  }

  private static List<Piece> hashPieces(byte[] in, long[] bounds, Mode mode, ExecutorService pool) throws Exception {
    List<Future<Piece>> fs = new ArrayList<>();
    for (int i = 0; i + 1 < bounds.length; i++) {
      int from = (int) bounds[i];
      int len = (int) (bounds[i + 1] - bounds[i]);
      fs.add(pool.submit(() -> Blake3Hazmat.hashPiece(in, from, len, from, mode)));
    }
    List<Piece> pieces = new ArrayList<>();
    for (Future<Piece> f : fs) {
      pieces.add(f.get());
    }
    return pieces;
  }

  @Test
  void sixtyFourMebibytesIn8And13And64PiecesOnSeparateWorkers() throws Exception {
    byte[] expected = Blake3.hash(big);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int count : new int[] {8, 13, 64}) {
        List<Piece> pieces = hashPieces(big, split(big.length, count), Mode.hash(), pool);
        // As a cluster would: pieces travel as bytes and arrive in any order.
        List<Piece> arrived = new ArrayList<>();
        for (Piece p : pieces) {
          arrived.add(Piece.fromByteArray(p.toByteArray()));
        }
        Collections.shuffle(arrived, new Random(count));
        assertArrayEquals(expected, Blake3Hazmat.rootHash(arrived, Mode.hash()), count + " pieces");
        byte[] xof = new byte[300];
        Blake3Hazmat.rootOutputReader(arrived, Mode.hash()).read(xof);
        assertArrayEquals(Blake3.hash(big, 300), xof, count + " pieces, XOF");
      }
    } finally {
      pool.shutdown();
    }
  }

  @Test
  void sixtyFourMebibytesAsEightSubtreesMergedByHand() {
    Mode m = Mode.hash();
    int n = 8 * MIB;
    assertEquals(n, Blake3Hazmat.maxSubtreeLength(n));
    byte[][] level = new byte[8][];
    for (int i = 0; i < 8; i++) {
      level[i] = Blake3Hazmat.hashSubtree(big, i * n, n, (long) i * n, m);
    }
    while (level.length > 2) {
      byte[][] up = new byte[level.length / 2][];
      for (int i = 0; i < up.length; i++) {
        up[i] = Blake3Hazmat.mergeSubtrees(level[2 * i], level[2 * i + 1], m);
      }
      level = up;
    }
    assertArrayEquals(Blake3.hash(big), Blake3Hazmat.mergeSubtreesRoot(level[0], level[1], m));
    byte[] xof = new byte[1000];
    Blake3Hazmat.mergeSubtreesRootXof(level[0], level[1], m).read(xof);
    assertArrayEquals(Blake3.hash(big, 1000), xof);
  }

  @Test
  void randomSplitsOfManyLengthsInEveryMode() throws Exception {
    Random r = new Random(5);
    int[] lengths = {0, 1, 63, 64, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 4096, 4097, 5 * K, 7 * K + 5,
      8 * K, 9 * K, 16 * K, 31 * K + 1, 65 * K, 100_000, 262_144, 300_000};
    for (Mode mode : modes()) {
      for (int len : lengths) {
        byte[] in = Arrays.copyOf(big, len);
        byte[] expected = reference(mode, in, 32);
        byte[] expectedXof = reference(mode, in, 131);
        for (int trial = 0; trial < 6; trial++) {
          List<Long> cuts = new ArrayList<>();
          cuts.add(0L);
          int chunks = (len + K - 1) / K;
          for (int c = 1; c < chunks; c++) {
            if (r.nextInt(4) == 0) {
              cuts.add((long) c * K);
            }
          }
          if (trial == 0 && chunks > 0) { // every chunk its own piece
            cuts.clear();
            for (int c = 0; c < chunks; c++) {
              cuts.add((long) c * K);
            }
          }
          cuts.add((long) len);
          List<Piece> pieces = new ArrayList<>();
          for (int i = 0; i + 1 < cuts.size(); i++) {
            int from = cuts.get(i).intValue();
            int to = cuts.get(i + 1).intValue();
            if (r.nextBoolean()) {
              pieces.add(Blake3Hazmat.hashPiece(in, from, to - from, from, mode));
            } else { // streamed in random updates, through the ByteBuffer or array overloads
              SubtreeHasher h = Blake3Hazmat.newSubtreeHasher(from, mode);
              int at = from;
              while (at < to) {
                int n = Math.min(to - at, 1 + r.nextInt(3000));
                if (r.nextBoolean()) {
                  h.update(in, at, n);
                } else {
                  h.update(ByteBuffer.wrap(in, at, n));
                }
                at += n;
              }
              pieces.add(h.piece());
            }
          }
          if (len % K == 0 && r.nextBoolean()) {
            pieces.add(Blake3Hazmat.hashPiece(in, len, 0, len, mode)); // an empty piece at the end
          }
          Collections.shuffle(pieces, r);
          String what = mode + " len " + len + " cuts " + cuts;
          assertArrayEquals(expected, Blake3Hazmat.rootHash(pieces, mode), what);
          byte[] xof = new byte[131];
          Blake3Hazmat.rootOutputReader(pieces, mode).read(xof);
          assertArrayEquals(expectedXof, xof, what + " XOF");
        }
      }
    }
  }

  /** Every node of the tree, computed with hashSubtree and with merges of its children. */
  @Test
  void everySubtreeOfTheTreeAgreesWithItsChildren() {
    for (Mode mode : modes()) {
      for (int len : new int[] {1025, 2048, 3000, 4 * K, 5 * K + 1, 11 * K, 16 * K, 37 * K + 999, 128 * K + 1}) {
        byte[] in = Arrays.copyOf(big, len);
        long left = Blake3Hazmat.leftSubtreeLength(len);
        byte[] l = checkNode(in, 0, left, mode);
        byte[] rt = checkNode(in, left, len - left, mode);
        assertArrayEquals(reference(mode, in, 32), Blake3Hazmat.mergeSubtreesRoot(l, rt, mode), mode + " " + len);
        byte[] xof = new byte[200];
        Blake3Hazmat.mergeSubtreesRootXof(l, rt, mode).read(xof);
        assertArrayEquals(reference(mode, in, 200), xof);
      }
    }
  }

  private static byte[] checkNode(byte[] in, long off, long len, Mode mode) {
    byte[] direct = Blake3Hazmat.hashSubtree(in, (int) off, (int) len, off, mode);
    assertTrue(off == 0 || len <= Blake3Hazmat.maxSubtreeLength(off));
    if (len > K) {
      long l = Blake3Hazmat.leftSubtreeLength(len);
      byte[] merged = Blake3Hazmat.mergeSubtrees(checkNode(in, off, l, mode), checkNode(in, off + l, len - l, mode), mode);
      assertArrayEquals(direct, merged, "node at " + off + " of " + len);
    }
    ByteBuffer d = ByteBuffer.allocateDirect((int) len);
    d.put(in, (int) off, (int) len).flip();
    assertArrayEquals(direct, Blake3Hazmat.hashSubtree(d, off, mode));
    return direct;
  }

  /** Far into a huge input (counters past 2^32), native and Java kernels agree, and merging holds. */
  @Test
  void subtreesFarIntoAHugeInput() {
    long[] offsets = {1L << 42, (1L << 42) + 64 * K, 3L << 40, (1L << 50) + 5 * K, 1L << 60};
    for (long off : offsets) {
      long max = Blake3Hazmat.maxSubtreeLength(off);
      int len = (int) Math.min(max, 256 * K);
      for (int n : new int[] {1, K, 2 * K, len - 1, len}) {
        if (n > max || n < 1) {
          continue;
        }
        Mode m = Mode.keyedHash(KEY);
        byte[] got = Blake3Hazmat.hashSubtree(big, 0, n, off, m);
        TreeState java = new TreeState(JavaKernel.INSTANCE, m.key, m.flags, off / K);
        java.update(big, 0, n);
        int[] cvs = java.subtreeCvs();
        for (int i = cvs.length / 8 - 1; i > 0; i--) {
          Compress.compressWords(m.key, 0, cvs, 8 * (i - 1), 0, 64, m.flags | Spec.PARENT, cvs, 8 * (i - 1), false);
        }
        byte[] javaCv = new byte[32];
        for (int i = 0; i < 8; i++) {
          Compress.putWord(javaCv, 4 * i, cvs[i]);
        }
        assertArrayEquals(javaCv, got, "offset " + off + " length " + n);
        if (n > K) {
          long l = Blake3Hazmat.leftSubtreeLength(n);
          byte[] merged = Blake3Hazmat.mergeSubtrees(Blake3Hazmat.hashSubtree(big, 0, (int) l, off, m),
              Blake3Hazmat.hashSubtree(big, (int) l, n - (int) l, off + l, m), m);
          assertArrayEquals(got, merged);
        }
      }
    }
  }

  @Test
  void aStreamingHasherStaysUsable() throws Exception {
    Mode m = Mode.hash();
    long off = 64L * K;
    SubtreeHasher h = Blake3Hazmat.newSubtreeHasher(off, m);
    assertEquals(off, h.inputOffset());
    h.update(big, 0, 10 * K);
    byte[] cv10 = h.chainingValue();
    assertArrayEquals(cv10, h.chainingValue());
    assertArrayEquals(Blake3Hazmat.hashSubtree(big, 0, 10 * K, off, m), cv10);
    h.update(new ByteArrayInputStream(big, 10 * K, 54 * K));
    assertEquals(64 * K, h.length());
    assertArrayEquals(Blake3Hazmat.hashSubtree(big, 0, 64 * K, off, m), h.chainingValue());
    h.update(big, 0, 1);
    IllegalStateException e = assertThrows(IllegalStateException.class, h::chainingValue);
    assertTrue(e.getMessage().contains("at most 65536"), e.getMessage());
    assertEquals(2, h.piece().chainingValueCount());
    h.reset();
    assertEquals(0, h.length());
    assertThrows(IllegalStateException.class, h::chainingValue);
  }

  @Test
  void misalignedAndOversizedRangesAreRefused() {
    Mode m = Mode.hash();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> Blake3Hazmat.hashSubtree(new byte[K], 1000, m));
    assertTrue(e.getMessage().contains("not on a chunk boundary"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[3 * K], 2 * K, m));
    assertTrue(e.getMessage().contains("at most 2048"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[K + 1], K, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[0], 0, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[1], -K, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(ByteBuffer.allocate(5 * K), 4 * K, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashPiece(new byte[5], 0, 5, 1, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.newSubtreeHasher(513, m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.maxSubtreeLength(100));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.leftSubtreeLength(K));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtrees(new byte[31], new byte[32], m));
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtreesRoot(new byte[32], new byte[33], m));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.mergeSubtrees(null, new byte[32], m));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree(new byte[1], 0, null));
    assertThrows(IllegalArgumentException.class, () -> Mode.keyedHash(new byte[16]));
    assertEquals("Mode.keyedHash", Mode.keyedHash(KEY).toString());
  }

  @Test
  void geometry() {
    assertEquals(Long.MAX_VALUE, Blake3Hazmat.maxSubtreeLength(0));
    assertEquals(K, Blake3Hazmat.maxSubtreeLength(K));
    assertEquals(2 * K, Blake3Hazmat.maxSubtreeLength(2 * K));
    assertEquals(K, Blake3Hazmat.maxSubtreeLength(3 * K));
    assertEquals(1L << 40, Blake3Hazmat.maxSubtreeLength(3L << 40));
    assertEquals(K, Blake3Hazmat.leftSubtreeLength(K + 1));
    assertEquals(K, Blake3Hazmat.leftSubtreeLength(2 * K));
    assertEquals(2 * K, Blake3Hazmat.leftSubtreeLength(2 * K + 1));
    assertEquals(2 * K, Blake3Hazmat.leftSubtreeLength(4 * K));
    assertEquals(4 * K, Blake3Hazmat.leftSubtreeLength(5 * K));
    assertEquals(1L << 62, Blake3Hazmat.leftSubtreeLength(Long.MAX_VALUE));
  }

  @Test
  void piecesThatDoNotTileTheInputAreRefused() {
    Mode m = Mode.hash();
    Piece a = Blake3Hazmat.hashPiece(big, 0, 4 * K, 0, m);
    Piece b = Blake3Hazmat.hashPiece(big, 4 * K, 4 * K, 4 * K, m);
    Piece c = Blake3Hazmat.hashPiece(big, 8 * K, 100, 8 * K, m);
    Piece partial = Blake3Hazmat.hashPiece(big, 4 * K, 4 * K - 1, 4 * K, m);
    assertArrayEquals(Blake3.hash(big, 0, 8 * K + 100), Blake3Hazmat.rootHash(List.of(c, a, b), m));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(a, c), m));
    assertTrue(e.getMessage().contains("gap"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(a, b, b), m));
    assertTrue(e.getMessage().contains("overlap"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(b, c), m));
    assertTrue(e.getMessage().contains("gap"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(a, partial, c), m));
    assertTrue(e.getMessage().contains("last piece"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(a, b), Mode.keyedHash(KEY)));
    assertTrue(e.getMessage().contains("mode"), e.getMessage());
    assertArrayEquals(Blake3.hash(new byte[0]), Blake3Hazmat.rootHash(List.of(), m));
  }

  @Test
  void piecesTravelAsBytesAndAsSerializedObjects() throws Exception {
    Mode m = Mode.deriveKey(CONTEXT);
    List<Piece> pieces = new ArrayList<>();
    long[] bounds = split(3 * MIB + 77, 5);
    for (int i = 0; i < 5; i++) {
      pieces.add(Blake3Hazmat.hashPiece(big, (int) bounds[i], (int) (bounds[i + 1] - bounds[i]), bounds[i], m));
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new ArrayList<>(pieces));
    }
    List<Piece> back;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      @SuppressWarnings("unchecked")
      List<Piece> read = (List<Piece>) in.readObject();
      back = read;
    }
    byte[] expected = Blake3.deriveKey(CONTEXT, Arrays.copyOf(big, 3 * MIB + 77));
    assertArrayEquals(expected, Blake3Hazmat.rootHash(back, m));
    Piece tiny = Blake3Hazmat.hashPiece(big, 0, 10, 0, m);
    assertArrayEquals(Blake3.deriveKey(CONTEXT, Arrays.copyOf(big, 10)),
        Blake3Hazmat.rootHash(List.of(Piece.fromByteArray(tiny.toByteArray())), m));

    byte[] wire = pieces.get(2).toByteArray();
    assertThrows(IllegalArgumentException.class, () -> Piece.fromByteArray(Arrays.copyOf(wire, wire.length - 1)));
    assertThrows(IllegalArgumentException.class, () -> Piece.fromByteArray(Arrays.copyOf(wire, wire.length + 1)));
    byte[] wrongLength = wire.clone();
    wrongLength[19] ^= 4; // the length's low byte: another length has another number of values
    assertThrows(IllegalArgumentException.class, () -> Piece.fromByteArray(wrongLength));
    byte[] notAPiece = wire.clone();
    notAPiece[0] = 0;
    assertThrows(IllegalArgumentException.class, () -> Piece.fromByteArray(notAPiece));
    assertTrue(pieces.get(2).toString().contains("chaining values"));
  }
}
