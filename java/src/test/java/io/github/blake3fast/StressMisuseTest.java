package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Misuse under load: one Blake3Hasher, one MessageDigest and one output reader shared by eight
 * threads at once, against their one-thread-at-a-time contract, updating (arrays, heap and
 * direct buffers, parallel), finishing, reading, resetting and copying. Results are garbage
 * and exceptions are expected; a JVM crash is not (this once ended the JVM within seconds: the
 * racing state made native code read past an array). Runs in a child JVM so that a crash fails
 * this test instead of ending the test run; lasts a quarter of {@code -Dblake3.stress.seconds}.
 */
@Tag("stress")
class StressMisuseTest {
  @Test
  void sharedObjectsNeverCrashTheJvm(@TempDir Path dir) throws Exception {
    int seconds = Math.max(3, ReliabilityKit.stressSeconds() / 4);
    ReliabilityKit.Child c = ReliabilityKit.runJava(List.of("-XX:ErrorFile=" + dir.resolve("hs_err_%p.log")),
        MisuseMain.class, List.of(Integer.toString(seconds)), seconds + 120L);
    System.out.println("StressMisuseTest: " + c.output.trim().replace("\n", "\n  "));
    assertNull(ReliabilityKit.hsErrIn(dir), "the JVM crashed:\n" + c.output);
    assertEquals(0, c.status, c.output);
    assertTrue(c.output.contains("MisuseMain: survived"), c.output);
  }

  /** The child: eight threads on shared objects until the deadline. */
  public static final class MisuseMain {
    public static void main(String[] args) throws Exception {
      long deadline = System.nanoTime() + Long.parseLong(args[0]) * 1_000_000_000L;
      Blake3Hasher shared = Blake3.newHasher();
      MessageDigest md = MessageDigest.getInstance("BLAKE3", new Blake3Provider());
      Blake3OutputReader reader = Blake3.newHasher().update(new byte[5000]).xof();
      AtomicLong ops = new AtomicLong();
      AtomicLong exceptions = new AtomicLong();
      Thread[] ts = new Thread[8];
      for (int t = 0; t < ts.length; t++) {
        final int id = t;
        ts[t] = new Thread(() -> {
          SplittableRandom r = new SplittableRandom(id);
          byte[] big = new byte[3 << 20];
          ByteBuffer direct = ByteBuffer.allocateDirect(3 << 20);
          byte[] out = new byte[8000];
          while (System.nanoTime() < deadline) {
            try {
              int n = r.nextInt(4) == 0 ? r.nextInt(big.length) : r.nextInt(40_000);
              switch (r.nextInt(12)) {
                case 0:
                case 1:
                  shared.update(big, 0, n);
                  break;
                case 2:
                  direct.clear().limit(n);
                  shared.update(direct);
                  break;
                case 3:
                  shared.update(ByteBuffer.wrap(big, 0, n).asReadOnlyBuffer());
                  break;
                case 4:
                  shared.updateParallel(big, 0, n);
                  break;
                case 5:
                  shared.digest(r.nextInt(3000));
                  break;
                case 6:
                  shared.xof().read(out, 0, r.nextInt(out.length));
                  break;
                case 7:
                  shared.reset();
                  break;
                case 8:
                  shared.copy().update(big, 0, n).digest();
                  break;
                case 9:
                  md.update(big, 0, n);
                  if (r.nextInt(4) == 0) {
                    md.digest();
                  }
                  break;
                case 10:
                  reader.seek(r.nextInt(1 << 20));
                  reader.read(out, 0, r.nextInt(out.length));
                  break;
                default:
                  shared.digest(out, 0, r.nextInt(out.length));
                  break;
              }
              ops.incrementAndGet();
            } catch (Throwable e) { // Java exceptions of any kind are fine: only a crash is not
              exceptions.incrementAndGet();
            }
          }
        }, "misuse-" + t);
        ts[t].start();
      }
      for (Thread t : ts) {
        t.join();
      }
      System.out.println("MisuseMain: survived: 8 threads, " + args[0] + " s, " + ops.get() + " operations, "
          + exceptions.get() + " exceptions (expected: the objects are not thread-safe), engine "
          + Blake3.implementation());
    }
  }
}
