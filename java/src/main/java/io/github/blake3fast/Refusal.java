package io.github.blake3fast;

import java.lang.System.Logger.Level;

/**
 * Why native code does not run, as the loader's steps report it to {@link NativeLoader#choose()}.
 * {@code elsewhere}: another location might still work; {@code refused}: native code was wanted
 * and failed (said as "native refused: ..."); {@code level}: how it is logged, null for not at all.
 */
final class Refusal extends Exception {
  private static final long serialVersionUID = 1L;
  final Level level;
  final boolean elsewhere;
  final boolean refused;
  /** Someone else could change the location: said as a warning even when another one works. */
  final boolean unsafe;

  private Refusal(Level level, boolean elsewhere, boolean refused, boolean unsafe, String reason) {
    super(reason, null, false, false);
    this.level = level;
    this.elsewhere = elsewhere;
    this.refused = refused;
    this.unsafe = unsafe;
  }

  /** A failure tied to one location: the next location may do better. */
  static Refusal here(String reason) {
    return new Refusal(Level.WARNING, true, true, false, reason);
  }

  /** A location others could change between our check and the load: the next may do better. */
  static Refusal unsafe(String reason) {
    return new Refusal(Level.WARNING, true, true, true, reason);
  }

  /** A failure no other location can fix: the Java engine runs. */
  static Refusal fatal(String reason) {
    return new Refusal(Level.WARNING, false, true, false, reason);
  }

  /** Said as it is (a bad switch value, a jar without the library), logged as a warning. */
  static Refusal warn(String reason) {
    return new Refusal(Level.WARNING, false, false, false, reason);
  }

  /**
   * Not a failure: the user or the platform chose the Java engine. Not logged, only said by
   * {@link Blake3#implementation()}: the first call to System.getLogger initialises the logging
   * framework, several times what choosing the Java engine otherwise costs
   * (bench/notes/startup.md).
   */
  static Refusal chosen(String reason) {
    return new Refusal(null, false, false, false, reason);
  }
}
