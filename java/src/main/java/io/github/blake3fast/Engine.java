package io.github.blake3fast;

/** The kernel every hasher uses, chosen once when this class initializes, and why. */
final class Engine {
  private Engine() {}

  private static final NativeLoader.Choice CHOICE = NativeLoader.choose();

  static {
    // One-time work belongs here, when the engine is chosen, not in a later call.
    if (!(CHOICE.kernel instanceof NativeKernel)) {
      Compress.View.create();
      LaneRule.lanesWin();
    }
  }

  static Kernel kernel() {
    return CHOICE.kernel;
  }

  static String description() {
    // The default Vector API engine takes over while the JVM runs: ask it what runs now.
    return CHOICE.kernel instanceof WarmingVectorKernel ? ((WarmingVectorKernel) CHOICE.kernel).description()
        : CHOICE.description;
  }
}
