package io.github.blake3fast;

/** Lowercase hexadecimal, both ways. */
final class Hex {
  private Hex() {}

  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  static String encode(byte[] bytes) {
    char[] out = new char[2 * bytes.length];
    for (int i = 0; i < bytes.length; i++) {
      out[2 * i] = DIGITS[(bytes[i] >>> 4) & 0xF];
      out[2 * i + 1] = DIGITS[bytes[i] & 0xF];
    }
    return new String(out);
  }

  static byte[] decode(CharSequence hex) {
    int n = hex.length();
    if ((n & 1) != 0) {
      throw new IllegalArgumentException("hex string has an odd length: " + n);
    }
    byte[] out = new byte[n / 2];
    for (int i = 0; i < n; i += 2) {
      out[i / 2] = (byte) ((digit(hex, i) << 4) | digit(hex, i + 1));
    }
    return out;
  }

  private static int digit(CharSequence hex, int i) {
    char c = hex.charAt(i);
    int d = Character.digit(c, 16);
    if (d < 0 || c > 'f') { // Character.digit also accepts non-ASCII digits
      throw new IllegalArgumentException("not a hex digit at index " + i + ": '" + c + "'");
    }
    return d;
  }
}
