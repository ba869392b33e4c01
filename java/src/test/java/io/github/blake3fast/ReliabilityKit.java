package io.github.blake3fast;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Shared by the reliability tests (Diff*, BadArgument*, Stress*): the engines this JVM can run,
 * the three modes, the Java reference, and random inputs, splits and buffers.
 */
final class ReliabilityKit {
  private ReliabilityKit() {}

  static final int HASH = 0;
  static final int KEYED = 1;
  static final int DERIVE = 2;
  static final String[] MODE_NAMES = {"hash", "keyed", "derive-key"};

  /**
   * The Java kernel, then two native kernels per ISA this CPU runs, pinning and copying arrays
   * (none when native is off).
   */
  static List<Kernel> kernels() {
    return Engines.kernels();
  }

  /** The key words of a mode for a kernel: the IV, the key, or the context's key. */
  static int[] keyWords(Kernel k, int mode, byte[] key, String context) {
    switch (mode) {
      case HASH:
        return Spec.iv();
      case KEYED:
        return Spec.keyWords(key);
      default:
        return Blake3.contextKey(k, context);
    }
  }

  /**
   * For a derive-key failure's message: the key words the hasher holds, the context's key from
   * the Java reference, and what {@link Blake3#contextKey} gives now. A wrong-result failure seen
   * once in CI (derive-key hashers only) gave the output of an all-zero key; these say whether a
   * hasher was built with a wrong key or went wrong after.
   */
  static String deriveDiagnosis(Blake3Hasher h, String context) {
    String held;
    try {
      Field state = Blake3Hasher.class.getDeclaredField("state");
      state.setAccessible(true);
      Field key = TreeState.class.getDeclaredField("key");
      key.setAccessible(true);
      held = words((int[]) key.get(state.get(h)));
    } catch (ReflectiveOperationException e) {
      held = "unreadable (" + e + ")";
    }
    return "hasher key " + held + ", reference context key " + words(keyWords(JavaKernel.INSTANCE, DERIVE, null, context))
        + ", Blake3.contextKey now " + words(Blake3.contextKey(context));
  }

  private static String words(int[] w) {
    StringBuilder sb = new StringBuilder();
    for (int x : w) {
      sb.append(String.format("%08x", x));
    }
    return sb.toString();
  }

  static int flags(int mode) {
    return mode == HASH ? 0 : mode == KEYED ? Spec.KEYED_HASH : Spec.DERIVE_KEY_MATERIAL;
  }

  /** The reference: the Java kernel, one-shot. */
  static byte[] reference(int mode, byte[] key, String context, byte[] in, int off, int len, int outLen) {
    byte[] out = new byte[outLen];
    OneShot.hash(JavaKernel.INSTANCE, in, off, len, keyWords(JavaKernel.INSTANCE, mode, key, context), flags(mode), out, 0,
        outLen);
    return out;
  }

  /** A streaming hasher of the public API for a mode. */
  static Blake3Hasher publicHasher(int mode, byte[] key, String context) {
    return mode == HASH ? Blake3.newHasher() : mode == KEYED ? Blake3.newKeyedHasher(key) : Blake3.newDeriveKeyHasher(context);
  }

  /** The public one-shot of a mode. */
  static byte[] publicOneShot(int mode, byte[] key, String context, byte[] in, int outLen) {
    switch (mode) {
      case HASH:
        return outLen == 32 ? Blake3.hash(in) : Blake3.hash(in, outLen);
      case KEYED:
        return outLen == 32 ? Blake3.keyedHash(key, in) : Blake3.keyedHash(key, in, outLen);
      default:
        return outLen == 32 ? Blake3.deriveKey(context, in) : Blake3.deriveKey(context, in, outLen);
    }
  }

  static Blake3Hazmat.Mode hazmatMode(int mode, byte[] key, String context) {
    return mode == HASH ? Blake3Hazmat.Mode.hash() : mode == KEYED ? Blake3Hazmat.Mode.keyedHash(key)
        : Blake3Hazmat.Mode.deriveKey(context);
  }

  /**
   * Input sizes biased to the boundaries that matter: blocks, chunks, the hasher's 16 KiB buffer,
   * power-of-two subtrees, the 1 MiB parallel threshold, the 4 MiB slice and file-window sizes.
   */
  static int size(SplittableRandom r, int max) {
    int p = r.nextInt(100);
    int n;
    if (p < 45) {
      int[] bases = {0, 64, 128, 1024, 2048, 3072, 4096, 5120, 8192, 15 << 10, 16 << 10, 17 << 10, 31 << 10,
        32 << 10, 33 << 10, 64 << 10, 128 << 10, 256 << 10, 511 << 10, 512 << 10, 1 << 20, 2 << 20, 3 << 20,
        (4 << 20) - 1024, 4 << 20};
      int[] deltas = {-1025, -1024, -1023, -65, -64, -63, -1, 0, 0, 0, 1, 1, 63, 64, 65, 1023, 1024, 1025};
      n = bases[r.nextInt(bases.length)] + deltas[r.nextInt(deltas.length)];
    } else if (p < 75) {
      n = r.nextInt(4097);
    } else if (p < 92) {
      n = r.nextInt(256 << 10);
    } else {
      n = r.nextInt(max + 1);
    }
    return Math.max(0, Math.min(max, n));
  }

