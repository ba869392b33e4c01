package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Vector API engine as a user's JVM chooses it, each in a child JVM: without the module the
 * description says how to get it; with it, a warm-up thread starts when the engine is chosen and
 * the engine takes over once that is done, unless forbidden or ruled out (no C2), in which case
 * no such thread runs; a self-test mismatch, after the warm-up or with
 * {@code -Dblake3.vector=true}, keeps the scalar engine; with {@code -Dblake3.vector=true} it is
 * chosen from the start, and
 * PlatformCheck (vectors, streaming, XOF, random inputs against a reference) passes on it for
 * every vector width this CPU has ({@code -XX:UseAVX=1/2/3}: 128, 256, 512 bits), on this JDK
 * and on Temurin 25 where it is installed. The engine tests run it in-process too, when surefire
 * adds the module (Engines).
 */
class VectorEngineTest {
  private static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
  private static final List<String> MODULE = List.of("--add-modules", "jdk.incubator.vector");

  @Test
  void withoutTheModuleTheDescriptionSaysHowToEnableIt() throws Exception {
    String out = child(thisJava(), List.of("-Dblake3.native=false"), "--describe", "--threads");
    assertTrue(out.startsWith("java (") && out.contains("--add-modules jdk.incubator.vector"), out);
    assertTrue(out.endsWith(" | no warm-up thread"), out);
  }

  @Test
  void withTheModuleItTakesOverOnceWarm() throws Exception {
    List<String> opts = withModule("-Dblake3.native=false");
    String before = child(thisJava(), opts, "--describe", "--threads");
    assertEquals("java (native disabled by -Dblake3.native=false; Vector API engine warming up) | warm-up thread",
        before);
    String after = child(thisJava(), opts, "--describe", "--warm", "--threads");
    assertTrue(after.startsWith("java-vector-")
        && after.endsWith("(native disabled by -Dblake3.native=false) | no warm-up thread"), after);
  }

  @Test
  void forbidden() throws Exception {
    String out = child(thisJava(), withModule("-Dblake3.native=false", "-Dblake3.vector=false"), "--describe",
        "--warm", "--threads");
    assertEquals("java (native disabled by -Dblake3.native=false) | no warm-up thread", out);
  }

  @Test
  void withoutC2ItIsOffAndNothingWarmsUp() throws Exception {
    String out = child(thisJava(), withModule("-Dblake3.native=false", "-XX:TieredStopAtLevel=1"), "--describe",
        "--threads");
    assertEquals("java (native disabled by -Dblake3.native=false; Vector API engine off: no C2, -Dblake3.vector=true"
        + " forces it) | no warm-up thread", out);
  }

  @Test
  void forcedItRunsFromTheStartWithoutAWarmUp() throws Exception {
    String out = child(thisJava(), withModule("-Dblake3.native=false", "-Dblake3.vector=true"), "--describe",
        "--threads");
    assertTrue(out.startsWith("java-vector-")
        && out.endsWith(" (native disabled by -Dblake3.native=false) | no warm-up thread"), out);
  }

  @Test
  void aSelfTestMismatchKeepsTheScalarEngine() throws Exception {
    // The forced engine: refused at once. The child calls VectorChoice with the corruption itself.
    String forced = child(thisJava(), MODULE, "--describe", "--corrupt", "true", "--threads");
    assertTrue(forced.startsWith("java (native disabled by a test; java-vector-")
        && forced.endsWith(" failed its self-test against the Java engine (keyed_hash of 1025 bytes, one-shot))"
            + " | no warm-up thread"), forced);
    // The default: refused after the warm-up, for good; the thread ends.
    String warmed = child(thisJava(), MODULE, "--describe", "--corrupt", "default", "--threads");
    assertTrue(warmed.startsWith("java (native disabled by a test; Vector API engine refused: java-vector-")
        && warmed.endsWith(" failed its self-test against the Java engine (keyed_hash of 1025 bytes, one-shot))"
            + " | no warm-up thread"), warmed);
  }

  @Test
  void nativeStaysFirst() throws Exception {
    String out = child(thisJava(), List.of("--add-modules", "jdk.incubator.vector", "-Dblake3.vector=true"),
        "--describe");
    assertTrue(!out.startsWith("java-vector"), out);
  }

