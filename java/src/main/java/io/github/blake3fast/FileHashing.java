package io.github.blake3fast;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.IllegalBlockingModeException;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SelectableChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Files, channels and streams into a tree state.
 *
 * <p>A regular file of at least {@link #PARALLEL_MIN} bytes is cut into windows (128 KiB to
 * 1 MiB, by its size), aligned in the whole input so that each is one subtree; threads claim
 * windows, read each with a positional read into their own direct buffer and hash it while it
 * is still in their cache, and the values are pushed in order. Smaller files, and all files on
 * one thread, are read sequentially into a 1 MiB direct buffer (a heap buffer would cost the JDK
 * an extra copy).
 *
 * <p>Measured on this machine (bench/FileBench, JMH, files in the page cache, 2 cores with other
 * processes using 0.02-0.06 of a core), as ratios to one thread reading into a direct buffer:
 * parallel reads (this class) 1.95x at 64 MiB and 1 GiB; memory-mapping and hashing the mapping
 * in parallel 1.7x-2.2x (noisy: the same within the error); sequential mapping 1.03-1.07x;
 * sequential reads into a heap buffer 0.75x, an InputStream 0.76x. Mapping is still not used:
 * a mapped file that shrinks raises SIGBUS in whatever reads it, which in native code ends the
 * JVM; a read turns the same event into an exception.
 */
final class FileHashing {
  private FileHashing() {}

  /**
   * Bytes per window and per read for large files, and the size of the pooled buffers: a power
   * of two, at most the kernel's slice. 128 KiB to 1 MiB measured the same on big files.
   */
  static final int WINDOW = 1 << 20;
  /** The smallest window: smaller files get smaller windows, so that threads share them evenly. */
  static final int MIN_WINDOW = 128 << 10;
  /** Regular files from this size are read and hashed in parallel. */
  static final long PARALLEL_MIN = 4L << 20;
  /** Windows per round of tasks: bounds the values held before they are pushed. */
  private static final int BATCH = 1024;

  private static final int POOL_MAX = Math.max(2, Math.min(16, Runtime.getRuntime().availableProcessors()));
  private static final ConcurrentLinkedQueue<ByteBuffer> DIRECT_POOL = new ConcurrentLinkedQueue<>();
  private static final ConcurrentLinkedQueue<ByteBuffer> HEAP_POOL = new ConcurrentLinkedQueue<>();
  private static final AtomicInteger DIRECT_POOLED = new AtomicInteger();
  private static final AtomicInteger HEAP_POOLED = new AtomicInteger();

  /** A cleared window buffer: direct if the kernel reads direct buffers, else heap. */
  private static ByteBuffer acquire(boolean direct) {
    ByteBuffer b = (direct ? DIRECT_POOL : HEAP_POOL).poll();
    if (b == null) {
      return direct ? ByteBuffer.allocateDirect(WINDOW) : ByteBuffer.allocate(WINDOW);
    }
    (direct ? DIRECT_POOLED : HEAP_POOLED).decrementAndGet();
    b.clear();
    return b;
  }

