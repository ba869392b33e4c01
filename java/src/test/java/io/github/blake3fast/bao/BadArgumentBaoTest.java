package io.github.blake3fast.bao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.blake3fast.BadArgumentTest;
import io.github.blake3fast.Blake3;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad arguments to the Bao API: nulls, hashes that are not 32 bytes, negative ranges and
 * positions, group sizes out of range, bad array ranges, a closed decoder. Each is a clear
 * exception before any work. {@link #everyPublicMethodIsCovered} fails when a public method of
 * this package appears that {@link #COVERED} does not list.
 */
@Tag("engine")
class BadArgumentBaoTest {
  static final Set<String> COVERED = new TreeSet<>(Arrays.asList(
      "Blake3Bao.chunkGroupLog()", "Blake3Bao.chunkGroupSize()", "Blake3Bao.decode(byte[],byte[])",
      "Blake3Bao.decode(byte[],Path,Path)", "Blake3Bao.decodeOutboard(byte[],Path,Path,Path)",
      "Blake3Bao.decodeOutboard(byte[],byte[],byte[])", "Blake3Bao.decodeSlice(byte[],byte[],long,long)",
      "Blake3Bao.decoder(byte[],InputStream)", "Blake3Bao.decoder(byte[],Path)",
      "Blake3Bao.decoder(byte[],SeekableByteChannel)", "Blake3Bao.decoder(byte[],byte[])",
      "Blake3Bao.encode(ByteBuffer,OutputStream)", "Blake3Bao.encode(InputStream,OutputStream)",
      "Blake3Bao.encode(Path,Path)", "Blake3Bao.encode(Path,WritableByteChannel)", "Blake3Bao.encode(byte[])",
      "Blake3Bao.encodedSize(long)", "Blake3Bao.outboard(ByteBuffer,OutputStream)",
      "Blake3Bao.outboard(InputStream,OutputStream)", "Blake3Bao.outboard(Path,Path)",
      "Blake3Bao.outboard(Path,WritableByteChannel)", "Blake3Bao.outboard(byte[])",
      "Blake3Bao.outboardDecoder(byte[],InputStream,InputStream)", "Blake3Bao.outboardDecoder(byte[],Path,Path)",
      "Blake3Bao.outboardDecoder(byte[],SeekableByteChannel,SeekableByteChannel)",
      "Blake3Bao.outboardDecoder(byte[],byte[],byte[])", "Blake3Bao.outboardSize(long)",
      "Blake3Bao.slice(SeekableByteChannel,long,long,OutputStream)", "Blake3Bao.slice(byte[],long,long)",
      "Blake3Bao.sliceDecoder(byte[],InputStream,long,long)",
      "Blake3Bao.sliceOutboard(SeekableByteChannel,SeekableByteChannel,long,long,OutputStream)",
      "Blake3Bao.sliceOutboard(byte[],byte[],long,long)", "Blake3Bao.standard()", "Blake3Bao.toString()",
      "Blake3Bao.withChunkGroups(int)", "Blake3BaoDecoder.available()", "Blake3BaoDecoder.close()",
      "Blake3BaoDecoder.length()", "Blake3BaoDecoder.position()", "Blake3BaoDecoder.read()",
      "Blake3BaoDecoder.read(byte[],int,int)", "Blake3BaoDecoder.seek(long)", "Blake3BaoDecoder.skip(long)",
      "Blake3BaoException.Kind.valueOf(String)", "Blake3BaoException.Kind.values()", "Blake3BaoException.kind()"));

  private static final Blake3Bao BAO = Blake3Bao.standard();
  private static final byte[] DATA = new byte[3000];
  private static final byte[] HASH = Blake3.hash(DATA);
  private static final byte[] ENC = BAO.encode(DATA);
  private static final byte[] OB = BAO.outboard(DATA);

  @TempDir
  Path dir;

  static void npe(Executable e, String what) {
    assertThrows(NullPointerException.class, e, what);
  }

  static void iae(Executable e, String what) {
    assertThrows(IllegalArgumentException.class, e, what);
  }

  @Test
  void factoriesAndSizes() {
    iae(() -> Blake3Bao.withChunkGroups(-1), "group log -1");
    iae(() -> Blake3Bao.withChunkGroups(17), "group log 17");
    assertEquals(4, Blake3Bao.withChunkGroups(4).chunkGroupLog());
    assertEquals(16384, Blake3Bao.withChunkGroups(4).chunkGroupSize());
    assertEquals("Blake3Bao.standard()", Blake3Bao.standard().toString());
    iae(() -> BAO.encodedSize(-1), "negative length");
    iae(() -> BAO.outboardSize(-1), "negative length");
    assertThrows(ArithmeticException.class, () -> BAO.encodedSize(Long.MAX_VALUE));
    assertEquals(8 + 64 * 2, BAO.outboardSize(3000));
    assertEquals(Blake3BaoException.Kind.TRUNCATED, Blake3BaoException.Kind.valueOf("TRUNCATED"));
    iae(() -> Blake3BaoException.Kind.valueOf("LOST"), "no such kind");
    assertEquals(4, Blake3BaoException.Kind.values().length);
    Blake3BaoException e = assertThrows(Blake3BaoException.class, () -> BAO.decode(HASH, Arrays.copyOf(ENC, 9)));
    assertEquals(Blake3BaoException.Kind.TRUNCATED, e.kind());
  }

  @Test
  void encoders() throws IOException {
    Path in = Files.write(dir.resolve("in"), DATA);
    OutputStream sink = OutputStream.nullOutputStream();
    npe(() -> BAO.encode((byte[]) null), "encode null");
    npe(() -> BAO.outboard((byte[]) null), "outboard null");
    npe(() -> BAO.encode((ByteBuffer) null, sink), "encode null buffer");
    npe(() -> BAO.encode(ByteBuffer.wrap(DATA), null), "encode null out");
    npe(() -> BAO.outboard((ByteBuffer) null, sink), "outboard null buffer");
    npe(() -> BAO.outboard(ByteBuffer.wrap(DATA), null), "outboard null out");
    npe(() -> BAO.encode((InputStream) null, sink), "encode null stream");
    npe(() -> BAO.encode(new ByteArrayInputStream(DATA), null), "encode stream null out");
    npe(() -> BAO.outboard((InputStream) null, sink), "outboard null stream");
    npe(() -> BAO.outboard(new ByteArrayInputStream(DATA), null), "outboard stream null out");
    npe(() -> BAO.encode((Path) null, dir.resolve("x")), "encode null path");
    npe(() -> BAO.encode(in, (Path) null), "encode null output path");
    npe(() -> BAO.outboard((Path) null, dir.resolve("x")), "outboard null path");
    npe(() -> BAO.outboard(in, (Path) null), "outboard null output path");
    npe(() -> BAO.encode(in, (java.nio.channels.WritableByteChannel) null), "encode null channel");
    npe(() -> BAO.outboard(in, (java.nio.channels.WritableByteChannel) null), "outboard null channel");
    assertThrows(java.nio.file.NoSuchFileException.class, () -> BAO.outboard(dir.resolve("missing"), dir.resolve("o")));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (java.nio.channels.WritableByteChannel ch = java.nio.channels.Channels.newChannel(out)) {
      BAO.outboard(in, ch);
    }
    assertArrayEquals(OB, out.toByteArray());
    out.reset();
    try (java.nio.channels.WritableByteChannel ch = java.nio.channels.Channels.newChannel(out)) {
      BAO.encode(in, ch);
    }
    assertArrayEquals(ENC, out.toByteArray());
  }

  @Test
  void decoders() throws IOException {
    Path in = Files.write(dir.resolve("in"), DATA);
    Path ob = Files.write(dir.resolve("ob"), OB);
    Path enc = Files.write(dir.resolve("enc"), ENC);
    byte[] shortHash = new byte[31];
    iae(() -> BAO.decode(shortHash, ENC), "31-byte hash");
    iae(() -> BAO.decodeOutboard(new byte[33], DATA, OB), "33-byte hash");
    iae(() -> BAO.decodeSlice(shortHash, ENC, 0, 1), "31-byte hash");
    npe(() -> BAO.decode(null, ENC), "null hash");
    npe(() -> BAO.decode(HASH, null), "null encoding");
    npe(() -> BAO.decodeOutboard(HASH, null, OB), "null content");
    npe(() -> BAO.decodeOutboard(HASH, DATA, null), "null outboard");
    npe(() -> BAO.decodeSlice(HASH, null, 0, 1), "null slice");
    iae(() -> BAO.decodeSlice(HASH, ENC, -1, 1), "negative start");
    iae(() -> BAO.decodeSlice(HASH, ENC, 0, -1), "negative count");
    npe(() -> BAO.decoder(HASH, (byte[]) null), "null array");
    npe(() -> BAO.decoder(HASH, (InputStream) null), "null stream");
    npe(() -> BAO.decoder(HASH, (SeekableByteChannel) null), "null channel");
    npe(() -> BAO.decoder(HASH, (Path) null), "null path");
    iae(() -> BAO.decoder(shortHash, enc), "31-byte hash, path");
    iae(() -> BAO.decoder(shortHash, new ByteArrayInputStream(ENC)), "31-byte hash, stream");
    npe(() -> BAO.outboardDecoder(HASH, (byte[]) null, OB), "null content");
    npe(() -> BAO.outboardDecoder(HASH, (InputStream) null, new ByteArrayInputStream(OB)), "null content stream");
    npe(() -> BAO.outboardDecoder(HASH, new ByteArrayInputStream(DATA), (InputStream) null), "null outboard stream");
    npe(() -> BAO.outboardDecoder(HASH, (SeekableByteChannel) null, null), "null channels");
    npe(() -> BAO.outboardDecoder(HASH, in, (Path) null), "null outboard path");
    assertThrows(java.nio.file.NoSuchFileException.class, () -> BAO.outboardDecoder(HASH, in, dir.resolve("missing")));
    npe(() -> BAO.sliceDecoder(HASH, null, 0, 1), "null slice stream");
    iae(() -> BAO.sliceDecoder(HASH, new ByteArrayInputStream(ENC), -5, 1), "negative start");
    Path out = dir.resolve("out");
    iae(() -> BAO.decode(shortHash, enc, out), "31-byte hash, file to file");
    npe(() -> BAO.decode(null, enc, out), "null hash, file to file");
    npe(() -> BAO.decode(HASH, (Path) null, out), "null encoding path");
    npe(() -> BAO.decode(HASH, enc, null), "null output path");
    iae(() -> BAO.decodeOutboard(shortHash, in, ob, out), "31-byte hash, files");
    npe(() -> BAO.decodeOutboard(HASH, (Path) null, ob, out), "null content path");
    npe(() -> BAO.decodeOutboard(HASH, in, (Path) null, out), "null outboard path");
    npe(() -> BAO.decodeOutboard(HASH, in, ob, null), "null output path");
    assertFalse(Files.exists(out), "no output made by a call refused");
    BAO.decodeOutboard(HASH, in, ob, out);
    assertArrayEquals(DATA, Files.readAllBytes(out));
    BAO.decode(HASH, enc, out);
    assertArrayEquals(DATA, Files.readAllBytes(out));
    try (SeekableByteChannel c = FileChannel.open(enc)) {
      assertArrayEquals(DATA, BAO.decoder(HASH, c).readAllBytes());
    }
    try (SeekableByteChannel c = FileChannel.open(in); SeekableByteChannel o = FileChannel.open(ob)) {
      assertArrayEquals(DATA, BAO.outboardDecoder(HASH, c, o).readAllBytes());
    }
    assertArrayEquals(DATA, BAO.outboardDecoder(HASH, in, ob).readAllBytes());

    Blake3BaoDecoder d = BAO.decoder(HASH, ENC);
    for (int[] r : BadArgumentTest.badRanges(10)) {
      assertThrows(IndexOutOfBoundsException.class, () -> d.read(new byte[10], r[0], r[1]), Arrays.toString(r));
    }
    npe(() -> d.read(null, 0, 1), "null array");
    // Read into the array the encoding (or the content, or the outboard) is read from: refused,
    // since what it wrote would be read back as encoding still to verify; nothing read.
    byte[] encoding = ENC.clone();
    byte[] content = DATA.clone();
    byte[] outboard = OB.clone();
    iae(() -> BAO.decoder(HASH, encoding).read(encoding, 0, 100), "read into the encoding");
    iae(() -> BAO.outboardDecoder(HASH, content, outboard).read(content, 0, 100), "read into the content");
    iae(() -> BAO.outboardDecoder(HASH, content, outboard).read(outboard, 8, 100), "read into the outboard");
    assertArrayEquals(ENC, encoding);
    assertArrayEquals(DATA, content);
    assertArrayEquals(OB, outboard);
    iae(() -> d.seek(-1), "negative seek");
    assertEquals(0, d.skip(-5));
    assertEquals(0, d.available());
    assertEquals(0, d.position());
    assertEquals(DATA[0] & 0xff, d.read());
    assertEquals(1023, d.available());
    assertEquals(100, d.skip(100));
    assertEquals(101, d.position());
    assertEquals(3000 - 101, d.skip(Long.MAX_VALUE));
    assertEquals(3000, d.length());
    d.close();
    d.close();
    assertThrows(IOException.class, d::read);
    assertThrows(IOException.class, () -> d.seek(0));
  }

  @Test
  void slicers() throws IOException {
    Path in = Files.write(dir.resolve("in"), DATA);
    Path ob = Files.write(dir.resolve("ob"), OB);
    npe(() -> BAO.slice((byte[]) null, 0, 1), "null encoding");
    iae(() -> BAO.slice(ENC, -1, 1), "negative start");
    iae(() -> BAO.slice(ENC, 1, -1), "negative count");
    npe(() -> BAO.sliceOutboard((byte[]) null, OB, 0, 1), "null content");
    npe(() -> BAO.sliceOutboard(DATA, (byte[]) null, 0, 1), "null outboard");
    iae(() -> BAO.sliceOutboard(DATA, OB, Long.MIN_VALUE, 1), "negative start");
    try (SeekableByteChannel c = FileChannel.open(in); SeekableByteChannel o = FileChannel.open(ob)) {
      npe(() -> BAO.sliceOutboard(c, o, 0, 1, null), "null out");
      npe(() -> BAO.sliceOutboard(null, o, 0, 1, OutputStream.nullOutputStream()), "null content channel");
      iae(() -> BAO.sliceOutboard(c, o, 0, -1, OutputStream.nullOutputStream()), "negative count");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BAO.sliceOutboard(c, o, 1000, 10, out);
      assertArrayEquals(BAO.slice(ENC, 1000, 10), out.toByteArray());
    }
    npe(() -> BAO.slice((SeekableByteChannel) null, 0, 1, OutputStream.nullOutputStream()), "null channel");
    assertThrows(Blake3BaoException.class, () -> BAO.slice(new byte[5], 0, 1), "shorter than its header");
  }

  @Test
  void everyPublicMethodIsCovered() throws Exception {
    Set<String> found = BadArgumentTest.publicApi("io.github.blake3fast.bao");
    Set<String> missing = new TreeSet<>(found);
    missing.removeAll(COVERED);
    assertEquals(Set.of(), missing, "public methods of the Bao package without bad-argument cases (add them here "
        + "and to COVERED)");
    Set<String> stale = new TreeSet<>(COVERED);
    stale.removeAll(found);
    assertEquals(Set.of(), stale, "COVERED lists methods the Bao package no longer has");
    System.out.println("BadArgumentBaoTest: " + found.size() + " public methods and constructors, all covered");
  }
}
