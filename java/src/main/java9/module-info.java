/** BLAKE3 hashing with native SIMD kernels and a pure-Java fallback. */
module io.github.blake3fast {
  exports io.github.blake3fast;

  provides java.security.Provider with io.github.blake3fast.Blake3Provider;
}
