/*
 * blake3-fast: standalone test and throughput loop for the x86 kernels (SSE2, SSE4.1, AVX2,
 * AVX-512), against a plain reference compression written here from the specification.
 *
 *   cc -O2 -Inative/src native/test/x86_selftest.c blake3_sse2.o ... -o x86_selftest
 *   ./x86_selftest          correctness of every kernel this CPU runs
 *   ./x86_selftest bench    hash_many throughput (1 MiB of chunks, repeated), GB/s
 *
 * Build with -DNO_SSE41 / -DNO_AVX2 / -DNO_AVX512 to leave a kernel out of the link.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "blake3_impl.h"

/* ---- reference, straight from the specification --------------------------------------- */

static const uint32_t REF_IV[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                                   0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};
static const int REF_PERM[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

static uint32_t ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void ref_g(uint32_t *s, int a, int b, int c, int d, uint32_t x, uint32_t y) {
  s[a] = s[a] + s[b] + x;
  s[d] = ror(s[d] ^ s[a], 16);
  s[c] = s[c] + s[d];
  s[b] = ror(s[b] ^ s[c], 12);
  s[a] = s[a] + s[b] + y;
  s[d] = ror(s[d] ^ s[a], 8);
  s[c] = s[c] + s[d];
  s[b] = ror(s[b] ^ s[c], 7);
}

static void ref_compress(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
                         uint64_t counter, uint8_t flags, uint32_t out[16]) {
  uint32_t m[16], s[16], t[16];
  for (int i = 0; i < 16; i++) m[i] = blake3_load32(block + 4 * i);
  for (int i = 0; i < 8; i++) s[i] = cv[i];
  for (int i = 0; i < 4; i++) s[8 + i] = REF_IV[i];
  s[12] = (uint32_t)counter;
  s[13] = (uint32_t)(counter >> 32);
  s[14] = block_len;
  s[15] = flags;
  for (int r = 0; r < 7; r++) {
    ref_g(s, 0, 4, 8, 12, m[0], m[1]);
    ref_g(s, 1, 5, 9, 13, m[2], m[3]);
    ref_g(s, 2, 6, 10, 14, m[4], m[5]);
    ref_g(s, 3, 7, 11, 15, m[6], m[7]);
    ref_g(s, 0, 5, 10, 15, m[8], m[9]);
    ref_g(s, 1, 6, 11, 12, m[10], m[11]);
    ref_g(s, 2, 7, 8, 13, m[12], m[13]);
    ref_g(s, 3, 4, 9, 14, m[14], m[15]);
    for (int i = 0; i < 16; i++) t[i] = m[REF_PERM[i]];
    memcpy(m, t, sizeof m);
  }
  for (int i = 0; i < 8; i++) {
    out[i] = s[i] ^ s[i + 8];
    out[i + 8] = s[i + 8] ^ cv[i];
  }
}

static void ref_hash_many(const uint8_t *const *inputs, size_t n, size_t blocks,
                          const uint32_t key[8], uint64_t counter, int inc, uint8_t flags,
                          uint8_t fs, uint8_t fe, uint8_t *out) {
  for (size_t i = 0; i < n; i++) {
    uint32_t cv[8], o[16];
    memcpy(cv, key, 32);
    for (size_t b = 0; b < blocks; b++) {
      uint8_t f = flags;
      if (b == 0) f |= fs;
      if (b + 1 == blocks) f |= fe;
      ref_compress(cv, inputs[i] + 64 * b, 64, counter + (inc ? i : 0), f, o);
      memcpy(cv, o, 32);
    }
    for (int w = 0; w < 8; w++) blake3_store32(out + 32 * i + 4 * w, cv[w]);
  }
}

/* ---- kernels under test ---------------------------------------------------------------- */

typedef struct {
  const char *name;
  const char *cpu; /* __builtin_cpu_supports feature, NULL = baseline */
  blake3_compress_in_place_fn cip;
  blake3_compress_xof_fn cxof;
  blake3_hash_many_fn hm;
  blake3_xof_many_fn xm;
} kern;

static const kern KERNELS[] = {
    {"sse2", NULL, blake3_compress_in_place_sse2, blake3_compress_xof_sse2, blake3_hash_many_sse2,
     NULL},
#ifndef NO_SSE41
    {"sse41", "sse4.1", blake3_compress_in_place_sse41, blake3_compress_xof_sse41,
     blake3_hash_many_sse41, NULL},
#endif
#ifndef NO_AVX2
    {"avx2", "avx2", blake3_compress_in_place_avx2, blake3_compress_xof_avx2,
     blake3_hash_many_avx2, NULL},
#endif
#ifndef NO_AVX512
    {"avx512", "avx512vl", blake3_compress_in_place_avx512, blake3_compress_xof_avx512,
     blake3_hash_many_avx512, blake3_xof_many_avx512},
#endif
};
#define NKERNELS (sizeof KERNELS / sizeof KERNELS[0])

static int supported(const kern *k) {
  if (!k->cpu) return 1;
  __builtin_cpu_init();
  if (!strcmp(k->cpu, "sse4.1")) return __builtin_cpu_supports("sse4.1");
  if (!strcmp(k->cpu, "avx2")) return __builtin_cpu_supports("avx2");
  if (!strcmp(k->cpu, "avx512vl"))
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  return 0;
}

/* ---- helpers --------------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}
static void fill(void *p, size_t n) {
  uint8_t *b = p;
  for (size_t i = 0; i < n; i++) b[i] = (uint8_t)rnd();
}
static uint64_t rnd_counter(void) {
  switch (rnd() % 4) {
    case 0: return rnd() % 1000;
    case 1: return 0xFFFFFFFFull - rnd() % 40; /* counter + i crosses 2^32 inside a group */
    case 2: return 0x1FFFFFFF0ull + rnd() % 32;
    default: return rnd();
  }
}

