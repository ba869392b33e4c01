package io.github.blake3fast.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The {@code --derive-key} context the official b3sum would use: the UTF-8 text of the bytes
 * typed, or none when they are not UTF-8 (it panics then, with "unexpected invalid UTF-8 code
 * point"). A context whose bytes the JVM replaced would otherwise derive the key of another
 * context, silently: the very thing a context exists to prevent.
 */
final class ContextArg {
  private ContextArg() {}

  /**
   * The context, or null when it has no UTF-8 form.
   *
   * @param value the option's value as parsed
   * @param wordIndex the argument it was read from
   * @param word that argument, of which {@code value} is the end ({@code --derive-key=VALUE} or
   *     {@code VALUE}: what comes before it is ASCII, so as many bytes as chars)
   * @param raw the arguments' bytes, where known
   */
  static String resolve(String value, int wordIndex, String word, RawArgs raw) {
    if (plainAscii(value)) {
      return value;
    }
    byte[] w = raw.word(wordIndex);
    int from = word.length() - value.length();
    if (w != null && from >= 0 && from <= w.length) {
      byte[] bytes = Arrays.copyOfRange(w, from, w.length);
      if (sameAscii(bytes, value)) {
        return strictUtf8(bytes);
      }
    }
    // A string with an unpaired surrogate (given to B3sum.run in process) has no UTF-8 either.
    return StandardCharsets.UTF_8.newEncoder().canEncode(value) ? value : null;
  }

  /**
   * No char that a decoder could have put in place of other bytes: non-ASCII, or {@code ?}, the
   * replacement of some charsets' decoders (JDK 17 writes U+FFFD in the locales tried).
   */
  private static boolean plainAscii(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x80 || c == '?') {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether the bytes can be the word the JVM decoded into {@code s}: the same ASCII in the same
   * order, leaving out {@code ?} and everything else, since the decoders of the locales Java runs
   * in map ASCII bytes to themselves and nothing else to ASCII but a replacement {@code ?}. A mismatch means
   * the words are not the ones {@code main} got, and then they are not used.
   */
  private static boolean sameAscii(byte[] bytes, String s) {
    int j = 0;
    for (byte b : bytes) {
      if (b >= 0 && b != '?') {
        while (j < s.length() && (s.charAt(j) >= 0x80 || s.charAt(j) == '?')) {
          j++;
        }
        if (j == s.length() || s.charAt(j) != b) {
          return false;
        }
        j++;
      }
    }
    while (j < s.length() && (s.charAt(j) >= 0x80 || s.charAt(j) == '?')) {
      j++;
    }
    return j == s.length();
  }

  private static String strictUtf8(byte[] bytes) {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }
}
