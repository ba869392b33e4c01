/*
 * blake3-fast C harness: every kernel this CPU supports (or up to $BLAKE3_ISA) against the
 * portable kernel and an independent reference (ref.c), plus the official test vectors.
 *
 *   blake3_harness [--vectors PATH] [--extra PATH] [--seed N] [--quick]
 *
 * --vectors: the flat test_vectors.txt ("len hash keyed derive" per line, '#' comments);
 * without it, the first 32 bytes of five official vectors built in here are checked. Each is
 * checked by vector_check.h, which the freestanding harness (platforms/freestanding) shares.
 * --extra: test-vectors/extra_vectors.json (output windows at 64-bit offsets).
 *
 * BLAKE3_ISA=<name> caps the kernels tested (e.g. sse41 tests portable, sse2, sse41).
 * Prints which kernel ran each check and ends with "N passed, N failed"; exits 1 on failure.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake3_impl.h"
#include "ref.h"
#include "vector_check.h"

#define DEFAULT_SEED 0xB1A4E3F00DULL
#define BIG (1u << 20)          /* random input pool */
#define MAX_REPORTED_FAILURES 40

static long g_pass, g_fail, g_sec_pass, g_sec_fail;
static const char *g_kname = "?";
static int g_quick;
static uint64_t g_rng;

/* ---- utilities ------------------------------------------------------------------------- */

static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static uint64_t rnd_below(uint64_t n) { return n == 0 ? 0 : rnd() % n; }
static void rnd_bytes(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)rnd();
}
static void rnd_words(uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) w[i] = (uint32_t)rnd();
}
/* Counters that exercise the high word: small, just below 2^32, anywhere, just below 2^64. */
static uint64_t rnd_counter(void) {
  switch (rnd() % 5) {
    case 0: return rnd_below(1000);
    case 1: return (1ULL << 32) - 1 - rnd_below(48);
    case 2: return rnd();
    case 3: return UINT64_MAX - rnd_below(48);
    default: return (1ULL << 32) + rnd_below(100);
  }
}

static void check(int ok, const char *fmt, ...) {
  if (ok) {
    g_pass++;
    g_sec_pass++;
    return;
  }
  g_fail++;
  g_sec_fail++;
  if (g_fail <= MAX_REPORTED_FAILURES) {
    va_list ap;
    va_start(ap, fmt);
    printf("    FAIL [%s] ", g_kname);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
  }
}

static void section_begin(void) { g_sec_pass = g_sec_fail = 0; }
static void section_end(const char *name) {
  printf("  [%-8s] %-26s %7ld checks, %ld failed\n", g_kname, name, g_sec_pass + g_sec_fail,
         g_sec_fail);
  fflush(stdout);
}

static void words_to_bytes(const uint32_t *w, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i++) {
    out[4 * i] = (uint8_t)w[i];
    out[4 * i + 1] = (uint8_t)(w[i] >> 8);
    out[4 * i + 2] = (uint8_t)(w[i] >> 16);
    out[4 * i + 3] = (uint8_t)(w[i] >> 24);
  }
}

static int all_equal(const uint8_t *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != v) return 0;
  return 1;
}

/* BIG + POOL_SLACK bytes of noise: inputs start up to 4095 bytes in and oneshot lengths reach
 * BIG + 1023 (1024 chunks and a partial one). */
#define POOL_SLACK 8192
static const uint8_t *g_pool;

/* ---- the sections ----------------------------------------------------------------------- */

static void test_compress(const blake3_kernel *k, const blake3_kernel *p) {
  section_begin();
  const int iters = g_quick ? 500 : 3000;
  for (int it = 0; it < iters; it++) {
    uint32_t cv[8], a[8], b[8], r[16];
    uint8_t block[64], xa[64], xb[64], xr[64];
    rnd_words(cv, 8);
    rnd_bytes(block, 64);
    uint8_t bl = (uint8_t)rnd_below(65), flags = (uint8_t)rnd();
    uint64_t counter = rnd_counter();
    memcpy(a, cv, 32);
    memcpy(b, cv, 32);
    k->compress_in_place(a, block, bl, counter, flags);
    p->compress_in_place(b, block, bl, counter, flags);
    ref_compress(cv, block, bl, counter, flags, r);
    check(memcmp(a, b, 32) == 0 && memcmp(a, r, 32) == 0,
          "compress_in_place len=%u counter=%" PRIu64 " flags=%u", bl, counter, flags);
    k->compress_xof(cv, block, bl, counter, flags, xa);
    p->compress_xof(cv, block, bl, counter, flags, xb);
    words_to_bytes(r, 16, xr);
    check(memcmp(xa, xb, 64) == 0 && memcmp(xa, xr, 64) == 0,
          "compress_xof len=%u counter=%" PRIu64 " flags=%u", bl, counter, flags);
  }
  section_end("compress (+xof)");
}

