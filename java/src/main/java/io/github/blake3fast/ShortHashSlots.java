package io.github.blake3fast;

import java.lang.System.Logger.Level;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Objects;

/**
 * Native memory into which the native kernel writes the hash of an input of at most one chunk
 * ({@link #MAX_LEN} bytes, a 32-byte result), so that such a hash pins no Java array. A JNI call
 * with only numbers for arguments is cheap, but every pin, release or array copy it makes is one
 * more call back into the JVM, each about as costly as the call itself. So the blocks of an input
 * of up to two blocks and the key travel as arguments, a longer input is copied into the slot
 * from Java, and the result comes back through the slot: measured faster than both the Java
 * engine and a call that pins its input and output (JMH HashBench and a timing loop; figures in
 * bench/notes/decisions.md and bench/notes/short-hash.md).
 *
 * <p>A thread claims the slot its thread id picks with one compare-and-set, makes the call and
 * copies the result out. Two threads that pick the same slot at the same moment do not wait:
 * the one that finds it taken makes the general JNI call instead (which pins or copies, see
 * {@link CriticalArrays}). A JVM's first 4,096 hashes of up to two blocks take no slot: see
 * {@link #VIEW_AFTER}.
 */
final class ShortHashSlots {
  /**
   * The longest input: one chunk, copied into the slot ({@link NativeBlake3#hashChunkAt}).
   * Through the general one-shot, 129 bytes spent about a tenth of its time in the calls back
   * into the JVM for the copy buffer's address and the hash copied out, which left it behind the
   * Java engine (bench/notes/short-hash.md, "One chunk through the slots").
   */
  static final int MAX_LEN = Spec.CHUNK_LEN;

  /**
   * The longest input whose words travel as arguments: two blocks
   * ({@link NativeBlake3#hashTwoBlocks}). Through the general one-shot (a copy buffer or a pin,
   * the hash copied out), 65 and 128 bytes took 212-219 ns, twice a 64-byte hash; through the
   * slots, 171-178 (bench/notes/short-hash.md, "Two blocks through the slots").
   */
  static final int WORDS_MAX_LEN = 2 * Spec.BLOCK_LEN;

  /** Slots, a power of two: enough that threads hashing short inputs at once rarely share one. */
  private static final int SLOTS = 64;
  /**
   * Bytes per slot: a chunk on its way in, the 32-byte result on its way out; a multiple of 64,
   * so that each slot starts a cache line of its own and threads using neighbouring slots do not
   * contend. 64 KiB of direct memory in all.
   */
  private static final int SLOT_LEN = Spec.CHUNK_LEN;
  private static final int CACHE_LINE = 64;

  /**
   * Short hashes made before the slots read the block's words through a view of the caller's
   * array ({@link ArrayWords}). Until then (and until the view is ready) a short hash is one
   * copying JNI call ({@link NativeBlake3#hashOneShotCopy}: the JVM copies the block in and the
   * hash out), the cheapest path while the caller still runs interpreted (2.1 us a hash under
   * -Xint, against 5.9 for the block's bytes read by shifts into the slot) but three calls back
   * into the JVM a hash once compiled: 135-139 ns against the view's 97-98. The view is a
   * byte-array VarHandle, whose creation costs milliseconds (JDK 17 spins classes for it) and
   * which runs slowest of all interpreted, so it is made on a thread of its own, which also runs
   * it until compiled ({@link ArrayWords#warm}): a program that makes a few short hashes never
   * pays for it. The switch comes early, before C2 has compiled the copying path: switched
   * after 65,536 hashes, C2's code recompiled after the switch ran the steady state 9% slower
   * (bench/notes/short-hash.md, "A copying call until the view").
   */
  static final int VIEW_AFTER = 1 << 12;

  /** Whether {@link ArrayWords} is ready, its view made (by {@link ViewMaker} or inline). */
  private static volatile boolean viewReady;
  /** Whether the view's making has started; it starts once. */
  private static volatile boolean viewStarted;

