package io.github.blake3fast;

import io.github.blake3fast.internal.Parallel;
import java.io.FileDescriptor;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.Executor;

/**
 * A large regular file hashed as windows (128 KiB to 1 MiB, by its size), aligned in the whole
 * input so that each is one subtree: the calling thread and the helpers claim windows, hash
 * each on their own, and the values are pushed in order. Mapped, a task takes a span of
 * several windows ({@link #windowsPerTask}), whose values the native call merges itself.
 *
 * <p>A window is read in place through a memory mapping where the kernel can
 * ({@link Kernel#hashMapped}: the native one): no copy from the page cache, which otherwise
 * costs as much system time as a plain read of the file. Its C side catches the SIGBUS that a
 * file shrinking below a mapped page raises, so that it never reaches the JVM; such a window,
 * and every window where mapping is unavailable, is read with a positional read into a buffer
 * of the thread's ({@link ReadBuffers}) and hashed while still in the cache. That read says
 * what happened: the file shrank (an IOException), or the bytes are there after all.
 */
final class FileWindows {
  /**
   * Bytes per window for large files: a power of two, at most the kernel's slice. Read, 128 KiB
   * to 1 MiB measured the same on big files (bench/notes/decisions.md); mapped, 4 MiB the
   * same as 1 MiB (bench/notes/files.md).
   */
  static final int WINDOW = ReadBuffers.MAX;
  /** The smallest window: smaller files get smaller windows, so that threads share them evenly. */
  static final int MIN_WINDOW = 128 << 10;
  /**
   * {@code -Dblake3.native.mmap=false}: never map, so the library's SIGBUS handler is never
   * installed (for a process whose signal handling must stay exactly the JVM's); files are read.
   */
  static final boolean MAP = mapSwitch(System.getProperty("blake3.native.mmap"));
  /** Windows per round of tasks: bounds the values held before they are pushed. */
  private static final int BATCH = 1024;
  /** The most bytes one task maps and hashes in one native call. */
  static final int SPAN = 8 << 20;

  private final TreeState state;
  private final FileChannel ch;
  private final RandomAccessFile raf;
  private final FileDescriptor fd;
  private final Path file;
  private final long size;
  private final boolean direct;
  /** Cleared once a mapping is unavailable: the remaining windows are read without trying. */
  private volatile boolean mapping;

  private FileWindows(TreeState state, FileChannel ch, RandomAccessFile raf, Path file, long size) throws IOException {
    this.state = state;
    this.ch = ch;
    this.raf = raf;
    this.fd = raf != null ? raf.getFD() : null;
    this.file = file;
    this.size = size;
    this.direct = state.kernel().supportsDirect();
    this.mapping = MAP && fd != null;
  }

  /** Mapping is on unless the switch says false (any case, blanks around it ignored). */
  static boolean mapSwitch(String value) {
    return value == null || !value.trim().equalsIgnoreCase("false");
  }

  /** About 16 windows per file up to 16 MiB, so that 2 threads finish together; then WINDOW. */
  static int windowFor(long size) {
    long w = Long.highestOneBit(Math.max(1, size / 16));
    return (int) Math.max(MIN_WINDOW, Math.min(WINDOW, w));
  }

  /**
   * Hashes {@code size} bytes of a regular file open as {@code ch} (and {@code raf}, if not
   * null, whose descriptor may be mapped) at position 0, the size it had when opened: a head up
   * to a window boundary of the whole input, then the full windows that leave at least one
   * byte after them, on the caller and {@code helpers} threads of {@code executor}. Returns the
   * file position where the windows end; the caller reads the rest.
   */
  static long hash(TreeState state, FileChannel ch, RandomAccessFile raf, Path file, long size, Executor executor,
      int helpers) throws IOException {
    return new FileWindows(state, ch, raf, file, size).hashWindows(executor, helpers);
  }