static void test_hash_many(const blake3_kernel *k, const blake3_kernel *p) {
  section_begin();
  enum { MAXN = 40 };
  uint8_t outk[MAXN * 32 + 64], outp[MAXN * 32 + 64], outr[MAXN * 32];
  const uint8_t *ptrs[MAXN];
  for (size_t n = 1; n <= MAXN; n++) {
    for (size_t blocks = 1; blocks <= 16; blocks++) {
      if (g_quick && (n + blocks) % 5 != 0) continue;
      for (size_t i = 0; i < n; i++) ptrs[i] = g_pool + rnd_below(BIG - blocks * 64);
      uint32_t key[8];
      rnd_words(key, 8);
      uint64_t counter = rnd_counter();
      int inc = (int)(rnd() & 1);
      uint8_t flags = (uint8_t)(rnd() & 0x7f), fs = (uint8_t)(rnd() & 0x7f),
              fe = (uint8_t)(rnd() & 0x7f);
      if (rnd() & 1) { /* the real uses: chunks and parents */
        fs = CHUNK_START;
        fe = CHUNK_END;
        flags &= (uint8_t)~(CHUNK_START | CHUNK_END);
      }
      memset(outk, 0xA5, sizeof outk);
      memset(outp, 0xA5, sizeof outp);
      k->hash_many(ptrs, n, blocks, key, counter, inc, flags, fs, fe, outk);
      p->hash_many(ptrs, n, blocks, key, counter, inc, flags, fs, fe, outp);
      for (size_t i = 0; i < n; i++) { /* reference: block by block */
        uint32_t cv[8], o[16];
        memcpy(cv, key, 32);
        for (size_t b = 0; b < blocks; b++) {
          uint8_t f = flags;
          if (b == 0) f |= fs;
          if (b + 1 == blocks) f |= fe;
          ref_compress(cv, ptrs[i] + 64 * b, 64, counter + (inc ? i : 0), f, o);
          memcpy(cv, o, 32);
        }
        words_to_bytes(cv, 8, outr + 32 * i);
      }
      check(memcmp(outk, outp, n * 32) == 0 && memcmp(outk, outr, n * 32) == 0 &&
                all_equal(outk + n * 32, 64, 0xA5),
            "hash_many n=%zu blocks=%zu counter=%" PRIu64 " inc=%d flags=%u/%u/%u", n, blocks,
            counter, inc, flags, fs, fe);
    }
  }
  section_end("hash_many n=1..40 b=1..16");
}

/* hash_lanes: every lane with its own counter, last block (a zero-padded copy elsewhere in
 * memory), length and last-block flags, and in every other call its own starting CV and
 * first-block flags (cv_words, first_flags), against ref.c block by block. */
static void test_hash_lanes(const blake3_kernel *k) {
  section_begin();
  enum { MAXN = 40 };
  uint8_t outk[MAXN * 32 + 64], outr[MAXN * 32];
  const uint8_t *ptrs[MAXN], *lasts[MAXN];
  uint8_t last_blocks[MAXN][64];
  uint32_t lo[MAXN], hi[MAXN], len[MAXN], lf[MAXN], first[MAXN], cv_in[8][MAXN];
  const uint32_t *const cv_words[8] = {cv_in[0], cv_in[1], cv_in[2], cv_in[3],
                                       cv_in[4], cv_in[5], cv_in[6], cv_in[7]};
  for (size_t n = 1; n <= MAXN; n++) {
    for (size_t blocks = 1; blocks <= 16; blocks++) {
      if (g_quick && (n + blocks) % 5 != 0) continue;
      const int own_cvs = (int)(rnd() & 1);
      const blake3_lanes lanes = {ptrs, lasts, lo, hi, len, lf, own_cvs ? cv_words : NULL, first};
      const int same = (int)(rnd() % 3 == 0); /* the batch of equal messages: one length */
      const uint32_t same_len = (uint32_t)rnd_below(65);
      for (size_t i = 0; i < n; i++) {
        ptrs[i] = g_pool + rnd_below(BIG - blocks * 64);
        len[i] = same ? same_len : (uint32_t)rnd_below(65);
        if (rnd() & 1) { /* a full last block read in place, or a padded copy */
          len[i] = 64;
          lasts[i] = ptrs[i] + 64 * (blocks - 1);
        } else {
          memset(last_blocks[i], 0, 64);
          memcpy(last_blocks[i], g_pool + rnd_below(BIG - 64), len[i]);
          lasts[i] = last_blocks[i];
        }
        uint64_t c = (rnd() & 1) ? 0 : rnd_counter();
        lo[i] = (uint32_t)c;
        hi[i] = (uint32_t)(c >> 32);
        static const uint32_t ends[] = {CHUNK_END, CHUNK_END | ROOT, 0, ROOT};
        lf[i] = ends[rnd() % 4];
        first[i] = (rnd() & 1) ? CHUNK_START : 0;
        for (int w = 0; w < 8; w++) cv_in[w][i] = (uint32_t)rnd();
      }
      uint32_t key[8];
      rnd_words(key, 8);
      uint8_t flags = (uint8_t)(rnd() & (KEYED_HASH | DERIVE_KEY_MATERIAL)), fs = CHUNK_START;
      if (rnd() % 4 == 0) fs = 0;
      memset(outk, 0xA5, sizeof outk);
      k->hash_lanes(&lanes, n, blocks, key, flags, fs, outk);
      for (size_t i = 0; i < n; i++) {
        uint32_t cv[8], o[16];
        memcpy(cv, key, 32);
        if (own_cvs)
          for (int w = 0; w < 8; w++) cv[w] = cv_in[w][i];
        const uint64_t c = (uint64_t)lo[i] | ((uint64_t)hi[i] << 32);
        for (size_t b = 0; b < blocks; b++) {
          uint8_t f = flags;
          if (b == 0) f |= own_cvs ? (uint8_t)first[i] : fs;
          const int last = b + 1 == blocks;
          if (last) f = (uint8_t)(f | lf[i]);
          ref_compress(cv, last ? lasts[i] : ptrs[i] + 64 * b, last ? len[i] : 64, c, f, o);
          memcpy(cv, o, 32);
        }
        words_to_bytes(cv, 8, outr + 32 * i);
      }
      check(memcmp(outk, outr, n * 32) == 0 && all_equal(outk + n * 32, 64, 0xA5),
            "hash_lanes n=%zu blocks=%zu same=%d own_cvs=%d flags=%u/%u", n, blocks, same,
            own_cvs, flags, fs);
    }
  }
  section_end("hash_lanes n=1..40 b=1..16");
}

