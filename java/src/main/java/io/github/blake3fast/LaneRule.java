package io.github.blake3fast;

import java.io.IOException;
import java.util.List;

/**
 * Whether the Java kernel hashes runs of chunks with {@link JavaLanes} or one chunk at a time,
 * decided from how this JVM's JIT compiles loops, never from a timing. The lane path is one
 * loop over the lanes per step of G; it wins wherever C2 turns those loops into vector
 * instructions of at least 4 lanes (SSE, AVX2 and AVX-512 alike, bench/results/java-engine.md)
 * and gains nothing where the loops run one lane at a time, with every state word loaded from
 * and stored to an array at each step while the one-chunk compression keeps it in registers.
 *
 * <p>So the lanes need C2, its auto-vectorizer and vectors of at least 16 bytes. HotSpot gives
 * all three by default on x86-64 and AArch64, whose baseline SIMD (SSE2, NEON) is 16 bytes wide;
 * only options take them away, and the options are read the way {@link CriticalArrays} reads
 * them (the command line and the option environment variables), not from the HotSpot MXBean,
 * whose management classes cost a fresh JVM tens of milliseconds. The options that count:
 * {@code -Xint}, {@code -XX:-UseCompiler}, {@code -XX:TieredStopAtLevel} below 4 with tiers,
 * {@code -XX:-UseSuperWord}, {@code -XX:MaxVectorSize} below 16, {@code -XX:UseSSE} below 2,
 * {@code -XX:+UseJVMCICompiler} (a JIT this rule knows nothing about); the last of each wins,
 * as in the JVM. Where the options cannot be read, come from a file the JVM reads itself, or the
 * architecture is another, the one-chunk path runs: it is never far behind where lanes would
 * not vectorize.
 *
 * <p>Decided lazily, the first time a run of chunks long enough for the lanes is hashed.
 */
final class LaneRule {
  private LaneRule() {}

  /** The smallest vector, in bytes, that makes the lanes pay: 4 lanes of 32 bits. */
  static final int MIN_VECTOR = 16;

  static boolean lanesWin() {
    return Decided.LANES_WIN;
  }

  /** The rule for a JVM on {@code arch} ({@code os.arch}) started with {@code options}, in order. */
  static boolean lanesWin(String arch, List<String> options) {
    if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
      return false;
    }
    boolean compiler = true;
    boolean tiered = true;
    long stopAtLevel = 4;
    boolean superWord = true;
    long maxVector = MIN_VECTOR; // at least this by default on both architectures
    long sse = 2;
    for (String o : options) {
      if (o.startsWith("-XX:Flags=") || o.startsWith("-XX:VMOptionsFile=") || o.startsWith("@")) {
        return false; // options this class does not read
      } else if (o.equals("-Xint") || o.equals("-XX:-UseCompiler") || o.equals("-XX:+UseJVMCICompiler")) {
        compiler = false;
      } else if (o.equals("-Xmixed") || o.equals("-XX:+UseCompiler") || o.equals("-XX:-UseJVMCICompiler")) {
        compiler = true;
      } else if (o.equals("-XX:-TieredCompilation") || o.equals("-XX:+TieredCompilation")) {
        tiered = o.charAt(4) == '+';
      } else if (o.equals("-XX:-UseSuperWord") || o.equals("-XX:+UseSuperWord")) {
        superWord = o.charAt(4) == '+';
      } else if (o.startsWith("-XX:TieredStopAtLevel=")) {
        stopAtLevel = number(o);
      } else if (o.startsWith("-XX:MaxVectorSize=")) {
        maxVector = number(o);
      } else if (o.startsWith("-XX:UseSSE=")) {
        sse = number(o);
      }
    }
    boolean c2 = compiler && (!tiered || stopAtLevel >= 4);
    return c2 && superWord && maxVector >= MIN_VECTOR && sse >= 2;
  }

  /** The value after '=', or -1 (which no rule accepts) if it is no plain number. */
  private static long number(String option) {
    try {
      return Long.parseLong(option.substring(option.indexOf('=') + 1));
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private static final class Decided {
    static final boolean LANES_WIN = decide();

    private static boolean decide() {
      try {
        return lanesWin(System.getProperty("os.arch", ""), CriticalArrays.jvmOptions());
      } catch (IOException | RuntimeException e) {
        return false; // unknown: the one-chunk path
      }
    }
  }
}
