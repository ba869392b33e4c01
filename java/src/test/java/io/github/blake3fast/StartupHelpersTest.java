package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The loader's start-path shortcuts give what the plain loops they replace gave. */
class StartupHelpersTest {

  private static boolean naiveContains(byte[] b, byte[] mark) {
    outer:
    for (int i = 0; i + mark.length <= b.length; i++) {
      for (int j = 0; j < mark.length; j++) {
        if (b[i + j] != mark[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  @Test
  void elfMarkSearchAgreesWithAPlainScan() {
    Random r = new Random(16_5);
    byte[] mark = NativeLoader.PROP_JNI_CLASS.getBytes(StandardCharsets.US_ASCII);
    for (int n = 0; n < 3000; n++) {
      // Few distinct bytes, so partial matches and near misses are frequent.
      byte[] b = new byte[r.nextInt(200)];
      for (int i = 0; i < b.length; i++) {
        b[i] = mark[r.nextInt(4) == 0 ? mark.length - 1 : r.nextInt(mark.length)];
      }
      if (b.length >= mark.length && r.nextBoolean()) {
        int at = r.nextInt(b.length - mark.length + 1);
        System.arraycopy(mark, 0, b, at, mark.length);
        if (r.nextBoolean()) {
          b[at + r.nextInt(mark.length)] ^= 1; // one bit off: a near miss
        }
      }
      assertEquals(naiveContains(b, mark), ElfCheck.contains(b, mark), () -> "input of " + b.length);
    }
    byte[] exact = mark.clone();
    assertTrue(ElfCheck.contains(exact, mark));
    byte[] shorter = java.util.Arrays.copyOf(mark, mark.length - 1);
    assertFalse(ElfCheck.contains(shorter, mark));
    byte[] atEnd = new byte[1000];
    System.arraycopy(mark, 0, atEnd, 1000 - mark.length, mark.length);
    assertTrue(ElfCheck.contains(atEnd, mark));
  }

  @Test
  void selfTestInputIsTheVectorsInput() {
    for (int len : new int[] {0, 1, 250, 251, 252, 501, 502, 503, 1024, 31744, 102400}) {
      byte[] expected = new byte[len];
      for (int i = 0; i < len; i++) {
        expected[i] = (byte) (i % 251);
      }
      assertArrayEquals(expected, SelfTest.vectorInput(len), "length " + len);
    }
  }

  @Test
  void contentIdIsSixteenHexDigitsOfCrcAndSize() {
    String id = ExtractionDir.contentId(0x0000abcdL, 0x1f);
    assertEquals("0000abcd0000001f", id);
    assertEquals("ffffffff7fffffff", ExtractionDir.contentId(0xffffffffL, Integer.MAX_VALUE));
    assertFalse(id.equals(ExtractionDir.contentId(0x0000abcdL, 0x20)));
    assertFalse(id.equals(ExtractionDir.contentId(0x0000abceL, 0x1f)));
  }
}
