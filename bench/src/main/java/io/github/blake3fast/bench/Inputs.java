package io.github.blake3fast.bench;

import java.util.SplittableRandom;

/** Benchmark inputs: random bytes from a fixed seed, so every run and fork hashes the same data. */
final class Inputs {
  /** The seed of every input array; change it and all results are for other (equally random) data. */
  static final long SEED = 0x5EED_B1A3E3L;

  /** Bytes fed per update call in the streaming benchmarks. */
  static final int UPDATE_LEN = 64;

  private Inputs() {}

  /** {@code size} pseudo-random bytes, the same for a given size in every JVM. */
  static byte[] random(int size) {
    byte[] b = new byte[size];
    new SplittableRandom(SEED + size).nextBytes(b);
    return b;
  }
}
