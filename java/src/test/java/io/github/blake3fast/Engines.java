package io.github.blake3fast;

import java.util.ArrayList;
import java.util.List;

/**
 * The engines the engine tests (tag "engine") run over, all in one JVM, as lz4-java's tests run
 * over its instances: the one this JVM chose, through the public API as users call it; then, unless
 * {@code -Dblake3.test.everyKernel=false} (what {@code -Dblake3.isaRuns.skip} sets in java/pom.xml),
 * the Java kernel and a native kernel for every ISA this CPU runs, each driven the way the public
 * API drives the chosen one. Nothing here changes which kernel the library itself uses.
 */
final class Engines {
  private Engines() {}

  /** Every engine to test, the chosen one first. */
  static List<Api> all() {
    List<Api> all = new ArrayList<>();
    Kernel chosen = Engine.kernel();
    all.add(new Api(chosen, true));
    if (Boolean.parseBoolean(System.getProperty("blake3.test.everyKernel", "true"))) {
      for (Kernel k : kernels()) {
        if (!label(k).equals(label(chosen))) {
          all.add(new Api(k, false));
        }
      }
    }
    return all;
  }

  /**
   * The Java kernel on each of its two paths (lanes and one chunk at a time, whichever
   * {@link LaneRule} picks here), then two native kernels per ISA this CPU runs, one reaching
   * arrays pinned and one copying them (whichever this JVM uses, the other is tested too); none
   * native when the library is not loaded. Each is its own object: the library keeps no ISA of
   * its own, the kernels pass theirs in every call.
   */
  static List<Kernel> kernels() {
    List<Kernel> ks = new ArrayList<>();
    ks.add(JavaKernel.LANES);
    ks.add(JavaKernel.ONE_CHUNK);
    if (VectorChoice.moduleReadable()) { // --add-modules jdk.incubator.vector
      ks.add(VectorChoice.vectorKernel());
      // Its batches on the vector lanes too, which the engine takes only where they pay (JDK 25+).
      ks.add(VectorChoice.vectorKernelOnVectorLanes());
    }
    if (Engine.kernel() instanceof NativeKernel) {
      int supported = NativeBlake3.supportedIsas();
      for (int isa = 0; isa < NativeBlake3.ISA_NAMES.length; isa++) {
        if ((supported & (1 << isa)) != 0 && NativeBlake3.selectIsa(isa) == isa) {
          ks.add(new NativeKernel(isa, true));
          ks.add(new NativeKernel(isa, false));
        }
      }
    }
    return ks;
  }

  /** The kernel's name, for a native one how it reaches arrays, for a forced Java one its path. */
  static String label(Kernel k) {
    if (k instanceof NativeKernel) {
      NativeKernel n = (NativeKernel) k;
      return k.name() + (n.pins() ? " pinned" : " copied") + (n.hasSlots() ? "" : ", no slots");
    }
    if (k == JavaKernel.LANES || k == JavaKernel.ONE_CHUNK) {
      return k.name() + (k == JavaKernel.LANES ? " lanes" : " one-chunk");
    }
    if (VectorChoice.moduleReadable() && k == VectorChoice.vectorKernelOnVectorLanes()) {
      return k.name() + " (batches on vector lanes)";
    }
    return k.name();
  }

  /**
   * The hashing half of {@link Blake3}'s static API bound to one kernel: the chosen one goes
   * through Blake3 itself, any other through the same driver calls Blake3 makes.
   */
  static final class Api {
    final Kernel kernel;
    private final boolean chosen;

    Api(Kernel kernel, boolean chosen) {
      this.kernel = kernel;
      this.chosen = chosen;
    }

    String name() {
      return kernel.name();
    }

    @Override
    public String toString() {
      return chosen ? label(kernel) + " (chosen)" : label(kernel);
    }

    byte[] hash(byte[] in) {
      return chosen ? Blake3.hash(in) : oneShot(in, Spec.iv(), 0, Spec.OUT_LEN);
    }

    /** {@link Blake3#hash(byte[], int, int, byte[], int)} on this kernel. */
    void hashInto(byte[] in, int off, int len, byte[] out, int outOff) {
      if (chosen) {
        Blake3.hash(in, off, len, out, outOff);
      } else {
        OneShot.hash(kernel, in, off, len, Spec.iv(), 0, out, outOff, Spec.OUT_LEN);
      }
    }

