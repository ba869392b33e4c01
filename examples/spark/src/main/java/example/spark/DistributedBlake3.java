package example.spark;

import io.github.blake3fast.Blake3Hazmat;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * BLAKE3 of one file, hashed by a Spark job: each partition is a chunk-aligned range that an
 * executor reads and hashes to a {@link Blake3Hazmat.Piece}; only the pieces' bytes travel back
 * to the driver, which combines them into the hash one machine would compute. The file must be
 * readable at the same path on every executor (a shared file system; local mode trivially).
 */
public final class DistributedBlake3 {
  private static final int READ_BUFFER = 1 << 20;

  private DistributedBlake3() {}

  /** The hash, and what each partition sent back. */
  public static final class Result {
    public final byte[] hash;
    /** Serialized piece sizes, in partition order: the payload each task returns. */
    public final List<Integer> pieceBytes;

    Result(byte[] hash, List<Integer> pieceBytes) {
      this.hash = hash;
      this.pieceBytes = pieceBytes;
    }
  }

  public static Result hash(JavaSparkContext sc, Path file, int partitions) throws IOException {
    String name = file.toAbsolutePath().toString();
    List<FileRange> ranges = FileRange.split(name, Files.size(file), partitions);
    List<byte[]> wire = sc.parallelize(ranges, partitions)
        .map(r -> hashRange(r).toByteArray())
        .collect();
    List<Blake3Hazmat.Piece> pieces = new ArrayList<>(wire.size());
    List<Integer> sizes = new ArrayList<>(wire.size());
    for (byte[] w : wire) {
      pieces.add(Blake3Hazmat.Piece.fromByteArray(w));
      sizes.add(w.length);
    }
    // rootHash also checks that the pieces tile the file from 0 with no gap or overlap.
    return new Result(Blake3Hazmat.rootHash(pieces, Blake3Hazmat.Mode.hash()), sizes);
  }

  /** Runs on an executor: reads the range with positional reads and hashes it as it streams. */
  static Blake3Hazmat.Piece hashRange(FileRange r) {
    Blake3Hazmat.SubtreeHasher hasher = Blake3Hazmat.newSubtreeHasher(r.offset, Blake3Hazmat.Mode.hash());
    ByteBuffer buf = ByteBuffer.allocateDirect((int) Math.min(READ_BUFFER, Math.max(1, r.length)));
    try (FileChannel ch = FileChannel.open(Path.of(r.file), StandardOpenOption.READ)) {
      long at = r.offset;
      long end = r.offset + r.length;
      while (at < end) {
        buf.clear().limit((int) Math.min(buf.capacity(), end - at));
        int n = ch.read(buf, at);
        if (n < 0) {
          throw new EOFException(r + ": the file ends at " + at + " (it shrank while it was hashed)");
        }
        at += n;
        hasher.update(buf.flip());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return hasher.piece();
  }
}
