package io.github.blake3fast.cli;

/**
 * Decimal parsing of unsigned 64-bit numbers with the rules and error texts of Rust's
 * {@code str::parse::<u64>()}: an optional {@code +}, then digits only, read left to right.
 */
final class Unsigned {
  private Unsigned() {}

  static final class BadNumber extends Exception {
    private static final long serialVersionUID = 1L;

    BadNumber(String reason) {
      super(reason, null, false, false);
    }
  }

  /** The value as a {@code long} holding the unsigned 64-bit number. */
  static long parse(String s) throws BadNumber {
    if (s.isEmpty()) {
      throw new BadNumber("cannot parse integer from empty string");
    }
    String digits = s;
    if (s.charAt(0) == '+' || s.charAt(0) == '-') {
      if (s.length() == 1 || s.charAt(0) == '-') {
        throw new BadNumber("invalid digit found in string");
      }
      digits = s.substring(1);
    }
    long value = 0;
    for (int i = 0; i < digits.length(); i++) {
      char c = digits.charAt(i);
      if (c < '0' || c > '9') {
        throw new BadNumber("invalid digit found in string");
      }
      // value * 10 must stay below 2^64
      if (Long.compareUnsigned(value, Long.divideUnsigned(-1L, 10)) > 0) {
        throw new BadNumber("number too large to fit in target type");
      }
      long times10 = value * 10;
      long sum = times10 + (c - '0');
      if (Long.compareUnsigned(sum, times10) < 0) {
        throw new BadNumber("number too large to fit in target type");
      }
      value = sum;
    }
    return value;
  }
}
