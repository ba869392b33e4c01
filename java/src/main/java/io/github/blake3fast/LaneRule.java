package io.github.blake3fast;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/**
 * Whether the Java kernel hashes runs of chunks with {@link JavaLanes} or one chunk at a time,
 * decided from how this JVM's JIT compiles loops, never from a timing. The lane path is one
 * loop over the lanes per step of G; it wins wherever C2 turns those loops into vector
 * instructions of at least 4 lanes, and loses where the loops run one lane at a time, with
 * every state word loaded from and stored to an array at each step while the one-chunk
 * compression keeps the state in registers. So the lanes need: C2 (tiered compilation up to
 * level 4), its auto-vectorizer ({@code UseSuperWord}) and vectors of at least 16 bytes
 * ({@code MaxVectorSize}, which on x86 already reflects {@code UseAVX}). Anything this cannot
 * read (another JVM, no jdk.management module) gets the one-chunk path: it is never the slow
 * choice by much. Measurements: bench/results/java-engine.md.
 *
 * <p>Read lazily, the first time a run of chunks long enough for the lanes is hashed, so that
 * short inputs never load the management classes.
 */
final class LaneRule {
  private LaneRule() {}

  /** The smallest vector, in bytes, that makes the lanes pay: 4 lanes of 32 bits. */
  static final int MIN_VECTOR = 16;

  /** The JIT flags the rule reads, in the order {@link #lanesWin(String...)} takes their values. */
  static final String[] FLAGS = {"UseCompiler", "TieredCompilation", "TieredStopAtLevel", "UseSuperWord",
      "MaxVectorSize"};

  static boolean lanesWin() {
    return Decided.LANES_WIN;
  }

  /**
   * The rule on the values of {@link #FLAGS} as the JVM prints them ("true", "4", ...), each
   * null when this JVM has no such flag or would not say.
   */
  static boolean lanesWin(String... values) {
    String useCompiler = values[0];
    String tiered = values[1];
    String stopAtLevel = values[2];
    String superWord = values[3];
    String maxVector = values[4];
    boolean c2 = "true".equals(useCompiler)
        && ("false".equals(tiered) || atLeast(stopAtLevel, 4));
    return c2 && "true".equals(superWord) && atLeast(maxVector, MIN_VECTOR);
  }

  private static boolean atLeast(String value, long min) {
    if (value == null) {
      return false;
    }
    try {
      return Long.parseLong(value) >= min;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** This JVM's values of {@link #FLAGS}. */
  static String[] flags() {
    String[] values = new String[FLAGS.length];
    try {
      HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      for (int i = 0; bean != null && i < FLAGS.length; i++) {
        values[i] = value(bean, FLAGS[i]);
      }
    } catch (LinkageError | SecurityException e) {
      // No java.management / jdk.management in this runtime or module graph: values stay null.
    }
    return values;
  }

  private static String value(HotSpotDiagnosticMXBean bean, String flag) {
    try {
      VMOption option = bean.getVMOption(flag);
      return option.getValue();
    } catch (IllegalArgumentException e) {
      return null; // no such flag in this JVM
    }
  }

  private static final class Decided {
    static final boolean LANES_WIN = lanesWin(flags());
  }
}
