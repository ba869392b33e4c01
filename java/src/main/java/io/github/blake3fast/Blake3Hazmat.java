package io.github.blake3fast;

import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.Objects;

/**
 * Subtree hashing: the chaining values inside the BLAKE3 tree, for hashing one input on many
 * machines (or in many tasks of a Spark or Flink job) and getting the hash one machine computes.
 * Modelled on the {@code hazmat} module of the official Rust crate.
 *
 * <p><b>Hazardous material.</b> These functions expose the tree's interior. Misused (a range
 * that is not a subtree of the whole input, values merged in the wrong order or shape, a root
 * finalized twice) they return a wrong hash without any error, and chaining values are not
 * hashes: never publish one as a digest. Check your use against {@link Blake3#hash(byte[])} on
 * many input lengths.
 *
 * <p>The input is split into chunks of {@value #CHUNK_LEN} bytes (the last may be shorter). A
 * <em>subtree</em> is an aligned run of chunks: it starts at a byte offset that is a multiple of
 * {@value #CHUNK_LEN}, and its length is at most {@link #maxSubtreeLength(long)} of that offset;
 * it is a power of two chunks unless it ends the input. Its <em>chaining value</em> (32 bytes)
 * is what {@link #hashSubtree} returns; two sibling values merge into their parent's with
 * {@link #mergeSubtrees}, and the top pair into the root hash with {@link #mergeSubtreesRoot}.
 *
 * <p><b>Splitting anywhere: pieces.</b> Usually the parts a cluster holds are not subtrees, just
 * consecutive ranges that start on chunk boundaries. {@link #hashPiece} hashes such a range to a
 * {@link Piece} (its offset, length and the values of the aligned subtrees it consists of; small,
 * serializable), and {@link #rootHash(Collection, Mode)} combines the pieces of the whole input,
 * in any order, into the hash:
 *
 * <pre>{@code
 * // On each worker: its part of the input, which starts at byte `offset` of the whole
 * // (a multiple of 1024; only the last part may have a length that is not).
 * Blake3Hazmat.Piece piece = Blake3Hazmat.hashPiece(part, 0, part.length, offset, Blake3Hazmat.Mode.hash());
 * byte[] wire = piece.toByteArray();                       // or Java-serialize the Piece
 *
 * // On the driver: all pieces, in any order.
 * List<Blake3Hazmat.Piece> pieces = ...;                   // Piece.fromByteArray(wire) for each
 * byte[] hash = Blake3Hazmat.rootHash(pieces, Blake3Hazmat.Mode.hash());   // == Blake3.hash(whole)
 * }</pre>
 *
 * A worker that streams its part uses {@link #newSubtreeHasher(long, Mode)} and
 * {@link SubtreeHasher#piece()} instead. Keyed hashing and key derivation work the same with
 * {@link Mode#keyedHash(byte[])} and {@link Mode#deriveKey(String)}; extendable output comes from
 * {@link #rootOutputReader(Collection, Mode)}.
 *
 * <p><b>Subtrees by hand</b>, as in the Rust crate: with the input cut into 4 equal power-of-two
 * subtrees {@code a, b, c, d} of {@code n} bytes each ({@code n = maxSubtreeLength(n)}):
 *
 * <pre>{@code
 * Blake3Hazmat.Mode m = Blake3Hazmat.Mode.hash();
 * byte[] ab = Blake3Hazmat.mergeSubtrees(Blake3Hazmat.hashSubtree(a, 0, m), Blake3Hazmat.hashSubtree(b, n, m), m);
 * byte[] cd = Blake3Hazmat.mergeSubtrees(Blake3Hazmat.hashSubtree(c, 2 * n, m), Blake3Hazmat.hashSubtree(d, 3 * n, m), m);
 * byte[] hash = Blake3Hazmat.mergeSubtreesRoot(ab, cd, m);   // == Blake3.hash(a + b + c + d)
 * }</pre>
 *
 * The left child of a subtree of {@code len} bytes is {@link #leftSubtreeLength(long)} long;
 * an input of one chunk or less has no parents: hash it with {@link Blake3} (or as a single
 * piece).
 *
 * <p><b>Many equal subtrees at once.</b> A tree built level by level from equal subtrees (Bao's
 * chunks or chunk groups, say) needs the values of many small subtrees and many parents, where
 * one call each would cost more than the hashing. {@link #hashSubtrees(byte[], int, int, long,
 * int, Mode, byte[], int)} gives the values of consecutive subtrees of one size side by side in
 * an array, and {@link #mergeSubtrees(byte[], int, int, Mode, byte[], int)} reduces such a level
 * to the one above; the native kernel takes many of either per call.
 *
 * <p>All methods are static and thread-safe; {@link SubtreeHasher} is used by one thread at a
 * time. Bad arguments (a misaligned offset, a range longer than its offset allows, a chaining
 * value that is not 32 bytes, pieces that do not tile the input) get an
 * {@link IllegalArgumentException} that says which.
 */