/* blake3_hash_batch: messages of every length class in one call (empty, one byte, exact and
 * partial blocks and chunks, several chunks, longer than the batch takes), overlapping and out
 * of order, in every mode, against ref.c message by message. */
static void test_batch(const blake3_kernel *k) {
  section_begin();
  enum { MAXN = 300 };
  static int32_t offsets[MAXN], lengths[MAXN];
  static uint8_t out[MAXN * 32 + 64], want[32];
  static const int32_t fixed[] = {0, 1, 31, 32, 63, 64, 65, 100, 127, 128, 1023, 1024, 1025, 2048, 4096, 8192, 8193, 20000};
  const int rounds = g_quick ? 12 : 60;
  for (int r = 0; r < rounds; r++) {
    const size_t n = 1 + (size_t)rnd_below(r % 3 == 0 ? MAXN : 40);
    const int shape = r % 4; /* all one fixed length, mixed 0..4096, mixed small, any */
    const int32_t same = fixed[rnd_below(sizeof fixed / sizeof fixed[0])];
    for (size_t i = 0; i < n; i++) {
      int32_t len = shape == 0 ? same
                  : shape == 1 ? (int32_t)rnd_below(4097)
                  : shape == 2 ? (int32_t)rnd_below(200)
                               : fixed[rnd_below(sizeof fixed / sizeof fixed[0])];
      lengths[i] = len;
      offsets[i] = (int32_t)rnd_below(BIG - (uint64_t)len + 1);
    }
    uint32_t key[8];
    uint8_t flags = 0;
    switch (r % 3) {
      case 0: memcpy(key, ref_iv, 32); break;
      case 1: rnd_words(key, 8); flags = KEYED_HASH; break;
      default: rnd_words(key, 8); flags = DERIVE_KEY_MATERIAL; break;
    }
    memset(out, 0xA5, sizeof out);
    blake3_hash_batch(k, g_pool, offsets, lengths, n, key, flags, out);
    size_t bad = n;
    for (size_t i = 0; i < n && bad == n; i++) {
      ref_hash(g_pool + offsets[i], (size_t)lengths[i], key, flags, 0, want, 32);
      if (memcmp(out + 32 * i, want, 32) != 0) bad = i;
    }
    check(bad == n && all_equal(out + 32 * n, 64, 0xA5),
          "batch n=%zu shape=%d flags=%u: message %zu (len %d) differs", n, shape, flags, bad,
          bad < n ? lengths[bad] : -1);
  }
  section_end("batch of messages, mixed lengths");
}

