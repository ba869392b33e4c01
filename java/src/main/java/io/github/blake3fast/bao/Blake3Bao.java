package io.github.blake3fast.bao;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hazmat;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Bao verified streaming: encodings that let a reader holding only a 32-byte BLAKE3 hash check
 * a stream chunk by chunk as it arrives, or any byte range of it, from an untrusted source.
 * The format is that of the {@code bao} crate (its spec and official test vectors pass), and
 * the hash is the plain {@link Blake3#hash(byte[]) BLAKE3 hash} of the content.
 *
 * <ul>
 *   <li>The <em>combined encoding</em> is the content with the tree's parent nodes interleaved
 *       (about 6% more), behind an 8-byte length header: {@link #encode(byte[])}.
 *   <li>The <em>outboard</em> holds the header and the parents only, to keep beside unchanged
 *       content: {@link #outboard(byte[])}.
 *   <li>A <em>slice</em> of {@code [start, start + count)} holds only what verifying that
 *       range needs: {@link #slice(byte[], long, long)}, read back by
 *       {@link #sliceDecoder(byte[], InputStream, long, long)}.
 *   <li>A {@link Blake3BaoDecoder} verifies as it reads, and seeks.
 * </ul>
 *
 * <pre>{@code
 * Blake3Bao bao = Blake3Bao.standard();
 * byte[] hash = bao.outboard(Path.of("video.mp4"), Path.of("video.mp4.obao"));
 * try (Blake3BaoDecoder in = bao.outboardDecoder(hash, Path.of("video.mp4"), Path.of("video.mp4.obao"))) {
 *   in.seek(1 << 20);
 *   in.readNBytes(buffer, 0, 4096);      // verified bytes, or a Blake3BaoException
 * }
 * byte[] slice = bao.sliceOutboard(content, outboard, 1 << 20, 4096);   // serve a range
 * byte[] bytes = bao.decodeSlice(hash, slice, 1 << 20, 4096);          // check it elsewhere
 * }</pre>
 *
 * <p><b>Chunk groups.</b> {@link #withChunkGroups(int)} makes the leaves of the tree groups of
 * 2<sup>k</sup> chunks, as the {@code bao-tree} crate (iroh) does: the outboard shrinks by
 * 2<sup>k</sup> (k = 4, 16 KiB groups: about 0.4% of the content), a group is verified whole,
 * and the hash stays the BLAKE3 hash. k = 0 is Bao itself.
 *
 * <p><b>Guarantees.</b> A decoder returns no byte before its group and every parent above it
 * have been verified against the hash, and reports the end of the content (or its length)
 * only once the final group is verified. Any mismatch, a truncated source, or a length header
 * no encoding could have, is a {@link Blake3BaoException} saying which node failed. Nothing is
 * allocated by what a header claims beyond one group.
 *
 * <p id="files"><b>Files.</b> A method that writes a file ({@link #encode(Path, Path)},
 * {@link #outboard(Path, Path)}, {@link #decode(byte[], Path, Path)},
 * {@link #decodeOutboard(byte[], Path, Path, Path)}) never writes over its input: an output that is the input's
 * file, by its name, a symlink, a hard link or {@code /proc/self/fd/N}, is refused with a
 * {@link java.nio.file.FileSystemException} before anything is opened for writing. The output
 * is written as a temporary file in its directory and renamed over it only when complete, so
 * it shows its old content or all of the new: on any failure (an exception, a full disk, an
 * interrupt, the JVM exiting) the temporary file is deleted and the old file is untouched. A
 * replaced file keeps its permission bits (and owner and group where the process may set
 * them); a symlink output keeps its link and gets new content at its target; other hard links
 * to the old file keep the old bytes. The directory must be writable. Nothing is forced to disk:
 * a crash of the machine itself leaves what the file system's ordering of writes and rename
 * leaves. A device or FIFO output is written as a stream. A stream or channel output gets the
 * bytes as they are made, and keeps what it got if a call fails.
 *
 * <p>Instances are immutable and thread-safe; decoders are used by one thread at a time.
 * Encoding a file, or decoding one into a file, reads it in windows on several threads (the
 * common pool), as {@link Blake3#hashFile} does, never holding it whole in memory.
 *
 * <p>This package is a client of the core's public API: its hashing goes through
 * {@link Blake3Hazmat} (many groups' and parents' chaining values per call) and {@link Blake3},
 * on the engine the library chose ({@link Blake3#implementation()}).
 */
public final class Blake3Bao {
  private static final Blake3Bao STANDARD = new Blake3Bao(0);

  private final int groupLog;

  private Blake3Bao(int groupLog) {
    this.groupLog = groupLog;
  }

  /** {@return Bao itself: one chunk (1024 bytes) per leaf} */
  public static Blake3Bao standard() {
    return STANDARD;
  }

  /**
   * Bao trees whose leaves are groups of {@code 2^log2ChunksPerGroup} chunks, as
   * {@code bao-tree}'s block size: 4 gives 16 KiB groups (iroh's choice). 0 is
   * {@link #standard()}.
   *
   * @param log2ChunksPerGroup 0 to 16
   * @return the encoder and decoder factory for that group size
   * @throws IllegalArgumentException if the value is outside 0 to 16
   */
  public static Blake3Bao withChunkGroups(int log2ChunksPerGroup) {
    if (log2ChunksPerGroup < 0 || log2ChunksPerGroup > BaoTree.MAX_GROUP_LOG) {
      throw new IllegalArgumentException("log2 of chunks per group must be 0 to " + BaoTree.MAX_GROUP_LOG
          + ", not " + log2ChunksPerGroup);
    }
    return log2ChunksPerGroup == 0 ? STANDARD : new Blake3Bao(log2ChunksPerGroup);
  }

  /** {@return log2 of the chunks per group: 0 for Bao} */
  public int chunkGroupLog() {
    return groupLog;
  }

  /** {@return the bytes per group: 1024 for Bao} */
  public int chunkGroupSize() {
    return Blake3Hazmat.CHUNK_LEN << groupLog;
  }

  /**
   * The size of the combined encoding of {@code contentLength} bytes.
   *
   * @param contentLength the content length, at least 0
   * @return the encoding's size in bytes
   * @throws ArithmeticException if it exceeds {@link Long#MAX_VALUE}
   */
  public long encodedSize(long contentLength) {
    return tree(contentLength).encodedSize();
  }

  /**
   * The size of the outboard of {@code contentLength} bytes: the header and 64 bytes per
   * group but one.
   *
   * @param contentLength the content length, at least 0
   * @return the outboard's size in bytes
   */
  public long outboardSize(long contentLength) {
    return tree(contentLength).outboardSize();
  }

  private BaoTree tree(long contentLength) {
    if (contentLength < 0) {
      throw new IllegalArgumentException("content length must not be negative: " + contentLength);
    }
    return new BaoTree(contentLength, groupLog);
  }

  // ---- Encoding ---------------------------------------------------------------------------

  /**
   * The combined encoding of {@code input}.
   *
   * @param input the content
   * @return the encoding
   * @throws IllegalArgumentException if the encoding would not fit in an array
   */
  public byte[] encode(byte[] input) {
    return toArray(input, true);
  }

  /**
   * The outboard of {@code input}.
   *
   * @param input the content
   * @return the outboard
   */
  public byte[] outboard(byte[] input) {
    return toArray(input, false);
  }

  private byte[] toArray(byte[] input, boolean combined) {
    Objects.requireNonNull(input, "input");
    BaoTree tree = tree(input.length);
    BaoSink.Array sink = new BaoSink.Array(checkedArraySize(combined ? tree.encodedSize() : tree.outboardSize()));
    try {
      new BaoEncoder(tree, new BaoContent.Array(ByteBuffer.wrap(input)), sink, combined).encode();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // arrays do not fail
    }
    return sink.bytes;
  }

  private static int checkedArraySize(long size) {
    if (size > Integer.MAX_VALUE - 16) {
      throw new IllegalArgumentException("the result would be " + size + " bytes, too long for an array: "
          + "write it to a stream or a file");
    }
    return (int) size;
  }

  /**
   * Writes the combined encoding of the buffer's remaining bytes (its position does not move).
   *
   * @param input the content: heap or direct
   * @param out where the encoding goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if writing fails
   */
  public byte[] encode(ByteBuffer input, OutputStream out) throws IOException {
    return BaoStreams.write(groupLog, new BaoContent.Array(input), Objects.requireNonNull(out, "out"), true);
  }

  /**
   * Writes the outboard of the buffer's remaining bytes (its position does not move).
   *
   * @param input the content: heap or direct
   * @param out where the outboard goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if writing fails
   */
  public byte[] outboard(ByteBuffer input, OutputStream out) throws IOException {
    return BaoStreams.write(groupLog, new BaoContent.Array(input), Objects.requireNonNull(out, "out"), false);
  }

  /**
   * Writes the combined encoding of everything the stream delivers. The header comes first and
   * holds the length, so the content is held until its end: in memory up to 16 MiB, beyond
   * that in a temporary file.
   *
   * @param input the content, read to its end (not closed)
   * @param out where the encoding goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if reading, spooling or writing fails
   */
  public byte[] encode(InputStream input, OutputStream out) throws IOException {
    return BaoStreams.fromStream(groupLog, input, out, true);
  }

  /**
   * Writes the outboard of everything the stream delivers (held as for
   * {@link #encode(InputStream, OutputStream)}).
   *
   * @param input the content, read to its end (not closed)
   * @param out where the outboard goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if reading, spooling or writing fails
   */
  public byte[] outboard(InputStream input, OutputStream out) throws IOException {
    return BaoStreams.fromStream(groupLog, input, out, false);
  }

  /**
   * Writes the combined encoding of a file to another file, each node straight to its place:
   * the input is read and hashed in windows on several threads. The output appears whole or
   * not at all (see <a href="#files">Files</a>); an output that is the input's file is refused.
   * A FIFO or device input is read to its end as a stream.
   *
   * @param input the content's file
   * @param output the encoding's file: created, or replaced when complete
   * @return the 32-byte hash of the content
   * @throws java.nio.file.FileSystemException with the reason {@code "input file is output file"}
   *     if {@code output} is {@code input}'s file, by any name; nothing is written
   * @throws IOException if reading or writing fails (the output is then as it was)
   */
  public byte[] encode(Path input, Path output) throws IOException {
    return BaoFiles.toFile(groupLog, input, output, true);
  }

  /**
   * Writes the outboard of a file to another file, each parent straight to its place: the input
   * is hashed in windows on several threads. As {@link #encode(Path, Path)}, the output appears
   * whole or not at all, and an output that is the input's file is refused.
   *
   * @param input the content's file
   * @param output the outboard's file: created, or replaced when complete
   * @return the 32-byte hash of the content
   * @throws java.nio.file.FileSystemException with the reason {@code "input file is output file"}
   *     if {@code output} is {@code input}'s file, by any name; nothing is written
   * @throws IOException if reading or writing fails (the output is then as it was)
   */
  public byte[] outboard(Path input, Path output) throws IOException {
    return BaoFiles.toFile(groupLog, input, output, false);
  }

  /**
   * Writes the combined encoding of a file to a channel (its current position on). A channel
   * is not a name: that it does not write to {@code input}'s file cannot be checked here.
   *
   * @param input the content's file
   * @param out where the encoding goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if reading or writing fails
   */
  public byte[] encode(Path input, WritableByteChannel out) throws IOException {
    return BaoFiles.toChannel(groupLog, input, out, true);
  }

  /**
   * Writes the outboard of a file to a channel (its current position on), which must not write
   * to {@code input}'s file (as for {@link #encode(Path, WritableByteChannel)}).
   *
   * @param input the content's file
   * @param out where the outboard goes; not closed
   * @return the 32-byte hash of the content
   * @throws IOException if reading or writing fails
   */
  public byte[] outboard(Path input, WritableByteChannel out) throws IOException {
    return BaoFiles.toChannel(groupLog, input, out, false);
  }

  // ---- Decoding ---------------------------------------------------------------------------

  /**
   * A verifying decoder of a combined encoding held in an array.
   *
   * @param hash the 32-byte root hash (the BLAKE3 hash of the content)
   * @param encoded the combined encoding
   * @return a seekable decoder
   */
  public Blake3BaoDecoder decoder(byte[] hash, byte[] encoded) {
    Objects.requireNonNull(encoded, "encoded");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(encoded, 0, encoded.length), null);
  }

  /**
   * A verifying decoder of a combined encoding read from a channel (seekable; closed with the
   * decoder).
   *
   * @param hash the 32-byte root hash
   * @param encoded the combined encoding, read by absolute position
   * @return a seekable decoder
   */
  public Blake3BaoDecoder decoder(byte[] hash, SeekableByteChannel encoded) {
    Objects.requireNonNull(encoded, "encoded");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(encoded), null, encoded);
  }

  /**
   * A verifying decoder of a combined encoding read from a stream (forward only; closed with
   * the decoder).
   *
   * @param hash the 32-byte root hash
   * @param encoded the combined encoding
   * @return a decoder that seeks forward only
   */
  public Blake3BaoDecoder decoder(byte[] hash, InputStream encoded) {
    Objects.requireNonNull(encoded, "encoded");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(encoded), null, encoded);
  }

  /**
   * A verifying decoder of a combined encoding in a file (a FIFO or device is read forward,
   * as a stream).
   *
   * @param hash the 32-byte root hash
   * @param encoded the file holding the combined encoding
   * @return a seekable decoder (forward only for a FIFO); close it to close the file
   * @throws IOException if the file cannot be opened
   */
  public Blake3BaoDecoder decoder(byte[] hash, Path encoded) throws IOException {
    return BaoFiles.decoder(checkHash(hash), groupLog, encoded);
  }

  /**
   * A verifying decoder of content held beside its outboard, both in arrays.
   *
   * @param hash the 32-byte root hash
   * @param content the content, unverified
   * @param outboard its outboard
   * @return a seekable decoder
   */
  public Blake3BaoDecoder outboardDecoder(byte[] hash, byte[] content, byte[] outboard) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(outboard, "outboard");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(content, 0, content.length),
        BaoInput.of(outboard, 0, outboard.length));
  }

  /**
   * A verifying decoder of content and outboard read from channels (both closed with the
   * decoder).
   *
   * @param hash the 32-byte root hash
   * @param content the content, unverified
   * @param outboard its outboard
   * @return a seekable decoder
   */
  public Blake3BaoDecoder outboardDecoder(byte[] hash, SeekableByteChannel content, SeekableByteChannel outboard) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(outboard, "outboard");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(content), BaoInput.of(outboard), content,
        outboard);
  }

  /**
   * A verifying decoder of content and outboard read from streams (forward only; both closed
   * with the decoder).
   *
   * @param hash the 32-byte root hash
   * @param content the content, unverified
   * @param outboard its outboard
   * @return a decoder that seeks forward only
   */
  public Blake3BaoDecoder outboardDecoder(byte[] hash, InputStream content, InputStream outboard) {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(outboard, "outboard");
    return new Blake3BaoDecoder(checkHash(hash), groupLog, BaoInput.of(content), BaoInput.of(outboard), content,
        outboard);
  }

  /**
   * A verifying decoder of a content file and its outboard file (a FIFO or device is read
   * forward, as a stream).
   *
   * @param hash the 32-byte root hash
   * @param content the content's file, unverified
   * @param outboard its outboard's file
   * @return a seekable decoder (forward only for a FIFO); close it to close the files
   * @throws IOException if a file cannot be opened
   */
  public Blake3BaoDecoder outboardDecoder(byte[] hash, Path content, Path outboard) throws IOException {
    return BaoFiles.outboardDecoder(checkHash(hash), groupLog, content, outboard);
  }

  /**
   * Decodes the combined encoding in a file into another file, verifying every byte: the
   * encoding is read and verified in windows on several threads, each written to its place in
   * the output once verified. The output appears whole, after the last byte is verified, or
   * not at all (see <a href="#files">Files</a>); an output that is the input's file is refused.
   * A FIFO or device, as input or output, is read or written as a stream.
   *
   * @param hash the 32-byte root hash
   * @param encoded the combined encoding's file, unverified
   * @param output the content's file: created, or replaced when complete and verified
   * @throws Blake3BaoException if the encoding does not match the hash: the mismatch that
   *     reading the content from its start would meet first; the output is then as it was
   * @throws java.nio.file.FileSystemException with the reason {@code "input file is output file"}
   *     if {@code output} is {@code encoded}'s file, by any name; nothing is written
   * @throws IOException if reading or writing fails (the output is then as it was)
   */
  public void decode(byte[] hash, Path encoded, Path output) throws IOException {
    BaoFiles.decodeToFile(checkHash(hash), groupLog, Objects.requireNonNull(encoded, "encoded"), null, output);
  }

  /**
   * Verifies a content file against its outboard file and writes the content to another file,
   * as {@link #decode(byte[], Path, Path)} does: in windows on several threads, the output
   * whole and verified or not at all, an output that is either input's file refused.
   *
   * @param hash the 32-byte root hash
   * @param content the content's file, unverified
   * @param outboard its outboard's file
   * @param output where the verified content goes: created, or replaced when complete
   * @throws Blake3BaoException if content or outboard do not match the hash (the first
   *     mismatch in content order); the output is then as it was
   * @throws java.nio.file.FileSystemException with the reason {@code "input file is output file"}
   *     if {@code output} is {@code content}'s or {@code outboard}'s file; nothing is written
   * @throws IOException if reading or writing fails (the output is then as it was)
   */
  public void decodeOutboard(byte[] hash, Path content, Path outboard, Path output) throws IOException {
    BaoFiles.decodeToFile(checkHash(hash), groupLog, Objects.requireNonNull(content, "content"),
        Objects.requireNonNull(outboard, "outboard"), output);
  }

  /**
   * Decodes and verifies a whole combined encoding.
   *
   * @param hash the 32-byte root hash
   * @param encoded the combined encoding
   * @return the content
   * @throws Blake3BaoException if the encoding does not match the hash
   */
  public byte[] decode(byte[] hash, byte[] encoded) throws Blake3BaoException {
    return readAll(decoder(hash, encoded));
  }

  /**
   * Verifies content against its outboard and returns a copy of it.
   *
   * @param hash the 32-byte root hash
   * @param content the content, unverified
   * @param outboard its outboard
   * @return the content, verified
   * @throws Blake3BaoException if content or outboard do not match the hash
   */
  public byte[] decodeOutboard(byte[] hash, byte[] content, byte[] outboard) throws Blake3BaoException {
    return readAll(outboardDecoder(hash, content, outboard));
  }

  private static byte[] readAll(InputStream in) throws Blake3BaoException {
    try (in) {
      return in.readAllBytes();
    } catch (Blake3BaoException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e); // arrays do not fail otherwise
    }
  }

  private static byte[] checkHash(byte[] hash) {
    Objects.requireNonNull(hash, "hash");
    if (hash.length != Blake3.OUT_LEN) {
      throw new IllegalArgumentException("a Bao hash is 32 bytes, not " + hash.length);
    }
    return hash;
  }

  // ---- Slices ---------------------------------------------------------------------------

  /**
   * Cuts the slice of {@code [start, start + count)} out of a combined encoding. A count of 0
   * counts as 1, a start at or past the end takes the final chunk, and the range is capped at
   * the end (the reference implementation's permissive bounds). Nothing is verified here.
   *
   * @param encoded the combined encoding
   * @param start the first content byte of the range
   * @param count how many bytes
   * @return the slice
   * @throws Blake3BaoException if the encoding is too short for its own header
   */
  public byte[] slice(byte[] encoded, long start, long count) throws Blake3BaoException {
    Objects.requireNonNull(encoded, "encoded");
    return sliceToArray(BaoInput.of(encoded, 0, encoded.length), null, start, count);
  }

  /**
   * Cuts the slice of {@code [start, start + count)} out of content and its outboard, as
   * {@link #slice(byte[], long, long)}.
   *
   * @param content the content
   * @param outboard its outboard
   * @param start the first content byte of the range
   * @param count how many bytes
   * @return the slice
   * @throws Blake3BaoException if the outboard or content is too short for the outboard's header
   */
  public byte[] sliceOutboard(byte[] content, byte[] outboard, long start, long count) throws Blake3BaoException {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(outboard, "outboard");
    return sliceToArray(BaoInput.of(content, 0, content.length), BaoInput.of(outboard, 0, outboard.length), start,
        count);
  }

  private byte[] sliceToArray(BaoInput in, BaoInput outboard, long start, long count) throws Blake3BaoException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      slice(in, outboard, start, count, out);
    } catch (Blake3BaoException e) {
      throw e;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /**
   * Writes the slice of {@code [start, start + count)} of a combined encoding read from a
   * channel (by absolute position: the channel is not closed), as
   * {@link #slice(byte[], long, long)}.
   *
   * @param encoded the combined encoding
   * @param start the first content byte of the range
   * @param count how many bytes
   * @param out where the slice goes; not closed
   * @throws IOException if reading or writing fails, or the encoding is too short for its
   *     header ({@link Blake3BaoException})
   */
  public void slice(SeekableByteChannel encoded, long start, long count, OutputStream out) throws IOException {
    Objects.requireNonNull(encoded, "encoded");
    slice(BaoInput.of(encoded), null, start, count, out);
  }

  /**
   * Writes the slice of {@code [start, start + count)} of content and outboard read from
   * channels (not closed), as {@link #slice(byte[], long, long)}: O(log n) parents and the
   * range are read.
   *
   * @param content the content
   * @param outboard its outboard
   * @param start the first content byte of the range
   * @param count how many bytes
   * @param out where the slice goes; not closed
   * @throws IOException if reading or writing fails, or the sources are too short for the
   *     header ({@link Blake3BaoException})
   */
  public void sliceOutboard(SeekableByteChannel content, SeekableByteChannel outboard, long start, long count,
      OutputStream out) throws IOException {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(outboard, "outboard");
    slice(BaoInput.of(content), BaoInput.of(outboard), start, count, out);
  }

  private void slice(BaoInput in, BaoInput outboard, long start, long count, OutputStream out) throws IOException {
    BaoSliceRange.check(start, count);
    Objects.requireNonNull(out, "out");
    BaoLayout layout;
    if (outboard == null) {
      BaoTree tree = BaoHeader.read(in, groupLog, true);
      layout = new BaoLayout.Interleaved(tree, in);
    } else {
      BaoTree tree = BaoHeader.read(outboard, groupLog, false);
      layout = new BaoLayout.Outboard(tree, in, outboard);
    }
    OutputStream buffered = new BufferedOutputStream(out, 64 << 10);
    BaoSlicer.extract(layout, start, count, buffered);
    buffered.flush();
  }

  /**
   * A stream of the verified bytes of {@code [start, start + count)} (capped at the end of the
   * content) read from a slice cut for that range; it closes the slice when closed. A slice of
   * another range, or one whose header lies, fails as the first node that does not verify.
   *
   * @param hash the 32-byte root hash
   * @param slice the slice
   * @param start the first content byte of the range, as the slice was cut
   * @param count how many bytes, as the slice was cut
   * @return the verified bytes of the range
   */
  public InputStream sliceDecoder(byte[] hash, InputStream slice, long start, long count) {
    Objects.requireNonNull(slice, "slice");
    BaoSliceRange.check(start, count);
    return new BaoSliceReader(checkHash(hash), groupLog, slice, start, count);
  }

  /**
   * Decodes and verifies a slice held in an array.
   *
   * @param hash the 32-byte root hash
   * @param slice the slice
   * @param start the first content byte of the range, as the slice was cut
   * @param count how many bytes, as the slice was cut
   * @return the bytes of the range (capped at the end of the content)
   * @throws Blake3BaoException if the slice does not match the hash and range
   */
  public byte[] decodeSlice(byte[] hash, byte[] slice, long start, long count) throws Blake3BaoException {
    Objects.requireNonNull(slice, "slice");
    return readAll(sliceDecoder(hash, new ByteArrayInputStream(slice), start, count));
  }

  @Override
  public String toString() {
    return groupLog == 0 ? "Blake3Bao.standard()" : "Blake3Bao.withChunkGroups(" + groupLog + ")";
  }
}
