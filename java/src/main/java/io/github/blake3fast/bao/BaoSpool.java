package io.github.blake3fast.bao;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Holds what an encoder needs to see twice or by position: a stream's content (whose length
 * the header needs first) or an outboard built for a target that cannot seek. Small ones stay
 * in memory; larger ones go to a temporary file, deleted on close.
 */
final class BaoSpool implements Closeable {
  /** Up to this many bytes stay on the heap. */
  static final int IN_MEMORY = 16 << 20;

  private final Path file;
  private final FileChannel ch;

  private BaoSpool(Path file, FileChannel ch) {
    this.file = file;
    this.ch = ch;
  }

  static BaoSpool tempFile() throws IOException {
    Path f = Files.createTempFile("blake3-bao", ".tmp");
    try {
      return new BaoSpool(f, FileChannel.open(f, StandardOpenOption.READ, StandardOpenOption.WRITE,
          StandardOpenOption.DELETE_ON_CLOSE));
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(f);
      throw e;
    }
  }

  FileChannel channel() {
    return ch;
  }

  @Override
  public void close() throws IOException {
    try {
      ch.close();
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** A stream's content: in memory when short (spool null), else in {@code spool}'s file. */
  static BaoContent content(InputStream in, BaoSpool[] spool) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    byte[] b = new byte[64 << 10];
    int n;
    while ((n = in.read(b)) >= 0) {
      head.write(b, 0, n);
      if (head.size() > IN_MEMORY) {
        BaoSpool s = tempFile();
        spool[0] = s;
        OutputStream out = Channels.newOutputStream(s.ch);
        head.writeTo(out);
        in.transferTo(out);
        return new BaoContent.File(s.ch, s.ch.size());
      }
    }
    return new BaoContent.Array(ByteBuffer.wrap(head.toByteArray()));
  }
}