  private final ByteBuffer memory;
  private final long address;
  /** 1 while a thread uses the slot. */
  private final Claim[] claims = Claim.array(SLOTS);
  private final int viewAfter;
  /** Short hashes made, up to viewAfter; threads race on it, and a lost count does no harm. */
  private int made;

  private ShortHashSlots(ByteBuffer memory, long address, int viewAfter) {
    this.memory = memory;
    this.address = address;
    this.viewAfter = viewAfter;
  }

  /**
   * The slots, or null (short hashes then take the general call) if there is no direct memory
   * to spare (-XX:MaxDirectMemorySize) or the JVM does not give JNI its address.
   */
  static ShortHashSlots create() {
    return create(VIEW_AFTER);
  }

  /** As {@link #create()}, reading blocks from the array after {@code viewAfter} hashes (tests). */
  static ShortHashSlots create(int viewAfter) {
    ByteBuffer memory;
    long address;
    try {
      // Referenced by the instance, so the native memory lives as long as the kernel. Aligned
      // to a cache line, so that each slot starts one.
      memory = ByteBuffer.allocateDirect(SLOTS * SLOT_LEN + CACHE_LINE - 1).alignedSlice(CACHE_LINE)
          .order(ByteOrder.LITTLE_ENDIAN);
      address = NativeBlake3.directAddress(memory);
    } catch (OutOfMemoryError | IllegalArgumentException e) {
      return null;
    }
    return address == 0 ? null : new ShortHashSlots(memory, address, viewAfter);
  }

  /** {@link #hashText}: the hash was written. */
  static final int HASHED = 0;
  /** {@link #hashText}: this thread's slot was in use; nothing was written. */
  static final int SLOT_TAKEN = 1;
  /** {@link #hashText}: the bytes hold a {@code '?'}; nothing was hashed or written. */
  static final int QUESTION_MARK = 2;

  /**
   * Writes the 32-byte hash of {@code len <= MAX_LEN} bytes of {@code in} (already range-checked)
   * to {@code out}, or returns false, having written nothing, when this thread's slot is in use.
   */
  boolean hash(int isa, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    if (len > WORDS_MAX_LEN) {
      return chunk(isa, in, off, len, key, flags, out, outOff);
    }
    if (len > Spec.BLOCK_LEN) {
      return twoBlocks(isa, in, off, len, key, flags, out, outOff);
    }
    return call(isa, in, off, len, key, flags, out, outOff) == HASHED;
  }