static void test_xof_many(const blake3_kernel *k) {
  section_begin();
  enum { MAXN = 40 };
  uint8_t outk[MAXN * 64 + 64], outr[MAXN * 64];
  for (size_t n = 1; n <= MAXN; n++) {
    for (int rep = 0; rep < (g_quick ? 1 : 4); rep++) {
      uint32_t cv[8], o[16];
      uint8_t block[64];
      rnd_words(cv, 8);
      rnd_bytes(block, 64);
      uint8_t bl = (uint8_t)rnd_below(65), flags = (uint8_t)(rnd() | ROOT);
      uint64_t counter = rnd_counter();
      memset(outk, 0xA5, sizeof outk);
      k->xof_many(cv, block, bl, counter, flags, outk, n);
      for (size_t j = 0; j < n; j++) {
        ref_compress(cv, block, bl, counter + j, flags, o);
        words_to_bytes(o, 16, outr + 64 * j);
      }
      check(memcmp(outk, outr, n * 64) == 0 && all_equal(outk + n * 64, 64, 0xA5),
            "xof_many n=%zu counter=%" PRIu64, n, counter);
    }
  }
  section_end("xof_many n=1..40");
}

static void subtree_case(const blake3_kernel *k, uint64_t chunks, uint64_t counter) {
  static uint32_t got[8 * 128 + 16], want[8 * 128];
  uint32_t key[8];
  uint8_t flags = 0;
  switch (rnd() % 3) {
    case 0: memcpy(key, blake3_iv, 32); break;
    case 1: rnd_words(key, 8); flags = KEYED_HASH; break;
    default: rnd_words(key, 8); flags = DERIVE_KEY_MATERIAL; break;
  }
  const uint8_t *in = g_pool + rnd_below(64);
  for (size_t i = 0; i < 8 * 128 + 16; i++) got[i] = 0xA5A5A5A5u;
  size_t n = blake3_hash_subtrees(k, in, (size_t)chunks * 1024, key, counter, flags, 63, got);
  size_t m = ref_subtrees(in, chunks, key, flags, counter, want);
  int canary = 1;
  for (size_t i = 8 * n; i < 8 * 128 + 16; i++) canary &= got[i] == 0xA5A5A5A5u;
  check(n == m && memcmp(got, want, 32 * n) == 0 && canary,
        "hash_subtrees chunks=%" PRIu64 " counter=%" PRIu64 " (%zu vs %zu subtrees)", chunks,
        counter, n, m);
}

static void test_subtrees(const blake3_kernel *k) {
  section_begin();
  static const uint64_t counts[] = {1,   2,   3,   4,   5,   7,   8,   9,   15,  16,  17,
                                    31,  32,  33,  63,  64,  65,  127, 128, 129, 255, 256,
                                    257, 300, 383, 384, 511, 512, 513};
  for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
    const uint64_t chunks = counts[c];
    uint64_t counters[6] = {0, rnd_below(1000), rnd_below(1u << 20) << 9,
                            (1ULL << 32) - rnd_below(600), 1ULL << 32, rnd() >> 24};
    for (int i = 0; i < 6; i++) {
      if (g_quick && i > 2 && chunks > 64) continue;
      subtree_case(k, chunks, counters[i]);
    }
  }
  subtree_case(k, 1024, 0);                   /* 1 MiB at once */
  subtree_case(k, 1024, (1ULL << 32) - 512);  /* crossing 2^32 chunks */
  subtree_case(k, 1000, 24);
  section_end("hash_subtrees");
}

/* Subtrees of at most 2^log chunks (Bao's chunk groups): each CV equals the reference subtree's
 * of the same chunks, taken as the largest aligned run no longer than the limit; and the parents
 * of the chunk CVs taken in pairs equal the CVs of subtrees of two chunks (the same nodes by
 * another road). */
static void test_capped_subtrees(const blake3_kernel *k) {
  section_begin();
  static uint32_t got[8 * 128 + 16], want[8 * 128];
  static uint8_t pairs[64 * 32], bytes[64 * 32];
  static const uint64_t counts[] = {1, 2, 3, 16, 17, 40, 64};
  for (unsigned log = 0; log <= 5; log++) {
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
      const uint64_t chunks = counts[c] << (log > 2 ? log - 2 : 0);
      /* aligned to the limit or not (then the first subtrees are smaller), above 2^32 or not */
      uint64_t counter = (rnd_below(1u << 20) + (c & 1 ? 1ULL << 32 : 0)) << log;
      if (c % 3 == 2) counter += rnd_below(1u << log);
      const uint8_t *in = g_pool + rnd_below(64);
      for (size_t i = 0; i < 8 * 128 + 16; i++) got[i] = 0xA5A5A5A5u;
      const size_t n = blake3_hash_subtrees(k, in, (size_t)chunks * 1024, blake3_iv, counter, 0,
                                            log, got);
      size_t m = 0;
      for (uint64_t done = 0; done < chunks;) {
        uint64_t size = 1;
        while (size < (1ULL << log) && (counter + done) % (2 * size) == 0 && done + 2 * size <= chunks)
          size *= 2;
        m += ref_subtrees(in + done * 1024, size, blake3_iv, 0, counter + done, want + 8 * m);
        done += size;
      }
      int canary = 1;
      for (size_t i = 8 * n; i < 8 * 128 + 16; i++) canary &= got[i] == 0xA5A5A5A5u;
      check(n == m && memcmp(got, want, 32 * n) == 0 && canary,
            "hash_subtrees limit 2^%u chunks=%" PRIu64 " counter=%" PRIu64 " (%zu vs %zu)", log,
            chunks, counter, n, m);
      if (log == 0 && chunks % 2 == 0 && counter % 2 == 0) {
        for (size_t i = 0; i < 8 * chunks; i++) blake3_store32(pairs + 4 * i, got[i]);
        blake3_hash_parent_cvs(k, pairs, chunks / 2, blake3_iv, 0, pairs); /* in place */
        blake3_hash_subtrees(k, in, (size_t)chunks * 1024, blake3_iv, counter, 0, 1, got);
        for (size_t i = 0; i < 4 * chunks; i++) blake3_store32(bytes + 4 * i, got[i]);
        check(memcmp(pairs, bytes, 16 * chunks) == 0, "parent_cvs of %" PRIu64 " chunk pairs",
              chunks / 2);
      }
    }
  }
  section_end("hash_subtrees with a limit, parent_cvs");
}

