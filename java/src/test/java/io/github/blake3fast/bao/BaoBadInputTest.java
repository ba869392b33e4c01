package io.github.blake3fast.bao;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.blake3fast.Blake3;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Bad input: truncation, wrong hashes, flipped bytes anywhere, lying length headers (up to
 * 2^64 - 1 over a few bytes), slices of another range or with a lying header. Each must fail
 * fast with a {@link Blake3BaoException}, and every byte a decoder returned before failing must
 * be the content's own.
 */
@Tag("engine")
class BaoBadInputTest {
  private static final Duration FAST = Duration.ofSeconds(5);

  static byte[] content(int len) {
    byte[] b = new byte[len];
    new Random(len).nextBytes(b);
    return b;
  }

  /** Reads a byte at a time until the failure; asserts that all bytes read are the content's. */
  static Blake3BaoException drain(InputStream in, byte[] content, long from) {
    return drain(in, content, from, -1);
  }

  /**
   * As above, but a slice whose altered header leaves the tree's shape on its path unchanged
   * may also decode: then it must give exactly the content up to {@code passEnd}.
   */
  static Blake3BaoException drain(InputStream in, byte[] content, long from, long passEnd) {
    long at = from;
    try (in) {
      int b;
      while ((b = in.read()) >= 0) {
        assertTrue(at < content.length, "a byte past the end");
        assertEquals(content[(int) at] & 0xff, b, "an unverified byte at " + at);
        at++;
      }
    } catch (Blake3BaoException e) {
      return e;
    } catch (IOException e) {
      fail("not a Blake3BaoException: " + e);
    }
    if (passEnd >= 0) {
      assertEquals(passEnd, at, "a slice that decodes gives its whole range");
      return null;
    }
    return fail("decoded to the end without noticing");
  }

  @Test
  void everyFlippedBitOfCombinedAndOutboardFails() throws Exception {
    for (int groupLog : new int[] {0, 1}) {
      Blake3Bao bao = Blake3Bao.withChunkGroups(groupLog);
      for (int len : new int[] {0, 1, 1024, 1025, 5 * 1024 + 7}) {
        byte[] in = content(len);
        byte[] hash = Blake3.hash(in);
        byte[] enc = bao.encode(in);
        byte[] ob = bao.outboard(in);
        for (int i = 0; i < enc.length; i++) {
          byte[] bad = enc.clone();
          bad[i] ^= (byte) (1 << (i % 8));
          drain(bao.decoder(hash, bad), in, 0);
        }
        for (int i = 0; i < ob.length; i++) {
          byte[] bad = ob.clone();
          bad[i] ^= (byte) (1 << (i % 8));
          drain(bao.outboardDecoder(hash, in, bad), in, 0);
        }
        for (int i = 0; i < len; i++) {
          byte[] bad = in.clone();
          bad[i] ^= (byte) (1 << (i % 8));
          drain(bao.outboardDecoder(hash, bad, ob), in, 0);
        }
        for (int i = 0; i < 32; i++) {
          byte[] h = hash.clone();
          h[i] ^= 0x80;
          drain(bao.decoder(h, enc), in, 0);
        }
      }
    }
  }

  @Test
  void everyTruncationFails() throws Exception {
    byte[] in = content(3 * 1024 + 100);
    byte[] hash = Blake3.hash(in);
    byte[] enc = Blake3Bao.standard().encode(in);
    byte[] ob = Blake3Bao.standard().outboard(in);
    for (int n = 0; n < enc.length; n++) {
      Blake3BaoException e = drain(Blake3Bao.standard().decoder(hash, Arrays.copyOf(enc, n)), in, 0);
      assertTrue(e.kind() == Blake3BaoException.Kind.TRUNCATED, e.getMessage());
      drain(Blake3Bao.standard().decoder(hash, new ByteArrayInputStream(Arrays.copyOf(enc, n))), in, 0);
    }
    for (int n = 0; n < ob.length; n++) {
      drain(Blake3Bao.standard().outboardDecoder(hash, in, Arrays.copyOf(ob, n)), in, 0);
    }
    for (int n = 0; n < in.length; n++) {
      drain(Blake3Bao.standard().outboardDecoder(hash, Arrays.copyOf(in, n), ob), in, 0);
    }
  }

