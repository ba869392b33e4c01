package io.github.blake3fast;

import java.lang.System.Logger.Level;

/**
 * The Vector API engine as the library runs it by default: the scalar {@link JavaKernel} until the
 * vector one is warm, then the vector one. Until C2 has compiled its methods the vector engine
 * runs interpreted or in C1's code, hundreds of times slower than the scalar engine (C1 compiles
 * the Vector API into objects, not SIMD instructions), so a JVM's first megabytes through it
 * would take seconds. Instead, when the engine is chosen ({@link VectorChoice}), one daemon thread
 * runs a fixed amount of work through it, {@link #WARM_UP_ROUNDS} rounds of
 * {@link WarmUpWork#round} on a fixed input (enough for C2 to have compiled what those calls run,
 * on JDK 17, 21 and 25: bench/notes/java-vector.md), then checks it against the known answers
 * ({@link SelfTest}); every call after that goes to it. Nothing here times anything, counts
 * callers' calls or compares speeds: what runs once the thread is done depends only on the JVM,
 * the CPU and the switches, and a mismatch keeps the scalar engine for good. Kernels are
 * stateless and give the same answers, so a hasher may switch between two calls; both buffer the
 * same {@link #bufferSize}.
 */
final class WarmingVectorKernel implements Kernel {
  /**
   * Rounds of {@link WarmUpWork#round} before the switch: 103 chunks and 1000 output bytes through
   * the vector engine each (about 125 vector compressions), and a batch where batches take the
   * vector lanes. Chosen with {@code -XX:+LogCompilation} (bench/notes/java-vector.md, "A fixed
   * warm-up"): on a 2-core Zen 4, JDK 17, 21 and 25, idle or loaded, C2 had installed its code for
   * every round and load method after 500 to 2,400 rounds; so twice the most, where a round takes
   * 40-70 us once compiled, so that the margin costs a few hundred milliseconds of one core at
   * most, once.
   */
  static final int WARM_UP_ROUNDS = 5000;

  private final String reason;
  private final Module module;
  /** Test seam: flips one bit of one self-test result, to prove a mismatch keeps the scalar engine. */
  private final boolean corruptForTest;
  private volatile Kernel current = JavaKernel.INSTANCE;
  private volatile String state = "warming up";

  /**
   * A kernel that runs the scalar engine until {@link #warmUp} is done; {@link #start} runs that
   * on its own thread. {@code module} is {@code jdk.incubator.vector}, already found readable.
   */
  WarmingVectorKernel(String reason, Module module, boolean corruptForTest) {
    this.reason = reason;
    this.module = module;
    this.corruptForTest = corruptForTest;
  }

  /** Starts the warm-up thread; where there is none to be had, the scalar engine stays. */
  void start() {
    try {
      new WarmUp(this).start();
    } catch (Throwable t) { // no thread to be had (limits, a security policy): stay scalar
      state = "off: no warm-up thread (" + t + ")";
    }
  }

  /** What {@link Blake3#implementation()} says: which engine runs now, and why. */
  String description() {
    Kernel k = current;
    return k == JavaKernel.INSTANCE ? "java (" + reason + "; Vector API engine " + state + ")"
        : k.name() + " (" + reason + ")";
  }

  @Override
  public String name() {
    return current.name();
  }

  @Override
  public int bufferSize() {
    return JavaKernel.INSTANCE.bufferSize();
  }

