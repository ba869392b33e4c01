package io.github.blake3fast.bench;

import java.util.Arrays;
import java.util.Objects;

/**
 * The official BLAKE3 C code and assembly with one ISA forced, for {@link AnchorBench} and
 * bench/native/JavaEngineTiming: the
 * library {@code bench/native/official.sh} builds with {@code OFFICIAL_JNI=1}
 * ({@code official_jni.c}), loaded from the path in the system property {@value #LIBRARY}.
 * Every offset and length is checked here, before the native call.
 */
public final class OfficialBlake3 {
  /** The system property naming the official library's file. */
  static final String LIBRARY = "anchor.official";

  /** The ISAs the shim can force, in the order of {@code official_isas} in official_jni.c. */
  static final String[] ISAS = {"portable", "sse2", "sse41", "avx2", "avx512"};

  private static boolean loaded;

  private final int isa;

  private OfficialBlake3(int isa) {
    this.isa = isa;
  }

  /** The official code forced to {@code isaName}; fails if it cannot run that ISA here. */
  public static OfficialBlake3 forIsa(String isaName) {
    int index = Arrays.asList(ISAS).indexOf(isaName);
    if (index < 0) {
      throw new IllegalArgumentException("no official ISA " + isaName + "; one of " + String.join(", ", ISAS));
    }
    load();
    OfficialBlake3 official = new OfficialBlake3(index);
    official.hash(new byte[0], 0, 0); // the shim refuses an ISA this CPU lacks: find out now
    return official;
  }

  private static synchronized void load() {
    if (loaded) {
      return;
    }
    String path = System.getProperty(LIBRARY);
    if (path == null || path.isEmpty()) {
      throw new IllegalStateException("-D" + LIBRARY + "=/path/to/official.so is not set (bench/anchor.sh sets it)");
    }
    System.load(path);
    loaded = true;
  }

  /** The 32-byte hash of {@code in[off, off + len)}, in a new array like {@code Blake3.hash}. */
  public byte[] hash(byte[] in, int off, int len) {
    byte[] out = new byte[32];
    hash(in, off, len, out);
    return out;
  }

  /** The same into {@code out[0, 32)}: a timing loop that allocates nothing. */
  public void hash(byte[] in, int off, int len, byte[] out) {
    Objects.checkFromIndexSize(off, len, in.length);
    Objects.checkFromIndexSize(0, 32, out.length);
    if (hash0(isa, in, off, len, out) != 0) {
      throw new IllegalStateException("the official code refused " + ISAS[isa] + " (CPU lacks it, or the array could not be pinned)");
    }
  }

  /**
   * The hash of each packed message (message i is {@code data[offsets[i], offsets[i] +
   * lengths[i])}) to {@code out[32 i]}, one official hasher each: the only way its API allows.
   */
  public void hashMany(byte[] data, int[] offsets, int[] lengths, byte[] out) {
    if (offsets.length != lengths.length || out.length < 32L * offsets.length) {
      throw new IllegalArgumentException("offsets, lengths and out disagree");
    }
    for (int i = 0; i < offsets.length; i++) {
      Objects.checkFromIndexSize(offsets[i], lengths[i], data.length);
    }
    if (hashMany0(isa, data, offsets, lengths, offsets.length, out) != 0) {
      throw new IllegalStateException("the official code refused " + ISAS[isa] + " (CPU lacks it, or an array could not be pinned)");
    }
  }

  private static native int hash0(int isa, byte[] in, int off, int len, byte[] out);

  private static native int hashMany0(int isa, byte[] data, int[] offsets, int[] lengths, int n, byte[] out);
}
