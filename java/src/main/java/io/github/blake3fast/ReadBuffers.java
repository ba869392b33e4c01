package io.github.blake3fast;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Buffers that files, channels and streams are read into: sized by what is to be read (powers
 * of two from {@link #MIN} to {@link #MAX}), pooled for reuse, and direct only while direct
 * memory can be had.
 *
 * <p>Direct memory is limited apart from the heap ({@code -XX:MaxDirectMemorySize}, by default
 * the heap's size) and may be short while the heap is not: then {@link #acquire} hands out heap
 * buffers, which hash the same, one copy slower. A refused direct allocation is slow (the JDK
 * runs a GC and waits up to about half a second before it gives up), so after one the pool asks
 * no more: from then on it allocates heap buffers (and still hands out the direct ones it has
 * pooled). No clock decides when to ask again: the process that ran short once is taken to be
 * short of direct memory. The pool keeps at
 * most {@link #POOL_BYTES} of each kind: what more threads than that use at once is garbage
 * afterwards. One pool for all threads, not one per thread: threads started for a single call
 * (updateFile with a thread count) leave their buffers to the next call instead of to the GC.
 */
final class ReadBuffers {
  private ReadBuffers() {}

  /** The smallest buffer: a small file needs no more. */
  static final int MIN = 16 << 10;
  /**
   * The largest, and the buffer of a large file: 128 KiB to 1 MiB measured the same on big files
   * (bench/notes/decisions.md).
   */
  static final int MAX = 1 << 20;
  private static final int CLASSES = Integer.numberOfTrailingZeros(MAX) - Integer.numberOfTrailingZeros(MIN) + 1;
  /** Pooled bytes of each kind at most: one largest buffer per processor, within 2 to 16. */
  static final long POOL_BYTES = (long) MAX * Math.max(2, Math.min(16, Runtime.getRuntime().availableProcessors()));

  private static final Pool DIRECT = new Pool();
  private static final Pool HEAP = new Pool();

  /** Set after the JDK refused a direct buffer: no direct buffer is allocated after that. */
  private static volatile boolean directRefused;

  /** The buffer size for {@code wanted} bytes: the power of two at or above it, within MIN and MAX. */
  static int sizeFor(long wanted) {
    if (wanted >= MAX) {
      return MAX;
    }
    return Math.max(MIN, Integer.highestOneBit((int) Math.max(1, wanted) * 2 - 1));
  }

  /**
   * A cleared buffer of at least {@code sizeFor(wanted)} bytes: direct if asked for and direct
   * memory can be had, else heap (array offset 0). Give it back with {@link #release}.
   */
  static ByteBuffer acquire(long wanted, boolean direct) {
    return acquire(wanted, direct, false);
  }

  /**
   * As {@link #acquire(long, boolean)}, but when no direct buffer of that size can be had, a
   * smaller idle one does: for sequential reads, which work with any size, and of a channel that
   * could not read into a heap buffer without a temporary direct one of its own.
   */
  static ByteBuffer acquireForStream(long wanted, boolean direct) {
    return acquire(wanted, direct, true);
  }

  private static ByteBuffer acquire(long wanted, boolean direct, boolean smallerWillDo) {
    int size = sizeFor(wanted);
    if (direct) {
      ByteBuffer b = DIRECT.poll(size);
      if (b == null) {
        b = allocateDirect(size);
      }
      if (b == null && smallerWillDo) {
        b = DIRECT.poll(MIN);
      }
      if (b != null) {
        return b;
      }
    }
    ByteBuffer b = HEAP.poll(size);
    return b != null ? b : ByteBuffer.allocate(size);
  }

  /**
   * A buffer twice as large as {@code b} (which is then released) of the same kind, or {@code b}
   * itself if it is as large as they get or none can be had: a direct buffer is not traded for
   * a heap one. For reading a stream of unknown length, which starts with a small buffer.
   */
  static ByteBuffer grow(ByteBuffer b) {
    int cap = b.capacity();
    if (cap >= MAX) {
      return b;
    }
    ByteBuffer bigger;
    if (b.isDirect()) {
      bigger = DIRECT.poll(cap * 2);
      if (bigger == null) {
        bigger = allocateDirect(cap * 2);
      }
    } else {
      bigger = HEAP.poll(cap * 2);
      if (bigger == null) {
        bigger = ByteBuffer.allocate(cap * 2);
      }
    }
    if (bigger == null) {
      return b;
    }
    release(b);
    return bigger;
  }

  static void release(ByteBuffer b) {
    if (b != null) {
      (b.isDirect() ? DIRECT : HEAP).offer(b);
    }
  }

  /** A new direct buffer, or null if the JDK refuses it now or did once before. */
  private static ByteBuffer allocateDirect(int size) {
    if (directRefused) {
      return null;
    }
    try {
      return ByteBuffer.allocateDirect(size);
    } catch (OutOfMemoryError e) {
      // "Cannot reserve ... bytes of direct buffer memory": the JDK collected and waited already.
      directRefused = true;
      return null;
    }
  }

  /** Idle buffers of one kind, by size class, at most POOL_BYTES in all. */
  private static final class Pool {
    @SuppressWarnings("unchecked")
    private final ConcurrentLinkedQueue<ByteBuffer>[] classes = new ConcurrentLinkedQueue[CLASSES];
    private final AtomicLong bytes = new AtomicLong();

    Pool() {
      for (int i = 0; i < CLASSES; i++) {
        classes[i] = new ConcurrentLinkedQueue<>();
      }
    }

    private static int classOf(int size) {
      return Integer.numberOfTrailingZeros(size) - Integer.numberOfTrailingZeros(MIN);
    }

    /** An idle buffer of {@code size} bytes or more, cleared; null if none. */
    ByteBuffer poll(int size) {
      for (int c = classOf(size); c < CLASSES; c++) {
        ByteBuffer b = classes[c].poll();
        if (b != null) {
          bytes.addAndGet(-b.capacity());
          return b.clear();
        }
      }
      return null;
    }

    void offer(ByteBuffer b) {
      int cap = b.capacity();
      if (Integer.bitCount(cap) != 1 || cap < MIN || cap > MAX) {
        return; // not one of ours
      }
      if (bytes.addAndGet(cap) <= POOL_BYTES) {
        classes[classOf(cap)].offer(b);
      } else {
        bytes.addAndGet(-cap);
      }
    }
  }
}