  @Override
  public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
    return current.hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff);
  }

  @Override
  public int hashSubtreesThenLast(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    return current.hashSubtreesThenLast(in, off, len, key, counter, flags, cvs, cvsOff);
  }

  @Override
  public MessageLanes messageLanes() {
    return current.messageLanes();
  }

  /** Many messages: the Java lanes' batch, one message per lane, where it pays. */
  @Override
  public void hashMany(byte[] data, int[] offsets, int[] lengths, int from, int count, int[] key, int flags,
      byte[] out, int outOff) {
    JavaBatch.hashMany(this, data, offsets, lengths, from, count, key, flags, out, outOff);
  }

  @Override
  public boolean hashesWhole(int len, int outLen) {
    return current == JavaKernel.INSTANCE && JavaKernel.INSTANCE.hashesWhole(len, outLen);
  }

  @Override
  public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
    // The scalar engine said yes to this shape, perhaps just before the switch: it keeps it.
    JavaKernel.INSTANCE.hashWhole(in, off, len, key, flags, out, outOff, outLen);
  }

  @Override
  public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
      int outLen) {
    current.rootOutput(cv, block, blockLen, flags, position, out, outOff, outLen);
  }

  /**
   * A class, not a lambda: the first lambda of a JVM costs milliseconds of start-up. A daemon at
   * low priority, holding no context class loader of whoever chose the engine.
   */
  private static final class WarmUp extends Thread {
    private final WarmingVectorKernel kernel;

    WarmUp(WarmingVectorKernel kernel) {
      super("blake3-fast Vector API warm-up");
      this.kernel = kernel;
      setDaemon(true);
      setPriority(Thread.MIN_PRIORITY);
      setContextClassLoader(null);
    }

    @Override
    public void run() {
      kernel.warmUp();
    }
  }

  /**
   * The warm-up: {@link #WARM_UP_ROUNDS} rounds through the vector engine, its self-test (on the
   * code C2 made of it by then), then the switch, or the scalar engine for good with a warning.
   * The warm-up thread's body; tests call it directly.
   */
  void warmUp() {
    try {
      // A named module reads only what its descriptor requires (see VectorChoice).
      WarmingVectorKernel.class.getModule().addReads(module);
      Kernel vector = VectorChoice.vectorKernel();
      WarmUpWork work = new WarmUpWork(vector);
      for (int i = 0; i < WARM_UP_ROUNDS; i++) {
        work.round();
      }
      String mismatch = SelfTest.compare(vector, corruptForTest);
      if (mismatch != null) {
        state = "refused: " + vector.name() + " failed its self-test against the Java engine (" + mismatch + ")";
        NativeLoader.log(Level.WARNING, "blake3-fast: Vector API engine " + state);
        return;
      }
      current = vector;
    } catch (Throwable t) { // whatever the incubator module does, hashing goes on
      state = "refused: " + t;
      NativeLoader.log(Level.WARNING, "blake3-fast: Vector API engine refused: " + t);
    }
  }

  /**
   * One warm-up round's calls, on a fixed input, shaped so that each path a hasher takes through
   * the vector kernel runs: a full buffer at a chunk counter of 0 (one aligned subtree of a
   * window's worth of chunks), a hasher's last call at a counter that is not (subtrees of several
   * sizes side by side, the lanes filled and not, the last chunk alone), extended output from an
   * odd position (whole and partial blocks), and, where batches go through the vector lanes
   * ({@code VectorLanes}, from JDK 25), a batch of messages of one to three chunks and odd lengths.
   */
  static final class WarmUpWork {
    /** Chunks of the second call: 16 + 16 + 7 lanes of 16, 8 + 8 + ... of 8, the last alone. */
    static final int LAST_CHUNKS = 39;
    static final int OUTPUT_LEN = 1000;
    /** The batch: message i is {@code (i * BATCH_STEP) % BATCH_MAX_LEN} bytes. */
    static final int BATCH = 36;
    static final int BATCH_STEP = 59;
    static final int BATCH_MAX_LEN = 1400;

    private final Kernel vector;
    private final byte[] in;
    private final int[] cvs = new int[8 * 128];
    private final int[] key = Spec.iv();
    private final int[] block = new int[16];
    private final byte[] out = new byte[Math.max(OUTPUT_LEN, BATCH * Spec.OUT_LEN)];
    /** Null where batches take the scalar lanes, which the scalar engine warms by itself. */
    private final int[] offsets;
    private final int[] lengths;

    WarmUpWork(Kernel vector) {
      this.vector = vector;
      this.in = SelfTest.vectorInput(vector.bufferSize());
      for (int i = 0; i < 16; i++) {
        block[i] = i * 0x01010101;
      }
      if (vector.messageLanes() instanceof JavaLanes) {
        offsets = null;
        lengths = null;
      } else {
        offsets = new int[BATCH];
        lengths = new int[BATCH];
        for (int i = 0; i < BATCH; i++) {
          offsets[i] = i;
          lengths[i] = (i * BATCH_STEP) % BATCH_MAX_LEN;
        }
      }
    }

    void round() {
      vector.hashSubtrees(in, 0, in.length, key, 0, 0, cvs, 0);
      vector.hashSubtreesThenLast(in, 0, LAST_CHUNKS * Spec.CHUNK_LEN, key, in.length / Spec.CHUNK_LEN,
          Spec.KEYED_HASH, cvs, 0);
      vector.rootOutput(key, block, Spec.BLOCK_LEN, Spec.PARENT, 13, out, 0, OUTPUT_LEN);
      if (offsets != null) {
        vector.hashMany(in, offsets, lengths, 0, BATCH, key, 0, out, 0);
      }
    }
  }
}
