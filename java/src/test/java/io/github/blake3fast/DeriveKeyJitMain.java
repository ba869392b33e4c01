package io.github.blake3fast;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The child JVM of {@link DeriveKeyJitTest}: 16 threads derive keys through the public API
 * (2- and 3-argument {@code Blake3.deriveKey}) and check each against the Java engine, whose
 * context key is made the way the library makes its own: a fresh 32-byte array filled by a
 * call, then {@link Spec#keyWords}. Under JDK 17's C2 that shape gave keys of zeros when the
 * word readers went through Compress's view and its count (in about half of 12-second runs
 * of this workload). Prints a summary; exit status 1 if any answer differed.
 */
public final class DeriveKeyJitMain {
  private DeriveKeyJitMain() {}

  private static final String[] CONTEXTS = {"", "blake3-fast stress 2026-11-30", "\u00e9t\u00e9 \u4e16\u754c context"};

  static byte[] reference(String context, byte[] in, int outLen) {
    byte[] ctx = context.getBytes(StandardCharsets.UTF_8);
    byte[] contextKey = new byte[Spec.KEY_LEN];
    OneShot.hash(JavaKernel.INSTANCE, ctx, 0, ctx.length, Spec.iv(), Spec.DERIVE_KEY_CONTEXT, contextKey, 0, Spec.KEY_LEN);
    byte[] out = new byte[outLen];
    OneShot.hash(JavaKernel.INSTANCE, in, 0, in.length, Spec.keyWords(contextKey), Spec.DERIVE_KEY_MATERIAL, out, 0,
        outLen);
    return out;
  }

  public static void main(String[] args) throws InterruptedException {
    long seconds = Long.parseLong(args[0]);
    byte[] pool = new byte[4 << 20];
    new SplittableRandom(1).nextBytes(pool);
    AtomicLong ops = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    long end = System.nanoTime() + seconds * 1_000_000_000L;
    Thread[] threads = new Thread[16];
    for (int t = 0; t < threads.length; t++) {
      SplittableRandom r = new SplittableRandom(t);
      threads[t] = new Thread(() -> {
        while (System.nanoTime() < end) {
          String context = CONTEXTS[r.nextInt(CONTEXTS.length)];
          int p = r.nextInt(100);
          int len = p < 45 ? r.nextInt(1100) : p < 70 ? r.nextInt(20_000) : p < 87 ? r.nextInt(300_000) : r.nextInt(2 << 20);
          int q = r.nextInt(100);
          int outLen = q < 60 ? 32 : q < 85 ? r.nextInt(200) : 200 + r.nextInt(4800);
          int off = r.nextInt(pool.length - len + 1);
          byte[] in = Arrays.copyOfRange(pool, off, off + len);
          byte[] got = outLen == 32 ? Blake3.deriveKey(context, in) : Blake3.deriveKey(context, in, outLen);
          if (!Arrays.equals(got, reference(context, in, outLen)) && wrong.incrementAndGet() <= 3) {
            System.out.println("wrong: context \"" + context + "\", " + len + " bytes, output " + outLen);
          }
          ops.incrementAndGet();
        }
      });
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    System.out.println("DeriveKeyJitMain: " + ops + " derivations, " + wrong + " wrong, engine "
        + Blake3.implementation() + ", Java " + System.getProperty("java.version"));
    System.exit(wrong.get() == 0 ? 0 : 1);
  }
}
