package io.github.blake3fast;

/** The kernel every hasher uses, chosen once when this class initializes, and why. */
final class Engine {
  private Engine() {}

  private static final NativeLoader.Choice CHOICE = NativeLoader.choose();

  static Kernel kernel() {
    return CHOICE.kernel;
  }

  static String description() {
    return CHOICE.description;
  }
}
