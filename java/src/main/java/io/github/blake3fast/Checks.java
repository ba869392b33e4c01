package io.github.blake3fast;

import java.util.Objects;

/** Argument checks shared by the public classes: every bound is checked before any hashing. */
final class Checks {
  private Checks() {}

  static void range(byte[] array, int offset, int length) {
    Objects.requireNonNull(array, "array");
    Objects.checkFromIndexSize(offset, length, array.length);
  }

  static int[] key(byte[] key32) {
    Objects.requireNonNull(key32, "key");
    if (key32.length != Spec.KEY_LEN) {
      throw new IllegalArgumentException("key must be 32 bytes, not " + key32.length);
    }
    return Spec.keyWords(key32);
  }
}
