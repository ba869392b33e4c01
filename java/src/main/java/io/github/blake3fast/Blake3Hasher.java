package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A streaming BLAKE3 hasher: feed it input in any pieces, read the hash at any time.
 *
 * <p>One thread at a time, like {@link java.security.MessageDigest}. Its state lives in Java
 * arrays: nothing to close, {@link #copy()} is an array copy. Tiny updates are gathered
 * internally, so feeding input 64 bytes at a time costs about the same as one big update.
 */
public final class Blake3Hasher {
  private final TreeState state;

  Blake3Hasher(TreeState state) {
    this.state = state;
  }

  /** Adds all of {@code input}. */
  public Blake3Hasher update(byte[] input) {
    Objects.requireNonNull(input, "input");
    state.update(input, 0, input.length);
    return this;
  }

  /** Adds {@code length} bytes of {@code input} from {@code offset}. */
  public Blake3Hasher update(byte[] input, int offset, int length) {
    Checks.range(input, offset, length);
    state.update(input, offset, length);
    return this;
  }

  /**
   * Adds the buffer's remaining bytes (heap, direct or mapped) and advances its position to
   * its limit.
   */
  public Blake3Hasher update(ByteBuffer input) {
    Objects.requireNonNull(input, "input");
    state.update(input);
    return this;
  }

  /** The 32-byte hash of everything added so far; the hasher stays usable. */
  public byte[] digest() {
    byte[] out = new byte[Spec.OUT_LEN];
    state.finish(out, 0, out.length);
    return out;
  }

  /** {@code outputLength} bytes of extendable output; the hasher stays usable. */
  public byte[] digest(int outputLength) {
    Blake3.checkOutputLength(outputLength);
    byte[] out = new byte[outputLength];
    state.finish(out, 0, outputLength);
    return out;
  }

  /** Writes {@code length} bytes of output into {@code out} at {@code offset}; the hasher stays usable. */
  public void digest(byte[] out, int offset, int length) {
    Checks.range(out, offset, length);
    state.finish(out, offset, length);
  }

  /**
   * A reader of the extendable output of everything added so far, at position 0. Later updates
   * do not change it.
   */
  public Blake3OutputReader xof() {
    return new Blake3OutputReader(state.kernel(), state.output());
  }

  /** Forgets all input; the key and mode stay. */
  public Blake3Hasher reset() {
    state.reset();
    return this;
  }

  /** An independent hasher with the same input so far. */
  public Blake3Hasher copy() {
    return new Blake3Hasher(state.copy());
  }
}
