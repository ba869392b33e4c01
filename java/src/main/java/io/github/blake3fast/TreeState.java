package io.github.blake3fast;

import java.io.FileDescriptor;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The tree driver: everything a streaming hasher remembers, and the one place the BLAKE3 tree
 * is built in Java, whatever the kernel.
 *
 * <p>Input is gathered in a {@link ChunkBuffer}, which always starts on a chunk boundary (chunk
 * {@code cvs.chunks()}). Whole chunks are handed to the kernel only when at least one more byte
 * is known to follow, because the last chunk may be the root and must be finalized differently.
 * The kernel returns one chaining value per maximal aligned power-of-two subtree; they go on
 * the {@link CvStack}. A state may also start at a chunk other than 0 (a subtree for
 * {@link Blake3Hazmat}).
 *
 * <p>Large updates may be hashed in parallel by {@link ParallelUpdate}, which pushes the values
 * of its tasks in order.
 */
final class TreeState {
  /** Room for the subtree CVs of one slice (at most 2 x 22 for 4 MiB) and the Java kernel's work area. */
  static final int CV_SCRATCH_WORDS = 8 * 128;

  private static final byte[] NO_BYTES = new byte[0];

  private final Kernel kernel;
  private final int[] key = new int[8];
  private int flags;

  /** The values of the chunks before the pending input. */
  private final CvStack cvs;
  /** The input after them. */
  private final ChunkBuffer pending;
  private int[] cvScratch;

  /** The root node, filled by {@link #computeRoot}: cv in [0, 8), block words in [8, 24). */
  private final int[] root = new int[24];
  private int rootBlockLen;
  private int rootFlags;

  TreeState(Kernel kernel, int[] key, int flags) {
    this(kernel, key, flags, 0);
  }

  /** A state whose first byte is chunk {@code startChunk} of the whole input (a subtree). */
  TreeState(Kernel kernel, int[] key, int flags, long startChunk) {
    this.kernel = kernel;
    System.arraycopy(key, 0, this.key, 0, 8);
    this.flags = flags;
    checkDeriveKey();
    this.cvs = new CvStack(this.key, flags, startChunk);
    this.pending = new ChunkBuffer();
  }

  private TreeState(TreeState o) {
    kernel = o.kernel;
    System.arraycopy(o.key, 0, key, 0, 8);
    flags = o.flags;
    cvs = new CvStack(o.cvs, key);
    pending = new ChunkBuffer(o.pending);
  }

  TreeState copy() {
    return new TreeState(this);
  }

  /**
   * Goes back to the input of {@code saved}, a {@link #copy()} of this state made earlier,
   * taking over its arrays: undoes a call that failed halfway. Allocates nothing, so that it
   * cannot fail itself (the failure may be an OutOfMemoryError).
   */
  void restore(TreeState saved) {
    cvs.restore(saved.cvs);
    pending.restore(saved.pending);
  }

  Kernel kernel() {
    return kernel;
  }

  /** Starts over with another key and mode (lets a one-shot reuse a per-thread state). */
  void reset(int[] key, int flags) {
    System.arraycopy(key, 0, this.key, 0, 8);
    this.flags = flags;
    checkDeriveKey();
    reset();
  }

  /**
   * Refuses to derive under a key of zeros, which no context hashes to ({@link Blake3#contextKey}
   * refuses it there too): checked on the state's own copy, the key the hashing will use
   * (bench/notes/decisions.md, "A derive-key key of zeros").
   */
  private void checkDeriveKey() {
    if (flags == Spec.DERIVE_KEY_MATERIAL && Spec.allZero(key)) {
      throw new IllegalStateException("blake3-fast: a derive-key state holds a key of zeros, which no context "
          + "hashes to: a fault in this JVM, please report it");
    }
  }

  void reset() {
    cvs.reset(flags);
    pending.len = 0;
  }

  /** Bytes added since the start (or the last reset). */
  long length() {
    return (cvs.chunks() - cvs.startChunk()) * Spec.CHUNK_LEN + pending.len;
  }

  void update(byte[] in, int off, int len) {
    // The common small update fits, so nothing is hashed (a full buffer waits for more).
    if (!pending.tryAppend(in, off, len)) {
      absorb(in, null, off, len);
    }
  }

  void update(ByteBuffer src) {
    int pos = src.position();
    int len = src.remaining();
    if (src.hasArray()) {
      absorb(src.array(), null, src.arrayOffset() + pos, len);
    } else {
      absorb(null, src, pos, len);
    }
    src.position(pos + len);
  }