public final class Blake3Hazmat {
  private Blake3Hazmat() {}

  /** Bytes per chunk: subtrees and pieces start at multiples of it. */
  public static final int CHUNK_LEN = Spec.CHUNK_LEN;
  /** Bytes per chaining value. */
  public static final int CHAINING_VALUE_LEN = Spec.OUT_LEN;

  /** Which BLAKE3 function a tree belongs to: every value of one tree must use the same mode. */
  public static final class Mode {
    private static final Mode HASH = new Mode(Spec.iv(), 0, "hash");

    final int[] key;
    final int flags;
    private final String name;

    private Mode(int[] key, int flags, String name) {
      this.key = key;
      this.flags = flags;
      this.name = name;
    }

    /** {@return the plain hash, as {@link Blake3#hash(byte[])}} */
    public static Mode hash() {
      return HASH;
    }

    /**
     * The keyed hash under a 32-byte key, as {@link Blake3#keyedHash(byte[], byte[])}.
     *
     * @param key32 the key, exactly 32 bytes
     * @return the mode
     * @throws IllegalArgumentException if the key is not 32 bytes
     */
    public static Mode keyedHash(byte[] key32) {
      return new Mode(Checks.key(key32), Spec.KEYED_HASH, "keyedHash");
    }

    /**
     * Key derivation for {@code context}, as {@link Blake3#deriveKey(String, byte[])}: the tree
     * is that of the key material. The context is hashed once, here.
     *
     * @param context the application-specific context string
     * @return the mode
     * @throws IllegalArgumentException if {@code context} is not well-formed UTF-16 (an unpaired
     *     surrogate; the message names the index of the first)
     */
    public static Mode deriveKey(String context) {
      return new Mode(Blake3.contextKey(context), Spec.DERIVE_KEY_MATERIAL, "deriveKey");
    }

    /** The mode's name; never the key. */
    @Override
    public String toString() {
      return "Mode." + name;
    }
  }

  // ---- Geometry -------------------------------------------------------------------------

  /**
   * The longest subtree that can start at byte {@code inputOffset} of the input: the largest
   * power of two chunks dividing the offset, in bytes; {@link Long#MAX_VALUE} at offset 0 (any
   * length: the subtree at 0 may be all of the input, but then it is the root, see
   * {@link #rootHash(Collection, Mode)}).
   *
   * @param inputOffset a byte offset in the input, a multiple of {@value #CHUNK_LEN}
   * @return the longest subtree length in bytes
   * @throws IllegalArgumentException if the offset is negative or not a multiple of {@value #CHUNK_LEN}
   */
  public static long maxSubtreeLength(long inputOffset) {
    SubtreeGeometry.checkOffset(inputOffset);
    return inputOffset == 0 ? Long.MAX_VALUE : Long.lowestOneBit(inputOffset);
  }

  /**
   * The length of the left child of a subtree of {@code subtreeLength} bytes (more than one
   * chunk): the largest power of two chunks that is shorter. The right child has the rest.
   *
   * @param subtreeLength the parent subtree's length in bytes
   * @return the left child's length in bytes
   * @throws IllegalArgumentException if the length is at most one chunk
   */
  public static long leftSubtreeLength(long subtreeLength) {
    return SubtreeGeometry.leftChild(subtreeLength);
  }

  // ---- Subtrees -------------------------------------------------------------------------

  /**
   * The chaining value of the subtree {@code input} that starts at byte {@code inputOffset}.
   *
   * @param input the subtree's bytes
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the 32-byte chaining value
   */
  public static byte[] hashSubtree(byte[] input, long inputOffset, Mode mode) {
    Objects.requireNonNull(input, "input");
    return hashSubtree(input, 0, input.length, inputOffset, mode);
  }

