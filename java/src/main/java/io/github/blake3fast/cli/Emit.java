package io.github.blake3fast.cli;

/**
 * Writes a number of output bytes (an unsigned 64-bit count), in hex or raw, in chunks. A
 * failed write ends it with {@link Out.Lost}.
 */
final class Emit {
  private Emit() {}

  private static final int CHUNK = 1 << 14;
  private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  static void hex(HashOutput reader, long length, Out out) {
    byte[] bin = new byte[(int) Math.min(CHUNK, Long.compareUnsigned(length, CHUNK) < 0 ? length : CHUNK)];
    byte[] text = new byte[2 * bin.length];
    long left = length;
    while (left != 0) {
      int n = Long.compareUnsigned(left, bin.length) < 0 ? (int) left : bin.length;
      reader.read(bin, 0, n);
      for (int i = 0; i < n; i++) {
        text[2 * i] = HEX[(bin[i] >> 4) & 15];
        text[2 * i + 1] = HEX[bin[i] & 15];
      }
      out.write(text, 0, 2 * n);
      left -= n;
    }
  }

  static void raw(HashOutput reader, long length, Out out) {
    byte[] bin = new byte[Long.compareUnsigned(length, CHUNK) < 0 ? (int) length : CHUNK];
    long left = length;
    while (left != 0) {
      int n = Long.compareUnsigned(left, bin.length) < 0 ? (int) left : bin.length;
      reader.read(bin, 0, n);
      out.write(bin, 0, n);
      left -= n;
    }
  }
}
