/**
 * BLAKE3 hashing with native SIMD kernels and a pure-Java fallback ({@code io.github.blake3fast}),
 * and Bao verified streaming on top of its public API ({@code io.github.blake3fast.bao}). The
 * package {@code io.github.blake3fast.internal} is shared by the two and not exported.
 */
module io.github.blake3fast {
  exports io.github.blake3fast;
  exports io.github.blake3fast.bao;

  provides java.security.Provider with io.github.blake3fast.Blake3Provider;
}