  /**
   * The chaining value of the subtree {@code input[offset, offset + length)}, which starts at
   * byte {@code inputOffset} of the whole input. Large subtrees are hashed by the native SIMD
   * kernel where it runs.
   *
   * @param input the array holding the subtree's bytes
   * @param offset where they start in {@code input}
   * @param length the subtree's length in bytes
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the 32-byte chaining value
   * @throws IllegalArgumentException if the offset is not a multiple of {@value #CHUNK_LEN}, the
   *     length is 0, or longer than {@link #maxSubtreeLength(long)} allows
   */
  public static byte[] hashSubtree(byte[] input, int offset, int length, long inputOffset, Mode mode) {
    Checks.range(input, offset, length);
    Objects.requireNonNull(mode, "mode");
    SubtreeGeometry.checkSubtree(inputOffset, length);
    TreeState s = newState(inputOffset, mode);
    s.update(input, offset, length);
    return ChainingValues.fold(s.subtreeCvs(), mode);
  }

  /**
   * As {@link #hashSubtree(byte[], int, int, long, Mode)} for the buffer's remaining bytes; its position moves to its limit.
   *
   * @param input the buffer whose remaining bytes are the subtree
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the 32-byte chaining value
   */
  public static byte[] hashSubtree(ByteBuffer input, long inputOffset, Mode mode) {
    Objects.requireNonNull(input, "input");
    Objects.requireNonNull(mode, "mode");
    SubtreeGeometry.checkSubtree(inputOffset, input.remaining());
    TreeState s = newState(inputOffset, mode);
    s.update(input);
    return ChainingValues.fold(s.subtreeCvs(), mode);
  }

  /**
   * The chaining values of many whole subtrees of one size, side by side: the {@code length /
   * subtreeLength} subtrees of {@code subtreeLength} bytes each that make up {@code input[offset,
   * offset + length)}, the first starting at byte {@code inputOffset} of the whole input. Value
   * {@code i}, that of the subtree at {@code inputOffset + i * subtreeLength}, goes to {@code
   * cvs[cvsOffset + 32 i, cvsOffset + 32 i + 32)}, and is what {@link #hashSubtree(byte[], int,
   * int, long, Mode)} gives for that subtree (never a root: see {@link #mergeSubtreesRoot}).
   *
   * <p>This is the leaf level of a tree of equal subtrees (a Bao tree's chunks or chunk groups,
   * say) in few kernel calls: the native kernel hashes many small subtrees in one call, side by
   * side, where one {@code hashSubtree} per subtree would cost more in calls than in hashing.
   * {@code cvs} may be {@code input} and overlap it in any way: every input byte is read before
   * any value is written. A length of 0 writes nothing.
   *
   * @param input the array holding the subtrees' bytes
   * @param offset where they start in {@code input}
   * @param length how many bytes: a multiple of {@code subtreeLength}
   * @param inputOffset where the first subtree starts in the whole input: a multiple of
   *     {@code subtreeLength}
   * @param subtreeLength the length of each subtree: a power of two chunks ({@value #CHUNK_LEN},
   *     2048, 4096, ...)
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @param cvs where the 32-byte chaining values go, left to right
   * @param cvsOffset where the first one goes in {@code cvs}
   * @throws NullPointerException if {@code input}, {@code mode} or {@code cvs} is null
   * @throws IndexOutOfBoundsException if the input range lies outside {@code input}, or the
   *     {@code 32 * length / subtreeLength} bytes from {@code cvsOffset} outside {@code cvs}
   * @throws IllegalArgumentException if {@code subtreeLength} is not a power of two chunks,
   *     {@code inputOffset} is negative or not a multiple of it, {@code length} not a multiple of
   *     it, or the subtrees would end beyond byte {@link Long#MAX_VALUE} of the input
   */
  public static void hashSubtrees(byte[] input, int offset, int length, long inputOffset, int subtreeLength,
      Mode mode, byte[] cvs, int cvsOffset) {
    SubtreeBatch.hashSubtrees(Engine.kernel(), input, offset, length, inputOffset, subtreeLength, mode, cvs,
        cvsOffset);
  }

  /**
   * As {@link #hashSubtrees(byte[], int, int, long, int, Mode, byte[], int)} for the buffer's
   * remaining bytes (heap or direct), which must be a multiple of {@code subtreeLength}; its
   * position moves to its limit. A buffer backed by {@code cvs} may overlap the values as the
   * array form allows. After an exception the position has not moved.
   *
   * @param input the buffer whose remaining bytes are the subtrees
   * @param inputOffset where the first subtree starts in the whole input: a multiple of
   *     {@code subtreeLength}
   * @param subtreeLength the length of each subtree: a power of two chunks
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @param cvs where the 32-byte chaining values go, left to right
   * @param cvsOffset where the first one goes in {@code cvs}
   * @throws NullPointerException if {@code input}, {@code mode} or {@code cvs} is null
   * @throws IndexOutOfBoundsException if the values do not fit in {@code cvs} from
   *     {@code cvsOffset}
   * @throws IllegalArgumentException as the array form
   */
  public static void hashSubtrees(ByteBuffer input, long inputOffset, int subtreeLength, Mode mode, byte[] cvs,
      int cvsOffset) {
    SubtreeBatch.hashSubtrees(Engine.kernel(), input, inputOffset, subtreeLength, mode, cvs, cvsOffset);
  }