  /**
   * {@link #hash} of {@code WORDS_MAX_LEN + 1..}{@link #MAX_LEN} bytes: copied into the slot in
   * bulk, hashed there, the hash copied out. No array view needed: at these lengths the bulk
   * copies cost little against the compressions, and they are the copy the general one-shot
   * makes into its copy buffer anyway.
   */
  private boolean chunk(int isa, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    Objects.checkIndex(len, MAX_LEN + 1); // the slot holds a chunk, and C reads len bytes of it
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN, out.length);
    if (!slotTypesLoaded) {
      loadSlotTypes();
    }
    int slot = slotOf(Thread.currentThread());
    if (!claim(slot)) {
      return false;
    }
    try {
      int at = slot * SLOT_LEN;
      memory.put(at, in, off, len);
      NativeBlake3.hashChunkAt(isa, len, keyPair(key, 0), keyPair(key, 1), keyPair(key, 2), keyPair(key, 3), flags,
          address + at);
      memory.get(at, out, outOff, Spec.OUT_LEN);
      return true;
    } finally {
      release(slot);
    }
  }

  /**
   * {@link #hash} of 65..{@link #WORDS_MAX_LEN} bytes: the copying call until the view, as in
   * {@link #call}, then two blocks through the slot. A method of its own: in {@link #call}, the
   * second block's words made C2 compile the 64-byte hash slower in most JVMs (median of six
   * 154 against 105 ns).
   */
  private boolean twoBlocks(int isa, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    Objects.checkIndex(len, WORDS_MAX_LEN + 1);
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN, out.length);
    if (!(made >= viewAfter && (viewReady || startView()))) {
      if (made < viewAfter) {
        made++;
      }
      NativeBlake3.hashOneShotCopy(isa, in, off, len, key == Spec.iv() ? null : key, flags, 0, out, outOff,
          Spec.OUT_LEN);
      return true;
    }
    int slot = slotOf(Thread.currentThread());
    if (!claim(slot)) {
      return false;
    }
    try {
      int at = slot * SLOT_LEN;
      int second = off + Spec.BLOCK_LEN;
      int rest = len - Spec.BLOCK_LEN;
      NativeBlake3.hashTwoBlocks(isa, ArrayWords.word(in, off, Spec.BLOCK_LEN, 0),
          ArrayWords.word(in, off, Spec.BLOCK_LEN, 1), ArrayWords.word(in, off, Spec.BLOCK_LEN, 2),
          ArrayWords.word(in, off, Spec.BLOCK_LEN, 3), ArrayWords.word(in, off, Spec.BLOCK_LEN, 4),
          ArrayWords.word(in, off, Spec.BLOCK_LEN, 5), ArrayWords.word(in, off, Spec.BLOCK_LEN, 6),
          ArrayWords.word(in, off, Spec.BLOCK_LEN, 7), ArrayWords.word(in, second, rest, 0),
          ArrayWords.word(in, second, rest, 1), ArrayWords.word(in, second, rest, 2),
          ArrayWords.word(in, second, rest, 3), ArrayWords.word(in, second, rest, 4),
          ArrayWords.word(in, second, rest, 5), ArrayWords.word(in, second, rest, 6),
          ArrayWords.word(in, second, rest, 7), len, keyPair(key, 0), keyPair(key, 1), keyPair(key, 2),
          keyPair(key, 3), flags, address + at);
      for (int i = 0; i < 4; i++) {
        ArrayWords.put(out, outOff + 8 * i, memory.getLong(at + 8 * i));
      }
      return true;
    } finally {
      release(slot);
    }
  }

  /**
   * As {@link #hash} for the plain hash of a string's UTF-8 bytes (at most 64, from offset 0),
   * unless they hold a {@code '?'}, which may stand for an unpaired surrogate ({@link Utf8}):
   * the native call tests the block it builds anyway ({@link NativeBlake3#UNLESS_QUESTION_MARK}),
   * so that a string costs no pass of its own over its bytes.
   *
   * @return {@link #HASHED}, {@link #SLOT_TAKEN} or {@link #QUESTION_MARK}
   */
  int hashText(int isa, byte[] utf8, byte[] out) {
    return call(isa, utf8, 0, utf8.length, Spec.iv(), NativeBlake3.UNLESS_QUESTION_MARK, out, 0);
  }

  /** The short-hash call, {@code flags} as hashBlock takes them: {@link #HASHED}, or why not. */
  private int call(int isa, byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff) {
    Objects.checkIndex(len, Spec.BLOCK_LEN + 1);
    Objects.checkFromIndexSize(outOff, Spec.OUT_LEN, out.length);
    boolean view = made >= viewAfter && (viewReady || startView());
    if (!view) {
      if (made < viewAfter) {
        made++;
      }
      if ((flags & NativeBlake3.UNLESS_QUESTION_MARK) == 0) { // the copying call makes no such test
        NativeBlake3.hashOneShotCopy(isa, in, off, len, key == Spec.iv() ? null : key, flags, 0, out, outOff,
            Spec.OUT_LEN);
        return HASHED;
      }
    }
    int slot = slotOf(Thread.currentThread());
    if (!claim(slot)) {
      return SLOT_TAKEN;
    }
    try {
      int at = slot * SLOT_LEN;
      long w0;
      long w1;
      long w2;
      long w3;
      long w4;
      long w5;
      long w6;
      long w7;
      if (view) {
        w0 = ArrayWords.word(in, off, len, 0);
        w1 = ArrayWords.word(in, off, len, 1);
        w2 = ArrayWords.word(in, off, len, 2);
        w3 = ArrayWords.word(in, off, len, 3);
        w4 = ArrayWords.word(in, off, len, 4);
        w5 = ArrayWords.word(in, off, len, 5);
        w6 = ArrayWords.word(in, off, len, 6);
        w7 = ArrayWords.word(in, off, len, 7);
      } else { // a string's bytes, before the view
        w0 = shifted(in, off, len, 0);
        w1 = shifted(in, off, len, 1);
        w2 = shifted(in, off, len, 2);
        w3 = shifted(in, off, len, 3);
        w4 = shifted(in, off, len, 4);
        w5 = shifted(in, off, len, 5);
        w6 = shifted(in, off, len, 6);
        w7 = shifted(in, off, len, 7);
      }
      if (NativeBlake3.hashBlock(isa, w0, w1, w2, w3, w4, w5, w6, w7, len, keyPair(key, 0), keyPair(key, 1),
          keyPair(key, 2), keyPair(key, 3), flags, address + at) != 0) {
        return QUESTION_MARK;
      }
      if (view) {
        for (int i = 0; i < 4; i++) {
          ArrayWords.put(out, outOff + 8 * i, memory.getLong(at + 8 * i));
        }
      } else {
        memory.get(at, out, outOff, Spec.OUT_LEN);
      }
    } finally {
      release(slot);
    }
    return HASHED;
  }

  /** Starts making the array view, once, on a thread of its own; true if it is ready now. */
  private static boolean startView() {
    if (!viewStarted) {
      synchronized (ShortHashSlots.class) {
        if (!viewStarted) {
          viewStarted = true;
          try {
            new ViewMaker().start();
          } catch (Throwable t) { // no thread to be had (limits, a security policy): make it here, as before
            makeView();
          }
        }
      }
    }
    return viewReady;
  }

  /** Whether the array view is ready (tests). */
  static boolean viewReady() {
    return viewReady;
  }

  /**
   * Makes the array view in this thread (and tests, which want it from the first hash). If it
   * cannot be made (an error in the class's initialization), short hashes go on through the
   * copying call, and no stack trace from the view's thread reaches the application's standard
   * error.
   */
  static void makeView() {
    try {
      ArrayWords.ready();
      ArrayWords.warm();
      loadSlotTypes();
      viewReady = true;
    } catch (Throwable t) {
      NativeLoader.log(Level.DEBUG, "blake3-fast: short hashes keep the copying call, no array view: " + t);
    }
  }

  /** Whether {@link #loadSlotTypes} has run (racy: a second run does no harm). */
  private static volatile boolean slotTypesLoaded;

  /**
   * Loads the classes named in the signatures of the direct buffer's accessors, through which
   * the slot is written and read (JDK 17's {@code ScopedMemoryAccess.Scope}, a later JDK's
   * session class): C2 does not inline a method whose signature names a class not yet loaded,
   * and the JVM loads these at a moment that varies, so that in some JVMs the short-hash path
   * was compiled with those accesses left as calls, for the life of the process: 101-111 ns a
   * 64-byte hash against 90 (bench/notes/short-hash.md, "Two steady states"). The bulk copies
   * of {@link #chunk} are such accesses too, and nothing else loads the classes for a program
   * whose inputs are all longer than two blocks, so the first such hash runs this. Once per
   * JVM, about 0.14 ms; best effort.
   */
  private static void loadSlotTypes() {
    try {
      java.nio.Buffer.class.getDeclaredMethods();
    } catch (RuntimeException | LinkageError e) { // a security manager's refusal, say: the slots work
      NativeLoader.log(Level.DEBUG, "blake3-fast: the slot's reads may not be inlined: " + e);
    }
    slotTypesLoaded = true;
  }

  /** A class, not a lambda: the first lambda of a JVM costs milliseconds of start-up. */
  private static final class ViewMaker extends Thread {
    ViewMaker() {
      super("blake3-fast short-hash view");
      setDaemon(true);
    }

    @Override
    public void run() {
      makeView();
    }
  }

  static int slotOf(Thread t) {
    return (int) t.getId() & (SLOTS - 1);
  }

  /** Takes the slot if it is free; never waits. */
  boolean claim(int slot) {
    return claims[slot].compareAndSet(0, 1);
  }

  void release(int slot) {
    claims[slot].setRelease(0);
  }

  /**
   * Little-endian word {@code i} (bytes 8i..8i+7) of a block of {@code len} bytes, read byte by
   * byte: what a string's bytes take before the view is ready (the copying call cannot test them
   * for '?'), in less than half the interpreter's time of a copy through a direct buffer
   * (bench/notes/short-hash.md).
   */
  private static long shifted(byte[] in, int off, int len, int i) {
    int from = 8 * i;
    if (from + 8 > len) {
      return partial(in, off, len, from);
    }
    int p = off + from;
    return (in[p] & 0xFFL) | (in[p + 1] & 0xFFL) << 8 | (in[p + 2] & 0xFFL) << 16 | (in[p + 3] & 0xFFL) << 24
        | (in[p + 4] & 0xFFL) << 32 | (in[p + 5] & 0xFFL) << 40 | (in[p + 6] & 0xFFL) << 48
        | (in[p + 7] & 0xFFL) << 56;
  }

  /** The word of a block's bytes from {@code from} up to {@code len}, fewer than 8: zero past the end. */
  private static long partial(byte[] in, int off, int len, int from) {
    long w = 0;
    for (int k = Math.min(len, from + 8) - 1; k >= from; k--) {
      w = (w << 8) | (in[off + k] & 0xFF);
    }
    return w;
  }

  /** The block's words read from the caller's array; a class of its own so that it is created late. */
  private static final class ArrayWords {
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /**
     * Rounds of {@link #warm} (8 reads, 4 writes each): enough, seen with
     * -XX:+PrintCompilation, for the VarHandle's methods to reach C1 and ours C2 within them.
     */
    static final int WARM_ROUNDS = 2_000;

    /** Nothing: calling it initializes the class, which makes the view. */
    static void ready() {}

    /**
     * Reads and writes through the view until the JIT has compiled its methods, on the thread
     * that makes the view, before any short hash uses it. Otherwise the first hashes through it
     * run the VarHandle's and the slot's reads interpreted, sixteen a hash at about 1 us each:
     * the first 6,000 hashes after the switch took 10.6-16.5 ms, against 2.0-5.0 ms warmed
     * (bench/notes/short-hash.md, "The switch to the view").
     *
     * @return a sum of what it read, so that no compiler can drop the reads as unused
     */
    static long warm() {
      byte[] block = new byte[Spec.BLOCK_LEN + 7];
      ByteBuffer result; // read as a slot's native memory is read: that method wants warming too
      try {
        result = ByteBuffer.allocateDirect(Spec.OUT_LEN).order(ByteOrder.LITTLE_ENDIAN);
      } catch (OutOfMemoryError e) { // no direct memory to spare now: warm the view's methods alone
        result = ByteBuffer.allocate(Spec.OUT_LEN).order(ByteOrder.LITTLE_ENDIAN);
      }
      long sum = 0;
      for (int round = 0; round < WARM_ROUNDS; round++) {
        int off = round & 7;
        for (int i = 0; i < 8; i++) {
          sum += word(block, off, Spec.BLOCK_LEN, i);
        }
        result.putLong(8 * (round & 3), sum);
        for (int i = 0; i < 4; i++) {
          put(block, off + 8 * i, result.getLong(8 * i));
        }
      }
      return sum;
    }

    /** Little-endian word {@code i} (bytes 8i..8i+7) of a block of {@code len} bytes: zero past the end. */
    static long word(byte[] in, int off, int len, int i) {
      int from = 8 * i;
      return from + 8 <= len ? (long) LONGS.get(in, off + from) : partial(in, off, len, from);
    }

    /** Writes {@code v} little-endian to {@code out[at, at + 8)}. */
    static void put(byte[] out, int at, long v) {
      LONGS.set(out, at, v);
    }
  }

  private static long keyPair(int[] key, int i) {
    return (key[2 * i] & 0xFFFFFFFFL) | (long) key[2 * i + 1] << 32;
  }
}