  @Test
  void offWithoutC2() {
    assertEquals("no C2", VectorChoice.offReason(25, "amd64", List.of("-XX:TieredStopAtLevel=1")));
    assertEquals("no C2", VectorChoice.offReason(25, "aarch64", List.of("-Xint")));
    assertNull(VectorChoice.offReason(25, "amd64", List.of("-XX:TieredStopAtLevel=1", "-XX:TieredStopAtLevel=4")));
    assertTrue(VectorChoice.offReason(25, "ppc64le", List.of()).contains("ppc64le"));
  }

  @Test
  void everyX86WidthOnEveryJdk() throws Exception {
    if (!System.getProperty("os.arch").equals("amd64")) {
      return;
    }
    String flags = Files.readString(Path.of("/proc/cpuinfo"));
    List<String> javas = new ArrayList<>(List.of(thisJava()));
    if (Files.isExecutable(TEMURIN_25) && !thisJava().equals(TEMURIN_25.toString())) {
      javas.add(TEMURIN_25.toString());
    }
    String vectors = System.getProperty("blake3.shared.vectors", "");
    if (!Files.exists(Path.of(vectors))) {
      vectors = Path.of(System.getProperty("blake3.vectors.dir", "../test-vectors"), "test_vectors.json").toString();
    }
    for (String java : javas) {
      for (int avx = 1; avx <= 3; avx++) {
        if ((avx == 2 && !flags.contains(" avx2")) || (avx == 3 && !flags.contains(" avx512f"))) {
          continue;
        }
        int bits = 64 << avx;
        List<String> opts = List.of("--add-modules", "jdk.incubator.vector", "-Dblake3.native=false",
            "-Dblake3.vector=true", "-XX:UseAVX=" + avx, "-Dexpect.impl=java-vector-" + bits);
        String out = child(java, opts, PlatformCheck.class.getName(), vectors);
        assertTrue(out.contains(" 0 failed"), java + " UseAVX=" + avx + ": " + out);
        String impl = child(java, opts, "--describe");
        assertTrue(impl.startsWith("java-vector-" + bits + " ("), java + " UseAVX=" + avx + ": " + impl);
        String hot = child(java, opts, "--describe", "--hot");
        assertTrue(hot.startsWith("java-vector-" + bits + " ("), java + " UseAVX=" + avx + ": " + hot);
      }
    }
  }

  private static String thisJava() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  private static List<String> withModule(String... opts) {
    List<String> all = new ArrayList<>(MODULE);
    all.addAll(List.of(opts));
    return all;
  }

  /** Runs {@code main} (a class, or "--describe" for this class's main) in {@code java}; its output. */
  private static String child(String java, List<String> opts, String... mainAndArgs)
      throws IOException, InterruptedException {
    Path base = Path.of(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    List<String> cmd = new ArrayList<>(List.of(java, "-XX:-UsePerfData"));
    cmd.addAll(opts);
    cmd.addAll(List.of("-cp", base.resolve("target/classes") + ":" + base.resolve("target/test-classes")));
    if (mainAndArgs[0].equals("--describe")) {
      cmd.add(DescribeMain.class.getName());
      cmd.addAll(List.of(mainAndArgs).subList(1, mainAndArgs.length));
    } else {
      cmd.addAll(List.of(mainAndArgs));
    }
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes()).trim();
    int rc = p.waitFor();
    assertEquals(0, rc, String.join(" ", cmd) + "\n" + out);
    // The JVM's own line about incubator modules comes first: the last line is the child's.
    return out.substring(out.lastIndexOf('\n') + 1);
  }

  /**
   * The child's side of a "--describe" run: what the library says it runs; with "--warm", after
   * hashing 1 MiB inputs, each checked against the first one's hash, for 3 s at least and while
   * the Vector API engine is still warming up (two minutes at most); with "--hot", after checking
   * the vector kernel against the scalar one for 3 s; with "--corrupt true" or "--corrupt
   * default", what the Java engine VectorChoice picks says once any warm-up is over, with
   * {@code -Dblake3.vector} as given (else unset) and the vector self-test corrupted, instead of
   * the library's own choice. With "--threads", then " | warm-up thread" or " | no warm-up
   * thread": whether a warm-up thread of the library's is alive, right after the choice, or
   * after "--warm" and "--corrupt" once it had a minute to end.
   */
  static final class DescribeMain {
    private DescribeMain() {}

