/** BLAKE3 hashing with native SIMD kernels and a pure-Java fallback. */
module io.github.blake3fast {
  exports io.github.blake3fast;

  // Only to read the JIT's flags (LaneRule); without these modules the Java engine takes its
  // one-chunk path, which is never the slow choice.
  requires static java.management;
  requires static jdk.management;

  provides java.security.Provider with io.github.blake3fast.Blake3Provider;
}
