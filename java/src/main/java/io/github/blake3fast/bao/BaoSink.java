package io.github.blake3fast.bao;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Where an outboard is built: written by position, because a tree's parents are known bottom-up
 * but stored top-down (pre-order), and by several threads at once, each at its own positions.
 */
abstract class BaoSink {
  abstract void write(long pos, byte[] b, int off, int len) throws IOException;

  /** Writes the buffer's remaining bytes at {@code pos}. */
  abstract void write(long pos, ByteBuffer b) throws IOException;

  static final class Array extends BaoSink {
    final byte[] bytes;

    Array(int size) {
      bytes = new byte[size];
    }

    @Override
    void write(long pos, byte[] b, int off, int len) {
      System.arraycopy(b, off, bytes, (int) pos, len);
    }

    @Override
    void write(long pos, ByteBuffer b) {
      b.get(bytes, (int) pos, b.remaining());
    }
  }

  static final class Channel extends BaoSink {
    private final FileChannel ch;

    Channel(FileChannel ch) {
      this.ch = ch;
    }

    @Override
    void write(long pos, byte[] b, int off, int len) throws IOException {
      write(pos, ByteBuffer.wrap(b, off, len));
    }

    @Override
    void write(long pos, ByteBuffer b) throws IOException {
      long at = pos;
      while (b.hasRemaining()) {
        at += ch.write(b, at);
      }
    }
  }
}