  private static void release(ByteBuffer b) {
    AtomicInteger pooled = b.isDirect() ? DIRECT_POOLED : HEAP_POOLED;
    if (pooled.incrementAndGet() <= POOL_MAX) {
      (b.isDirect() ? DIRECT_POOL : HEAP_POOL).offer(b);
    } else {
      pooled.decrementAndGet();
    }
  }

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
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      if (!attrs.isRegularFile()) {
        update(state, ch);
        return;
      }
      readRegular(state, ch, file, ch.size(), executor, helpers);
    }
  }

  /**
   * Adds a regular file, open as {@code ch} at position 0, that was {@code size} bytes long
   * when opened: in parallel from {@link #PARALLEL_MIN} bytes if there are helpers.
   */
  static void readRegular(TreeState state, FileChannel ch, Path file, long size, Executor executor, int helpers)
      throws IOException {
    if (helpers >= 1 && size >= PARALLEL_MIN) {
      readParallel(state, ch, file, size, executor, helpers);
    } else {
      ByteBuffer b = acquire(state.kernel().supportsDirect());
      try {
        long n = drain(state, ch, b);
        checkNotShrunk(ch, file, size, n);
      } finally {
        release(b);
      }
    }
  }

  /**
   * Hashes {@code size} bytes of a regular file (as it was when opened; more are read if it
   * grew, to its end): a sequential head up to a window boundary of the whole input, the full
   * windows that leave at least one byte after them in parallel, the rest sequentially.
   */
  private static void readParallel(TreeState state, FileChannel ch, Path file, long size, Executor executor, int helpers)
      throws IOException {
    boolean direct = state.kernel().supportsDirect();
    final int window = windowFor(size);
    long head = Math.floorMod(-state.position(), (long) window);
    long windows = size - head > window ? (size - head - 1) / window : 0;
    ByteBuffer b = acquire(direct);
    try {
      if (windows > 0) {
        readExactly(ch, file, b, 0, (int) head, size);
        b.flip();
        state.update(b);
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
            ByteBuffer w = acquire(direct);
            try {
              readExactly(ch, file, w, firstByte + (long) i * window, window, size);
              int[] scratch = TreeState.taskScratch();
              int count = direct
                  ? state.hashDetached(null, w, 0, window, firstChunk + i * chunksPerWindow, scratch)
                  : state.hashDetached(w.array(), null, 0, window, firstChunk + i * chunksPerWindow, scratch);
              if (count != 1) {
                throw new IllegalStateException("a window is not one subtree: " + count);
              }
              System.arraycopy(scratch, 0, cvs, 8 * i, 8);
            } finally {
              release(w);
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
      long n = drain(state, ch, b);
      checkNotShrunk(ch, file, size, start + n);
    } finally {
      release(b);
    }
  }

  /** About 16 windows per file up to 16 MiB, so that 2 threads finish together; then WINDOW. */
  static int windowFor(long size) {
    long w = Long.highestOneBit(Math.max(1, size / 16));
    return (int) Math.max(MIN_WINDOW, Math.min(WINDOW, w));
  }

  /** Reads exactly len bytes at a file position into b[0, len): else an exception. */
  private static void readExactly(FileChannel ch, Path file, ByteBuffer b, long position, int len, long size)
      throws IOException {
    b.clear().limit(len);
    while (b.hasRemaining()) {
      if (ch.read(b, position + b.position()) < 0) {
        throw shrunk(file, size, ch.size(), position + b.position());
      }
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
    ByteBuffer b = acquire(state.kernel().supportsDirect());
    try {
      return drain(state, ch, b);
    } finally {
      release(b);
    }
  }

  /** Reads ch to its end through b, adding each full buffer as one update. */
  private static long drain(TreeState state, ReadableByteChannel ch, ByteBuffer b) throws IOException {
    long total = 0;
    b.clear();
    int r;
    try {
      while ((r = ch.read(b)) >= 0) {
        total += r;
        if (!b.hasRemaining()) {
          b.flip();
          state.update(b);
          b.clear();
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
  }

  /** Adds everything a stream delivers until its end. */
  static long update(TreeState state, InputStream in) throws IOException {
    if (in.getClass() == FileInputStream.class) {
      // Same position, no copy through a heap array.
      return update(state, ((FileInputStream) in).getChannel());
    }
    ByteBuffer b = acquire(false);
    try {
      byte[] a = b.array();
      long total = 0;
      int n = 0;
      int r;
      try {
        while ((r = in.read(a, n, a.length - n)) >= 0) {
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
          }
        }
      } catch (IOException e) {
        state.update(a, 0, n); // what was read before the failure stays added, as the API says
        throw e;
      }
      state.update(a, 0, n);
      return total;
    } finally {
      release(b);
    }
  }
}