  /** Random content: mostly random bytes, sometimes zeros or the vectors' i % 251 pattern. */
  static byte[] content(SplittableRandom r, int n) {
    byte[] b = new byte[n];
    int kind = r.nextInt(10);
    if (kind < 8) {
      for (int i = 0; i < n; ) {
        long v = r.nextLong();
        for (int j = 0; j < 8 && i < n; j++, i++) {
          b[i] = (byte) v;
          v >>>= 8;
        }
      }
    } else if (kind == 8) {
      for (int i = 0; i < n; i++) {
        b[i] = (byte) (i % 251);
      }
    }
    return b;
  }

  /**
   * Random update lengths summing to n: tiny ones, ones ending next to a chunk or buffer
   * boundary, empty ones, arbitrary ones; at most about 200 pieces.
   */
  static int[] splits(SplittableRandom r, int n) {
    List<Integer> pieces = new ArrayList<>();
    int left = n;
    int style = r.nextInt(5); // 0: one update
    while (left > 0) {
      int p;
      if (style == 0 || pieces.size() >= 200) {
        p = left;
      } else {
        int k = r.nextInt(10);
        if (k < 3) {
          p = r.nextInt(70);
        } else if (k < 6) {
          p = (1 + r.nextInt(20)) * 1024 + r.nextInt(3) - 1;
        } else if (k < 7) {
          p = (1 + r.nextInt(4)) * 16384 + r.nextInt(3) - 1;
        } else {
          p = 1 + r.nextInt(left);
        }
        p = Math.min(p, left);
      }
      pieces.add(p);
      left -= p;
    }
    if (pieces.isEmpty() || r.nextInt(8) == 0) {
      pieces.add(r.nextInt(pieces.size() + 1), 0);
    }
    return pieces.stream().mapToInt(Integer::intValue).toArray();
  }

  /** A direct buffer whose position..limit holds in[off, off+len), with bytes around it. */
  static ByteBuffer direct(byte[] in, int off, int len, SplittableRandom r) {
    int before = r.nextInt(16);
    int after = r.nextInt(16);
    ByteBuffer d = ByteBuffer.allocateDirect(before + len + after);
    for (int i = 0; i < before; i++) {
      d.put((byte) 0xEE);
    }
    d.put(in, off, len);
    for (int i = 0; i < after; i++) {
      d.put((byte) 0xEE);
    }
    d.position(before).limit(before + len);
    return r.nextBoolean() ? d : d.slice();
  }

  static String describe(int[] splits) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < splits.length && i < 12; i++) {
      sb.append(i == 0 ? "" : ",").append(splits[i]);
    }
    return sb.append(splits.length > 12 ? ",... (" + splits.length + " updates)]" : "]").toString();
  }

  static int firstDifference(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      if (a[i] != b[i]) {
        return i;
      }
    }
    return a.length == b.length ? -1 : n;
  }

  /** What a child JVM did: its exit status (-1 if it had to be killed) and its merged output. */
  static final class Child {
    final int status;
    final String output;

    Child(int status, String output) {
      this.status = status;
      this.output = output;
    }
  }

  /**
   * Runs {@code main} in a child JVM (this JVM's java, class path and native-library switches),
   * with {@code jvmArgs} before the class name; kills it after {@code timeoutSeconds}.
   */
  static Child runJava(List<String> jvmArgs, Class<?> main, List<String> args, long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    if (Runtime.version().feature() >= 22) {
      cmd.add("--enable-native-access=ALL-UNNAMED");
    }
    for (String p : new String[] {"blake3.native", "blake3.isa", "blake3.native.path", "blake3.native.dir",
        "blake3.native.pin"}) {
      if (System.getProperty(p) != null) {
        cmd.add("-D" + p + "=" + System.getProperty(p));
      }
    }
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(args);
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    StringBuilder out = new StringBuilder();
    Thread reader = new Thread(() -> {
      try (InputStream in = p.getInputStream()) {
        out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
      } catch (IOException e) {
        out.append("(output lost: ").append(e).append(')');
      }
    });
    reader.start();
    boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!done) {
      p.destroyForcibly();
      p.waitFor(30, TimeUnit.SECONDS);
    }
    reader.join(30_000);
    return new Child(done ? p.exitValue() : -1, out.toString());
  }

  static Path hsErrIn(Path dir) throws IOException {
    try (java.util.stream.Stream<Path> s = java.nio.file.Files.list(dir)) {
      return s.filter(f -> f.getFileName().toString().startsWith("hs_err")).findFirst().orElse(null);
    }
  }

  /** The stress duration in seconds: -Dblake3.stress.seconds (default 30; CI passes 8). */
  static int stressSeconds() {
    return Integer.getInteger("blake3.stress.seconds", 30);
  }
}