    public static void main(String[] args) throws InterruptedException {
      describe(args);
    }
  }

  private static final String WARM_UP_THREAD = "blake3-fast Vector API warm-up";

  private static void describe(String[] args) throws InterruptedException {
    List<String> a = List.of(args);
    String what;
    if (a.contains("--corrupt")) {
      String setting = a.get(a.indexOf("--corrupt") + 1);
      NativeLoader.Choice c = VectorChoice.choose("native disabled by a test", setting.equals("true") ? "true" : null,
          true);
      if (c.kernel instanceof WarmingVectorKernel) {
        joinWarmUp();
        what = ((WarmingVectorKernel) c.kernel).description();
      } else {
        what = c.description;
      }
    } else {
      what = Blake3.implementation(); // the engine is chosen here
      if (a.contains("--warm")) {
        byte[] in = new byte[1 << 20];
        new java.util.Random(7).nextBytes(in);
        byte[] want = Blake3.hash(in);
        // Hashes for 3 s at least, and while the vector engine is still to come, two minutes at
        // most; where it is not to come at all (forbidden), waiting longer would spend CI time.
        long start = System.nanoTime();
        long end = start + 120_000_000_000L;
        while (System.nanoTime() < end && (System.nanoTime() - start < 3_000_000_000L
            || Blake3.implementation().contains("Vector API engine warming up"))) {
          if (!java.util.Arrays.equals(want, Blake3.hash(in))) {
            throw new AssertionError("hash changed during the warm-up");
          }
          Thread.sleep(1);
        }
        if (!java.util.Arrays.equals(want, Blake3.hash(in))) {
          throw new AssertionError("hash changed after the warm-up");
        }
        joinWarmUp();
        what = Blake3.implementation();
      }
      if (a.contains("--hot")) {
        hotAgainstScalar();
        what = Blake3.implementation();
      }
    }
    System.out.println(what + (!a.contains("--threads") ? "" : warmUpThread() != null ? " | warm-up thread"
        : " | no warm-up thread"));
  }

  /** Waits a minute at most for the library's warm-up thread, if there is one, to end. */
  private static void joinWarmUp() throws InterruptedException {
    Thread t = warmUpThread();
    if (t != null) {
      t.join(60_000);
    }
  }

  /** The library's warm-up thread, if alive. */
  private static Thread warmUpThread() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(WARM_UP_THREAD) && t.isAlive()) {
        return t;
      }
    }
    return null;
  }

  /**
   * The vector kernel's chunks, parents and output against the scalar kernel's for 3 s, long
   * enough for C2 to compile the rounds and the message loads (VectorTranspose): the other checks
   * run before it has, and an intrinsic C2 gets wrong shows only in compiled code. Sizes with and
   * without whole windows of lanes, and a few lanes short of one.
   */
  private static void hotAgainstScalar() {
    java.util.Random random = new java.util.Random(11);
    int lanes = VectorKernel.LANES;
    int[] sizes = {65536, 65536 + 1000, (lanes + 1) * 1024 + 7, (lanes - 1) * 1024, 3 * lanes * 1024 + 64};
    int[] key = Spec.iv();
    byte[] want = new byte[200];
    byte[] got = new byte[200];
    long end = System.nanoTime() + 3_000_000_000L;
    for (int round = 0; System.nanoTime() < end; round++) {
      byte[] in = new byte[sizes[round % sizes.length]];
      random.nextBytes(in);
      OneShot.hash(JavaKernel.INSTANCE, in, 0, in.length, key, 0, want, 0, want.length);
      OneShot.hash(VectorKernel.INSTANCE, in, 0, in.length, key, 0, got, 0, got.length);
      if (!java.util.Arrays.equals(want, got)) {
        throw new AssertionError("vector kernel differs from the scalar one at " + in.length + " bytes, round " + round);
      }
    }
  }
}
