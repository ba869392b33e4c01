package io.github.blake3fast;

/**
 * Extendable output: a BLAKE3 hash can be read to any length, from any position (up to
 * {@code Long.MAX_VALUE}). Reads continue where the last one stopped. One thread at a time.
 */
public final class Blake3OutputReader {
  private final Kernel kernel;
  private final OutputNode node;
  private long position;

  Blake3OutputReader(Kernel kernel, OutputNode node) {
    this.kernel = kernel;
    this.node = node;
  }

  /**
   * Fills {@code out[offset, offset + length)} with the next output bytes.
   *
   * @param out the array to fill
   * @param offset where the output starts in {@code out}
   * @param length how many output bytes
   * @throws IndexOutOfBoundsException if the range is not inside {@code out}
   */
  public void read(byte[] out, int offset, int length) {
    Checks.range(out, offset, length);
    if (length > Long.MAX_VALUE - position) {
      throw new IllegalStateException("output positions end at Long.MAX_VALUE: " + position + " + " + length);
    }
    node.read(kernel, position, out, offset, length);
    position += length;
  }

  /**
   * Fills all of {@code out} with the next output bytes.
   *
   * @param out the array to fill
   */
  public void read(byte[] out) {
    read(out, 0, out.length);
  }

  /**
   * Moves to byte {@code position} of the output (non-negative).
   *
   * @param position the output position, 0 or more
   * @throws IllegalArgumentException if the position is negative
   */
  public void seek(long position) {
    if (position < 0) {
      throw new IllegalArgumentException("position must not be negative: " + position);
    }
    this.position = position;
  }

  /**
   * The position of the next byte {@link #read} returns.
   *
   * @return the position in bytes
   */
  public long position() {
    return position;
  }
}
