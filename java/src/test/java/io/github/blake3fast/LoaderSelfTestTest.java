package io.github.blake3fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The loader's self-test: its stored answers are the Java engine's, every native kernel this
 * CPU runs passes it, and a native result that differs (injected through the loader's
 * {@code choose(true)}, in a child JVM: {@link CorruptMain}) disables native code with a warning.
 */
class LoaderSelfTestTest {

  @Test
  void theStoredAnswersAreTheJavaEngines() {
    assertNull(SelfTest.compare(JavaKernel.INSTANCE, false));
  }

  @Test
  void theCorruptSwitchIsSeen() {
    assertEquals("keyed_hash of 1025 bytes, one-shot", SelfTest.compare(JavaKernel.INSTANCE, true));
  }

  @Test
  void everyNativeKernelThisCpuRunsPasses() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    int bits = NativeBlake3.supportedIsas();
    List<String> checked = new ArrayList<>();
    for (int isa = 0; isa < NativeBlake3.ISA_NAMES.length; isa++) {
      if ((bits & (1 << isa)) != 0) {
        NativeKernel k = new NativeKernel(isa);
        assertNull(SelfTest.compare(k, false), k.name());
        checked.add(k.name());
      }
    }
    System.out.println("LoaderSelfTestTest: self-test passed on " + checked);
    assertTrue(checked.size() >= 1);
  }

  /**
   * Every entry point the self-test calls directly (not through the tree driver) is compared:
   * one wrong bit from any of them, in either array mode, fails the test.
   */
  @Test
  void aWrongBitFromAnyEntryPointFailsIt() {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    int isa = ((NativeKernel) Engine.kernel()).isa();
    for (boolean pin : new boolean[] {true, false}) {
      for (Fault f : Fault.values()) {
        Kernel k = new FaultyKernel(new NativeKernel(isa, pin), f);
        String mismatch = SelfTest.compare(k, false);
        assertTrue(mismatch != null, f + ", pin=" + pin);
        System.out.println("LoaderSelfTestTest: " + f + ", pin=" + pin + ": " + mismatch);
      }
      assertNull(SelfTest.compare(new FaultyKernel(new NativeKernel(isa, pin), null), false), "no fault, pin=" + pin);
    }
  }

  private enum Fault { SUBTREES_ARRAY, SUBTREES_DIRECT, WHOLE_SHORT, WHOLE_LONG, ROOT_OUTPUT }

  /** A native kernel with one entry point that flips a bit of what it returns. */
  private static final class FaultyKernel implements Kernel {
    private final NativeKernel k;
    private final Fault fault;

    FaultyKernel(NativeKernel k, Fault fault) {
      this.k = k;
      this.fault = fault;
    }

    @Override
    public String name() {
      return k.name();
    }

    @Override
    public int bufferSize() {
      return k.bufferSize();
    }

    @Override
    public int hashSubtrees(byte[] in, int off, int len, int[] key, long counter, int flags, int[] cvs, int cvsOff) {
      int n = k.hashSubtrees(in, off, len, key, counter, flags, cvs, cvsOff);
      if (fault == Fault.SUBTREES_ARRAY) {
        cvs[cvsOff + 8 * n - 1] ^= 1 << 20;
      }
      return n;
    }

    @Override
    public boolean supportsDirect() {
      return k.supportsDirect();
    }

    @Override
    public int hashSubtrees(ByteBuffer direct, int off, int len, int[] key, long counter, int flags, int[] cvs,
        int cvsOff) {
      int n = k.hashSubtrees(direct, off, len, key, counter, flags, cvs, cvsOff);
      if (fault == Fault.SUBTREES_DIRECT) {
        cvs[cvsOff] ^= 1;
      }
      return n;
    }

    @Override
    public boolean hashesWhole(int len, int outLen) {
      return k.hashesWhole(len, outLen);
    }

    @Override
    public void hashWhole(byte[] in, int off, int len, int[] key, int flags, byte[] out, int outOff, int outLen) {
      k.hashWhole(in, off, len, key, flags, out, outOff, outLen);
      if (fault == (len <= Spec.BLOCK_LEN ? Fault.WHOLE_SHORT : Fault.WHOLE_LONG)) {
        out[outOff + outLen - 1] ^= (byte) 0x80;
      }
    }

    @Override
    public void rootOutput(int[] cv, int[] block, int blockLen, int flags, long position, byte[] out, int outOff,
        int outLen) {
      k.rootOutput(cv, block, blockLen, flags, position, out, outOff, outLen);
      if (fault == Fault.ROOT_OUTPUT) {
        out[outOff + outLen - 1] ^= 2;
      }
    }
  }

  @Tag("loader")
  @Test
  void aMismatchDisablesNativeWithAWarning() throws IOException {
    assumeTrue(Engine.kernel() instanceof NativeKernel, "SKIPPED: native code is not loaded here: " + Blake3.implementation());
    Path base = Paths.get(System.getProperty("basedir", System.getProperty("user.dir"))).toAbsolutePath();
    Path work = base.resolve("target/loader-tests/selftest-" + ProcessHandle.current().pid());
    Files.createDirectories(work);
    String best = Blake3.implementation();
    for (String isa : new String[] {null, "portable"}) {
      List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
          "-XX:-UsePerfData", "-Djava.io.tmpdir=" + work, "-Duser.home=" + work));
      if (isa != null) {
        cmd.add("-Dblake3.isa=" + isa);
      }
      if (Runtime.version().feature() >= 24) {
        cmd.add("--enable-native-access=ALL-UNNAMED");
      }
      cmd.addAll(List.of("-cp", base.resolve("target/classes") + ":" + base.resolve("target/test-classes"),
          CorruptMain.class.getName()));
      ProcessBuilder pb = new ProcessBuilder(cmd).directory(work.toFile());
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes());
      String err = new String(p.getErrorStream().readAllBytes());
      try {
        p.waitFor();
      } catch (InterruptedException e) {
        throw new IOException(e);
      }
      String kernel = isa == null ? best : "native-" + isa;
      String reason = "native refused: " + kernel + " failed its self-test against the Java engine"
          + " (keyed_hash of 1025 bytes, one-shot)";
      String all = "$ " + String.join(" ", cmd) + "\n" + out + err;
      assertTrue(out.contains("impl=java (" + reason + "; " + VectorChoice.HOW_TO_ENABLE + ")\n"), all);
      assertTrue(out.contains("hash=ok\n"), all);
      assertTrue(err.contains("WARNING: blake3-fast: using the Java engine: " + reason + "\n"), all);
      assertEquals(1, err.split("blake3-fast:", -1).length - 1, "logged once\n" + all);
    }
  }

  /**
   * The loader's choice with the self-test corrupted, as the first use of the library makes it:
   * prints impl= (the description) and hash=ok when the chosen kernel hashes the 102400-byte
   * vector right. Engine is never touched, so nothing else loads or logs.
   */
  static final class CorruptMain {
    public static void main(String[] args) {
      NativeLoader.Choice c = NativeLoader.choose(true);
      System.out.println("impl=" + c.description);
      byte[] in = new byte[102400];
      for (int i = 0; i < in.length; i++) {
        in[i] = (byte) (i % 251);
      }
      byte[] out = new byte[32];
      OneShot.hash(c.kernel, in, 0, in.length, Spec.iv(), 0, out, 0, 32);
      String hex = Blake3.toHex(out);
      System.out.println("hash=" + (hex.equals("bc3e3d41a1146b069abffad3c0d44860cf664390afce4d9661f7902e7943e085") ? "ok" : hex));
    }
  }
}
