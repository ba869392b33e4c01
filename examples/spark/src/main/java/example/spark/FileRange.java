package example.spark;

import io.github.blake3fast.Blake3Hazmat;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** A range of a file that starts on a BLAKE3 chunk boundary: what one Spark task hashes. */
public final class FileRange implements Serializable {
  private static final long serialVersionUID = 1L;

  final String file;
  final long offset;
  final long length;

  FileRange(String file, long offset, long length) {
    this.file = file;
    this.offset = offset;
    this.length = length;
  }

  /**
   * Splits a file of {@code size} bytes into {@code parts} consecutive ranges of nearly equal
   * whole-chunk counts; only the last range may end inside a chunk. With more parts than chunks
   * some ranges are empty, which {@link Blake3Hazmat#rootHash} accepts.
   */
  static List<FileRange> split(String file, long size, int parts) {
    if (parts < 1) {
      throw new IllegalArgumentException("parts must be at least 1: " + parts);
    }
    long chunkLen = Blake3Hazmat.CHUNK_LEN;
    long chunks = (size + chunkLen - 1) / chunkLen;
    List<FileRange> ranges = new ArrayList<>(parts);
    for (int i = 0; i < parts; i++) {
      long from = Math.min(size, chunks * i / parts * chunkLen);
      long to = Math.min(size, chunks * (i + 1) / parts * chunkLen);
      ranges.add(new FileRange(file, from, to - from));
    }
    return ranges;
  }

  @Override
  public String toString() {
    return file + "[" + offset + ", " + (offset + length) + ")";
  }
}
