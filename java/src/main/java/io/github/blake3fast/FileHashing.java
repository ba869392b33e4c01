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
 * <p>A regular file of at least {@link #PARALLEL_MIN} bytes is cut into windows (128 KiB to
 * 1 MiB, by its size), aligned in the whole input so that each is one subtree; threads claim
 * windows, read each with a positional read into their own buffer and hash it while it is still
 * in their cache, and the values are pushed in order. Smaller files, and all files on one
 * thread, are read sequentially into one buffer, as large as the file up to 1 MiB.
 *
 * <p>Buffers come from {@link ReadBuffers}: direct while direct memory can be had (a heap buffer
 * costs a copy), heap buffers otherwise. A heap buffer is filled through the file's
 * {@link RandomAccessFile}, whose reads need no direct memory: on JDK 17 a channel read into a
 * heap buffer goes through a temporary direct buffer of the same size, which counts against
 * {@code -XX:MaxDirectMemorySize} and fails when direct memory is short.
 *
 * <p>Measured against one thread reading into a direct buffer (bench FileBench, JMH, files in
 * the page cache; figures in bench/results/decisions.md): parallel reads (this class) and
 * hashing a memory mapping in parallel were the fastest, the same within the error; sequential
 * mapping gained little; sequential reads into a heap buffer or an InputStream were slower.
 * Mapping is still not used: a mapped file that shrinks raises SIGBUS in whatever reads it,
 * which in native code ends the JVM; a read turns the same event into an exception.
 */
final class FileHashing {
  private FileHashing() {}

  /**
   * Bytes per window and per read for large files: a power of two, at most the kernel's slice.
   * 128 KiB to 1 MiB measured the same on big files (bench/results/decisions.md).
   */
  static final int WINDOW = ReadBuffers.MAX;
  /** The smallest window: smaller files get smaller windows, so that threads share them evenly. */
  static final int MIN_WINDOW = 128 << 10;
  /** Regular files from this size are read and hashed in parallel. */
  static final long PARALLEL_MIN = 4L << 20;
  /** Windows per round of tasks: bounds the values held before they are pushed. */
  private static final int BATCH = 1024;
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

  /** As below, for a channel with no RandomAccessFile behind it. */
  static void readRegular(TreeState state, FileChannel ch, Path file, long size, Executor executor, int helpers)
      throws IOException {
    readRegular(state, ch, null, file, size, executor, helpers);
  }

  /**
   * Adds a regular file, open as {@code ch} (and {@code raf} if not null) at position 0, that
   * was {@code size} bytes long when opened: in parallel from {@link #PARALLEL_MIN} bytes if
   * there are helpers.
   */
  static void readRegular(TreeState state, FileChannel ch, RandomAccessFile raf, Path file, long size,
      Executor executor, int helpers) throws IOException {
    if (helpers >= 1 && size >= PARALLEL_MIN) {
      readParallel(state, ch, raf, file, size, executor, helpers);
    } else {
      long n = drain(state, ch, raf, size);
      checkNotShrunk(ch, file, size, n);
    }
  }

  /**
   * Hashes {@code size} bytes of a regular file (as it was when opened; more are read if it
   * grew, to its end): a sequential head up to a window boundary of the whole input, the full
   * windows that leave at least one byte after them in parallel, the rest sequentially.
   */
  private static void readParallel(TreeState state, FileChannel ch, RandomAccessFile raf, Path file, long size,
      Executor executor, int helpers) throws IOException {
    boolean direct = state.kernel().supportsDirect();
    final int window = windowFor(size);
    long head = Math.floorMod(-state.position(), (long) window);
    long windows = size - head > window ? (size - head - 1) / window : 0;
    if (windows > 0) {
      ByteBuffer b = ReadBuffers.acquire(head, direct);
      try {
        readExactly(ch, raf, file, b, 0, (int) head, size);
        b.flip();
        state.update(b);
      } finally {
        ReadBuffers.release(b);
      }
      if (!state.hashBufferedWholeChunks()) {
        throw new IllegalStateException("not on a chunk boundary after " + head + " bytes");
      }
      final long chunksPerWindow = window / Spec.CHUNK_LEN;
      final int[] cvs = new int[8 * (int) Math.min(BATCH, windows)];
      for (long done = 0; done < windows; ) {
        final int batch = (int) Math.min(BATCH, windows - done);
        final long firstByte = head + done * window;
        final long firstChunk = state.chunkCount();
        Parallel.run(batch, executor, helpers, i -> {
          ByteBuffer w = ReadBuffers.acquire(window, direct);
          try {
            readExactly(ch, raf, file, w, firstByte + (long) i * window, window, size);
            int[] scratch = ParallelUpdate.taskScratch();
            int count = w.isDirect()
                ? state.hashDetached(null, w, 0, window, firstChunk + i * chunksPerWindow, scratch)
                : state.hashDetached(w.array(), null, w.arrayOffset(), window, firstChunk + i * chunksPerWindow,
                    scratch);
            if (count != 1) {
              throw new IllegalStateException("a window is not one subtree: " + count);
            }
            System.arraycopy(scratch, 0, cvs, 8 * i, 8);
          } finally {
            ReadBuffers.release(w);
          }
        });
        for (int i = 0; i < batch; i++) {
          state.pushSubtree(cvs, 8 * i, chunksPerWindow);
        }
        done += batch;
      }
    }
    long start = head + windows * window;
    ch.position(start);
    long n = drain(state, ch, raf, size - start);
    checkNotShrunk(ch, file, size, start + n);
  }

  /** About 16 windows per file up to 16 MiB, so that 2 threads finish together; then WINDOW. */
  static int windowFor(long size) {
    long w = Long.highestOneBit(Math.max(1, size / 16));
    return (int) Math.max(MIN_WINDOW, Math.min(WINDOW, w));
  }

  /** Reads exactly len bytes at a file position into b[0, len): else an exception. */
  private static void readExactly(FileChannel ch, RandomAccessFile raf, Path file, ByteBuffer b, long position,
      int len, long size) throws IOException {
    b.clear().limit(len);
    if (!b.isDirect() && raf != null) {
      // No positional read on a RandomAccessFile: seek and read under its lock. The position is
      // not in use meanwhile: the sequential reads come before and after the parallel ones.
      synchronized (raf) {
        raf.seek(position);
        while (b.hasRemaining()) {
          if (readInto(raf, b) < 0) {
            throw shrunk(file, size, ch.size(), position + b.position());
          }
        }
      }
      return;
    }
    while (b.hasRemaining()) {
      int r;
      if (b.isDirect()) {
        r = ch.read(b, position + b.position());
      } else {
        int limit = b.limit();
        b.limit(Math.min(limit, b.position() + HEAP_CHANNEL_READ));
        try {
          r = ch.read(b, position + b.position());
        } finally {
          b.limit(limit);
        }
      }
      if (r < 0) {
        throw shrunk(file, size, ch.size(), position + b.position());
      }
    }
  }

  private static int readInto(RandomAccessFile raf, ByteBuffer b) throws IOException {
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

  private static IOException shrunk(Path file, long size, long now, long at) {
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
