package io.github.blake3fast;

import java.lang.System.Logger.Level;

/**
 * The Vector API engine as the library runs it by default: the scalar {@link JavaKernel} until the
 * vector one is ready, then the vector one. Until C2 has compiled its round methods the vector
 * engine runs interpreted, some 10 ms per compression (C1 gives up on them), so a JVM's first
 * megabytes through it would take seconds. Instead, once a JVM has hashed {@link #START_AFTER}
 * bytes of whole chunks (a JVM that hashes a little never pays for any of this), a daemon thread
 * loads it, checks it against the known answers ({@link SelfTest}) and runs it beside the scalar
 * engine on the same input until it is the faster of the two; then every later call goes to it.
 * Where it never gets there in {@link #GIVE_UP_NANOS} (no C2 after all, a CPU whose vectors do
 * not pay) the scalar engine stays. Kernels are stateless and give the same answers, so a
 * hasher may switch between two calls; both buffer the same {@link #bufferSize}.
 */
final class WarmingVectorKernel implements Kernel {
  static final long START_AFTER = 1 << 20;
  static final long GIVE_UP_NANOS = 60_000_000_000L;
  /** Rounds in a row the vector engine must win before it takes over. */
  private static final int WINS = 5;

  private final String reason;
  private final Module module;
  private volatile Kernel current = JavaKernel.INSTANCE;
  private volatile String state = "waits for " + (START_AFTER >> 20) + " MiB of input to warm up";
  /** Bytes seen before the start; threads race on it, and a lost count only delays the start. */
  private long seen;
  private volatile boolean started;

  WarmingVectorKernel(String reason, Module module) {
    this.reason = reason;
    this.module = module;
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
    if (!started) {
      count(len);
    }
    return current.hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff);
  }

  @Override
  public int hashSubtreesThenLast(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs,
      int cvsOff) {
    if (!started) {
      count(len);
    }
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
    if (!started) {
      count(len);
    }
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

  private void count(int len) {
    long n = seen + len;
    seen = n;
    if (n >= START_AFTER) {
      synchronized (this) {
        if (!started) {
          started = true;
          state = "warming up";
          try {
            new WarmUp(this).start();
          } catch (Throwable t) { // no thread to be had (limits, a security policy): stay scalar
            state = "off: no warm-up thread (" + t + ")";
          }
        }
      }
    }
  }

  /** A class, not a lambda: the first lambda of a JVM costs milliseconds of start-up. */
  private static final class WarmUp extends Thread {
    private final WarmingVectorKernel kernel;

    WarmUp(WarmingVectorKernel kernel) {
      super("blake3-fast Vector API warm-up");
      this.kernel = kernel;
      setDaemon(true);
      setPriority(Thread.MIN_PRIORITY);
    }

    @Override
    public void run() {
      kernel.warmUp();
    }
  }

  private void warmUp() {
    try {
      // A named module reads only what its descriptor requires (see VectorChoice).
      WarmingVectorKernel.class.getModule().addReads(module);
      Kernel vector = VectorChoice.vectorKernel();
      String mismatch = SelfTest.compare(vector, Boolean.getBoolean(VectorChoice.PROP_CORRUPT_FOR_TEST));
      if (mismatch != null) {
        state = "refused: " + vector.name() + " failed its self-test against the Java engine (" + mismatch + ")";
        NativeLoader.log(Level.WARNING, "blake3-fast: " + state);
        return;
      }
      byte[] in = new byte[bufferSize()];
      int[] cvs = new int[8 * 128];
      int[] iv = Spec.iv();
      long end = System.nanoTime() + GIVE_UP_NANOS;
      int wins = 0;
      while (wins < WINS) {
        if (System.nanoTime() > end) {
          state = "off: not faster than the scalar engine after " + GIVE_UP_NANOS / 1_000_000_000L + " s";
          return;
        }
        long t0 = System.nanoTime();
        vector.hashSubtrees(in, 0, in.length, iv, 0, 0, cvs, 0);
        long t1 = System.nanoTime();
        JavaKernel.INSTANCE.hashSubtrees(in, 0, in.length, iv, 0, 0, cvs, 0);
        long t2 = System.nanoTime();
        wins = t1 - t0 < t2 - t1 ? wins + 1 : 0;
      }
      current = vector;
    } catch (Throwable t) { // whatever the incubator module does, hashing goes on
      state = "refused: " + t;
      NativeLoader.log(Level.WARNING, "blake3-fast: Vector API engine refused: " + t);
    }
  }
}