  /**
   * A streaming hasher for the subtree or piece that starts at byte {@code inputOffset}.
   *
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return a new hasher with no input
   */
  public static SubtreeHasher newSubtreeHasher(long inputOffset, Mode mode) {
    SubtreeGeometry.checkOffset(inputOffset);
    Objects.requireNonNull(mode, "mode");
    return new SubtreeHasher(newState(inputOffset, mode), inputOffset, mode);
  }

  private static TreeState newState(long inputOffset, Mode mode) {
    return new TreeState(Engine.kernel(), mode.key, mode.flags, inputOffset / CHUNK_LEN);
  }

  /**
   * The chaining value of the parent of two sibling subtrees: {@code left} ends where
   * {@code right} starts, {@code left} is a power of two chunks and starts at a multiple of
   * twice that, and {@code right} is as long or ends the input. Not for the top of the tree:
   * use {@link #mergeSubtreesRoot} there.
   *
   * @param leftCv the left subtree's 32-byte chaining value
   * @param rightCv the right subtree's 32-byte chaining value
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the parent's 32-byte chaining value
   */
  public static byte[] mergeSubtrees(byte[] leftCv, byte[] rightCv, Mode mode) {
    return ChainingValues.parent(leftCv, rightCv, mode, false);
  }

  /**
   * The chaining values of many parents at once: parent {@code i}'s children are the two values
   * in the 64 bytes at {@code childCvs[offset + 64 i]} (left, then right), and its value goes to
   * {@code out[outOffset + 32 i, outOffset + 32 i + 32)}, as {@link #mergeSubtrees(byte[],
   * byte[], Mode)} gives it. So one level of a tree of equal subtrees, its values side by side
   * in one array, reduces to the level above in one call (or a few: the native kernel takes many
   * parents per call). Not for the top of the tree: use {@link #mergeSubtreesRoot} there.
   *
   * <p>{@code out} may be {@code childCvs} and overlap it in any way (a level reduced in place,
   * say): the result is as if every input byte were read before any output byte is written.
   *
   * @param childCvs the array holding the children's values, 64 bytes per parent
   * @param offset where the first parent's children start in {@code childCvs}
   * @param count how many parents; 0 writes nothing
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @param out where the parents' 32-byte values go
   * @param outOffset where the first one goes in {@code out}
   * @throws NullPointerException if {@code childCvs}, {@code mode} or {@code out} is null
   * @throws IndexOutOfBoundsException if {@code count} is negative, or {@code 64 * count} bytes
   *     from {@code offset} lie outside {@code childCvs}, or {@code 32 * count} bytes from
   *     {@code outOffset} outside {@code out}
   */
  public static void mergeSubtrees(byte[] childCvs, int offset, int count, Mode mode, byte[] out, int outOffset) {
    SubtreeBatch.mergeSubtrees(Engine.kernel(), childCvs, offset, count, mode, out, outOffset);
  }

  /**
   * The 32-byte hash of the whole input from the chaining values of the two children of its
   * root: the subtree at 0 of {@link #leftSubtreeLength(long)} of the input's length, and the
   * rest.
   *
   * @param leftCv the left child's 32-byte chaining value
   * @param rightCv the right child's 32-byte chaining value
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the 32-byte hash of the whole input
   */
  public static byte[] mergeSubtreesRoot(byte[] leftCv, byte[] rightCv, Mode mode) {
    return ChainingValues.parent(leftCv, rightCv, mode, true);
  }

  /**
   * As {@link #mergeSubtreesRoot}, as extendable output of any length, from position 0.
   *
   * @param leftCv the left child's 32-byte chaining value
   * @param rightCv the right child's 32-byte chaining value
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return a new reader at output position 0
   */
  public static Blake3OutputReader mergeSubtreesRootXof(byte[] leftCv, byte[] rightCv, Mode mode) {
    return ChainingValues.rootOutput(leftCv, rightCv, mode);
  }

