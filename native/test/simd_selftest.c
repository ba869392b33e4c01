/*
 * blake3-fast: standalone self-test for one SIMD kernel file (vsx, vx, rvv or lsx), checked
 * against a small scalar reference written here. It does not need the rest of the library:
 *
 *   $CC -O2 -DST_ISA=vsx -Inative/src native/test/simd_selftest.c blake3_vsx.o -o st
 *   qemu-ppc64le-static -cpu power8 ./st [seed]
 *
 * Covers: BLAKE3("") through compress_xof, random single-block compressions (every block_len,
 * every flag byte, counters around 2^32 and 2^64), and hash_many for num_inputs 1..40 and
 * blocks 1..16 with misaligned and overlapping inputs, inputs that end right before an
 * inaccessible page (over-reads fault), counters crossing 2^32, with and without increment,
 * random flags/flags_start/flags_end, and guard bytes around the output.
 * Exit status 0 when everything matches.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blake3_impl.h"

#ifndef ST_ISA
#error "define ST_ISA (vsx, vx, rvv or lsx)"
#endif
#define ST_CAT2(a, b) a##b
#define ST_CAT(a, b) ST_CAT2(a, b)
#define ST_FN(fn) ST_CAT(fn, ST_ISA)
#define ST_STR2(x) #x
#define ST_STR(x) ST_STR2(x)

static const uint32_t ref_iv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                                   0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};
static const uint8_t ref_perm[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

static uint32_t ref_rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void ref_g(uint32_t *v, int a, int b, int c, int d, uint32_t x, uint32_t y) {
  v[a] += v[b] + x;
  v[d] = ref_rotr(v[d] ^ v[a], 16);
  v[c] += v[d];
  v[b] = ref_rotr(v[b] ^ v[c], 12);
  v[a] += v[b] + y;
  v[d] = ref_rotr(v[d] ^ v[a], 8);
  v[c] += v[d];
  v[b] = ref_rotr(v[b] ^ v[c], 7);
}

static uint32_t ref_le32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void ref_compress(const uint32_t cv[8], const uint8_t blk[64], uint8_t len, uint64_t ctr,
                         uint8_t flags, uint32_t out[16]) {
  uint32_t m[16], t[16], v[16];
  for (int i = 0; i < 16; i++) m[i] = ref_le32(blk + 4 * i);
  for (int i = 0; i < 8; i++) v[i] = cv[i];
  for (int i = 0; i < 4; i++) v[8 + i] = ref_iv[i];
  v[12] = (uint32_t)ctr;
  v[13] = (uint32_t)(ctr >> 32);
  v[14] = len;
  v[15] = flags;
  for (int r = 0; r < 7; r++) {
    ref_g(v, 0, 4, 8, 12, m[0], m[1]);
    ref_g(v, 1, 5, 9, 13, m[2], m[3]);
    ref_g(v, 2, 6, 10, 14, m[4], m[5]);
    ref_g(v, 3, 7, 11, 15, m[6], m[7]);
    ref_g(v, 0, 5, 10, 15, m[8], m[9]);
    ref_g(v, 1, 6, 11, 12, m[10], m[11]);
    ref_g(v, 2, 7, 8, 13, m[12], m[13]);
    ref_g(v, 3, 4, 9, 14, m[14], m[15]);
    for (int i = 0; i < 16; i++) t[i] = m[ref_perm[i]];
    memcpy(m, t, sizeof m);
  }
  for (int i = 0; i < 8; i++) {
    out[i] = v[i] ^ v[i + 8];
    out[i + 8] = v[i + 8] ^ cv[i];
  }
}

static void ref_hash_many(const uint8_t *const *inputs, size_t n, size_t blocks,
                          const uint32_t key[8], uint64_t ctr, int inc, uint8_t flags, uint8_t fs,
                          uint8_t fe, uint8_t *out) {
  for (size_t i = 0; i < n; i++) {
    uint32_t cv[8], o[16];
    memcpy(cv, key, 32);
    for (size_t b = 0; b < blocks; b++) {
      uint8_t f = flags | (b == 0 ? fs : 0) | (b + 1 == blocks ? fe : 0);
      ref_compress(cv, inputs[i] + 64 * b, 64, ctr + (inc ? i : 0), f, o);
      memcpy(cv, o, 32);
    }
    for (int w = 0; w < 8; w++)
      for (int k = 0; k < 4; k++) out[32 * i + 4 * w + k] = (uint8_t)(cv[w] >> (8 * k));
  }
}

static uint64_t rng_state;
static uint64_t rnd(void) {
  /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static uint64_t rnd_counter(void) {
  switch (rnd() % 5) {
  case 0: return rnd() % 1000;
  case 1: return 0xFFFFFFFFull - rnd() % 48;            /* low word wraps inside a group */
  case 2: return ((rnd() % 7) << 32) + 0xFFFFFFF0u + rnd() % 16;
  case 3: return rnd() >> (rnd() % 64);
  default: return 0xFFFFFFFFFFFFFFFFull - 64 - rnd() % 64; /* near 2^64, no wrap of the sum */
  }
}