/* One oneshot comparison against the reference, with a canary after the output. */
static void oneshot_case(const blake3_kernel *k, size_t len, int mode, uint64_t seek,
                         size_t out_len) {
  static uint8_t got[8192 + 64], want[8192];
  uint32_t key[8];
  uint8_t flags = 0;
  if (mode == 0) {
    memcpy(key, blake3_iv, 32);
  } else {
    rnd_words(key, 8);
    flags = mode == 1 ? KEYED_HASH : mode == 2 ? DERIVE_KEY_MATERIAL : DERIVE_KEY_CONTEXT;
  }
  const uint8_t *in = g_pool + rnd_below(4096);
  memset(got, 0xA5, out_len + 64);
  blake3_hash_oneshot(k, len == 0 && (rnd() & 1) ? NULL : in, len, key, flags, seek, got,
                      out_len);
  ref_hash(in, len, key, flags, seek, want, out_len);
  check(memcmp(got, want, out_len) == 0 && all_equal(got + out_len, 64, 0xA5),
        "oneshot len=%zu mode=%d seek=%" PRIu64 " out_len=%zu", len, mode, seek, out_len);
}

static uint64_t rnd_seek(void) {
  switch (rnd() % 4) {
    case 0: return 0;
    case 1: return rnd_below(300);
    case 2: return ((1ULL << 32) - rnd_below(4)) * 64 + rnd_below(64); /* 2^32 blocks */
    default: return rnd() >> 2;
  }
}

static void test_oneshot(const blake3_kernel *k) {
  section_begin();
  const size_t step = g_quick ? 7 : 1;
  for (size_t len = 0; len <= 2100; len += step) {
    oneshot_case(k, len, (int)(len % 3), 0, 32);
    oneshot_case(k, len, (int)(rnd() % 4), rnd_seek(), (size_t)rnd_below(200));
  }
  static const size_t chunk_counts[] = {3,   4,   5,   15,  16,  17,  127, 128, 129, 130, 131,
                                        255, 256, 257, 258, 383, 384, 385, 511, 512, 513, 514,
                                        1023, 1024};
  for (size_t i = 0; i < sizeof chunk_counts / sizeof chunk_counts[0]; i++) {
    if (g_quick && i % 3 != 0) continue;
    const size_t base = chunk_counts[i] * 1024;
    oneshot_case(k, base - 1, 0, 0, 32);
    oneshot_case(k, base, (int)(rnd() % 3), rnd_seek(), 100);
    oneshot_case(k, base + 1, (int)(rnd() % 3), 0, 32);
    oneshot_case(k, base + 1 + rnd_below(1023), (int)(rnd() % 3), 0, 64);
  }
  oneshot_case(k, BIG, 0, 0, 32);
  const int randoms = g_quick ? 6 : 30;
  for (int i = 0; i < randoms; i++)
    oneshot_case(k, (size_t)rnd_below(BIG + 1), (int)(rnd() % 4), rnd_seek(),
                 (size_t)rnd_below(300));
  oneshot_case(k, 5000, 0, 7, 8192);      /* long XOF through xof_many */
  oneshot_case(k, 100, 1, 64 * 3, 4096);  /* block-aligned seek */
  section_end("oneshot");
}