  /** Takes len bytes from exactly one of {@code arr} or {@code bb} (absolute index off). */
  void absorb(byte[] arr, ByteBuffer bb, int off, int len) {
    if (len == 0) {
      return;
    }
    ChunkBuffer p = pending;
    p.allocate(kernel.bufferSize());
    // Can the kernel read this source itself? If not (a read-only heap buffer, or a direct
    // buffer for the Java kernel), every byte goes through the buffer.
    boolean readable = arr != null || (bb.isDirect() && kernel.supportsDirect());
    while (len > 0) {
      if (p.full()) {
        makeRoom(); // full, and more input follows
      }
      if (p.len == 0 && readable && len > p.bytes.length) {
        // Hash whole chunks straight from the input, keeping the last (maybe final) chunk back.
        int whole = (len - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN;
        hashWholeChunks(arr, bb, off, whole);
        off += whole;
        len -= whole;
      }
      int take = Math.min(len, p.bytes.length - p.len);
      p.append(arr, bb, off, take);
      off += take;
      len -= take;
    }
  }

  /** Room in a full buffer, when more input follows: it grows, or else is hashed. */
  private void makeRoom() {
    if (!pending.grow(kernel.bufferSize())) {
      hashWholeChunks(pending.bytes, null, 0, pending.len);
      pending.len = 0;
    }
  }

  /** Hashes len bytes (a multiple of the chunk length) that are known not to end the input. */
  private void hashWholeChunks(byte[] arr, ByteBuffer bb, int off, int len) {
    if (cvScratch == null) {
      cvScratch = new int[CV_SCRATCH_WORDS];
    }
    while (len > 0) {
      int piece = Math.min(len, Kernel.MAX_CALL);
      int count = arr != null
          ? kernel.hashSubtrees(arr, off, piece, key, cvs.chunks(), flags, cvScratch, 0)
          : kernel.hashSubtrees(bb, off, piece, key, cvs.chunks(), flags, cvScratch, 0);
      cvs.pushAll(cvScratch, 0, count, piece / Spec.CHUNK_LEN);
      off += piece;
      len -= piece;
    }
  }

  /** See {@link CvStack#pushAll}. */
  void pushAll(int[] values, int off, int count, long n) {
    cvs.pushAll(values, off, count, n);
  }

  /** See {@link CvStack#push}. */
  void pushSubtree(int[] cv, int cvOff, long n) {
    cvs.push(cv, cvOff, n);
  }

  /**
   * Describes the root node in {@link #root}. Buffered chunks before the last one are hashed
   * first: they cannot be the root, and this changes how the state is held, not what it means.
   */
  private void computeRoot() {
    int[] r = root;
    if (!lastChunkCvBesideOthers(r)) {
      hashAllButLastChunk();
      int lastLen = lastChunkNode(r);
      int lastFlags = lastChunkFlags();
      if (cvs.depth() == 0) {
        // A single chunk (chunk 0: any earlier one would be on the stack) is the root itself.
        rootBlockLen = lastLen;
        rootFlags = lastFlags;
        return;
      }
      Compress.compressWords(r, 0, r, 8, cvs.chunks(), lastLen, lastFlags, r, 16, false);
    }
    rootAboveLastCv(r);
  }

  /** The root node in {@code r} from the stack and the last chunk's chaining value in {@code r[16, 24)}. */
  private void rootAboveLastCv(int[] r) {
    cvs.merge(); // the last chunk follows everything on the stack
    cvs.foldRoot(r);
    rootBlockLen = Spec.BLOCK_LEN;
    rootFlags = flags | Spec.PARENT;
  }

  /** Whether {@code len} bytes are two whole chunks or more, few enough for one kernel call. */
  private static boolean wholeChunksPastOne(int len) {
    return len > Spec.CHUNK_LEN && len % Spec.CHUNK_LEN == 0 && len <= Kernel.MAX_CALL;
  }

  /**
   * Hashes {@code len} bytes of whole chunks (see {@link #wholeChunksPastOne}) that end the input
   * so far, the last beside the others ({@link Kernel#hashSubtreesThenLast}): pushes the values of
   * the chunks before the last and leaves the last one's chaining value in {@code r[16, 24)}.
   */
  private void pushAllButLastCv(byte[] in, int off, int len, int[] r) {
    if (cvScratch == null) {
      cvScratch = new int[CV_SCRATCH_WORDS];
    }
    int count = kernel.hashSubtreesThenLast(in, off, len, key, cvs.chunks(), flags, cvScratch, 0);
    cvs.pushAll(cvScratch, 0, count - 1, len / Spec.CHUNK_LEN - 1);
    System.arraycopy(cvScratch, 8 * (count - 1), r, 16, 8);
  }

  /**
   * Where the buffer holds two whole chunks or more and nothing else, the last chunk cannot be the
   * root: the kernel hashes it with the chunks before it (side by side, in a lane kernel) rather
   * than {@link #lastChunkNode} one block after another. Pushes the values of the chunks before
   * it, leaves its chaining value in {@code r[16, 24)} and returns true; the last chunk stays
   * buffered, as more input may follow. Elsewhere does nothing and returns false.
   */
  private boolean lastChunkCvBesideOthers(int[] r) {
    int len = pending.len;
    if (!wholeChunksPastOne(len)) {
      return false;
    }
    pushAllButLastCv(pending.bytes, 0, len, r);
    pending.dropFirst(len - Spec.CHUNK_LEN);
    return true;
  }

  /**
   * The buffered last chunk (0 to 1024 bytes) as a node in {@code r}: the chaining value
   * before its last block in [0, 8), that block's words in [8, 24). Returns the block's length.
   * Its words are read by shifts, not through the Java engine's view: the native engine, which
   * finishes a stream's last chunk here, never creates that view.
   */
  private int lastChunkNode(int[] r) {
    System.arraycopy(key, 0, r, 0, 8);
    byte[] buf = pending.bytes;
    int bufLen = pending.len;
    int blocks = bufLen == 0 ? 1 : (bufLen + Spec.BLOCK_LEN - 1) / Spec.BLOCK_LEN;
    int lastLen = bufLen - Spec.BLOCK_LEN * (blocks - 1);
    for (int b = 0; b < blocks; b++) {
      int at = Spec.BLOCK_LEN * b;
      for (int i = 0; i < 16; i++) {
        r[8 + i] = buf == null ? 0 : b < blocks - 1 ? Compress.word(buf, at + 4 * i) : Compress.partialWord(buf, at, lastLen, i);
      }
      if (b < blocks - 1) {
        Compress.compressWords(r, 0, r, 8, cvs.chunks(), Spec.BLOCK_LEN, flags | (b == 0 ? Spec.CHUNK_START : 0), r, 0,
            false);
      }
    }
    return lastLen;
  }

  /** The flags of the last block of the buffered last chunk. */
  private int lastChunkFlags() {
    return flags | Spec.CHUNK_END | (pending.len <= Spec.BLOCK_LEN ? Spec.CHUNK_START : 0);
  }

  /**
   * A one-shot hash of {@code len} bytes, two whole chunks or more, that are the whole input: the
   * last chunk cannot be the root, so the kernel hashes it beside the others (in the same lanes,
   * where it has lanes: through {@link #update} it would wait in the buffer for more input and be
   * hashed alone at the end). Writes {@code outLen} bytes of the root output from position 0 and
   * leaves this state as {@link #reset} does; false, having done nothing, for other lengths and
   * for a state that is not fresh from chunk 0.
   */
  boolean hashWholeChunks(byte[] in, int off, int len, byte[] out, int outOff, int outLen) {
    if (!wholeChunksPastOne(len) || length() != 0 || cvs.startChunk() != 0) {
      return false;
    }
    pushAllButLastCv(in, off, len, root);
    rootAboveLastCv(root);
    if (outLen == Spec.OUT_LEN) {
      writeRootCv(out, outOff);
    } else {
      rootNode().read(kernel, 0, out, outOff, outLen);
    }
    reset();
    return true;
  }

  /** Writes outLen bytes of the root output from position 0; the state stays usable. */
  void finish(byte[] out, int outOff, int outLen) {
    if (cvs.depth() == 0 && kernel.hashesWhole(pending.len, outLen)) {
      // All input is still in the buffer: one kernel call hashes it, root included.
      kernel.hashWhole(pending.bytes == null ? NO_BYTES : pending.bytes, 0, pending.len, key, flags, out, outOff,
          outLen);
      return;
    }
    computeRoot();
    if (outLen == Spec.OUT_LEN) {
      writeRootCv(out, outOff);
    } else {
      output().read(kernel, 0, out, outOff, outLen);
    }
  }

  /**
   * The first 32 bytes of the root output, the root's chaining value, of the root node
   * in {@link #root}: one Java compression, no allocation.
   */
  private void writeRootCv(byte[] out, int outOff) {
    Compress.compressWords(root, 0, root, 8, 0, rootBlockLen, rootFlags | Spec.ROOT, root, 0, false);
    for (int i = 0; i < 8; i++) {
      Compress.putWord(out, outOff + 4 * i, root[i]);
    }
  }

  /** Hashes the buffered chunks before the last one, which then starts the buffer. */
  private void hashAllButLastChunk() {
    if (pending.len > Spec.CHUNK_LEN) {
      int lastStart = (pending.len - 1) / Spec.CHUNK_LEN * Spec.CHUNK_LEN;
      hashWholeChunks(pending.bytes, null, 0, lastStart);
      pending.dropFirst(lastStart);
    }
  }

  /** A detached copy of the root node, for extendable output. */
  OutputNode output() {
    computeRoot();
    return rootNode();
  }

  /** A detached copy of the root node in {@link #root}. */
  private OutputNode rootNode() {
    return new OutputNode(Arrays.copyOfRange(root, 0, 8), Arrays.copyOfRange(root, 8, 24), rootBlockLen, rootFlags);
  }

  // ---- Subtree states (Blake3Hazmat) ----------------------------------------------------

  /**
   * The chaining values of everything added, as the canonical subtrees of the range: the
   * maximal aligned power-of-two subtrees from the start, left to right, except that a range
   * starting at chunk 0 never becomes one subtree (it might be the whole input, whose top node
   * is the root): a power-of-two count there gives its two halves. 8 words per value; none for
   * an empty range. The state stays usable.
   */
  int[] subtreeCvs() {
    if (length() == 0) {
      return new int[0];
    }
    // The last chunk's non-root chaining value, into r[16, 24).
    int[] r = new int[24];
    if (!lastChunkCvBesideOthers(r)) {
      hashAllButLastChunk();
      int lastLen = lastChunkNode(r);
      Compress.compressWords(r, 0, r, 8, cvs.chunks(), lastLen, lastChunkFlags(), r, 16, false);
    }
    return cvs.subtreeCvs(r, 16);
  }

  /** The input so far if it is at most one chunk from chunk 0, else null. */
  byte[] soleChunk() {
    if (cvs.chunks() != 0 || pending.len > Spec.CHUNK_LEN) {
      return null;
    }
    return pending.contents();
  }

  // ---- Parallel hashing (ParallelUpdate) ---------------------------------------------

  /**
   * Before whole chunks of a source are hashed elsewhere: tops up a partly filled buffer from
   * the source and hashes it, so that the rest of the source starts on a chunk boundary. The
   * source must hold more than a buffer's worth. Returns the bytes taken from it.
   */
  int hashBufferFilledFrom(byte[] arr, ByteBuffer bb, int off) {
    ChunkBuffer p = pending;
    p.allocate(kernel.bufferSize());
    if (p.full()) {
      makeRoom();
    }
    if (p.len == 0) {
      return 0;
    }
    int head = p.bytes.length - p.len;
    p.append(arr, bb, off, head);
    hashWholeChunks(p.bytes, null, 0, p.len);
    p.len = 0;
    return head;
  }

  // ---- File hashing (FileHashing) -----------------------------------------------------

  /**
   * Hashes the buffer if it holds only whole chunks, as it may when more input is known to
   * follow. Returns whether the buffer is now empty, so that aligned subtrees may be pushed.
   */
  boolean hashBufferedWholeChunks() {
    if (pending.len > 0 && pending.len % Spec.CHUNK_LEN == 0) {
      hashWholeChunks(pending.bytes, null, 0, pending.len);
      pending.len = 0;
    }
    return pending.len == 0;
  }

  /** Bytes before the next one in the whole input (for a state starting at chunk 0: its length). */
  long position() {
    return cvs.chunks() * Spec.CHUNK_LEN + pending.len;
  }

  /** The chunk the next byte belongs to, counted from the start of the whole input. */
  long chunkCount() {
    return cvs.chunks();
  }

  /**
   * Hashes whole chunks from a source other threads may read too, without touching this
   * state: the values of the maximal aligned subtrees from chunk {@code counter} go to
   * {@code cvs[0..]} (room for 128). Returns their number.
   */
  int hashDetached(byte[] arr, ByteBuffer bb, int off, int len, long counter, int[] cvs) {
    return arr != null
        ? kernel.hashSubtrees(arr, off, len, key, counter, flags, cvs, 0)
        : kernel.hashSubtrees(bb, off, len, key, counter, flags, cvs, 0);
  }

  /** As {@link #hashDetached}, for bytes of an open file read in place: {@link Kernel#hashMapped}. */
  int hashMappedDetached(FileDescriptor fd, long pos, int len, long size, long counter, int[] cvs) {
    return kernel.hashMapped(fd, pos, len, size, key, counter, flags, cvs, 0);
  }
}