static int failures;
static void fail(const char *what, long a, long b, long c) {
  if (failures++ < 20) fprintf(stderr, "FAIL %s (%ld %ld %ld)\n", what, a, b, c);
}

#define POOL (48 * 16 * 64 + 4096)

int main(int argc, char **argv) {
  rng_state = argc > 1 ? strtoull(argv[1], 0, 0) : 0x5EEDull;
  printf("isa=%s", ST_STR(ST_ISA));
#ifdef ST_RVV
  printf(" degree=%zu", blake3_rvv_degree());
#endif
  printf("\n");

  /* 1. BLAKE3("") = compress_xof(IV, zero block, 0, 0, CHUNK_START|CHUNK_END|ROOT). */
  {
    static const char *want = "af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262";
    uint8_t blk[64] = {0}, out[66];
    char hex[65];
    uint32_t ref[16];
    out[64] = out[65] = 0xA5;
    ST_FN(blake3_compress_xof_)(ref_iv, blk, 0, 0, 11, out);
    for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", out[i]);
    if (strcmp(hex, want) != 0) fail("empty hash", 0, 0, 0);
    ref_compress(ref_iv, blk, 0, 0, 11, ref);
    for (int i = 0; i < 64; i++)
      if (out[i] != (uint8_t)(ref[i / 4] >> (8 * (i % 4)))) fail("empty hash xof", i, 0, 0);
    if (out[64] != 0xA5) fail("xof overrun", 0, 0, 0);
    printf("BLAKE3(\"\") = %s\n", hex);
  }

  static uint8_t pool[POOL];
  for (size_t i = 0; i < POOL; i++) pool[i] = (uint8_t)rnd();

  /* 40 writable pages, each followed by a PROT_NONE page; guarded[i] = end of writable page i. */
  uint8_t *guarded[40];
  {
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *region =
        mmap(NULL, 80 * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) return 2;
    for (int i = 0; i < 40; i++) {
      if (mprotect(region + (2 * i + 1) * ps, ps, PROT_NONE) != 0) return 2;
      guarded[i] = region + (2 * i + 1) * ps;
    }
  }

  /* 2. Single blocks, row-wise. */
  for (int it = 0; it < 4000; it++) {
    uint32_t cv[8], ref[16], got[8];
    uint8_t xof[64 + 8];
    const uint8_t *blk = pool + rnd() % (POOL - 64);
    if (it & 1) { /* the block ends right before an inaccessible page */
      memcpy(guarded[it % 40] - 64, blk, 64);
      blk = guarded[it % 40] - 64;
    }
    uint8_t len = (uint8_t)(rnd() % 65), flags = (uint8_t)rnd();
    uint64_t ctr = it < 4 ? (uint64_t)it << 31 : rnd_counter();
    size_t xo = rnd() % 8;
    for (int i = 0; i < 8; i++) cv[i] = (uint32_t)rnd();
    ref_compress(cv, blk, len, ctr, flags, ref);
    memcpy(got, cv, 32);
    ST_FN(blake3_compress_in_place_)(got, blk, len, ctr, flags);
    if (memcmp(got, ref, 32) != 0) fail("compress_in_place", it, len, flags);
    memset(xof, 0xA5, sizeof xof);
    ST_FN(blake3_compress_xof_)(cv, blk, len, ctr, flags, xof + xo);
    for (int i = 0; i < 64; i++)
      if (xof[xo + i] != (uint8_t)(ref[i / 4] >> (8 * (i % 4)))) {
        fail("compress_xof", it, i, (long)xo);
        break;
      }
    for (size_t i = 0; i < sizeof xof; i++)
      if ((i < xo || i >= xo + 64) && xof[i] != 0xA5) fail("compress_xof overrun", it, (long)i, 0);
  }

  /* 3. hash_many. */
  long cases = 0;
  for (size_t n = 1; n <= 40; n++) {
    for (size_t blocks = 1; blocks <= 16; blocks++) {
      const uint8_t *inputs[40];
      uint8_t want[40 * 32], got[40 * 32 + 40];
      uint32_t key[8];
      int layout = (int)(rnd() % 4);
      size_t base = rnd() % 64;
      for (size_t i = 0; i < n; i++) {
        if (layout == 0) inputs[i] = pool + base + i * 64 * blocks;          /* contiguous */
        else if (layout == 1) inputs[i] = pool + 4 * (rnd() % ((POOL - 1024) / 4)); /* aligned */
        else if (layout == 2) inputs[i] = pool + rnd() % (POOL - 1024);      /* anywhere */
        else { /* ends right before an inaccessible page: an over-read faults */
          uint8_t *p = guarded[i] - 64 * blocks;
          memcpy(p, pool + rnd() % (POOL - 1024), 64 * blocks);
          inputs[i] = p;
        }
      }
      for (int i = 0; i < 8; i++) key[i] = (uint32_t)rnd();
      uint64_t ctr = rnd_counter();
      int inc = (int)(rnd() & 1);
      uint8_t flags = (uint8_t)(rnd() & 0x7F), fs = (uint8_t)(rnd() & 0x7F);
      uint8_t fe = (uint8_t)(rnd() & 0x7F);
      if (rnd() & 1) { /* as the tree calls it for chunks */
        flags = (uint8_t)(rnd() & 0x70);
        fs = CHUNK_START;
        fe = CHUNK_END;
      }
      size_t oo = rnd() % 20;
      memset(got, 0xA5, sizeof got);
      ref_hash_many(inputs, n, blocks, key, ctr, inc, flags, fs, fe, want);
      ST_FN(blake3_hash_many_)(inputs, n, blocks, key, ctr, inc, flags, fs, fe, got + oo);
      if (memcmp(got + oo, want, 32 * n) != 0) {
        size_t i = 0;
        while (memcmp(got + oo + 32 * i, want + 32 * i, 32) == 0) i++;
        fail("hash_many n/blocks/first bad lane", (long)n, (long)blocks, (long)i);
      }
      for (size_t i = 0; i < sizeof got; i++)
        if ((i < oo || i >= oo + 32 * n) && got[i] != 0xA5) {
          fail("hash_many overrun", (long)n, (long)blocks, (long)i);
          break;
        }
      cases++;
    }
  }
  /* num_inputs 0 must write nothing. */
  {
    uint8_t g[32];
    memset(g, 0xA5, sizeof g);
    ST_FN(blake3_hash_many_)(NULL, 0, 16, ref_iv, 0, 1, 0, 1, 2, g);
    for (int i = 0; i < 32; i++)
      if (g[i] != 0xA5) fail("hash_many n=0 wrote", i, 0, 0);
  }

  if (failures) {
    printf("%s: %d FAILURES\n", ST_STR(ST_ISA), failures);
    return 1;
  }
  printf("%s: OK (4000 blocks, %ld hash_many cases)\n", ST_STR(ST_ISA), cases);
  return 0;
}
