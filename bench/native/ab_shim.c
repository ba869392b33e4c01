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

/* Many messages at once with the kernel named `isa` (blake3_hash_batch): message i is
 * data[offsets[i], offsets[i] + lengths[i]), its hash to out + 32 i; -1 as ab_oneshot. */
__attribute__((visibility("default"))) int ab_many(const char *isa, const uint8_t *data,
                                                   const int32_t *offsets, const int32_t *lengths,
                                                   size_t n, uint8_t *out) {
  const int id = blake3_isa_from_name(isa);
  const blake3_kernel *k = blake3_kernel_for(id);
  if (id < 0 || k == NULL || (int)k->isa != id) return -1;
  blake3_hash_batch(k, data, offsets, lengths, n, blake3_iv, 0, out);
  return 0;
}
