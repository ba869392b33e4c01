package io.github.blake3fast;

import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.Executor;

/**
 * Files, channels and streams into a tree state.
 *
 * <p>A regular file of at least {@link #PARALLEL_MIN} bytes is hashed as aligned windows by
 * several threads, mapped where the native kernel can ({@link FileWindows}). Smaller files, the
 * rest of a large one, all files on one thread, and channels and streams are read sequentially
 * into one buffer, as large as the input up to 1 MiB.
 *
 * <p>Buffers come from {@link ReadBuffers}: direct while direct memory can be had (a heap buffer
 * costs a copy), heap buffers otherwise. A heap buffer is filled through the file's
 * {@link RandomAccessFile}, whose reads need no direct memory: on JDK 17 a channel read into a
 * heap buffer goes through a temporary direct buffer of the same size, which counts against
 * {@code -XX:MaxDirectMemorySize} and fails when direct memory is short.
 */
final class FileHashing {
  private FileHashing() {}

  /** Regular files from this size are hashed as windows ({@link FileWindows}) in parallel. */
  static final long PARALLEL_MIN = 4L << 20;
  /**
   * The most bytes read into a heap buffer by one channel read: the JDK copies through a
   * temporary direct buffer of that size, kept per thread.
   */
  static final int HEAP_CHANNEL_READ = 64 << 10;

  /**
   * Adds a file's contents. A regular file is read to its end; from {@link #PARALLEL_MIN} bytes
   * on with {@code helpers} threads of {@code executor} besides the caller (none: sequential).
   * Anything else (pipe, device, /dev/stdin) is read as a stream to its end.
   */
  static void updateFile(TreeState state, Path file, Executor executor, int helpers) throws IOException {
    // On any failure the state goes back to what it was (see Blake3Hasher.updateFile); Parallel
    // has waited for every reader by then.
    TreeState before = state.copy();
    try {
      addFile(state, file, executor, helpers);
    } catch (Throwable t) {
      state.restore(before);
      throw t;
    }
  }