  /** A header of up to 2^64 - 1 over a small encoding: a fast failure, never a huge allocation. */
  @Test
  void lyingLengthHeadersFailFast() throws Exception {
    byte[] in = content(2500);
    byte[] hash = Blake3.hash(in);
    for (int groupLog : new int[] {0, 4, 16}) {
      Blake3Bao bao = Blake3Bao.withChunkGroups(groupLog);
      byte[] enc = bao.encode(in);
      byte[] ob = bao.outboard(in);
      for (long claim : new long[] {1L << 63, -1L, Long.MAX_VALUE, 1L << 62, 1L << 40, 1L << 20, 2499, 2501, 0}) {
        byte[] badEnc = enc.clone();
        byte[] badOb = ob.clone();
        System.arraycopy(BaoTree.header(claim), 0, badEnc, 0, 8);
        System.arraycopy(BaoTree.header(claim), 0, badOb, 0, 8);
        assertTimeoutPreemptively(FAST, () -> {
          drain(bao.decoder(hash, badEnc), in, 0);
          drain(bao.outboardDecoder(hash, in, badOb), in, 0);
          drain(bao.decoder(hash, new ByteArrayInputStream(badEnc)), in, 0);
          for (long at : new long[] {0, 2000, 3000, 1L << 30, Long.MAX_VALUE}) {
            Blake3BaoDecoder d = bao.decoder(hash, badEnc);
            d.seek(at);
            drain(d, in, at);
            assertThrows(Blake3BaoException.class, bao.outboardDecoder(hash, in, badOb)::length);
          }
          // Slices cut from a lying encoding: the extractor may fail, the decoder must.
          for (long start : new long[] {0, 1500, 1L << 40}) {
            try {
              byte[] s = bao.slice(badEnc, start, 1000);
              long from = Math.min(start, in.length);
              drain(bao.sliceDecoder(hash, new ByteArrayInputStream(s), start, 1000), in, from,
                  Math.min(start + 1000, in.length));
            } catch (Blake3BaoException expected) {
              // the encoding is too short for what its header claims
            }
          }
        }, "claim " + Long.toUnsignedString(claim) + ", groups of 2^" + groupLog);
      }
    }
  }

  @Test
  void slicesOfAnotherRangeOrWithALyingHeaderFail() throws Exception {
    byte[] in = content(40 * 1024 + 3);
    byte[] hash = Blake3.hash(in);
    Blake3Bao bao = Blake3Bao.standard();
    byte[] enc = bao.encode(in);
    byte[] slice = bao.slice(enc, 10_000, 5000);
    long[][] others = {{0, 5000}, {20_000, 5000}, {10_000, 20_000}, {30_000, 100}, {1L << 40, 10}, {40 * 1024, 0}};
    for (long[] o : others) {
      drain(bao.sliceDecoder(hash, new ByteArrayInputStream(slice), o[0], o[1]), in, Math.min(o[0], in.length));
    }
    for (long claim : new long[] {0, 1, 40 * 1024, 40 * 1024 + 2, 40 * 1024 + 4, 1L << 62, -1L}) {
      byte[] bad = slice.clone();
      System.arraycopy(BaoTree.header(claim), 0, bad, 0, 8);
      assertTimeoutPreemptively(FAST,
          () -> drain(bao.sliceDecoder(hash, new ByteArrayInputStream(bad), 10_000, 5000), in, 10_000, 15_000));
    }
    // Past the header: a header altered without changing the tree's shape on the slice's path
    // is not detectable by a slice that leaves out the final chunk (the spec's malleability).
    for (int i = 8; i < slice.length; i += 7) {
      byte[] bad = slice.clone();
      bad[i] ^= 4;
      drain(bao.sliceDecoder(hash, new ByteArrayInputStream(bad), 10_000, 5000), in, 10_000);
    }
    assertArrayEquals(Arrays.copyOfRange(in, 10_000, 15_000), bao.decodeSlice(hash, slice, 10_000, 5000));
  }

  @Test
  void aFailureIsStickyAndNamesTheNode() throws IOException {
    byte[] in = content(8 * 1024);
    byte[] hash = Blake3.hash(in);
    byte[] ob = Blake3Bao.standard().outboard(in);
    byte[] bad = in.clone();
    bad[5 * 1024 + 3] ^= 1;
    Blake3BaoDecoder d = Blake3Bao.standard().outboardDecoder(hash, bad, ob);
    byte[] buf = new byte[5 * 1024];
    assertEquals(5 * 1024, d.readNBytes(buf, 0, buf.length));
    assertArrayEquals(Arrays.copyOf(in, 5 * 1024), buf);
    Blake3BaoException e = assertThrows(Blake3BaoException.class, d::read);
    assertEquals(Blake3BaoException.Kind.CHUNK, e.kind());
    assertTrue(e.getMessage().contains("chunk 5 (bytes 5120 to 6144)"), e.getMessage());
    assertThrows(Blake3BaoException.class, d::read);
    assertThrows(Blake3BaoException.class, () -> d.seek(0));
    assertThrows(Blake3BaoException.class, d::length);
  }

  @Test
  void theEmptyEncodingIsVerifiedToo() throws Exception {
    byte[] enc = Blake3Bao.standard().encode(new byte[0]);
    assertEquals(8, enc.length);
    assertArrayEquals(new byte[0], Blake3Bao.standard().decode(Blake3.hash(new byte[0]), enc));
    byte[] other = Blake3.hash(new byte[] {1});
    assertThrows(Blake3BaoException.class, () -> Blake3Bao.standard().decode(other, enc));
    assertThrows(Blake3BaoException.class, () -> Blake3Bao.standard().decoder(other, enc).length());
  }
}
