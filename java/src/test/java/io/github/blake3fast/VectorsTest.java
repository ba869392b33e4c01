package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every official-format vector, in every mode, one-shot, streamed and as extended output, on every
 * engine ({@link Engines}).
 */
@Tag("engine")
class VectorsTest {
  /** Every case on every engine. */
  static Stream<Arguments> cases() {
    List<Vectors.Case> cases = Vectors.officialFormat();
    return Engines.all().stream().flatMap(e -> cases.stream().map(c -> Arguments.of(e, c)));
  }

  @Test
  void vectorFilesAreThere() {
    List<Vectors.Case> all = Vectors.officialFormat();
    assertFalse(all.isEmpty());
    System.out.println("VectorsTest: " + all.size() + " cases, engines " + Engines.all());
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void oneShot(Engines.Api e, Vectors.Case c) {
    byte[] in = Vectors.input(c.inputLen);
    assertEquals(c.hash, Blake3.toHex(e.hash(in, 131)));
    assertEquals(c.hash.substring(0, 64), Blake3.toHex(e.hash(in)));
    assertEquals(c.keyedHash, Blake3.toHex(e.keyedHash(Vectors.key(), in, 131)));
    assertEquals(c.keyedHash.substring(0, 64), Blake3.toHex(e.keyedHash(Vectors.key(), in)));
    assertEquals(c.deriveKey, Blake3.toHex(e.deriveKey(Vectors.CONTEXT, in, 131)));
    assertEquals(c.deriveKey.substring(0, 64), Blake3.toHex(e.deriveKey(Vectors.CONTEXT, in)));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void streamed(Engines.Api e, Vectors.Case c) {
    byte[] in = Vectors.input(c.inputLen);
    Random r = new Random(c.inputLen);
    assertEquals(c.hash, Blake3.toHex(feed(e.newHasher(), in, r).digest(131)));
    assertEquals(c.keyedHash, Blake3.toHex(feed(e.newKeyedHasher(Vectors.key()), in, r).digest(131)));
    assertEquals(c.deriveKey, Blake3.toHex(feed(e.newDeriveKeyHasher(Vectors.CONTEXT), in, r).digest(131)));
    assertEquals(c.hash.substring(0, 64), Blake3.toHex(feed(e.newHasher(), in, r).digest()));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void byteBuffers(Engines.Api e, Vectors.Case c) {
    byte[] in = Vectors.input(c.inputLen);
    ByteBuffer direct = ByteBuffer.allocateDirect(in.length).put(in).flip();
    assertEquals(c.hash, Blake3.toHex(e.newHasher().update(direct).digest(131)));
    assertEquals(in.length, direct.position());
    ByteBuffer readOnly = ByteBuffer.wrap(in).asReadOnlyBuffer();
    assertEquals(c.keyedHash, Blake3.toHex(e.newKeyedHasher(Vectors.key()).update(readOnly).digest(131)));
    ByteBuffer heap = ByteBuffer.wrap(in);
    Blake3Hasher derive = e.newDeriveKeyHasher(Vectors.CONTEXT);
    assertEquals(c.deriveKey, Blake3.toHex(derive.update(heap).digest(131)),
        () -> ReliabilityKit.deriveDiagnosis(derive, Vectors.CONTEXT));
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("cases")
  void extendedOutputInPieces(Engines.Api e, Vectors.Case c) {
    Blake3OutputReader xof = e.newHasher().update(Vectors.input(c.inputLen)).xof();
    byte[] out = new byte[131];
    Random r = new Random(~c.inputLen);
    for (int pos = 0; pos < out.length; ) {
      int n = Math.min(out.length - pos, r.nextInt(70));
      xof.read(out, pos, n);
      pos += n;
      assertEquals(pos, xof.position());
    }
    assertEquals(c.hash, Blake3.toHex(out));
    xof.seek(100);
    byte[] tail = new byte[31];
    xof.read(tail);
    assertEquals(c.hash.substring(200), Blake3.toHex(tail));
  }

  /** Feeds in with random split points, mixing arrays, heap and direct buffers. */
  static Blake3Hasher feed(Blake3Hasher h, byte[] in, Random r) {
    int pos = 0;
    while (pos < in.length) {
      int n = Math.min(in.length - pos, r.nextInt(4) == 0 ? r.nextInt(40000) : r.nextInt(200));
      switch (r.nextInt(3)) {
        case 0:
          h.update(in, pos, n);
          break;
        case 1:
          h.update(ByteBuffer.wrap(in, pos, n));
          break;
        default:
          h.update(ByteBuffer.allocateDirect(n).put(in, pos, n).flip());
      }
      pos += n;
    }
    return h;
  }
}
