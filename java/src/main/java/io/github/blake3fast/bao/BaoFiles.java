package io.github.blake3fast.bao;

import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * {@link Blake3Bao}'s entry points that open files: encoding a file to a file, each node
 * written straight to its place (positional writes, so the windows are hashed on several
 * threads in any order), a file to a channel, and decoders that own the channels they open.
 */
final class BaoFiles {
  private BaoFiles() {}

  /** Encodes file {@code input} into file {@code output} (created or truncated). */
  static byte[] toFile(int groupLog, Path input, Path output, boolean combined) throws IOException {
    try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(output, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      BaoContent content = new BaoContent.File(in, in.size());
      BaoTree tree = new BaoTree(content.length, groupLog);
      if (combined) {
        tree.encodedSize(); // ArithmeticException before any work if no file could hold it
      }
      return new BaoEncoder(tree, content, new BaoSink.Channel(out), combined).encode();
    }
  }

  /** Encodes file {@code input} to a channel, from its current position. */
  static byte[] toChannel(int groupLog, Path input, WritableByteChannel out, boolean combined) throws IOException {
    Objects.requireNonNull(out, "out");
    try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ)) {
      return BaoStreams.write(groupLog, new BaoContent.File(in, in.size()), Channels.newOutputStream(out), combined);
    }
  }

  /** A decoder of the combined encoding in a file, which it closes. */
  static Blake3BaoDecoder decoder(byte[] hash, int groupLog, Path encoded) throws IOException {
    FileChannel ch = FileChannel.open(encoded, StandardOpenOption.READ);
    return new Blake3BaoDecoder(hash, groupLog, BaoInput.of(ch), null, ch);
  }

  /** A decoder of a content file and its outboard file, which it closes. */
  static Blake3BaoDecoder outboardDecoder(byte[] hash, int groupLog, Path content, Path outboard) throws IOException {
    FileChannel c = FileChannel.open(content, StandardOpenOption.READ);
    try {
      FileChannel o = FileChannel.open(outboard, StandardOpenOption.READ);
      return new Blake3BaoDecoder(hash, groupLog, BaoInput.of(c), BaoInput.of(o), c, o);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }
}
