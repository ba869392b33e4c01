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
 * string, and the common path costs one pass over the bytes and no pass over the chars. For
 * {@code hash(String)} up to a chunk the native kernel makes that pass itself, in C, as it reads
 * the bytes ({@link Blake3#hashText}).
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
    return withReplacement(text, text.getBytes(StandardCharsets.UTF_8));
  }

  /** As {@link #withReplacement(String)}, given {@code bytes}, {@code text.getBytes(UTF_8)}. */
  static byte[] withReplacement(String text, byte[] bytes) {
    if (text.length() >= LATIN1_TEST_MIN && storedAsLatin1(text)) {
      return bytes;
    }
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

  /**
   * Strings of this many chars or more are asked whether they are stored as Latin-1 before
   * their bytes are scanned: the question costs an allocation or two, the scan a pass over
   * bytes fresh from the encoder, a third of a 16 KiB string's hashing.
   */
  static final int LATIN1_TEST_MIN = 1024;

  /**
   * Whether {@code s} is stored one byte a char (JDK 9+ compact strings), which no surrogate
   * can be. Java has no public question for it, but {@code String.chars()} picks its
   * spliterator's class by it; any other class, on any JDK, means "maybe not", never a wrong yes.
   */
  static boolean storedAsLatin1(String s) {
    return Latin1Spliterator.CLASS != null && s.chars().spliterator().getClass() == Latin1Spliterator.CLASS;
  }

  /** In a class of its own: its look-up, and the stream classes, only for long strings. */
  private static final class Latin1Spliterator {
    static final Class<?> CLASS = find();

    private static Class<?> find() {
      Class<?> c = "latin-1".chars().spliterator().getClass();
      // By name too: without compact strings (-XX:-CompactStrings) every string is UTF-16.
      return c.getName().equals("java.lang.StringLatin1$CharsSpliterator") ? c : null;
    }
  }
}