  // ---- Pieces ---------------------------------------------------------------------------

  /**
   * Hashes {@code input[offset, offset + length)}, which starts at byte {@code inputOffset} of
   * the whole input, to a {@link Piece}. Any length; only the input's last piece may have a
   * length that is not a multiple of {@value #CHUNK_LEN} (checked when the pieces are combined).
   *
   * @param input the array holding the piece's bytes
   * @param offset where they start in {@code input}
   * @param length the piece's length in bytes
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the piece
   * @throws IllegalArgumentException if inputOffset is negative or not a multiple of {@value #CHUNK_LEN}
   */
  public static Piece hashPiece(byte[] input, int offset, int length, long inputOffset, Mode mode) {
    Checks.range(input, offset, length);
    return newSubtreeHasher(inputOffset, mode).update(input, offset, length).piece();
  }

  /**
   * As {@link #hashPiece(byte[], int, int, long, Mode)} for the buffer's remaining bytes; its position moves to its limit.
   *
   * @param input the buffer whose remaining bytes are the piece
   * @param inputOffset where the range starts in the whole input, a multiple of {@value #CHUNK_LEN}
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the piece
   */
  public static Piece hashPiece(ByteBuffer input, long inputOffset, Mode mode) {
    Objects.requireNonNull(input, "input");
    return newSubtreeHasher(inputOffset, mode).update(input).piece();
  }

  /**
   * The 32-byte hash of the whole input from all its pieces, in any order: they must tile it,
   * from offset 0 without gaps or overlaps (empty pieces are allowed), and all but the last
   * must be whole chunks. Equal to {@code Blake3.hash} of the input (or {@code keyedHash},
   * {@code deriveKey}, by the mode, which must be the pieces' mode).
   *
   * @param pieces every piece of the input, in any order
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return the 32-byte hash of the whole input
   * @throws IllegalArgumentException if the pieces do not tile an input, or were hashed in
   *     another mode
   */
  public static byte[] rootHash(Collection<Piece> pieces, Mode mode) {
    byte[] out = new byte[Spec.OUT_LEN];
    rootOutputReader(pieces, mode).read(out);
    return out;
  }

  /**
   * As {@link #rootHash(Collection, Mode)}, as extendable output from position 0.
   *
   * @param pieces every piece of the input, in any order
   * @param mode the hash, keyed hash or key derivation, as for the whole input
   * @return a new reader at output position 0
   * @throws IllegalArgumentException as {@link #rootHash(Collection, Mode)}
   */
  public static Blake3OutputReader rootOutputReader(Collection<Piece> pieces, Mode mode) {
    return PieceJoin.outputReader(pieces, mode);
  }

  /**
   * A hashed piece of the input: its byte offset and length, and the chaining values of the
   * aligned subtrees it consists of (at most two per bit of its length). Immutable and
   * serializable; a piece of at most one chunk at offset 0 also carries its bytes, because such
   * a chunk may turn out to be the whole input, whose hash needs them.
   */
  public static final class Piece implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The byte offset of the piece in the whole input, a multiple of 1024. */
    private final long offset;
    /** The piece's length in bytes. */
    private final long length;
    /** The mode's flags: 0 (hash), keyed hash or key derivation. */
    private final int flags;
    /** The chaining values of the piece's aligned subtrees, 32 bytes each, left to right. */
    private final byte[] cvs;
    /** The piece's bytes when it is at most one chunk at offset 0, else null. */
    private final byte[] soleChunk;

    Piece(long offset, long length, int flags, byte[] cvs, byte[] soleChunk) {
      this.offset = offset;
      this.length = length;
      this.flags = flags;
      this.cvs = cvs;
      this.soleChunk = soleChunk;
    }

    int flags() {
      return flags;
    }

    /** The chaining values themselves, not a copy: {@link PieceJoin} and {@link PieceCodec} only read them. */
    byte[] cvs() {
      return cvs;
    }

    byte[] soleChunk() {
      return soleChunk;
    }

    /** {@return the byte offset of the piece in the whole input} */
    public long offset() {
      return offset;
    }

    /** {@return the piece's length in bytes} */
    public long length() {
      return length;
    }

    /** {@return how many 32-byte chaining values the piece carries} */
    public int chainingValueCount() {
      return cvs.length / CHAINING_VALUE_LEN;
    }

    /** {@return the piece as a new array of bytes, for any transport} {@link #fromByteArray} reads it back. */
    public byte[] toByteArray() {
      return PieceCodec.toBytes(this);
    }

