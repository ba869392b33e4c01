/*
 * The one symbol ab.c calls in a kernels library built by ab.sh: a one-shot hash with the
 * kernel named `isa`, or -1 when this build or CPU does not have that kernel.
 */
#include "blake3_impl.h"

__attribute__((visibility("default"))) int ab_oneshot(const char *isa, const uint8_t *in,
                                                      size_t len, uint8_t out[32]) {
  const int id = blake3_isa_from_name(isa);
  const blake3_kernel *k = blake3_kernel_for(id);
  if (id < 0 || k == NULL || (int)k->isa != id) return -1;
  blake3_hash_oneshot(k, in, len, blake3_iv, 0, 0, out, 32);
  return 0;
}

/* The kernel named `isa` for lanes_timing.c, or NULL when this build or CPU does not have it. */
__attribute__((visibility("default"))) const blake3_kernel *ab_kernel(const char *isa) {
  const int id = blake3_isa_from_name(isa);
  const blake3_kernel *k = blake3_kernel_for(id);
  return id >= 0 && k != NULL && (int)k->isa == id ? k : NULL;
}
