package io.github.blake3fast.bao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hazmat;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Random lengths and ranges through encode, outboard, slice and decode, on the engine this JVM
 * chose (tag "engine": the per-engine surefire runs repeat them), for chunk groups of 1, 2 and
 * 16 chunks; chunk-group trees checked against one built node by node from {@link Blake3Hazmat}.
 */
@Tag("engine")
class BaoRoundTripTest {
  private static final int[] GROUP_LOGS = {0, 1, 4};

  static int[] lengths(Random r) {
    int[] fixed = {0, 1, 1023, 1024, 1025, 2048, 2049, 16383, 16384, 16385, 65536 + 3, (1 << 20) + 5000};
    int[] all = Arrays.copyOf(fixed, fixed.length + 6);
    for (int i = fixed.length; i < all.length; i++) {
      all[i] = r.nextInt(i % 2 == 0 ? 40_000 : 3 << 20);
    }
    return all;
  }

  static byte[] random(Random r, int len) {
    byte[] b = new byte[len];
    r.nextBytes(b);
    return b;
  }

  @Test
  void roundTrips() throws Exception {
    Random r = new Random(27);
    for (int groupLog : GROUP_LOGS) {
      Blake3Bao bao = Blake3Bao.withChunkGroups(groupLog);
      for (int len : lengths(r)) {
        byte[] in = random(r, len);
        String what = bao + " length " + len;
        byte[] hash = Blake3.hash(in);
        byte[] enc = bao.encode(in);
        byte[] ob = bao.outboard(in);
        assertEquals(bao.encodedSize(len), enc.length, what);
        assertEquals(bao.outboardSize(len), ob.length, what);
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        assertArrayEquals(hash, bao.encode(new ByteArrayInputStream(in), streamed), what);
        assertArrayEquals(enc, streamed.toByteArray(), what);
        ByteBuffer direct = ByteBuffer.allocateDirect(len).put(in).flip();
        streamed.reset();
        assertArrayEquals(hash, bao.outboard(direct, streamed), what);
        assertArrayEquals(ob, streamed.toByteArray(), what);
        assertArrayEquals(in, bao.decode(hash, enc), what);
        assertArrayEquals(in, bao.decodeOutboard(hash, in, ob), what);
        try (Blake3BaoDecoder d = bao.outboardDecoder(hash, new ByteArrayInputStream(in), new ByteArrayInputStream(ob))) {
          assertArrayEquals(in, d.readAllBytes(), what + " streams");
        }
        for (int i = 0; i < 4; i++) {
          long at = r.nextInt(len + 2000);
          byte[] rest = Arrays.copyOfRange(in, (int) Math.min(at, len), len);
          try (Blake3BaoDecoder d = bao.decoder(hash, enc)) {
            d.seek(at);
            assertArrayEquals(rest, d.readAllBytes(), what + " seek " + at);
            assertEquals(len, d.length());
          }
          long start = r.nextInt(len + 2000);
          long count = r.nextInt(5) == 0 ? 0 : r.nextInt(len / 3 + 2);
          byte[] slice = bao.slice(enc, start, count);
          assertArrayEquals(slice, bao.sliceOutboard(in, ob, start, count), what);
          byte[] range = Arrays.copyOfRange(in, (int) Math.min(start, len), (int) Math.min(start + count, len));
          assertArrayEquals(range, bao.decodeSlice(hash, slice, start, count), what + " slice " + start + "+" + count);
        }
        if (groupLog > 0) {
          assertArrayEquals(reference(in, groupLog), ob, what + ": the tree of Blake3Hazmat's subtrees");
        }
      }
    }
  }

  /** The outboard built node by node from Blake3Hazmat, independently of the encoder. */
  static byte[] reference(byte[] in, int groupLog) {
    ByteArrayOutputStream parents = new ByteArrayOutputStream();
    long groupLen = 1024L << groupLog;
    long groups = in.length == 0 ? 1 : (in.length - 1) / groupLen + 1;
    byte[] root = node(in, 0, groups, groupLen, true, parents);
    assertArrayEquals(Blake3.hash(in), root, "the root of the group tree is the BLAKE3 hash");
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    all.writeBytes(BaoTree.header(in.length));
    all.writeBytes(parents.toByteArray());
    return all.toByteArray();
  }

  private static byte[] node(byte[] in, long first, long count, long groupLen, boolean root,
      ByteArrayOutputStream parents) {
    Blake3Hazmat.Mode m = Blake3Hazmat.Mode.hash();
    if (count == 1) {
      int from = (int) (first * groupLen);
      int to = (int) Math.min(in.length, from + groupLen);
      return root ? Blake3.hash(in) : Blake3Hazmat.hashSubtree(Arrays.copyOfRange(in, from, to), from, m);
    }
    long left = Long.highestOneBit(count - 1);
    ByteArrayOutputStream below = new ByteArrayOutputStream();
    byte[] l = node(in, first, left, groupLen, false, below);
    byte[] r = node(in, first + left, count - left, groupLen, false, below);
    parents.writeBytes(l);
    parents.writeBytes(r);
    parents.writeBytes(below.toByteArray());
    return root ? Blake3Hazmat.mergeSubtreesRoot(l, r, m) : Blake3Hazmat.mergeSubtrees(l, r, m);
  }

  @Test
  void filesAndChannels(@TempDir Path dir) throws Exception {
    Random r = new Random(6);
    for (int groupLog : GROUP_LOGS) {
      Blake3Bao bao = Blake3Bao.withChunkGroups(groupLog);
      for (int len : new int[] {0, 1500, (5 << 20) + 777}) {
        byte[] in = random(r, len);
        byte[] hash = Blake3.hash(in);
        Path content = Files.write(dir.resolve("content"), in);
        Path enc = dir.resolve("enc");
        Path ob = dir.resolve("ob");
        assertArrayEquals(hash, bao.encode(content, enc));
        assertArrayEquals(hash, bao.outboard(content, ob));
        assertArrayEquals(bao.encode(in), Files.readAllBytes(enc));
        assertArrayEquals(bao.outboard(in), Files.readAllBytes(ob));
        try (FileChannel ch = FileChannel.open(dir.resolve("enc2"), StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
          assertArrayEquals(hash, bao.encode(content, ch));
        }
        assertArrayEquals(Files.readAllBytes(enc), Files.readAllBytes(dir.resolve("enc2")));
        try (Blake3BaoDecoder d = bao.decoder(hash, enc)) {
          assertArrayEquals(in, d.readAllBytes());
        }
        try (Blake3BaoDecoder d = bao.outboardDecoder(hash, content, ob)) {
          d.seek(len / 2);
          assertArrayEquals(Arrays.copyOfRange(in, len / 2, len), d.readAllBytes());
        }
        long start = len / 3;
        ByteArrayOutputStream slice = new ByteArrayOutputStream();
        try (FileChannel c = FileChannel.open(content); FileChannel o = FileChannel.open(ob)) {
          bao.sliceOutboard(c, o, start, 100_000, slice);
        }
        ByteArrayOutputStream slice2 = new ByteArrayOutputStream();
        try (FileChannel c = FileChannel.open(enc)) {
          bao.slice(c, start, 100_000, slice2);
        }
        assertArrayEquals(slice.toByteArray(), slice2.toByteArray());
        try (InputStream s = bao.sliceDecoder(hash, new ByteArrayInputStream(slice.toByteArray()), start, 100_000)) {
          assertArrayEquals(Arrays.copyOfRange(in, (int) start, (int) Math.min(len, start + 100_000)), s.readAllBytes());
        }
      }
    }
  }
}
