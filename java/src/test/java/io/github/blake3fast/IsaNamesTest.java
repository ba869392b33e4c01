package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The ISA numbers cross JNI: NativeBlake3's names must be the C list, in its order. */
class IsaNamesTest {

  @Test
  void javaNamesAreTheNativeList() {
    assertEquals(NativeIsaList.names(), Arrays.asList(NativeBlake3.ISA_NAMES),
        "NativeBlake3.ISA_NAMES against BLAKE3_ISAS in native/src/blake3_impl.h");
  }

  @Test
  void everyNameMapsToItsNumber() {
    for (int i = 0; i < NativeBlake3.ISA_NAMES.length; i++) {
      assertEquals(i, NativeBlake3.isaNumber(NativeBlake3.ISA_NAMES[i]), NativeBlake3.ISA_NAMES[i]);
    }
    assertEquals(-1, NativeBlake3.isaNumber("avx3"));
  }
}
