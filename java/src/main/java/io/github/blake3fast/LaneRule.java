package io.github.blake3fast;

import java.util.List;

/**
 * Whether the Java kernel hashes runs of chunks with {@link JavaLanes} or one chunk at a time,
 * decided from how this JVM's JIT will compile the lane loops, never from a timing
 * (bench/notes/java-engine.md has the measurements behind each condition).
 *
 * <p>The lane path is one loop over the lanes per step of G. It needs C2: compiled by C1 alone
 * (or interpreted) it loses. Under C2 it wins where the loops are vectorized, that is with the
 * auto-vectorizer ({@code UseSuperWord}) and vectors of at least 16 bytes ({@code MaxVectorSize};
 * x86-64 and AArch64 always have 16-byte SIMD). Without vectorization it still wins as unrolled
 * scalar loops, but only if C2 inlines the G loop into the round loop, which it does not when
 * the G loop's compiled code is larger than {@code InlineSmallCode}: that flag must be at least
 * 2500 bytes, its default with tiered compilation (1000 without tiers on x86).
 *
 * <p>HotSpot's defaults give all of this on x86-64 and AArch64; only options take it away, and
 * the options are read by {@link JvmOptions} (the command line and the option environment
 * variables), not from the HotSpot MXBean, whose management classes cost a
 * fresh JVM tens of milliseconds. The options that count: {@code -Xint}, {@code -XX:-UseCompiler},
 * {@code -XX:+UseJVMCICompiler} (a JIT this rule knows nothing about), {@code -XX:-TieredCompilation},
 * {@code -XX:TieredStopAtLevel}, {@code -XX:-UseSuperWord}, {@code -XX:MaxVectorSize},
 * {@code -XX:UseSSE}, {@code -XX:InlineSmallCode}; the last of each wins, as in the JVM. Where
 * the options cannot be read, come from a file the JVM reads itself, or the architecture is
 * another, the one-chunk path runs.
 *
 * <p>Decided lazily, the first time a run of chunks long enough for the lanes is hashed.
 */
final class LaneRule {
  private LaneRule() {}

  /** The smallest vector, in bytes, that makes the lanes pay: 4 lanes of 32 bits. */
  static final int MIN_VECTOR = 16;

  /** The smallest InlineSmallCode under which unvectorized lanes were measured to win. */
  static final int MIN_INLINE_SMALL_CODE = 2500;

  static boolean lanesWin() {
    return Decided.LANES_WIN;
  }

  /** The rule for a JVM on {@code arch} ({@code os.arch}) started with {@code options}, in order. */
  static boolean lanesWin(String arch, List<String> options) {
    if (!arch.equals("amd64") && !arch.equals("x86_64") && !arch.equals("aarch64")) {
      return false;
    }
    boolean tiered = true;
    boolean superWord = true;
    long maxVector = MIN_VECTOR; // at least this by default on both architectures
    long sse = 2;
    long inlineSmallCode = -1; // the default, which depends on the tiers
    for (String o : options) {
      if (JvmOptions.fromFile(o)) {
        return false; // options this class does not read
      } else if (o.equals("-XX:-TieredCompilation") || o.equals("-XX:+TieredCompilation")) {
        tiered = o.charAt(4) == '+';
      } else if (o.equals("-XX:-UseSuperWord") || o.equals("-XX:+UseSuperWord")) {
        superWord = o.charAt(4) == '+';
      } else if (o.startsWith("-XX:MaxVectorSize=")) {
        maxVector = JvmOptions.number(o);
      } else if (o.startsWith("-XX:UseSSE=")) {
        sse = JvmOptions.number(o);
      } else if (o.startsWith("-XX:InlineSmallCode=")) {
        inlineSmallCode = Math.max(0, JvmOptions.number(o));
      }
    }
    boolean c2 = JvmOptions.c2(options);
    boolean vectorized = superWord && maxVector >= MIN_VECTOR && sse >= 2;
    long inlining = inlineSmallCode >= 0 ? inlineSmallCode : tiered ? MIN_INLINE_SMALL_CODE : 1000;
    return c2 && (vectorized || inlining >= MIN_INLINE_SMALL_CODE);
  }

  private static final class Decided {
    static final boolean LANES_WIN = decide();

    private static boolean decide() {
      List<String> options = JvmOptions.list();
      return options != null && lanesWin(System.getProperty("os.arch", ""), options); // unknown: one chunk
    }
  }
}
