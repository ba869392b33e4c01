package io.github.blake3fast.cli;

import io.github.blake3fast.Blake3OutputReader;

/**
 * The output of one hashed input, read from a position on: either a reader of the extendable
 * output, or bytes computed in one shot (as many as the caller said it would read).
 */
final class HashOutput {
  private final Blake3OutputReader reader;
  private final byte[] bytes;
  private int pos;

  private HashOutput(Blake3OutputReader reader, byte[] bytes) {
    this.reader = reader;
    this.bytes = bytes;
  }

  static HashOutput of(Blake3OutputReader reader, long seek) {
    reader.seek(seek);
    return new HashOutput(reader, null);
  }

  static HashOutput of(byte[] bytes) {
    return new HashOutput(null, bytes);
  }

  void read(byte[] out, int off, int len) {
    if (reader != null) {
      reader.read(out, off, len);
      return;
    }
    if (len > bytes.length - pos) {
      throw new IllegalStateException("read past the " + bytes.length + " bytes computed");
    }
    System.arraycopy(bytes, pos, out, off, len);
    pos += len;
  }
}
