package io.github.blake3fast;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The claim word of one of a fixed set of slots that threads take with a compare-and-set and
 * never wait for ({@link ShortHashSlots}, {@link CopyBuffers}). An AtomicInteger rather than an
 * element of an int[] through a VarHandle: creating that VarHandle costs a fresh JVM about as
 * much as the rest of the native engine's start together (bench/notes/startup.md). Padded so
 * that the claims of neighbouring slots, taken by different threads, do not share a cache line:
 * the JVM lays a subclass's fields out after its superclass's.
 */
@SuppressWarnings("unused")
final class Claim extends AtomicInteger {
  private static final long serialVersionUID = 1L;

  private long pad1, pad2, pad3, pad4, pad5, pad6, pad7;

  /** Claims for {@code n} slots, all free (0). */
  static Claim[] array(int n) {
    Claim[] claims = new Claim[n];
    for (int i = 0; i < n; i++) {
      claims[i] = new Claim();
    }
    return claims;
  }
}