static void test_root_output(const blake3_kernel *k, const blake3_kernel *p) {
  section_begin();
  static uint8_t got[2048 + 64], gotp[2048 + 64], want[2048];
  const int iters = g_quick ? 60 : 400;
  for (int it = 0; it < iters; it++) {
    ref_node n;
    uint32_t block_words[16];
    rnd_words(n.cv, 8);
    rnd_words(block_words, 16);
    words_to_bytes(block_words, 16, n.block);
    n.block_len = (uint8_t)rnd_below(65);
    n.flags = (uint8_t)(rnd() & 0x77); /* anything but ROOT */
    n.counter = 0;
    uint64_t pos;
    switch (it % 4) {
      case 0: pos = ((1ULL << 32) - rnd_below(20)) * 64 + rnd_below(64); break;
      case 1: pos = rnd_below(5000); break;
      case 2: pos = (rnd() >> 2); break;
      default: pos = ((1ULL << 32) - 1) * 64 + rnd_below(128); break;
    }
    size_t out_len = (size_t)rnd_below(it % 8 == 0 ? 2049 : 300);
    memset(got, 0xA5, out_len + 64);
    memset(gotp, 0xA5, out_len + 64);
    blake3_root_output(k, n.cv, block_words, n.block_len, n.flags, pos, got, out_len);
    blake3_root_output(p, n.cv, block_words, n.block_len, n.flags, pos, gotp, out_len);
    ref_root_output(&n, pos, want, out_len);
    check(memcmp(got, want, out_len) == 0 && memcmp(got, gotp, out_len + 64) == 0 &&
              all_equal(got + out_len, 64, 0xA5),
          "root_output pos=%" PRIu64 " out_len=%zu block_len=%u flags=%u", pos, out_len,
          n.block_len, n.flags);
  }
  section_end("root_output");
}

/* ---- official vectors -------------------------------------------------------------------- */

static void ref_hash_fn(const blake3_kernel *k, const uint8_t *in, size_t len,
                        const uint32_t key[8], uint8_t flags, uint64_t seek, uint8_t *out,
                        size_t out_len) {
  (void)k;
  ref_hash(in, len, key, flags, seek, out, out_len);
}

static void vector_report(int ok, const char *what, size_t len, uint64_t seek, size_t out_len) {
  check(ok, "vector %s len=%zu seek=%" PRIu64 " out_len=%zu", what, len, seek, out_len);
}

/* First 32 bytes of a few official vectors, used when no --vectors file is given. */
static const struct vec_case BUILTIN[] = {
    {0,
     {"af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262",
      "92b2b75604ed3c761f9d6f62392c8a9227ad0ea3f09573e783f1498a4ed60d26",
      "2cc39783c223154fea8dfb7c1b1660f2ac2dcbd1c1de8277b0b0dd39b7e50d7d"}},
    {1,
     {"2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213",
      "6d7878dfff2f485635d39013278ae14f1454b8c0a3a2d34bc1ab38228a80c95b",
      "b3e2e340a117a499c6cf2398a19ee0d29cca2bb7404c73063382693bf66cb06c"}},
    {1024,
     {"42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7",
      "75c46f6f3d9eb4f55ecaaee480db732e6c2105546f1e675003687c31719c7ba4",
      "7356cd7720d5b66b6d0697eb3177d9f8d73a4a5c5e968896eb6a689684302706"}},
    {1025,
     {"d00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444",
      "357dc55de0c7e382c900fd6e320acc04146be01db6a8ce7210b7189bd664ea69",
      "effaa245f065fbf82ac186839a249707c3bddf6d3fdda22d1b95a3c970379bcb"}},
    {8193,
     {"bab6c09cb8ce8cf459261398d2e7aef35700bf488116ceb94a36d0f5f1b7bc3b",
      "954a2a75420c8d6547e3ba5b98d963e6fa6491addc8c023189cc519821b4a1f5",
      "af1e0346e389b17c23200270a64aa4e1ead98c61695d917de7d5b00491c9b0f1"}},
};

/* Returns the number of vector lines checked, or -1 if the file cannot be read. */
static long test_vectors(const blake3_kernel *k, vec_hash_fn h, const char *path) {
  section_begin();
  long lines = 0;
  if (path == NULL) {
    for (size_t i = 0; i < sizeof BUILTIN / sizeof BUILTIN[0]; i++, lines++)
      vec_check_case(k, h, &BUILTIN[i], vector_report);
    section_end("vectors (built-in)");
    return lines;
  }
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    check(0, "cannot open vectors file %s", path);
    section_end("vectors");
    return -1;
  }
  char line[4096];
  static char a[2048], b[2048], c[2048];
  while (fgets(line, sizeof line, f) != NULL) {
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '#' || *s == '\n' || *s == '\r' || *s == '\0') continue;
    unsigned long long len;
    if (sscanf(s, "%llu %2047s %2047s %2047s", &len, a, b, c) != 4) {
      check(0, "bad vectors line: %.60s", s);
      continue;
    }
    const struct vec_case v = {(size_t)len, {a, b, c}};
    vec_check_case(k, h, &v, vector_report);
    lines++;
  }
  fclose(f);
  if (lines == 0) check(0, "no vectors in %s", path);
  section_end("vectors");
  return lines;
}

