package io.github.blake3fast;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The default Vector API engine's warm-up, round by round: ROUNDS rounds of
 * {@link WarmingVectorKernel.WarmUpWork#round} on this thread (the warm-up thread's work, without
 * the thread), with BUSY other threads hashing 1 MiB inputs on the scalar engine meanwhile (an
 * application that keeps the cores and C2's queue busy). Prints, after the last round, one line
 * per round: its end as JVM uptime in ms, this thread's CPU time so far and the process's.
 * warmup-rounds.sh runs it under {@code -XX:+LogCompilation} and finds the round by which C2 had
 * installed its code for the round methods of VectorCompress and the load method of VectorTranspose:
 * {@code WarmUpRounds ROUNDS BUSY}, with {@code --add-modules jdk.incubator.vector}.
 */
public final class WarmUpRounds {
  private WarmUpRounds() {}

  public static void main(String[] args) {
    long base = System.nanoTime() - ManagementFactory.getRuntimeMXBean().getUptime() * 1_000_000L;
    int rounds = Integer.parseInt(args[0]);
    int busy = Integer.parseInt(args[1]);
    for (int t = 0; t < busy; t++) {
      Thread th = new Thread(WarmUpRounds::hashForever, "busy-" + t);
      th.setDaemon(true);
      th.start();
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    WarmingVectorKernel.WarmUpWork work = new WarmingVectorKernel.WarmUpWork(VectorChoice.vectorKernel());
    long[] end = new long[rounds];
    long[] cpu = new long[rounds];
    long[] processCpu = new long[rounds];
    for (int i = 0; i < rounds; i++) {
      work.round();
      end[i] = System.nanoTime() - base;
      cpu[i] = mx.getCurrentThreadCpuTime();
      processCpu[i] = os.getProcessCpuTime();
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < rounds; i++) {
      out.append("round ").append(i).append(' ').append(end[i] / 1000).append(" us ").append(cpu[i] / 1000)
          .append(" us ").append(processCpu[i] / 1000).append(" us\n");
    }
    System.out.print(out);
  }

  private static void hashForever() {
    byte[] in = new byte[1 << 20];
    byte[] out = new byte[32];
    int[] iv = Spec.iv();
    for (int i = 0; ; i++) {
      OneShot.hash(JavaKernel.INSTANCE, in, 0, in.length, iv, 0, out, 0, 32);
      in[i & 1023] ^= out[0];
    }
  }
}