static int failures = 0;
static void check(int ok, const char *what, const char *isa, const char *detail) {
  if (!ok) {
    failures++;
    if (failures < 30) printf("FAIL %s [%s] %s\n", what, isa, detail);
  }
}

static void hex(char *dst, const uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) sprintf(dst + 2 * i, "%02x", p[i]);
}

/* ---- tests ----------------------------------------------------------------------------- */

static void test_empty(const kern *k) {
  uint8_t block[64] = {0}, out[64];
  char h[129];
  k->cxof(REF_IV, block, 0, 0, CHUNK_START | CHUNK_END | ROOT, out);
  hex(h, out, 32);
  check(!strcmp(h, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
        "empty-input hash via compress_xof", k->name, h);
  uint32_t cv[8];
  memcpy(cv, REF_IV, 32);
  k->cip(cv, block, 0, 0, CHUNK_START | CHUNK_END | ROOT);
  uint8_t cvb[32];
  for (int i = 0; i < 8; i++) blake3_store32(cvb + 4 * i, cv[i]);
  hex(h, cvb, 32);
  check(!strcmp(h, "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262"),
        "empty-input hash via compress_in_place", k->name, h);
}

static void test_compress(const kern *k, int iters) {
  for (int it = 0; it < iters; it++) {
    uint32_t cv[8], ref[16], cv2[8];
    uint8_t block[64 + 7], out[64 + 3], refb[64];
    fill(cv, sizeof cv);
    uint8_t *blk = block + it % 8; /* unaligned */
    fill(blk, 64);
    uint8_t len = (uint8_t)(rnd() % 65);
    uint64_t ctr = rnd_counter();
    uint8_t flags = (uint8_t)(rnd() % 128);
    ref_compress(cv, blk, len, ctr, flags, ref);
    for (int i = 0; i < 16; i++) blake3_store32(refb + 4 * i, ref[i]);
    uint8_t *o = out + it % 4;
    k->cxof(cv, blk, len, ctr, flags, o);
    check(!memcmp(o, refb, 64), "compress_xof", k->name, "random");
    memcpy(cv2, cv, 32);
    k->cip(cv2, blk, len, ctr, flags);
    check(!memcmp(cv2, ref, 32), "compress_in_place", k->name, "random");
  }
}

static void test_hash_many(const kern *k) {
  enum { MAXN = 40, MAXB = 16 };
  const uint8_t *inputs[MAXN];
  uint8_t *bufs[MAXN];
  static uint8_t out[MAXN * 32 + 64], ref[MAXN * 32];
  char detail[160];
  for (size_t n = 1; n <= MAXN; n++) {
    for (size_t blocks = 0; blocks <= MAXB; blocks++) {
      for (int variant = 0; variant < 4; variant++) {
        /* Each input ends exactly where the heap block does (over-reads show under ASan),
         * at any alignment. */
        for (size_t i = 0; i < n; i++) {
          const size_t skew = rnd() % 8;
          bufs[i] = malloc(blocks * 64 + skew + 1);
          inputs[i] = bufs[i] + skew + 1;
          fill(bufs[i] + skew + 1, blocks * 64);
        }
        uint32_t key[8];
        if (variant == 0)
          memcpy(key, REF_IV, 32);
        else
          fill(key, sizeof key);
        const uint64_t ctr = rnd_counter();
        const int inc = (int)(rnd() % 2);
        static const uint8_t base_flags[] = {0, KEYED_HASH, DERIVE_KEY_CONTEXT,
                                             DERIVE_KEY_MATERIAL, PARENT, PARENT | KEYED_HASH};
        const uint8_t flags = base_flags[rnd() % 6];
        const uint8_t fs = (variant & 1) ? CHUNK_START : 0;
        const uint8_t fe = (variant & 2) ? CHUNK_END : 0;
        memset(out, 0xA5, sizeof out);
        ref_hash_many(inputs, n, blocks, key, ctr, inc, flags, fs, fe, ref);
        k->hm(inputs, n, blocks, key, ctr, inc, flags, fs, fe, out);
        snprintf(detail, sizeof detail,
                 "n=%zu blocks=%zu counter=%#llx inc=%d flags=%u fs=%u fe=%u", n, blocks,
                 (unsigned long long)ctr, inc, flags, fs, fe);
        check(!memcmp(out, ref, n * 32), "hash_many", k->name, detail);
        check(out[n * 32] == 0xA5, "hash_many writes past the end", k->name, detail);
        for (size_t i = 0; i < n; i++) free(bufs[i]);
      }
    }
  }
}

static void test_xof_many(const kern *k) {
  enum { MAXN = 40 };
  static uint8_t out[MAXN * 64 + 64];
  char detail[120];
  for (size_t n = 0; n <= MAXN; n++) {
    for (int rep = 0; rep < 3; rep++) {
      uint32_t cv[8], ref[16];
      uint8_t block[64];
      fill(cv, sizeof cv);
      fill(block, sizeof block);
      uint8_t len = (uint8_t)(rnd() % 65);
      uint64_t ctr = rnd_counter();
      uint8_t flags = (uint8_t)(ROOT | (rnd() % 128));
      memset(out, 0xA5, sizeof out);
      k->xm(cv, block, len, ctr, flags, out, n);
      int ok = 1;
      for (size_t j = 0; j < n; j++) {
        uint8_t refb[64];
        ref_compress(cv, block, len, ctr + j, flags, ref);
        for (int i = 0; i < 16; i++) blake3_store32(refb + 4 * i, ref[i]);
        if (memcmp(out + 64 * j, refb, 64)) ok = 0;
      }
      snprintf(detail, sizeof detail, "n=%zu counter=%#llx", n, (unsigned long long)ctr);
      check(ok, "xof_many", k->name, detail);
      check(out[64 * n] == 0xA5, "xof_many writes past the end", k->name, detail);
    }
  }
}

/* ---- throughput ------------------------------------------------------------------------ */

/* CPU time of this thread: on a shared, overloaded machine wall time counts other jobs. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* hash_many over 1 MiB of chunks (1024 inputs of 16 blocks), repeated; median of runs. */
static void bench(const kern *k, int runs, int reps) {
  enum { CHUNKS = 1024 };
  uint8_t *data = aligned_alloc(64, CHUNKS * 1024);
  const uint8_t *inputs[CHUNKS];
  static uint8_t out[CHUNKS * 32];
  fill(data, CHUNKS * 1024);
  for (int i = 0; i < CHUNKS; i++) inputs[i] = data + 1024 * i;
  double gbs[64];
  for (int r = 0; r < runs; r++) {
    double t0 = now();
    for (int rep = 0; rep < reps; rep++)
      k->hm(inputs, CHUNKS, 16, REF_IV, (uint64_t)rep * CHUNKS, 1, 0, CHUNK_START, CHUNK_END,
            out);
    double t = now() - t0;
    gbs[r] = (double)CHUNKS * 1024 * reps / t / 1e9;
  }
  qsort(gbs, (size_t)runs, sizeof gbs[0], cmp_double);
  /* Parent-style: one block per input (1024 inputs of 64 bytes, no counter increment). */
  double pgbs[64];
  for (int r = 0; r < runs; r++) {
    double t0 = now();
    for (int rep = 0; rep < 16 * reps; rep++)
      k->hm(inputs, CHUNKS, 1, REF_IV, 0, 0, PARENT, 0, 0, out);
    pgbs[r] = (double)CHUNKS * 64 * 16 * reps / (now() - t0) / 1e9;
  }
  qsort(pgbs, (size_t)runs, sizeof pgbs[0], cmp_double);
  /* Also the row-wise compress, one block at a time (a dependent chain). */
  uint32_t cv[8];
  memcpy(cv, REF_IV, 32);
  double t0 = now();
  const int N = 200000;
  for (int i = 0; i < N; i++) k->cip(cv, data + 64 * (i & 1023), 64, (uint64_t)i, 0);
  double ns = (now() - t0) / N * 1e9;
  printf("%-7s hash_many %.2f GB/s (median of %d; min %.2f max %.2f); 1-block inputs %.2f GB/s;"
         " compress %.1f ns/block [%08x]\n",
         k->name, gbs[runs / 2], runs, gbs[0], gbs[runs - 1], pgbs[runs / 2], ns, cv[0]);
  if (k->xm) {
    static uint8_t xout[64 * 4096];
    for (int r = 0; r < runs; r++) {
      double t1 = now();
      for (int rep = 0; rep < reps; rep++) k->xm(REF_IV, data, 64, (uint64_t)rep, ROOT, xout, 4096);
      gbs[r] = (double)sizeof xout * reps / (now() - t1) / 1e9;
    }
    qsort(gbs, (size_t)runs, sizeof gbs[0], cmp_double);
    printf("%-7s xof_many  %.2f GB/s (median of %d; min %.2f max %.2f)\n", k->name,
           gbs[runs / 2], runs, gbs[0], gbs[runs - 1]);
  }
  free(data);
}

int main(int argc, char **argv) {
  const int do_bench = argc > 1 && !strcmp(argv[1], "bench");
  const char *only = argc > 2 ? argv[2] : NULL;
  int passed = 0, failed = 0;
  for (size_t i = 0; i < NKERNELS; i++) {
    const kern *k = &KERNELS[i];
    if (only && strcmp(only, k->name)) continue;
    if (!supported(k)) {
      printf("skip %s (CPU lacks it)\n", k->name);
      continue;
    }
    if (do_bench) {
      bench(k, 15, 6);
      continue;
    }
    int before = failures;
    test_empty(k);
    test_compress(k, 20000);
    test_hash_many(k);
    if (k->xm) test_xof_many(k);
    printf("%s: %s\n", k->name, failures == before ? "ok" : "FAILED");
    if (failures == before)
      passed++;
    else
      failed++;
  }
  if (!do_bench) printf("%d passed, %d failed\n", passed, failed);
  return failures ? 1 : 0;
}
