package io.github.blake3fast;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Locale;

/**
 * Which Java engine runs when native code does not: the Vector API one ({@code VectorKernel},
 * compiled from src/main/java-vector) or the scalar {@link JavaKernel}. Decided once, when the
 * engine is chosen, from the JVM and the switches alone, as Lucene picks its vectorization
 * provider: the Vector API engine needs the incubator module {@code jdk.incubator.vector} in the
 * boot layer, which only {@code --add-modules jdk.incubator.vector} puts there, and
 * {@link #offReason} must find nothing against it (JDK, architecture, C2). Its classes are loaded
 * only after the module was found, so a JVM without the module never sees a class that names it.
 * Chosen so, it takes over from the scalar engine after a fixed warm-up on a thread of its own
 * ({@link WarmingVectorKernel}); {@code -Dblake3.vector=true} uses it from the first hash,
 * whatever the rule says, and {@code -Dblake3.vector=false} never. Either way it must give the
 * known answers ({@link SelfTest}) first.
 */
final class VectorChoice {
  private VectorChoice() {}

  static final String PROP_VECTOR = "blake3.vector";
  static final String MODULE = "jdk.incubator.vector";
  /** What the description says when the module is missing: how to get the engine. */
  static final String HOW_TO_ENABLE = "add --add-modules " + MODULE + " for the Vector API engine";

  /**
   * The smallest Java feature release the engine is for: it was measured paying on 17, 21 and
   * 25 once compiled (bench/notes/java-vector.md).
   */
  static final int MIN_FEATURE = 17;

  /** The Java engine, native code being off for {@code reason}; never throws. */
  static NativeLoader.Choice choose(String reason) {
    return choose(reason, System.getProperty(PROP_VECTOR), false);
  }

  /**
   * As above, with {@code setting} for the value of {@code -Dblake3.vector} (null: unset); with
   * {@code corruptForTest} (tests only) the vector engine's self-test sees one wrong bit.
   */
  static NativeLoader.Choice choose(String reason, String setting, boolean corruptForTest) {
    String scalar = "java (" + reason;
    try {
      boolean forced = false;
      if (setting != null) {
        switch (setting.trim().toLowerCase(Locale.ROOT)) {
          case "true":
            forced = true;
            break;
          case "false":
            return new NativeLoader.Choice(JavaKernel.INSTANCE, scalar + ")");
          default:
            NativeLoader.log(Level.WARNING, "blake3-fast: bad -D" + PROP_VECTOR + "=" + setting + ": use true or false");
        }
      }
      Module module = bootModule();
      if (module == null) {
        return new NativeLoader.Choice(JavaKernel.INSTANCE, scalar + "; " + HOW_TO_ENABLE + ")");
      }
      if (!forced) {
        String off = offReason(Runtime.version().feature(), System.getProperty("os.arch", ""), JvmOptions.list());
        if (off != null) {
          return new NativeLoader.Choice(JavaKernel.INSTANCE,
              scalar + "; Vector API engine off: " + off + ", -D" + PROP_VECTOR + "=true forces it)");
        }
        WarmingVectorKernel warming = new WarmingVectorKernel(reason, module, corruptForTest);
        warming.start();
        return new NativeLoader.Choice(warming, null);
      }
      // A named module reads only what its descriptor requires; this one asks at run time, so
      // that its descriptor need not name an incubator module.
      VectorChoice.class.getModule().addReads(module);
      Kernel k = vectorKernel();
      String mismatch = SelfTest.compare(k, corruptForTest);
      if (mismatch != null) {
        String why = k.name() + " failed its self-test against the Java engine (" + mismatch + ")";
        NativeLoader.log(Level.WARNING, "blake3-fast: using the scalar Java engine: " + why);
        return new NativeLoader.Choice(JavaKernel.INSTANCE, scalar + "; " + why + ")");
      }
      return new NativeLoader.Choice(k, k.name() + " (" + reason + ")");
    } catch (Throwable t) { // whatever the incubator module does, class init must not fail
      NativeLoader.log(Level.WARNING, "blake3-fast: Vector API engine refused: " + t);
      return new NativeLoader.Choice(JavaKernel.INSTANCE, scalar + "; Vector API engine refused: " + t + ")");
    }
  }

  /** Whether the module is in the boot layer (what {@code --add-modules} does). */
  static boolean moduleReadable() {
    return bootModule() != null;
  }

  /**
   * The module from the boot layer, or null. A loop, not ModuleLayer.findModule: that one runs a
   * stream, whose classes cost a fresh JVM's first hash milliseconds (StartupClassesTest).
   */
  private static Module bootModule() {
    for (Module m : ModuleLayer.boot().modules()) {
      if (m.getName().equals(MODULE)) {
        return m;
      }
    }
    return null;
  }

  /**
   * The Vector API engine; callable only once {@link #moduleReadable} said yes. A method of its
   * own, returning the interface: the verifier then loads no class that names the module.
   */
  static Kernel vectorKernel() {
    return VectorKernel.INSTANCE;
  }

  /** As {@link #vectorKernel}, its batches on the vector lanes on every JDK (tests). */
  static Kernel vectorKernelOnVectorLanes() {
    return VectorKernel.ON_VECTOR_LANES;
  }

  /**
   * Why the engine does not pay on a JVM of this feature release and architecture started with
   * these options (null: it pays). Its vector code needs C2, which compiles the Vector API into
   * SIMD instructions (C1 and the interpreter run it as objects, far slower than scalar code);
   * HotSpot implements it for x86-64 and AArch64.
   */
  static String offReason(int feature, String arch, List<String> options) {
    if (feature < MIN_FEATURE) {
      return "JDK " + feature + " compiles it slower than the scalar engine";
    }
    if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
      return "no Vector API intrinsics known on " + arch;
    }
    if (options == null) {
      return "JVM options unreadable";
    }
    for (String o : options) {
      if (JvmOptions.fromFile(o)) {
        return "JVM options in a file";
      }
    }
    if (!JvmOptions.c2(options)) {
      return "no C2";
    }
    return null;
  }
}
