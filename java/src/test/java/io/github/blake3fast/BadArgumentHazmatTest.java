package io.github.blake3fast;

import static io.github.blake3fast.BadArgumentTest.rangesChecked;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Bad arguments to {@link Blake3Hazmat} and its Mode, Piece and SubtreeHasher: null, misaligned
 * and negative offsets, lengths a subtree cannot have, offsets at the end of the long range,
 * chaining values that are not 32 bytes, keys that are not 32 bytes, pieces that overlap, leave
 * gaps, end inside a chunk or belong to another mode, and serialized pieces that are truncated,
 * padded, mutated or claim huge lengths. Every one gets the documented exception.
 */
class BadArgumentHazmatTest {
  private static final Blake3Hazmat.Mode HASH = Blake3Hazmat.Mode.hash();
  private static final byte[] DATA = ReliabilityKit.content(new SplittableRandom(5), 10_000);
  private static final byte[] CV = new byte[32];
  /** The offset of the last chunk that starts below 2^63: a subtree there is one chunk at most. */
  private static final long LAST = Long.MAX_VALUE / 1024 * 1024;

  static final Set<String> COVERED = new TreeSet<>(Arrays.asList(
      "Blake3Hazmat.Mode.deriveKey(String)", "Blake3Hazmat.Mode.hash()", "Blake3Hazmat.Mode.keyedHash(byte[])",
      "Blake3Hazmat.Mode.toString()", "Blake3Hazmat.Piece.chainingValueCount()", "Blake3Hazmat.Piece.fromByteArray(byte[])",
      "Blake3Hazmat.Piece.length()", "Blake3Hazmat.Piece.offset()", "Blake3Hazmat.Piece.toByteArray()",
      "Blake3Hazmat.Piece.toString()", "Blake3Hazmat.SubtreeHasher.chainingValue()",
      "Blake3Hazmat.SubtreeHasher.inputOffset()", "Blake3Hazmat.SubtreeHasher.length()",
      "Blake3Hazmat.SubtreeHasher.piece()", "Blake3Hazmat.SubtreeHasher.reset()",
      "Blake3Hazmat.SubtreeHasher.update(ByteBuffer)", "Blake3Hazmat.SubtreeHasher.update(InputStream)",
      "Blake3Hazmat.SubtreeHasher.update(byte[])", "Blake3Hazmat.SubtreeHasher.update(byte[],int,int)",
      "Blake3Hazmat.hashPiece(ByteBuffer,long,Mode)", "Blake3Hazmat.hashPiece(byte[],int,int,long,Mode)",
      "Blake3Hazmat.hashSubtree(ByteBuffer,long,Mode)", "Blake3Hazmat.hashSubtree(byte[],int,int,long,Mode)",
      "Blake3Hazmat.hashSubtree(byte[],long,Mode)", "Blake3Hazmat.hashSubtrees(ByteBuffer,long,int,Mode,byte[],int)",
      "Blake3Hazmat.hashSubtrees(byte[],int,int,long,int,Mode,byte[],int)", "Blake3Hazmat.leftSubtreeLength(long)",
      "Blake3Hazmat.maxSubtreeLength(long)", "Blake3Hazmat.mergeSubtrees(byte[],byte[],Mode)",
      "Blake3Hazmat.mergeSubtrees(byte[],int,int,Mode,byte[],int)",
      "Blake3Hazmat.mergeSubtreesRoot(byte[],byte[],Mode)", "Blake3Hazmat.mergeSubtreesRootXof(byte[],byte[],Mode)",
      "Blake3Hazmat.newSubtreeHasher(long,Mode)", "Blake3Hazmat.rootHash(Collection,Mode)",
      "Blake3Hazmat.rootOutputReader(Collection,Mode)"));

  private static final long[] BAD_OFFSETS = {-1, -1024, 1, 1023, 1025, Long.MIN_VALUE, Long.MAX_VALUE, LAST + 1};