    /** A string's hash, as {@link Blake3#hash(String)} makes it on this kernel. */
    byte[] hash(String text) {
      if (chosen) {
        return Blake3.hash(text);
      }
      byte[] utf8 = Utf8.withReplacement(text);
      return oneShot(utf8, Spec.iv(), 0, Spec.OUT_LEN);
    }

    byte[] hash(byte[] in, int outLen) {
      return chosen ? Blake3.hash(in, outLen) : oneShot(in, Spec.iv(), 0, outLen);
    }

    byte[] keyedHash(byte[] key, byte[] in) {
      return chosen ? Blake3.keyedHash(key, in) : oneShot(in, Checks.key(key), Spec.KEYED_HASH, Spec.OUT_LEN);
    }

    byte[] keyedHash(byte[] key, byte[] in, int outLen) {
      return chosen ? Blake3.keyedHash(key, in, outLen) : oneShot(in, Checks.key(key), Spec.KEYED_HASH, outLen);
    }

    byte[] deriveKey(String context, byte[] in) {
      return chosen ? Blake3.deriveKey(context, in)
          : oneShot(in, contextKey(context), Spec.DERIVE_KEY_MATERIAL, Spec.OUT_LEN);
    }

    byte[] deriveKey(String context, byte[] in, int outLen) {
      return chosen ? Blake3.deriveKey(context, in, outLen)
          : oneShot(in, contextKey(context), Spec.DERIVE_KEY_MATERIAL, outLen);
    }

    Blake3Hasher newHasher() {
      return chosen ? Blake3.newHasher() : new Blake3Hasher(new TreeState(kernel, Spec.iv(), 0));
    }

    Blake3Hasher newKeyedHasher(byte[] key) {
      return chosen ? Blake3.newKeyedHasher(key)
          : new Blake3Hasher(new TreeState(kernel, Checks.key(key), Spec.KEYED_HASH));
    }

    Blake3Hasher newDeriveKeyHasher(String context) {
      return chosen ? Blake3.newDeriveKeyHasher(context)
          : new Blake3Hasher(new TreeState(kernel, contextKey(context), Spec.DERIVE_KEY_MATERIAL));
    }

    /** {@link Blake3Hazmat#hashSubtrees(byte[], int, int, long, int, Blake3Hazmat.Mode, byte[], int)} on this kernel. */
    void hashSubtrees(byte[] in, int off, int len, long inputOffset, int subtreeLen, Blake3Hazmat.Mode mode, byte[] cvs,
        int cvsOff) {
      if (chosen) {
        Blake3Hazmat.hashSubtrees(in, off, len, inputOffset, subtreeLen, mode, cvs, cvsOff);
      } else {
        SubtreeBatch.hashSubtrees(kernel, in, off, len, inputOffset, subtreeLen, mode, cvs, cvsOff);
      }
    }

    /** {@link Blake3Hazmat#hashSubtrees(java.nio.ByteBuffer, long, int, Blake3Hazmat.Mode, byte[], int)} on this kernel. */
    void hashSubtrees(java.nio.ByteBuffer in, long inputOffset, int subtreeLen, Blake3Hazmat.Mode mode, byte[] cvs,
        int cvsOff) {
      if (chosen) {
        Blake3Hazmat.hashSubtrees(in, inputOffset, subtreeLen, mode, cvs, cvsOff);
      } else {
        SubtreeBatch.hashSubtrees(kernel, in, inputOffset, subtreeLen, mode, cvs, cvsOff);
      }
    }

    /** {@link Blake3Hazmat#mergeSubtrees(byte[], int, int, Blake3Hazmat.Mode, byte[], int)} on this kernel. */
    void mergeSubtrees(byte[] childCvs, int off, int count, Blake3Hazmat.Mode mode, byte[] out, int outOff) {
      if (chosen) {
        Blake3Hazmat.mergeSubtrees(childCvs, off, count, mode, out, outOff);
      } else {
        SubtreeBatch.mergeSubtrees(kernel, childCvs, off, count, mode, out, outOff);
      }
    }

    private int[] contextKey(String context) {
      return Blake3.contextKey(kernel, context);
    }

    private byte[] oneShot(byte[] in, int[] key, int flags, int outLen) {
      byte[] out = new byte[outLen];
      OneShot.hash(kernel, in, 0, in.length, key, flags, out, 0, outLen);
      return out;
    }
  }
}
