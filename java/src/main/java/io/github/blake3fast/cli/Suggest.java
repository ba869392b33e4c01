package io.github.blake3fast.cli;

/**
 * "Did you mean" for a mistyped long option, as the official tool's parser picks it: the known
 * name with the highest Jaro-Winkler similarity above 0.8, the first one on a tie.
 */
final class Suggest {
  private Suggest() {}

  static CliArg closestLong(String typed) {
    CliArg best = null;
    double bestScore = 0;
    for (CliArg a : CliArg.values()) {
      double score = jaroWinkler(typed, a.id);
      if (score > 0.8 && (best == null || bestScore < score)) {
        best = a;
        bestScore = score;
      }
    }
    return best;
  }

  /**
   * Jaro similarity plus a bonus of 0.1 per character of common prefix (the prefix is not
   * limited to four characters here, and the result is capped at 1).
   */
  static double jaroWinkler(String a, String b) {
    double jaro = jaro(a, b);
    int prefix = 0;
    while (prefix < a.length() && prefix < b.length() && a.charAt(prefix) == b.charAt(prefix)) {
      prefix++;
    }
    double jw = jaro + 0.1 * prefix * (1.0 - jaro);
    return Math.min(jw, 1.0);
  }

  /**
   * Jaro similarity. A character of {@code a} matches the first unused equal character of
   * {@code b} within the search window; a match that lies before the previous match in
   * {@code b} counts as a transposition.
   */
  static double jaro(String a, String b) {
    int la = a.length();
    int lb = b.length();
    if (la == 0 && lb == 0) {
      return 1.0;
    }
    if (la == 0 || lb == 0) {
      return 0.0;
    }
    int window = Math.max(0, Math.max(la, lb) / 2 - 1);
    boolean[] usedB = new boolean[lb];
    double matches = 0;
    double transpositions = 0;
    int lastMatch = 0;
    for (int i = 0; i < la; i++) {
      int lo = Math.max(0, i - window);
      int hi = Math.min(lb - 1, i + window);
      for (int j = lo; j <= hi; j++) {
        if (!usedB[j] && a.charAt(i) == b.charAt(j)) {
          usedB[j] = true;
          matches++;
          if (j < lastMatch) {
            transpositions++;
          }
          lastMatch = j;
          break;
        }
      }
    }
    if (matches == 0) {
      return 0.0;
    }
    return (matches / la + matches / lb + (matches - transpositions) / matches) / 3.0;
  }
}