  private long hashWindows(Executor executor, int helpers) throws IOException {
    final int window = windowFor(size);
    long head = Math.floorMod(-state.position(), (long) window);
    long windows = size - head > window ? (size - head - 1) / window : 0;
    if (windows == 0) {
      return 0;
    }
    if (head > 0) {
      ByteBuffer b = ReadBuffers.acquire(head, direct);
      try {
        readExactly(b, 0, (int) head);
        b.flip();
        state.update(b);
      } finally {
        ReadBuffers.release(b);
      }
    }
    if (!state.hashBufferedWholeChunks()) {
      throw new IllegalStateException("not on a chunk boundary after " + head + " bytes");
    }
    final long chunksPerWindow = window / Spec.CHUNK_LEN;
    final int perTask = mapping ? windowsPerTask(window, windows) : 1;
    final int tasksPerRound = Math.max(1, BATCH / perTask);
    final int slots = 8 * perTask;
    final int[] cvs = new int[slots * (int) Math.min(tasksPerRound, (windows + perTask - 1) / perTask)];
    final int[] counts = new int[cvs.length / slots];
    final boolean[] perWindow = new boolean[counts.length];
    for (long done = 0; done < windows; ) {
      final long roundWindows = Math.min((long) tasksPerRound * perTask, windows - done);
      final int tasks = (int) ((roundWindows + perTask - 1) / perTask);
      final long firstByte = head + done * window;
      final long firstChunk = state.chunkCount();
      Parallel.run(tasks, executor, helpers, new Parallel.Task() {
        @Override
        public void run(int i) throws IOException {
          int first = i * perTask;
          int n = (int) Math.min(perTask, roundWindows - first);
          hashSpan(firstByte + (long) first * window, window, n, firstChunk + first * chunksPerWindow, cvs,
              slots * i, counts, perWindow, i);
        }
      });
      for (int i = 0; i < tasks; i++) {
        int n = (int) Math.min(perTask, roundWindows - (long) i * perTask);
        if (perWindow[i]) {
          for (int j = 0; j < n; j++) {
            state.pushSubtree(cvs, slots * i + 8 * j, chunksPerWindow);
          }
        } else {
          state.pushAll(cvs, slots * i, counts[i], n * chunksPerWindow);
        }
      }
      done += roundWindows;
    }
    return head + windows * window;
  }

  /**
   * Windows per task when mapping: a power of two, so that a task's span is one subtree of the
   * whole input where the windows start on a span boundary, hashed by one native call that
   * merges its windows' values itself. Otherwise every window's value is merged into the tree
   * in Java, which in a fresh JVM (./b3sum) runs interpreted until compiled and then costs the
   * compiler's time too. At most SPAN bytes, and at least 16 tasks so that 2 threads finish
   * together.
   */
  static int windowsPerTask(int window, long windows) {
    long k = Math.min(SPAN / window, windows / 16);
    return k <= 1 ? 1 : (int) Long.highestOneBit(k);
  }

  /**
   * The values of {@code n} consecutive windows from {@code position}: mapped, the maximal
   * aligned subtrees of the span (counts[task], perWindow[task] false); else one per window,
   * each read into a buffer (perWindow[task] true). Written to cvs from {@code at}.
   */
  private void hashSpan(long position, int window, int n, long counter, int[] cvs, int at, int[] counts,
      boolean[] perWindow, int task) throws IOException {
    int[] scratch = ParallelUpdate.taskScratch();
    if (mapping) {
      int count = state.hashMappedDetached(fd, position, n * window, size, counter, scratch);
      if (count > 0) {
        if (count > n) {
          throw new IllegalStateException("a span of " + n + " windows gave " + count + " subtrees");
        }
        System.arraycopy(scratch, 0, cvs, at, 8 * count);
        counts[task] = count;
        perWindow[task] = false;
        return;
      }
      if (count == Kernel.MAPPED_UNAVAILABLE) {
        mapping = false;
      }
    }
    long chunksPerWindow = window / Spec.CHUNK_LEN;
    for (int j = 0; j < n; j++) {
      int count = readWindow(position + (long) j * window, window, counter + j * chunksPerWindow, scratch);
      if (count != 1) {
        throw new IllegalStateException("a window is not one subtree: " + count);
      }
      System.arraycopy(scratch, 0, cvs, at + 8 * j, 8);
    }
    counts[task] = n;
    perWindow[task] = true;
  }

  /** The subtree values of one window read into a buffer. */
  private int readWindow(long position, int len, long counter, int[] scratch) throws IOException {
    ByteBuffer w = ReadBuffers.acquire(len, direct);
    try {
      readExactly(w, position, len);
      return w.isDirect()
          ? state.hashDetached(null, w, 0, len, counter, scratch)
          : state.hashDetached(w.array(), null, w.arrayOffset(), len, counter, scratch);
    } finally {
      ReadBuffers.release(w);
    }
  }

  /** Reads exactly len bytes at a file position into b[0, len): else an exception. */
  private void readExactly(ByteBuffer b, long position, int len) throws IOException {
    b.clear().limit(len);
    if (!b.isDirect() && raf != null) {
      // No positional read on a RandomAccessFile: seek and read under its lock. The position is
      // not in use meanwhile: the sequential reads come before and after the windows.
      synchronized (raf) {
        raf.seek(position);
        while (b.hasRemaining()) {
          if (FileHashing.readInto(raf, b) < 0) {
            throw FileHashing.shrunk(file, size, ch.size(), position + b.position());
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
        b.limit(Math.min(limit, b.position() + FileHashing.HEAP_CHANNEL_READ));
        try {
          r = ch.read(b, position + b.position());
        } finally {
          b.limit(limit);
        }
      }
      if (r < 0) {
        throw FileHashing.shrunk(file, size, ch.size(), position + b.position());
      }
    }
  }
}
