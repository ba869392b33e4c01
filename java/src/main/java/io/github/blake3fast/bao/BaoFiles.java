package io.github.blake3fast.bao;

import io.github.blake3fast.internal.FileOutput;
import io.github.blake3fast.internal.SameFile;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * {@link Blake3Bao}'s entry points that open files: encoding a file to a file, each node
 * written straight to its place (positional writes, so the windows are hashed on several
 * threads in any order) in a temporary file that replaces the output when complete, a file to
 * a channel, and decoders that own the channels they open.
 */
final class BaoFiles {
  private BaoFiles() {}

  /**
   * Encodes file {@code input} into file {@code output}: refused if they are one file, written
   * whole or not at all ({@link FileOutput}). A FIFO or device input is read as a stream.
   */
  static byte[] toFile(int groupLog, Path input, Path output, boolean combined) throws IOException {
    Objects.requireNonNull(output, "output");
    SameFile.refuse(input, output);
    try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ);
        FileOutput out = FileOutput.open(output)) {
      byte[] hash;
      if (Files.isRegularFile(input)) {
        BaoContent content = new BaoContent.File(in, in.size());
        BaoTree tree = new BaoTree(content.length, groupLog);
        if (combined) {
          tree.encodedSize(); // ArithmeticException before any work if no file could hold it
        }
        hash = new BaoEncoder(tree, content, new BaoSink.Channel(out.channel()), combined).encode();
      } else {
        hash = BaoStreams.fromStream(groupLog, Channels.newInputStream(in), Channels.newOutputStream(out.channel()),
            combined);
      }
      out.commit();
      return hash;
    }
  }

  /** Encodes file {@code input} to a channel, from its current position. */
  static byte[] toChannel(int groupLog, Path input, WritableByteChannel out, boolean combined) throws IOException {
    Objects.requireNonNull(out, "out");
    try (FileChannel in = FileChannel.open(input, StandardOpenOption.READ)) {
      if (!Files.isRegularFile(input)) {
        return BaoStreams.fromStream(groupLog, Channels.newInputStream(in), Channels.newOutputStream(out), combined);
      }
      return BaoStreams.write(groupLog, new BaoContent.File(in, in.size()), Channels.newOutputStream(out), combined);
    }
  }

  /**
   * Decodes the combined encoding in file {@code encoded} (or, with an {@code outboard}, the
   * content in it) into file {@code output}: refused if the output is an input's file, written
   * whole, once every byte is verified, or not at all. Regular files go by position, their
   * windows verified on several threads ({@link BaoFileDecode}); a FIFO or device, as input or
   * output, goes through the streaming decoder.
   */
  static void decodeToFile(byte[] hash, int groupLog, Path encoded, Path outboard, Path output) throws IOException {
    Objects.requireNonNull(output, "output");
    SameFile.refuse(encoded, output);
    if (outboard != null) {
      SameFile.refuse(outboard, output);
    }
    try (FileChannel e = FileChannel.open(encoded, StandardOpenOption.READ);
        FileChannel o = outboard == null ? null : FileChannel.open(outboard, StandardOpenOption.READ);
        FileOutput out = FileOutput.open(output)) {
      if (out.positional() && Files.isRegularFile(encoded) && (outboard == null || Files.isRegularFile(outboard))) {
        new BaoFileDecode(hash, groupLog, e, o, out.channel()).run();
      } else {
        Blake3BaoDecoder d = new Blake3BaoDecoder(hash, groupLog, input(encoded, e),
            o == null ? null : input(outboard, o));
        d.transferTo(Channels.newOutputStream(out.channel()));
      }
      out.commit();
    }
  }

  /** A decoder of the combined encoding in a file, which it closes. */
  static Blake3BaoDecoder decoder(byte[] hash, int groupLog, Path encoded) throws IOException {
    FileChannel ch = FileChannel.open(encoded, StandardOpenOption.READ);
    return new Blake3BaoDecoder(hash, groupLog, input(encoded, ch), null, ch);
  }

  /** A decoder of a content file and its outboard file, which it closes. */
  static Blake3BaoDecoder outboardDecoder(byte[] hash, int groupLog, Path content, Path outboard) throws IOException {
    FileChannel c = FileChannel.open(content, StandardOpenOption.READ);
    try {
      FileChannel o = FileChannel.open(outboard, StandardOpenOption.READ);
      return new Blake3BaoDecoder(hash, groupLog, input(content, c), input(outboard, o), c, o);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
  }

  /** A file read by position, or a FIFO or device read forward, as the stream it is. */
  private static BaoInput input(Path file, FileChannel ch) {
    return Files.isRegularFile(file) ? BaoInput.of(ch) : BaoInput.of(Channels.newInputStream(ch));
  }
}
