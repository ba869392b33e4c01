package io.github.blake3fast.bench;

import io.github.blake3fast.Blake3;
import io.github.blake3fast.Blake3Hasher;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Exactly how many bytes one operation allocates, for the allocation targets.
 *
 * <p>JMH's {@code gc.alloc.rate.norm} also counts what JMH's own threads allocate per
 * iteration, spread over the operations of that iteration: tens of bytes per operation when an
 * operation takes milliseconds (SHA-256, which allocates nothing here, shows ~10 B/op at
 * 1 MiB). This check reads the allocation counter of its own thread only
 * ({@code com.sun.management.ThreadMXBean.getThreadAllocatedBytes}) around a loop of
 * operations, after a warm-up long enough for the JIT to compile the loop, so one-time
 * allocations (per-thread scratch, class initialization) are not counted.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.github.blake3fast.bench.AllocationCheck [out.json]};
 * add {@code -Dblake3.native=false} for the Java engine.
 */
public final class AllocationCheck {
  private static final int[] SIZES = {64, 1024, 16384, 1 << 20};

  private AllocationCheck() {}

  public static void main(String[] args) throws Exception {
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    mx.setThreadAllocatedMemoryEnabled(true);
    List<String> rows = new ArrayList<>();
    String engine = Blake3.implementation();
    System.out.println("engine: " + engine);
    for (int size : SIZES) {
      byte[] data = Inputs.random(size);
      long ops = Math.max(100, (64L << 20) / size); // 64 MiB of input, or 100 operations
      rows.add(measure(mx, "one-shot", size, ops, () -> Blake3.hash(data)));
    }
    for (int size : new int[] {1024, 1 << 20}) {
      byte[] data = Inputs.random(size);
      Blake3Hasher h = Blake3.newHasher();
      byte[] out = new byte[32];
      long ops = Math.max(100, (64L << 20) / size);
      rows.add(measure(mx, "update", size, ops, () -> {
        h.reset();
        for (int off = 0; off < data.length; off += Inputs.UPDATE_LEN) {
          h.update(data, off, Inputs.UPDATE_LEN);
        }
        h.digest(out, 0, 32);
        return out;
      }));
    }
    String json = "{\n  \"engine\": \"" + engine.replace("\\", "\\\\").replace("\"", "\\\"")
        + "\",\n  \"rows\": [\n    " + String.join(",\n    ", rows) + "\n  ]\n}\n";
    if (args.length > 0) {
      Files.write(Paths.get(args[0]), json.getBytes(StandardCharsets.UTF_8));
      System.out.println("wrote " + args[0]);
    }
  }

  private interface Op {
    Object run();
  }

  private static String measure(com.sun.management.ThreadMXBean mx, String kind, int size, long ops, Op op) {
    long id = Thread.currentThread().getId();
    Object sink = null;
    // Warm-up: enough calls for C2 to compile the operation and the loop around it (large
    // inputs call the hashing code thousands of times per operation: fewer are enough).
    long warm = Math.max(ops, size <= 16384 ? 20_000 : 500);
    for (long i = 0; i < warm; i++) {
      sink = op.run();
    }
    long calibrate0 = mx.getThreadAllocatedBytes(id);
    long calibrate1 = mx.getThreadAllocatedBytes(id); // what reading the counter itself costs
    long before = mx.getThreadAllocatedBytes(id);
    for (long i = 0; i < ops; i++) {
      sink = op.run();
    }
    long after = mx.getThreadAllocatedBytes(id);
    double perOp = (after - before - (calibrate1 - calibrate0)) / (double) ops;
    if (sink == null) {
      throw new AssertionError();
    }
    System.out.printf(Locale.ROOT, "%-8s %8d B: %8.2f B/op over %d operations%n", kind, size, perOp, ops);
    return String.format(Locale.ROOT, "{\"kind\": \"%s\", \"size\": %d, \"ops\": %d, \"bytesPerOp\": %.3f}",
        kind, size, ops, perOp);
  }
}
