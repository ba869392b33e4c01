package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;

/**
 * UTF-8 for the strings the API takes. {@code String.getBytes(UTF_8)} alone will not do: it
 * writes {@code ?} for an unpaired surrogate, so {@code "ctx\uD800"} and {@code "ctx?"} would
 * hash alike (issue 31). A context must be well-formed UTF-16 ({@link #wellFormed}); text to
 * hash gets U+FFFD for each unpaired surrogate, as the WHATWG encoding standard's UTF-8 encoder
 * (JavaScript's {@code TextEncoder}) writes it ({@link #withReplacement}).
 *
 * <p>Both encode first and look for surrogates only when the bytes hold a {@code ?}: for every
 * unpaired surrogate {@code getBytes} writes the charset's default replacement, which
 * {@code CharsetEncoder} specifies as {@code ?}, so bytes without one came from a well-formed
 * string, and the common path costs one pass over the bytes and no pass over the chars: 5-9% of
 * a 64-byte string's hash (bench/timing/StringHashTiming.java).
 */
final class Utf8 {
  private Utf8() {}

  /**
   * The UTF-8 bytes of {@code text}, which must be well-formed UTF-16: every surrogate in a
   * high-low pair. For key-derivation contexts (and any other string whose distinctness matters).
   *
   * @param text the string to encode
   * @param what how the message names it, e.g. {@code "context"}
   * @return a new array, {@code text.getBytes(UTF_8)}
   * @throws NullPointerException if {@code text} is null (the message is {@code what})
   * @throws IllegalArgumentException if {@code text} holds an unpaired surrogate; the message
   *     names the index of the first
   */
  static byte[] wellFormed(String text, String what) {
    Objects.requireNonNull(text, what);
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (hasQuestionMark(bytes)) {
      int bad = firstUnpaired(text);
      if (bad >= 0) {
        throw new IllegalArgumentException(what + " is not well-formed UTF-16: an unpaired "
            + (Character.isHighSurrogate(text.charAt(bad)) ? "high" : "low") + " surrogate U+"
            + Integer.toHexString(text.charAt(bad)).toUpperCase(Locale.ROOT) + " at index " + bad
            + " (of " + text.length() + " chars)");
      }
    }
    return bytes;
  }

  /**
   * The UTF-8 bytes of {@code text} with U+FFFD (EF BF BD) for each unpaired surrogate, as the
   * WHATWG encoding standard and JavaScript's {@code TextEncoder} encode it; a well-formed
   * string gives {@code text.getBytes(UTF_8)}.
   */
  static byte[] withReplacement(String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    if (!hasQuestionMark(bytes) || firstUnpaired(text) < 0) {
      return bytes;
    }
    StringBuilder sb = new StringBuilder(text);
    for (int i = firstUnpaired(text); i >= 0; i = nextUnpaired(text, i + 1)) {
      sb.setCharAt(i, '\uFFFD');
    }
    return sb.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The index of the first unpaired surrogate in {@code s}, or -1 when it is well-formed. */
  static int firstUnpaired(CharSequence s) {
    return nextUnpaired(s, 0);
  }

  private static int nextUnpaired(CharSequence s, int from) {
    int n = s.length();
    for (int i = from; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      }
    }
    return -1;
  }

  private static final long QUESTION_MARKS = 0x3F3F3F3F3F3F3F3FL;
  private static final long LOW_BITS = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  /**
   * Eight bytes a step through a heap ByteBuffer (the JVM loads HeapByteBuffer before main; a
   * byte-array view VarHandle would spin classes at start-up, and measured no faster here), with
   * no branch until the end: byte by byte, the test cost 64-byte {@code hash(String)} calls a
   * tenth of their time. XOR with '?' makes a zero byte of each '?', and
   * {@code (v - LOW_BITS) & ~v} sets the high bit of a byte of v that is zero (and maybe of bytes
   * above it, which would matter for where, not whether).
   */
  private static boolean hasQuestionMark(byte[] bytes) {
    int n = bytes.length;
    int i = 0;
    long acc = 0;
    if (n >= 8) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      for (; i <= n - 8; i += 8) {
        long v = b.getLong(i) ^ QUESTION_MARKS;
        acc |= (v - LOW_BITS) & ~v;
      }
    }
    if ((acc & HIGH_BITS) != 0) {
      return true;
    }
    for (; i < n; i++) {
      if (bytes[i] == '?') {
        return true;
      }
    }
    return false;
  }
}
