package io.github.blake3fast;

import io.github.blake3fast.Blake3Hazmat.Piece;
import java.io.InvalidObjectException;
import java.nio.ByteBuffer;
import java.util.Objects;

/** A {@link Piece} as bytes and back, and the checks a piece read from outside must pass. */
final class PieceCodec {
  private PieceCodec() {}

  private static final int MAGIC = 0x42335043; // "B3PC"

  static byte[] toBytes(Piece p) {
    byte[] cvs = p.cvs();
    byte[] soleChunk = p.soleChunk();
    int sole = soleChunk == null ? -1 : soleChunk.length;
    ByteBuffer b = ByteBuffer.allocate(4 + 8 + 8 + 4 + 4 + cvs.length + 4 + Math.max(0, sole));
    b.putInt(MAGIC).putLong(p.offset()).putLong(p.length()).putInt(p.flags()).putInt(cvs.length).put(cvs).putInt(sole);
    if (soleChunk != null) {
      b.put(soleChunk);
    }
    return b.array();
  }

  static Piece fromBytes(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.getInt() != MAGIC) {
        throw new IllegalArgumentException("not a Blake3Hazmat.Piece");
      }
      long offset = b.getLong();
      long length = b.getLong();
      int flags = b.getInt();
      byte[] cvs = new byte[claimed(b, b.getInt())];
      b.get(cvs);
      int sole = b.getInt();
      byte[] soleChunk = null;
      if (sole >= 0) {
        soleChunk = new byte[claimed(b, sole)];
        b.get(soleChunk);
      }
      if (b.hasRemaining()) {
        throw new IllegalArgumentException("trailing bytes after a Blake3Hazmat.Piece");
      }
      return check(new Piece(offset, length, flags, cvs, soleChunk));
    } catch (RuntimeException e) {
      if (e instanceof IllegalArgumentException) {
        throw e;
      }
      throw new IllegalArgumentException("not a valid Blake3Hazmat.Piece: " + e, e);
    }
  }

  /** A length read from the bytes, checked against what is left before anything is allocated. */
  private static int claimed(ByteBuffer b, int length) {
    if (length < 0 || length > b.remaining()) {
      throw new IllegalArgumentException("not a valid Blake3Hazmat.Piece: a field claims " + length + " bytes, "
          + b.remaining() + " are left");
    }
    return length;
  }

  /** As {@link #check}, with the exception Java deserialization expects. */
  static void checkDeserialized(Piece p) throws InvalidObjectException {
    try {
      check(p);
    } catch (IllegalArgumentException e) {
      InvalidObjectException x = new InvalidObjectException(e.getMessage());
      x.initCause(e);
      throw x;
    }
  }

  /** Checks that the fields are those of a piece. */
  static Piece check(Piece p) {
    long offset = p.offset();
    long length = p.length();
    int flags = p.flags();
    byte[] cvs = p.cvs();
    byte[] soleChunk = p.soleChunk();
    if (offset < 0 || offset % Spec.CHUNK_LEN != 0 || length < 0 || length > Long.MAX_VALUE - offset) {
      throw new IllegalArgumentException("not a valid piece range: " + p);
    }
    if (flags != 0 && flags != Spec.KEYED_HASH && flags != Spec.DERIVE_KEY_MATERIAL) {
      throw new IllegalArgumentException("not a valid piece mode: " + flags);
    }
    int count = SubtreeGeometry.canonicalCount(offset / Spec.CHUNK_LEN, (length + Spec.CHUNK_LEN - 1) / Spec.CHUNK_LEN);
    if (cvs == null || cvs.length != Spec.OUT_LEN * count) {
      throw new IllegalArgumentException("a piece of " + length + " bytes at " + offset + " has " + count
          + " chaining values");
    }
    boolean sole = offset == 0 && length <= Spec.CHUNK_LEN;
    if (sole != (soleChunk != null) || (sole && soleChunk.length != length)) {
      throw new IllegalArgumentException("a piece at 0 of at most one chunk carries its bytes, no other: " + p);
    }
    return p;
  }
}