    /**
     * Reads a piece that {@link #toByteArray} wrote.
     *
     * @param bytes what {@link #toByteArray} returned
     * @return the piece
     * @throws IllegalArgumentException if the bytes are not such a piece
     */
    public static Piece fromByteArray(byte[] bytes) {
      return PieceCodec.fromBytes(bytes);
    }

    /**
     * Refuses a stream whose fields do not make a piece, as {@link #fromByteArray} does.
     *
     * @param in the stream
     * @throws IOException if reading fails, or {@link InvalidObjectException} for fields that are
     *     not those of a piece
     * @throws ClassNotFoundException as {@link ObjectInputStream#defaultReadObject()}
     */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
      in.defaultReadObject();
      PieceCodec.checkDeserialized(this);
    }

    @Override
    public String toString() {
      return "Piece[bytes " + offset + " to " + (offset + length) + ", " + chainingValueCount() + " chaining values]";
    }
  }

  /**
   * A streaming hasher for a range of the input that starts at a given byte offset: feed it the
   * range's bytes in any pieces, then read its {@link #chainingValue()} (when the range is a
   * subtree) or {@link #piece()} (any range). One thread at a time; both results leave it usable.
   */
  public static final class SubtreeHasher {
    private final TreeState state;
    private final long inputOffset;
    private final Mode mode;

    SubtreeHasher(TreeState state, long inputOffset, Mode mode) {
      this.state = state;
      this.inputOffset = inputOffset;
      this.mode = mode;
    }

    /**
     * Adds all of {@code input}.
     *
     * @param input the bytes to add
     * @return this hasher
     */
    public SubtreeHasher update(byte[] input) {
      Objects.requireNonNull(input, "input");
      return update(input, 0, input.length);
    }

    /**
     * Adds {@code length} bytes of {@code input} from {@code offset}.
     *
     * @param input the array holding the bytes to add
     * @param offset where they start in {@code input}
     * @param length how many bytes to add
     * @return this hasher
     */
    public SubtreeHasher update(byte[] input, int offset, int length) {
      Checks.range(input, offset, length);
      checkRoom(length);
      state.update(input, offset, length);
      return this;
    }

    /**
     * Adds the buffer's remaining bytes and moves its position to its limit.
     *
     * @param input the buffer whose remaining bytes are added
     * @return this hasher
     */
    public SubtreeHasher update(ByteBuffer input) {
      Objects.requireNonNull(input, "input");
      checkRoom(input.remaining());
      state.update(input);
      return this;
    }

    /**
     * Adds everything the stream delivers until its end (the stream is not closed).
     *
     * @param input the stream to read to its end
     * @return this hasher
     * @throws IOException if reading fails; what was read before stays added
     */
    public SubtreeHasher update(InputStream input) throws IOException {
      Objects.requireNonNull(input, "input");
      FileHashing.update(state, input);
      return this;
    }

    private void checkRoom(long more) {
      if (more > Long.MAX_VALUE - inputOffset - state.length()) {
        throw new IllegalArgumentException("the range would end beyond byte Long.MAX_VALUE of the input");
      }
    }

    /** {@return the byte offset where the range starts in the whole input} */
    public long inputOffset() {
      return inputOffset;
    }

    /** {@return how many bytes were added so far} */
    public long length() {
      return state.length();
    }

    /**
     * The chaining value of the range added so far, which must be a subtree: at least one
     * byte, and at most {@link #maxSubtreeLength(long)} of the offset.
     *
     * @return the 32-byte chaining value
     * @throws IllegalStateException if the range is empty or too long for its offset
     */
    public byte[] chainingValue() {
      long len = state.length();
      try {
        SubtreeGeometry.checkSubtree(inputOffset, len);
      } catch (IllegalArgumentException e) {
        throw new IllegalStateException(e.getMessage() + " (bytes added: " + len + ")", e);
      }
      return ChainingValues.fold(state.subtreeCvs(), mode);
    }

    /** {@return the range added so far as a {@link Piece}, for {@link #rootHash(Collection, Mode)}} */
    public Piece piece() {
      int[] words = state.subtreeCvs();
      return new Piece(inputOffset, state.length(), mode.flags, ChainingValues.bytes(words, words.length),
          state.soleChunk());
    }

    /**
     * Forgets the bytes added; the offset and mode stay.
     *
     * @return this hasher
     */
    public SubtreeHasher reset() {
      state.reset();
      return this;
    }
  }
}