/* ---- extra vectors (test-vectors/extra_vectors.json): output windows at any offset ------ */

/* The string value of "name" inside one JSON object [obj, end), or 0 if absent. The files
 * only hold hex and plain ASCII, so no escapes are handled. */
static int json_string(const char *obj, const char *end, const char *name, char *out, size_t cap) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\"", name);
  const char *p = obj;
  size_t pl = strlen(pat);
  for (; p + pl <= end; p++) {
    if (memcmp(p, pat, pl) != 0) continue;
    p += pl;
    while (p < end && (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
    if (p >= end || *p != '"') return 0;
    const char *q = ++p;
    while (q < end && *q != '"') q++;
    if (q >= end || (size_t)(q - p) >= cap) return 0;
    memcpy(out, p, (size_t)(q - p));
    out[q - p] = '\0';
    return 1;
  }
  return 0;
}

static int json_u64(const char *obj, const char *end, const char *name, uint64_t *out) {
  char pat[64];
  snprintf(pat, sizeof pat, "\"%s\"", name);
  size_t pl = strlen(pat);
  for (const char *p = obj; p + pl <= end; p++) {
    if (memcmp(p, pat, pl) != 0) continue;
    p += pl;
    while (p < end && (*p == ' ' || *p == ':' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
    if (p >= end || *p < '0' || *p > '9') return 0;
    uint64_t v = 0;
    while (p < end && *p >= '0' && *p <= '9') v = v * 10 + (uint64_t)(*p++ - '0');
    *out = v;
    return 1;
  }
  return 0;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (;;) {
    if (buf == NULL) break;
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char *nb = realloc(buf, cap *= 2);
    if (nb == NULL) free(buf);
    buf = nb;
  }
  fclose(f);
  *len = n;
  return buf;
}

/* Each case: mode, input_len, optional key/context, offset, output (hex of the window). */
static void test_extra(const blake3_kernel *k, vec_hash_fn h, const char *path) {
  section_begin();
  size_t flen = 0;
  char *text = read_file(path, &flen);
  if (text == NULL) {
    check(0, "cannot read %s", path);
    section_end("extra vectors");
    return;
  }
  static uint8_t got[1 << 15];
  static char hexbuf[(1 << 16) + 1];
  const char *cases = strstr(text, "\"cases\"");
  const char *p = cases ? strchr(cases, '[') : NULL;
  const char *end = text + flen;
  long n = 0;
  while (p != NULL && p < end) {
    const char *o = memchr(p, '{', (size_t)(end - p));
    if (o == NULL) break;
    const char *c = memchr(o, '}', (size_t)(end - o));
    if (c == NULL) break;
    char mode[32], key[64], ctx[256];
    uint64_t len = 0, offset = 0;
    if (!json_string(o, c, "mode", mode, sizeof mode) || !json_u64(o, c, "input_len", &len) ||
        !json_u64(o, c, "offset", &offset) ||
        !json_string(o, c, "output", hexbuf, sizeof hexbuf) || len > VEC_MAX_INPUT) {
      check(0, "extra vectors: cannot parse case %ld", n);
      p = c + 1;
      continue;
    }
    size_t out_len = strlen(hexbuf) / 2;
    uint32_t kw[8];
    uint8_t flags = 0;
    int ok = 1;
    if (strcmp(mode, "hash") == 0) {
      memcpy(kw, blake3_iv, 32);
    } else if (strcmp(mode, "keyed_hash") == 0) {
      ok = json_string(o, c, "key", key, sizeof key) && strlen(key) == 32;
      if (ok) ref_key_words((const uint8_t *)key, kw);
      flags = KEYED_HASH;
    } else if (strcmp(mode, "derive_key") == 0) {
      ok = json_string(o, c, "context", ctx, sizeof ctx);
      if (ok) vec_context_key(k, h, ctx, kw);
      flags = DERIVE_KEY_MATERIAL;
    } else {
      ok = 0;
    }
    if (!ok || out_len > sizeof got) {
      check(0, "extra vectors: bad case %ld (mode %s)", n, mode);
    } else {
      h(k, vec_input(), (size_t)len, kw, flags, offset, got, out_len);
      check(vec_matches_hex(got, out_len, hexbuf, 0),
            "extra %s len=%" PRIu64 " offset=%" PRIu64 " out=%zu", mode, len, offset, out_len);
    }
    n++;
    p = c + 1;
  }
  if (n == 0) check(0, "no cases in %s", path);
  free(text);
  section_end("extra vectors");
}

/* ---- main -------------------------------------------------------------------------------- */

static void usage(void) {
  static const char *const names[BLAKE3_ISA_COUNT] = {BLAKE3_ISA_NAMES};
  fprintf(stderr, "usage: blake3_harness [--vectors PATH] [--extra PATH] [--seed N] [--quick]\n"
                  "  BLAKE3_ISA=<");
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) fprintf(stderr, "%s%s", i ? "|" : "", names[i]);
  fprintf(stderr, "> caps the kernels\n");
}

/* Whether this C runtime's memset clears memory. Under qemu-user on pre-POWER7 models it does
 * not (qemu_memset.c says why): zero-initialised arrays then hold garbage and a run fails or
 * faults at random, on some stack alignments only. Checked first, so that it fails every time
 * and says so. */
static int memset_clears(void) {
  static _Alignas(128) uint8_t buf[1024];
  void *(*volatile set)(void *, int, size_t) = memset; /* a real call, not inlined stores */
  set(buf, 0xA5, sizeof buf);
  set(buf, 0, sizeof buf);
  return all_equal(buf, sizeof buf, 0);
}

int main(int argc, char **argv) {
  const char *vectors = NULL, *extra = NULL;
  uint64_t seed = DEFAULT_SEED;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--vectors") == 0 && i + 1 < argc) {
      vectors = argv[++i];
    } else if (strcmp(argv[i], "--extra") == 0 && i + 1 < argc) {
      extra = argv[++i];
    } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull(argv[++i], NULL, 0);
    } else if (strcmp(argv[i], "--quick") == 0) {
      g_quick = 1;
    } else {
      usage();
      return 2;
    }
  }
  if (!memset_clears()) {
    printf("memset(p, 0, n) leaves bytes uncleared here: under qemu-user on a 970 or POWER5+, "
           "preload native/test/qemu_memset.c (see it)\n0 passed, 1 failed\n");
    return 1;
  }
  int cap = -1;
  const char *isa_env = getenv("BLAKE3_ISA");
  if (isa_env != NULL && *isa_env != '\0') {
    cap = blake3_isa_from_name(isa_env);
    if (cap < 0) {
      fprintf(stderr, "blake3_harness: unknown BLAKE3_ISA '%s'\n", isa_env);
      return 2;
    }
  }
  const blake3_kernel *best = blake3_kernel_for(cap);
  if (best == NULL) {
    printf("BLAKE3_ISA=%s cannot run on this architecture\n0 passed, 1 failed\n", isa_env);
    return 1;
  }
  const blake3_kernel *portable = blake3_kernel_for(BLAKE3_ISA_PORTABLE);
  uint32_t supported = blake3_supported_isas();

  printf("blake3_harness: seed 0x%" PRIx64 " (--seed to change)%s\n", seed,
         g_quick ? ", quick" : "");
  printf("supported here:");
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++)
    if (supported & (1u << i)) printf(" %s(%zu)", blake3_kernel_for(i)->name, blake3_kernel_for(i)->degree);
  printf("\ncap: %s -> testing up to %s\n", isa_env ? isa_env : "none", best->name);
  printf("vectors: %s\n", vectors ? vectors : "built-in (first 32 bytes of 5 official vectors)");
  if (extra != NULL) printf("extra vectors: %s\n", extra);

  uint8_t *pool = malloc(BIG + POOL_SLACK);
  if (pool == NULL) return 2;
  g_rng = seed ^ 0x5EED;
  rnd_bytes(pool, BIG + 4096); /* as before the slack grew, so old seeds replay the same */
  memcpy(pool + BIG + 4096, pool, POOL_SLACK - 4096);
  g_pool = pool;

  g_kname = "ref";
  if (extra != NULL) test_extra(NULL, ref_hash_fn, extra);
  if (test_vectors(NULL, ref_hash_fn, vectors) < 0) {
    printf("%ld passed, %ld failed\n", g_pass, g_fail);
    free(pool);
    return 1;
  }

  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    if (!(supported & (1u << i)) || i > (int)best->isa) continue;
    const blake3_kernel *k = blake3_kernel_for(i);
    if (k == NULL || (int)k->isa != i) {
      g_kname = "dispatch";
      check(0, "blake3_kernel_for(%d) did not return that supported ISA", i);
      continue;
    }
    g_kname = k->name;
    printf("kernel %s (degree %zu)\n", k->name, k->degree);
    g_rng = seed; /* the same cases for every kernel */
    test_compress(k, portable);
    test_hash_many(k, portable);
    test_hash_lanes(k);
    test_batch(k);
    test_xof_many(k);
    test_subtrees(k);
    test_capped_subtrees(k);
    test_oneshot(k);
    test_root_output(k, portable);
    test_vectors(k, vec_oneshot, vectors);
    if (extra != NULL) test_extra(k, vec_oneshot, extra);
  }
  free(pool);
  printf("%ld passed, %ld failed\n", g_pass, g_fail);
  return g_fail == 0 ? 0 : 1;
}