  @Test
  void modes() {
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.Mode.keyedHash(null));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.Mode.deriveKey(null));
    for (int n : new int[] {0, 31, 33}) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.Mode.keyedHash(new byte[n]), n + "-byte key");
    }
    byte[] key = new byte[32];
    Blake3Hazmat.Mode k = Blake3Hazmat.Mode.keyedHash(key);
    key[0] = 1;
    assertArrayEquals(Blake3.keyedHash(new byte[32], DATA),
        Blake3Hazmat.rootHash(List.of(Blake3Hazmat.hashPiece(DATA, 0, DATA.length, 0, k)), k), "the key was copied");
    assertEquals("Mode.keyedHash", k.toString());
    assertTrue(!k.toString().contains("0000"), "toString never shows the key");
    assertEquals("Mode.hash", HASH.toString());
    assertEquals("Mode.deriveKey", Blake3Hazmat.Mode.deriveKey("").toString());
  }

  @Test
  void geometry() {
    for (long off : BAD_OFFSETS) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.maxSubtreeLength(off), "offset " + off);
    }
    assertEquals(Long.MAX_VALUE, Blake3Hazmat.maxSubtreeLength(0));
    assertEquals(1024, Blake3Hazmat.maxSubtreeLength(LAST));
    assertEquals(1L << 62, Blake3Hazmat.maxSubtreeLength(1L << 62));
    for (long len : new long[] {1024, 1, 0, -1, Long.MIN_VALUE}) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.leftSubtreeLength(len), "length " + len);
    }
    assertEquals(1024, Blake3Hazmat.leftSubtreeLength(1025));
    assertEquals(1L << 62, Blake3Hazmat.leftSubtreeLength(Long.MAX_VALUE));
  }

  @Test
  void subtrees() {
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree((byte[]) null, 0, HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree((ByteBuffer) null, 0, HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree(DATA, 0, null));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree(DATA, 0, 5, 0, null));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashSubtree(ByteBuffer.wrap(DATA), 0, null));
    rangesChecked("hashSubtree(byte[], int, int, long, Mode)", (a, o, l) -> Blake3Hazmat.hashSubtree(a, o, l, 0, HASH),
        () -> { });
    for (long off : BAD_OFFSETS) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[1], off, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(new byte[1], 0, 1, off, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(ByteBuffer.allocate(1), off, HASH));
    }
    // empty, or longer than the offset allows
    Executable[] bad = {
      () -> Blake3Hazmat.hashSubtree(new byte[0], 0, HASH),
      () -> Blake3Hazmat.hashSubtree(ByteBuffer.allocate(0), 1024, HASH),
      () -> Blake3Hazmat.hashSubtree(new byte[1025], 1024, HASH),
      () -> Blake3Hazmat.hashSubtree(new byte[2049], 0, 2049, 2048, HASH),
      () -> Blake3Hazmat.hashSubtree(ByteBuffer.allocateDirect(1025), 3072, HASH),
      () -> Blake3Hazmat.hashSubtree(new byte[1025], LAST, HASH),
    };
    for (int i = 0; i < bad.length; i++) {
      assertThrows(IllegalArgumentException.class, bad[i], "case " + i);
    }
    // a bad call leaves the buffer where it was
    ByteBuffer b = ByteBuffer.wrap(new byte[1025]);
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtree(b, 1024, HASH));
    assertEquals(0, b.position());
    // the end of the range: the last chunk that starts below 2^63 (a subtree hasher and a piece
    // stop at byte 2^63 - 1, whose end offset is the last a long holds)
    byte[] cv = Blake3Hazmat.hashSubtree(new byte[1023], LAST, HASH);
    assertArrayEquals(cv, Blake3Hazmat.hashSubtree(ByteBuffer.allocateDirect(1023), LAST, HASH));
    assertArrayEquals(cv, Blake3Hazmat.newSubtreeHasher(LAST, HASH).update(new byte[1023]).chainingValue());
  }

  @Test
  void subtreeHasher() throws IOException {
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.newSubtreeHasher(0, null));
    for (long off : BAD_OFFSETS) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.newSubtreeHasher(off, HASH), "offset " + off);
    }
    Blake3Hazmat.SubtreeHasher s = Blake3Hazmat.newSubtreeHasher(2048, HASH).update(DATA, 0, 100);
    byte[] want = Blake3Hazmat.hashSubtree(DATA, 0, 100, 2048, HASH);
    Runnable intact = () -> {
      assertEquals(100, s.length(), "a failed call changed the subtree hasher");
      assertArrayEquals(want, s.chainingValue());
    };
    assertThrows(NullPointerException.class, () -> s.update((byte[]) null));
    assertThrows(NullPointerException.class, () -> s.update((ByteBuffer) null));
    assertThrows(NullPointerException.class, () -> s.update((InputStream) null));
    intact.run();
    rangesChecked("SubtreeHasher.update", s::update, intact);
    assertEquals(2048, s.inputOffset());
    // too long for the offset: the hasher takes it (it may become a piece) but has no chaining value
    s.update(new byte[2000]);
    assertThrows(IllegalStateException.class, s::chainingValue);
    assertEquals(2100, s.piece().length());
    s.reset();
    assertThrows(IllegalStateException.class, s::chainingValue, "empty");
    assertEquals(0, s.length());
    // bytes that would pass byte 2^63 - 1 of the input
    Blake3Hazmat.SubtreeHasher end = Blake3Hazmat.newSubtreeHasher(LAST, HASH);
    end.update(new byte[1023]);
    assertThrows(IllegalArgumentException.class, () -> end.update(new byte[1]));
    assertThrows(IllegalArgumentException.class, () -> end.update(ByteBuffer.allocate(1)));
    assertThrows(IllegalArgumentException.class, () -> end.update(new byte[5], 1, 2));
    assertEquals(1023, end.length());
    // a stream that lies about its count is refused (it once made native code read past the array)
    assertThrows(IOException.class, () -> Blake3Hazmat.newSubtreeHasher(0, HASH)
        .update(new BadArgumentTest.LyingStream(4096)));
    assertArrayEquals(Blake3Hazmat.hashSubtree(DATA, 0, HASH),
        Blake3Hazmat.newSubtreeHasher(0, HASH).update(new ByteArrayInputStream(DATA)).chainingValue());
  }

  @Test
  void merges() {
    byte[][] bad = {new byte[0], new byte[31], new byte[33], new byte[64]};
    for (byte[] b : bad) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtrees(b, CV, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtrees(CV, b, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtreesRoot(b, CV, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtreesRoot(CV, b, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtreesRootXof(b, CV, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.mergeSubtreesRootXof(CV, b, HASH));
    }
    Executable[] nulls = {
      () -> Blake3Hazmat.mergeSubtrees(null, CV, HASH), () -> Blake3Hazmat.mergeSubtrees(CV, null, HASH),
      () -> Blake3Hazmat.mergeSubtrees(CV, CV, null), () -> Blake3Hazmat.mergeSubtreesRoot(null, CV, HASH),
      () -> Blake3Hazmat.mergeSubtreesRoot(CV, null, HASH), () -> Blake3Hazmat.mergeSubtreesRoot(CV, CV, null),
      () -> Blake3Hazmat.mergeSubtreesRootXof(null, CV, HASH), () -> Blake3Hazmat.mergeSubtreesRootXof(CV, null, HASH),
      () -> Blake3Hazmat.mergeSubtreesRootXof(CV, CV, null),
    };
    for (int i = 0; i < nulls.length; i++) {
      assertThrows(NullPointerException.class, nulls[i], "case " + i);
    }
    // the real thing, for contrast: two chunks
    byte[] two = Arrays.copyOf(DATA, 2048);
    byte[] l = Blake3Hazmat.hashSubtree(two, 0, 1024, 0, HASH);
    byte[] r = Blake3Hazmat.hashSubtree(two, 1024, 1024, 1024, HASH);
    assertArrayEquals(Blake3.hash(two), Blake3Hazmat.mergeSubtreesRoot(l, r, HASH));
    byte[] xof = new byte[100];
    Blake3Hazmat.mergeSubtreesRootXof(l, r, HASH).read(xof);
    assertArrayEquals(Blake3.hash(two, 100), xof);
  }

  /**
   * The batched methods: nulls, array ranges, subtree lengths that are not a power of two chunks,
   * offsets and lengths that are not multiples of it, ends beyond 2^63 - 1, output ranges that do
   * not fit, negative counts. Nothing is written, and a buffer's position does not move.
   */
  @Test
  void batches() {
    byte[] out = new byte[64];
    Runnable untouched = () -> assertArrayEquals(new byte[64], out, "written before the throw");
    rangesChecked("hashSubtrees(byte[], int, int, long, int, Mode, byte[], int)",
        (a, o, l) -> Blake3Hazmat.hashSubtrees(a, o, l, 0, 1024, HASH, out, 0), untouched);
    rangesChecked("mergeSubtrees(byte[], int, int, Mode, byte[], int)",
        (a, o, l) -> Blake3Hazmat.mergeSubtrees(a, o, l, HASH, out, 0), untouched);
    Executable[] nulls = {
      () -> Blake3Hazmat.hashSubtrees(DATA, 0, 1024, 0, 1024, null, out, 0),
      () -> Blake3Hazmat.hashSubtrees(DATA, 0, 1024, 0, 1024, HASH, null, 0),
      () -> Blake3Hazmat.hashSubtrees((ByteBuffer) null, 0, 1024, HASH, out, 0),
      () -> Blake3Hazmat.hashSubtrees(ByteBuffer.wrap(DATA, 0, 1024), 0, 1024, null, out, 0),
      () -> Blake3Hazmat.hashSubtrees(ByteBuffer.allocateDirect(1024), 0, 1024, HASH, null, 0),
      () -> Blake3Hazmat.mergeSubtrees(null, 0, 1, HASH, out, 0),
      () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 1, null, out, 0),
      () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 1, HASH, null, 0),
    };
    for (int i = 0; i < nulls.length; i++) {
      assertThrows(NullPointerException.class, nulls[i], "null case " + i);
    }
    // {length, inputOffset, subtreeLength}: shapes that are not whole subtrees of one size
    long[][] shapes = {{1024, 0, 0}, {1024, 0, -1024}, {1024, 0, 512}, {1024, 0, 1023}, {3072, 0, 3072},
      {1024, 0, Integer.MIN_VALUE}, {1024, -1024, 1024}, {1024, 512, 1024}, {2048, 1024, 2048},
      {1024, Long.MIN_VALUE, 1024}, {1000, 0, 1024}, {3072, 0, 2048}, {2048, LAST, 1024}, {1024, LAST, 1024},
      {4096, Long.MAX_VALUE / 4096 * 4096, 4096}};
    for (long[] c : shapes) {
      String what = "length " + c[0] + " at " + c[1] + " in subtrees of " + c[2];
      assertThrows(IllegalArgumentException.class,
          () -> Blake3Hazmat.hashSubtrees(DATA, 0, (int) c[0], c[1], (int) c[2], HASH, out, 0), what);
      ByteBuffer b = ByteBuffer.wrap(DATA, 0, (int) c[0]);
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtrees(b, c[1], (int) c[2], HASH, out, 0),
          what);
      assertEquals(0, b.position(), what + ": the position moved");
      ByteBuffer d = ByteBuffer.allocateDirect((int) c[0]);
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashSubtrees(d, c[1], (int) c[2], HASH, out, 0),
          what);
      assertEquals(0, d.position(), what + ": the position moved");
      untouched.run();
    }
    // outputs that do not fit: one value at these offsets, or 3 values (96 bytes) at 0
    for (int at : new int[] {-1, 33, 64, 65, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
      assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.hashSubtrees(DATA, 0, 1024, 0, 1024, HASH, out, at),
          "a value at " + at);
      assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 1, HASH, out, at),
          "a value at " + at);
    }
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.hashSubtrees(DATA, 0, 3072, 0, 1024, HASH, out, 0));
    ByteBuffer three = ByteBuffer.wrap(DATA, 0, 3072);
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.hashSubtrees(three, 0, 1024, HASH, out, 0));
    assertEquals(0, three.position());
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 3, HASH, out, 0));
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 2, HASH, out, 1));
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.mergeSubtrees(DATA, 0, 1, HASH, out, -1));
    assertThrows(IndexOutOfBoundsException.class, () -> Blake3Hazmat.mergeSubtrees(DATA, 0, -1, HASH, out, 0));
    assertThrows(IndexOutOfBoundsException.class,
        () -> Blake3Hazmat.mergeSubtrees(DATA, 0, Integer.MAX_VALUE / 32 + 1, HASH, out, 0));
    untouched.run();
    // the edges that are fine: nothing, and the last subtree that ends at 2^63 - 1 or before
    Blake3Hazmat.hashSubtrees(DATA, 5, 0, 0, 1024, HASH, out, 64);
    Blake3Hazmat.mergeSubtrees(DATA, DATA.length, 0, HASH, out, 64);
    untouched.run();
    Blake3Hazmat.hashSubtrees(DATA, 0, 1024, LAST - 1024, 1024, HASH, out, 32);
    assertArrayEquals(Blake3Hazmat.hashSubtree(DATA, 0, 1024, LAST - 1024, HASH), Arrays.copyOfRange(out, 32, 64));
    Blake3Hazmat.mergeSubtrees(DATA, 0, 1, HASH, out, 0);
    assertArrayEquals(Blake3Hazmat.mergeSubtrees(Arrays.copyOf(DATA, 32), Arrays.copyOfRange(DATA, 32, 64), HASH),
        Arrays.copyOf(out, 32));
  }

  @Test
  void pieces() {
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashPiece((byte[]) null, 0, 0, 0, HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashPiece((ByteBuffer) null, 0, HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashPiece(DATA, 0, 1, 0, null));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.hashPiece(ByteBuffer.allocate(1), 0, null));
    rangesChecked("hashPiece(byte[], int, int, long, Mode)", (a, o, l) -> Blake3Hazmat.hashPiece(a, o, l, 0, HASH),
        () -> { });
    for (long off : BAD_OFFSETS) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashPiece(DATA, 0, 1, off, HASH));
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashPiece(ByteBuffer.allocate(1), off, HASH));
    }
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.hashPiece(new byte[1025], 0, 1025, LAST, HASH),
        "a piece past byte 2^63 - 1");

    Blake3Hazmat.Piece a = Blake3Hazmat.hashPiece(DATA, 0, 4096, 0, HASH);
    Blake3Hazmat.Piece b = Blake3Hazmat.hashPiece(DATA, 4096, 4096, 4096, HASH);
    Blake3Hazmat.Piece c = Blake3Hazmat.hashPiece(DATA, 8192, DATA.length - 8192, 8192, HASH);
    Blake3Hazmat.Piece partial = Blake3Hazmat.hashPiece(DATA, 4096, 1000, 4096, HASH);
    Blake3Hazmat.Piece overlap = Blake3Hazmat.hashPiece(DATA, 3072, 2048, 3072, HASH);
    Blake3Hazmat.Piece keyed = Blake3Hazmat.hashPiece(DATA, 4096, 4096, 4096, Blake3Hazmat.Mode.keyedHash(CV));
    Blake3Hazmat.Piece empty = Blake3Hazmat.hashPiece(new byte[0], 0, 0, 8192, HASH);
    assertArrayEquals(Blake3.hash(DATA), Blake3Hazmat.rootHash(Arrays.asList(c, a, empty, b), HASH));
    List<List<Blake3Hazmat.Piece>> tilesBadly = List.of(
        List.of(a, c), // gap
        List.of(a, b, b, c), // overlap (twice the same)
        List.of(a, overlap, c), // overlap
        List.of(a, partial, c), // ends inside a chunk before the end
        List.of(a, keyed, c), // another mode
        List.of(b, c)); // does not start at 0
    for (List<Blake3Hazmat.Piece> ps : tilesBadly) {
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(ps, HASH), ps.toString());
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootOutputReader(ps, HASH), ps.toString());
    }
    assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.rootHash(List.of(a, b, c),
        Blake3Hazmat.Mode.deriveKey("x")), "pieces of another mode than the one given");
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.rootHash(null, HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.rootHash(List.of(a, b, c), null));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.rootHash(Arrays.asList(a, null, c), HASH));
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.rootOutputReader(null, HASH));
    // no pieces at all tile the empty input
    assertArrayEquals(Blake3.hash(new byte[0]), Blake3Hazmat.rootHash(Collections.emptyList(), HASH));
    assertEquals(4096, a.length());
    assertEquals(0, a.offset());
    assertTrue(a.chainingValueCount() >= 1);
    assertTrue(a.toString().contains("4096"));
  }

  @Test
  void serializedPieces() {
    Blake3Hazmat.Piece p = Blake3Hazmat.hashPiece(DATA, 0, 5000, 0, HASH);
    Blake3Hazmat.Piece sole = Blake3Hazmat.hashPiece(DATA, 0, 700, 0, HASH);
    byte[] wire = p.toByteArray();
    assertThrows(NullPointerException.class, () -> Blake3Hazmat.Piece.fromByteArray(null));
    List<byte[]> bad = new ArrayList<>();
    bad.add(new byte[0]);
    bad.add(new byte[3]);
    bad.add(Arrays.copyOf(wire, wire.length - 1)); // truncated
    bad.add(Arrays.copyOf(wire, wire.length + 1)); // trailing byte
    for (int cut = 0; cut < wire.length; cut += 7) {
      bad.add(Arrays.copyOf(wire, cut));
    }
    byte[] magic = wire.clone();
    magic[0] ^= 1;
    bad.add(magic);
    // a length field claiming 2^31 - 1 bytes: refused before anything is allocated
    ByteBuffer huge = ByteBuffer.allocate(28).putInt(0x42335043).putLong(0).putLong(5000).putInt(0)
        .putInt(Integer.MAX_VALUE);
    bad.add(huge.array());
    ByteBuffer negative = ByteBuffer.allocate(28).putInt(0x42335043).putLong(0).putLong(5000).putInt(0).putInt(-5);
    bad.add(negative.array());
    byte[] soleWire = sole.toByteArray();
    ByteBuffer soleHuge = ByteBuffer.wrap(soleWire.clone());
    soleHuge.putInt(soleWire.length - 4 - 700, Integer.MAX_VALUE - 1);
    bad.add(soleHuge.array());
    for (int i = 0; i < bad.size(); i++) {
      byte[] b = bad.get(i);
      assertThrows(IllegalArgumentException.class, () -> Blake3Hazmat.Piece.fromByteArray(b), "case " + i);
    }
    // random mutations: a piece (maybe with other chaining values) or IllegalArgumentException,
    // nothing else
    SplittableRandom r = new SplittableRandom(99);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      byte[] src = i % 2 == 0 ? wire : soleWire;
      byte[] m = src.clone();
      int flips = 1 + r.nextInt(3);
      for (int f = 0; f < flips; f++) {
        m[r.nextInt(m.length)] = (byte) r.nextInt();
      }
      try {
        Blake3Hazmat.Piece q = Blake3Hazmat.Piece.fromByteArray(m);
        accepted++;
        assertTrue(q.offset() >= 0 && q.length() >= 0 && q.offset() % 1024 == 0, q.toString());
        Blake3Hazmat.rootHash(List.of(q), HASH); // may refuse it, must not break
      } catch (IllegalArgumentException expected) {
        // refused
      }
    }
    assertTrue(accepted > 0, "some mutations only touch chaining values");
    assertArrayEquals(Blake3.hash(Arrays.copyOf(DATA, 5000)),
        Blake3Hazmat.rootHash(List.of(Blake3Hazmat.Piece.fromByteArray(wire)), HASH));
  }
}
