/*
 * The official BLAKE3 C code (from the source Debian's librust-blake3-dev installs; see
 * official.sh) behind the same one symbol as ab_shim.c, so that ab.c and the JMH anchor can
 * time it beside ours. The official library has no switch to pick a kernel at run time, but its
 * dispatch reads the CPU features once into g_cpu_features and trusts that value afterwards: this
 * file compiles the official dispatch as part of itself and sets that value to the features the
 * named ISA needs, which is what its own tests do.
 */
#include "blake3_dispatch.c"

#include <string.h>

/* The features the official dispatch needs to take the named ISA's kernels, or -1. */
static int official_features(const char *isa) {
  if (strcmp(isa, "portable") == 0) return 0;
  if (strcmp(isa, "sse2") == 0) return SSE2;
  if (strcmp(isa, "sse41") == 0) return SSE2 | SSSE3 | SSE41;
  if (strcmp(isa, "avx2") == 0) return SSE2 | SSSE3 | SSE41 | AVX | AVX2;
  if (strcmp(isa, "avx512") == 0) return SSE2 | SSSE3 | SSE41 | AVX | AVX2 | AVX512F | AVX512VL;
  return -1;
}

__attribute__((visibility("default"))) int ab_oneshot(const char *isa, const uint8_t *in,
                                                      size_t len, uint8_t out[32]) {
  const int want = official_features(isa);
  if (want < 0) return -1;
  /* CPUID once: in a virtual machine each one is a trap to the hypervisor. */
  static int have = -1;
  if (have < 0) {
    g_cpu_features = UNDEFINED;
    have = (int)get_cpu_features();
  }
  if ((have & want) != want) return -1;
  g_cpu_features = (enum cpu_feature)want;
  blake3_hasher h;
  blake3_hasher_init(&h);
  blake3_hasher_update(&h, in, len);
  blake3_hasher_finalize(&h, out, 32);
  return 0;
}

/* The official API's only way to hash many messages: one hasher each. Message i is
 * data[offsets[i], offsets[i] + lengths[i]); its hash goes to out + 32 i. */
__attribute__((visibility("default"))) int ab_many(const char *isa, const uint8_t *data,
                                                   const int32_t *offsets, const int32_t *lengths,
                                                   size_t n, uint8_t *out) {
  uint8_t probe[32];
  if (ab_oneshot(isa, NULL, 0, probe) != 0) return -1; /* forces the ISA, or refuses it */
  for (size_t i = 0; i < n; i++) {
    blake3_hasher h;
    blake3_hasher_init(&h);
    blake3_hasher_update(&h, data + offsets[i], (size_t)lengths[i]);
    blake3_hasher_finalize(&h, out + 32 * i, 32);
  }
  return 0;
}
