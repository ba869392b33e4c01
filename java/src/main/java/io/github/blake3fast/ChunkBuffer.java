package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The input a {@link TreeState} has not hashed yet, in {@code bytes[0, len)}, always starting on
 * a chunk boundary; and how that room grows. A hasher starts with one chunk (small hashers stay
 * small); a stream that outgrows it gets {@link #MID_BUFFER} bytes, and one that outgrows that
 * too gets the kernel's size, so that small updates reach the kernel in the large batches its
 * fast paths need while a stream of a few KiB never holds 64 KiB. Growing copies rather than
 * hashes what is buffered: then a stream of small updates is hashed in whole aligned subtrees of
 * the kernel's size (chunks 0-63, 64-127, ...), each one kernel subtree with one tree above it.
 */
final class ChunkBuffer {
  private static final int MID_BUFFER = 16 * Spec.CHUNK_LEN;

  /** Null until the first byte. */
  byte[] bytes;
  int len;

  ChunkBuffer() {}

  ChunkBuffer(ChunkBuffer o) {
    bytes = o.bytes == null ? null : o.bytes.clone();
    len = o.len;
  }

  /** Goes back to {@code saved}'s contents, taking over its array; allocates nothing. */
  void restore(ChunkBuffer saved) {
    bytes = saved.bytes;
    len = saved.len;
  }

  /** Appends {@code in[off, off + n)} if it fits, and says whether it did. */
  boolean tryAppend(byte[] in, int off, int n) {
    byte[] b = bytes;
    int at = len;
    if (b == null || n > b.length - at) {
      return false;
    }
    // System.arraycopy even for 64 bytes: copying as longs through a byte-array view measured
    // no faster streaming 1 MiB in 64-byte updates (bench/notes/simple-core.md).
    System.arraycopy(in, off, b, at, n);
    len = at + n;
    return true;
  }

  /** Allocates the first chunk's room (less if the kernel takes less). */
  void allocate(int kernelSize) {
    if (bytes == null) {
      bytes = new byte[Math.min(Spec.CHUNK_LEN, kernelSize)];
    }
  }

  boolean full() {
    return len == bytes.length;
  }

  /** Grows toward the kernel's size; false when it is that big already (then hash it instead). */
  boolean grow(int kernelSize) {
    if (bytes.length >= kernelSize) {
      return false;
    }
    bytes = Arrays.copyOf(bytes, bytes.length < MID_BUFFER ? Math.min(MID_BUFFER, kernelSize) : kernelSize);
    return true;
  }

  /** Appends n bytes from exactly one of {@code arr} or {@code bb} (absolute index off); they fit. */
  void append(byte[] arr, ByteBuffer bb, int off, int n) {
    if (arr != null) {
      System.arraycopy(arr, off, bytes, len, n);
    } else {
      bb.get(off, bytes, len, n);
    }
    len += n;
  }

  /** Drops the first {@code n} bytes, moving the rest to the start. */
  void dropFirst(int n) {
    System.arraycopy(bytes, n, bytes, 0, len - n);
    len -= n;
  }

  /** A copy of the contents. */
  byte[] contents() {
    return bytes == null ? new byte[0] : Arrays.copyOf(bytes, len);
  }
}