  private static void addFile(TreeState state, Path file, Executor executor, int helpers) throws IOException {
    BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class);
    RandomAccessFile raf = openRandomAccess(file);
    try (FileChannel ch = raf != null ? raf.getChannel() : FileChannel.open(file, StandardOpenOption.READ)) {
      if (!attrs.isRegularFile()) {
        drain(state, ch, raf, 0);
        return;
      }
      readRegular(state, ch, raf, file, ch.size(), executor, helpers);
    } finally {
      if (raf != null) {
        raf.close();
      }
    }
  }

  /**
   * The file opened as a RandomAccessFile, whose channel then reads into direct buffers and
   * itself into heap buffers; null if it is not on the default file system or cannot be opened
   * so (NIO then opens it, or says precisely why not: NoSuchFileException, AccessDeniedException).
   */
  private static RandomAccessFile openRandomAccess(Path file) {
    if (file.getFileSystem() != FileSystems.getDefault()) {
      return null;
    }
    File f = file.toFile();
    if (!f.toPath().equals(file)) {
      return null; // a name that does not survive decoding might name another file as a String
    }
    try {
      return new RandomAccessFile(f, "r");
    } catch (FileNotFoundException e) {
      return null;
    }
  }

  /**
   * Adds a regular file, open as {@code ch} (and {@code raf} if not null) at position 0, that
   * was {@code size} bytes long when opened: from {@link #PARALLEL_MIN} bytes, if there are
   * helpers, as windows ({@link FileWindows}) on them and the caller, then the rest. With no
   * helpers the file is read in sequence and never mapped (b3sum's {@code --no-mmap}).
   */
  static void readRegular(TreeState state, FileChannel ch, RandomAccessFile raf, Path file, long size,
      Executor executor, int helpers) throws IOException {
    long start = 0;
    if (helpers >= 1 && size >= PARALLEL_MIN) {
      start = FileWindows.hash(state, ch, raf, file, size, executor, helpers);
      ch.position(start);
    }
    long n = drain(state, ch, raf, size - start);
    checkNotShrunk(ch, file, size, start + n);
  }

  static int readInto(RandomAccessFile raf, ByteBuffer b) throws IOException {
    int r = raf.read(b.array(), b.arrayOffset() + b.position(), b.remaining());
    if (r > 0) {
      b.position(b.position() + r);
    }
    return r;
  }

  /** Reads at the channel's position: a heap buffer through raf if not null, else in slices. */
  private static int read(ReadableByteChannel ch, RandomAccessFile raf, ByteBuffer b) throws IOException {
    if (b.isDirect()) {
      return ch.read(b);
    }
    if (raf != null) {
      return readInto(raf, b);
    }
    int limit = b.limit();
    b.limit(Math.min(limit, b.position() + HEAP_CHANNEL_READ));
    try {
      return ch.read(b);
    } finally {
      b.limit(limit);
    }
  }

  private static void checkNotShrunk(FileChannel ch, Path file, long size, long read) throws IOException {
    if (read < size) {
      long now = ch.size();
      // A pseudo-file (/proc, /sys) may announce more than it has; only a change of size counts.
      if (now < size) {
        throw shrunk(file, size, now, read);
      }
    }
  }

  static IOException shrunk(Path file, long size, long now, long at) {
    return new IOException("file shrank while being hashed: " + file + " was " + size + " bytes when opened, "
        + "is " + now + " now (end of file at byte " + at + "); the hash would be of neither version");
  }

  /** Adds everything a channel delivers until its end of stream. */
  static long update(TreeState state, ReadableByteChannel ch) throws IOException {
    if (ch instanceof SelectableChannel && !((SelectableChannel) ch).isBlocking()) {
      throw new IllegalBlockingModeException();
    }
    return drain(state, ch, null, remainingHint(ch));
  }

  /** What is left of a file channel (a file may grow or be a pseudo-file: only a hint); else 0. */
  private static long remainingHint(ReadableByteChannel ch) {
    if (ch instanceof FileChannel) {
      FileChannel f = (FileChannel) ch;
      try {
        return Math.max(0, f.size() - f.position());
      } catch (IOException e) {
        return 0; // a pipe (/dev/stdin) has no position: "Illegal seek"
      }
    }
    return 0;
  }

  /**
   * Reads ch (through raf for heap buffers, if not null) to its end, adding each full buffer as
   * one update. The buffer is sized for {@code expected} bytes and grows while more comes.
   */
  private static long drain(TreeState state, ReadableByteChannel ch, RandomAccessFile raf, long expected)
      throws IOException {
    return drain(state, ch, raf, ReadBuffers.acquireForStream(expected, state.kernel().supportsDirect()));
  }

  /** As above, starting with the buffer {@code b}, which it releases. */
  private static long drain(TreeState state, ReadableByteChannel ch, RandomAccessFile raf, ByteBuffer b)
      throws IOException {
    try {
      long total = 0;
      int r;
      try {
        while ((r = read(ch, raf, b)) >= 0) {
          total += r;
          if (!b.hasRemaining()) {
            b.flip();
            state.update(b);
            b = ReadBuffers.grow(b).clear();
          }
        }
      } catch (IOException e) {
        b.flip();
        state.update(b); // what was read before the failure stays added, as the API says
        throw e;
      }
      b.flip();
      state.update(b);
      return total;
    } finally {
      ReadBuffers.release(b);
    }
  }

  /** Adds everything a stream delivers until its end. */
  static long update(TreeState state, InputStream in) throws IOException {
    ByteBuffer b;
    if (in.getClass() == FileInputStream.class && state.kernel().supportsDirect()) {
      // Same position, no copy through a heap array, if direct memory can be had.
      FileChannel ch = ((FileInputStream) in).getChannel();
      b = ReadBuffers.acquireForStream(remainingHint(ch), true);
      if (b.isDirect()) {
        return drain(state, ch, null, b);
      }
      // Else read as a stream: a channel read into a heap buffer may need direct memory itself.
    } else {
      b = ReadBuffers.acquire(availableHint(in), false);
    }
    try {
      long total = 0;
      int r;
      int n = 0;
      try {
        while (true) {
          byte[] a = b.array();
          r = in.read(a, n, a.length - n);
          if (r < 0) {
            break;
          }
          if (r > a.length - n) {
            // A broken stream: trusting the count would hash (in native code: read) past the array.
            throw new IOException(in.getClass().getName() + ".read returned " + r + " for a request of at most "
                + (a.length - n) + " bytes");
          }
          n += r;
          total += r;
          if (n == a.length) {
            state.update(a, 0, n);
            n = 0;
            b = ReadBuffers.grow(b);
          }
        }
      } catch (IOException e) {
        state.update(b.array(), 0, n); // what was read before the failure stays added, as the API says
        throw e;
      }
      state.update(b.array(), 0, n);
      return total;
    } finally {
      ReadBuffers.release(b);
    }
  }

  /** What a stream says it can deliver without blocking: only a hint for the buffer's size. */
  private static long availableHint(InputStream in) {
    try {
      return in.available();
    } catch (IOException e) {
      return 0; // the reads will say what is wrong, if anything
    }
  }
}
