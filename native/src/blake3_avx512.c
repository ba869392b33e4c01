/*
 * blake3-fast: AVX-512 kernels (compiled with -mavx512f -mavx512vl; nothing from BW/VBMI).
 *
 *   compress_in_place / compress_xof  one block, row-wise in xmm registers: blake3_sse_rows.h's
 *                                     compression, every rotation one vprord
 *   hash_many                         sixteen inputs at a time in zmm lanes; a tail of 3 or
 *                                     5..8 inputs runs eight-wide in ymm, of 2 or 4 row-wise
 *                                     two per ymm (blake3_ymm_rows.h), a single one row-wise
 *   xof_many                          sixteen consecutive output blocks at a time
 *   hash_lanes                        sixteen lanes at a time in zmm through the block loop
 *                                     of hash_many (z_hash_blocks), twice; nine to fifteen
 *                                     left over as a padded zmm group, two to eight as a ymm
 *                                     one (blake3_ymm8.h), one row-wise
 *   subtree                           sixteen chunks at a time, their CVs kept word-major
 *                                     between levels (blake3_subtree16.h)
 *
 * AVX-512 rotates with one instruction (vprord), whatever the distance.
 */
#include <immintrin.h>

#include "blake3_impl.h"
#include "blake3_lanes_group.h"

/* ld, st, add, xor, set1 and rot16..rot7 on xmm (vprord here), round_rows */
#include "blake3_sse_rows.h"

/* ---- vector helpers: z_ for zmm (y_ for ymm: blake3_ymm8.h) ----------------------------- */

INLINE __m512i z_add(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
INLINE __m512i z_xor(__m512i a, __m512i b) { return _mm512_xor_si512(a, b); }
INLINE __m512i z_set1(uint32_t x) { return _mm512_set1_epi32((int)x); }
INLINE __m512i z_ld(const void *p) { return _mm512_loadu_si512(p); }
INLINE __m512i z_rot16(__m512i x) { return _mm512_ror_epi32(x, 16); }
INLINE __m512i z_rot12(__m512i x) { return _mm512_ror_epi32(x, 12); }
INLINE __m512i z_rot8(__m512i x) { return _mm512_ror_epi32(x, 8); }
INLINE __m512i z_rot7(__m512i x) { return _mm512_ror_epi32(x, 7); }

/* Stores 128-bit lane `lane` (a constant 1..3) of zmm v at p. The memory form of vextracti32x4
 * is a plain store, with no shuffle uop; gcc 12 does not fuse _mm512_extracti32x4_epi32 with
 * a store, hence the asm. */
typedef long long bytes16 __attribute__((vector_size(16), aligned(1), may_alias));
#define STORE_LANE(p, v, lane)                                                               \
  __asm__("vextracti32x4 $" #lane ", %1, %0" : "=m"(*(bytes16 *)(void *)(p)) : "v"(v))

/* ---- row-wise compression ------------------------------------------------------------- */

/* compress_in_place and compress_xof run compress_rows (blake3_sse_rows.h), whose message
 * moves from round to round by in-lane shuffles: picking each round's words from the block with
 * four vpermt2d (below, for parent_rows) measured slower for one block, whose speed is the
 * latency of its chain (vpermt2d has a longer latency and only the one shuffle port). */

/* Words i0..i3 of the block whose words 0-7 are in lo and 8-15 in hi. */
INLINE __m128i pick(__m256i lo, __m256i hi, int i0, int i1, int i2, int i3) {
  const __m256i idx = _mm256_setr_epi32(i0, i1, i2, i3, 0, 0, 0, 0);
  return _mm256_castsi256_si128(_mm256_permutex2var_epi32(lo, idx, hi));
}

/* Round s on the rows, its four message vectors picked straight from the block by vpermt2d
 * with the schedule as index (the diagonal ones in round_rows' rotated order). */
INLINE void round_picked(__m128i r[4], __m256i lo, __m256i hi, const uint8_t s[16]) {
  round_rows(r, pick(lo, hi, s[0], s[2], s[4], s[6]), pick(lo, hi, s[1], s[3], s[5], s[7]),
             pick(lo, hi, s[14], s[8], s[10], s[12]), pick(lo, hi, s[15], s[9], s[11], s[13]));
}

/* The seven rounds on the rows r, the block's words 0-7 in lo and 8-15 in hi. */
INLINE void rounds_picked(__m128i r[4], __m256i lo, __m256i hi) {
  round_picked(r, lo, hi, blake3_msg_schedule[0]);
  round_picked(r, lo, hi, blake3_msg_schedule[1]);
  round_picked(r, lo, hi, blake3_msg_schedule[2]);
  round_picked(r, lo, hi, blake3_msg_schedule[3]);
  round_picked(r, lo, hi, blake3_msg_schedule[4]);
  round_picked(r, lo, hi, blake3_msg_schedule[5]);
  round_picked(r, lo, hi, blake3_msg_schedule[6]);
}

void blake3_compress_in_place_avx512(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                     uint8_t block_len, uint64_t counter, uint8_t flags) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(cv, xor(r[0], r[2]));
  st(cv + 4, xor(r[1], r[3]));
}

void blake3_compress_xof_avx512(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                uint8_t block_len, uint64_t counter, uint8_t flags,
                                uint8_t out[64]) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(out, xor(r[0], r[2]));
  st(out + 16, xor(r[1], r[3]));
  st(out + 32, xor(r[2], ld(cv)));
  st(out + 48, xor(r[3], ld(cv + 4)));
}

/* a + m, computed as such. G's a + m + b must add b last: b is the value the chain has just
 * produced, a and m were ready long before. gcc reassociates a plain (a + m) + b into
 * (b + m) + a, one more add on the chain of every G step; the empty asm makes a + m a value it
 * cannot take apart. */
INLINE __m512i z_addm(__m512i a, __m512i m) {
  __m512i t = _mm512_add_epi32(a, m);
  __asm__("" : "+v"(t));
  return t;
}
INLINE __m256i y_addm(__m256i a, __m256i m) {
  __m256i t = _mm256_add_epi32(a, m);
  __asm__("" : "+v"(t));
  return t;
}
INLINE __m128i addm(__m128i a, __m128i m) {
  __m128i t = _mm_add_epi32(a, m);
  __asm__("" : "+v"(t));
  return t;
}

/* ---- many lanes: the rounds --------------------------------------------------------- */

/* Four G functions side by side on state vectors v[] and message vectors m[]; T is the
 * helper prefix (y_ or z_). */
#define G4(T, a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3,  \
           y0, y1, y2, y3)                                                                   \
  do {                                                                                       \
    v[a0] = T##add(T##addm(v[a0], m[x0]), v[b0]);                                            \
    v[a1] = T##add(T##addm(v[a1], m[x1]), v[b1]);                                            \
    v[a2] = T##add(T##addm(v[a2], m[x2]), v[b2]);                                            \
    v[a3] = T##add(T##addm(v[a3], m[x3]), v[b3]);                                            \
    v[d0] = T##rot16(T##xor(v[d0], v[a0]));                                                  \
    v[d1] = T##rot16(T##xor(v[d1], v[a1]));                                                  \
    v[d2] = T##rot16(T##xor(v[d2], v[a2]));                                                  \
    v[d3] = T##rot16(T##xor(v[d3], v[a3]));                                                  \
    v[c0] = T##add(v[c0], v[d0]);                                                            \
    v[c1] = T##add(v[c1], v[d1]);                                                            \
    v[c2] = T##add(v[c2], v[d2]);                                                            \
    v[c3] = T##add(v[c3], v[d3]);                                                            \
    v[b0] = T##rot12(T##xor(v[b0], v[c0]));                                                  \
    v[b1] = T##rot12(T##xor(v[b1], v[c1]));                                                  \
    v[b2] = T##rot12(T##xor(v[b2], v[c2]));                                                  \
    v[b3] = T##rot12(T##xor(v[b3], v[c3]));                                                  \
    v[a0] = T##add(T##addm(v[a0], m[y0]), v[b0]);                                            \
    v[a1] = T##add(T##addm(v[a1], m[y1]), v[b1]);                                            \
    v[a2] = T##add(T##addm(v[a2], m[y2]), v[b2]);                                            \
    v[a3] = T##add(T##addm(v[a3], m[y3]), v[b3]);                                            \
    v[d0] = T##rot8(T##xor(v[d0], v[a0]));                                                   \
    v[d1] = T##rot8(T##xor(v[d1], v[a1]));                                                   \
    v[d2] = T##rot8(T##xor(v[d2], v[a2]));                                                   \
    v[d3] = T##rot8(T##xor(v[d3], v[a3]));                                                   \
    v[c0] = T##add(v[c0], v[d0]);                                                            \
    v[c1] = T##add(v[c1], v[d1]);                                                            \
    v[c2] = T##add(v[c2], v[d2]);                                                            \
    v[c3] = T##add(v[c3], v[d3]);                                                            \
    v[b0] = T##rot7(T##xor(v[b0], v[c0]));                                                   \
    v[b1] = T##rot7(T##xor(v[b1], v[c1]));                                                   \
    v[b2] = T##rot7(T##xor(v[b2], v[c2]));                                                   \
    v[b3] = T##rot7(T##xor(v[b3], v[c3]));                                                   \
  } while (0)

#define ROUND(T, r)                                                                          \
  do {                                                                                       \
    const uint8_t *s = blake3_msg_schedule[r];                                               \
    G4(T, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s[0], s[2], s[4], s[6], s[1], \
       s[3], s[5], s[7]);                                                                    \
    G4(T, 0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s[8], s[10], s[12], s[14],   \
       s[9], s[11], s[13], s[15]);                                                           \
  } while (0)

#define SEVEN_ROUNDS(T)                                                                      \
  do {                                                                                       \
    ROUND(T, 0);                                                                             \
    ROUND(T, 1);                                                                             \
    ROUND(T, 2);                                                                             \
    ROUND(T, 3);                                                                             \
    ROUND(T, 4);                                                                             \
    ROUND(T, 5);                                                                             \
    ROUND(T, 6);                                                                             \
  } while (0)

/* ---- sixteen lanes (zmm) -------------------------------------------------------------- */

/* Four rows (zmm) a..d: t[r], 128-bit lane q <- word 4q+r of rows a, b, c, d. */
INLINE void gather4x4(__m512i a, __m512i b, __m512i c, __m512i d, __m512i t[4]) {
  const __m512i ab0 = _mm512_unpacklo_epi32(a, b), ab1 = _mm512_unpackhi_epi32(a, b);
  const __m512i cd0 = _mm512_unpacklo_epi32(c, d), cd1 = _mm512_unpackhi_epi32(c, d);
  t[0] = _mm512_unpacklo_epi64(ab0, cd0);
  t[1] = _mm512_unpackhi_epi64(ab0, cd0);
  t[2] = _mm512_unpacklo_epi64(ab1, cd1);
  t[3] = _mm512_unpackhi_epi64(ab1, cd1);
}

/* The 16x16 transpose of rows[0..15] (64 bytes each) written to dst: half the shuffles of a
 * register transpose, the 128-bit pieces land in place through stores instead. Row i, word w
 * goes to dst + 64 * w + 4 * i. */
INLINE void transpose16_store(const __m512i rows[16], uint8_t *dst) {
  for (int g = 0; g < 4; g++) {
    __m512i t[4];
    gather4x4(rows[4 * g], rows[4 * g + 1], rows[4 * g + 2], rows[4 * g + 3], t);
    for (int r = 0; r < 4; r++) {
      uint8_t *o = dst + 64 * r + 16 * g;
      st(o, _mm512_castsi512_si128(t[r]));
      STORE_LANE(o + 64 * 4, t[r], 1);
      STORE_LANE(o + 64 * 8, t[r], 2);
      STORE_LANE(o + 64 * 12, t[r], 3);
    }
  }
}

/* dst[w] lane n <- word w of the block at in[n] + off. Each zmm first holds words 0-7 (or
 * 8-15) of two inputs, one per 256-bit half; the 4x4 transposes inside 128-bit lanes then
 * leave word k of four inputs per lane, and one vshufi32x4 per word gathers the four lanes.
 * Which inputs share a register is chosen so that the lanes come out in order. */
INLINE void load_transposed16(const uint8_t *const in[16], size_t off, __m512i dst[16]) {
  for (int half = 0; half < 2; half++) {
    const size_t o = off + 32 * (size_t)half;
    __m512i x[8];
    for (int j = 0; j < 8; j++) {
      const int p = j < 4 ? j : j + 4; /* 0-3, then 8-11; the high halves 4-7, then 12-15 */
      x[j] = _mm512_inserti64x4(
          _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(in[p] + o))),
          _mm256_loadu_si256((const __m256i *)(in[p + 4] + o)), 1);
    }
    __m512i a[4], b[4];
    gather4x4(x[0], x[1], x[2], x[3], a);
    gather4x4(x[4], x[5], x[6], x[7], b);
    for (int k = 0; k < 4; k++) {
      _mm512_store_si512(&dst[8 * half + k], _mm512_shuffle_i32x4(a[k], b[k], 0x88));
      _mm512_store_si512(&dst[8 * half + 4 + k], _mm512_shuffle_i32x4(a[k], b[k], 0xDD));
    }
  }
}

/* The block loop (BLAKE3_LANES_GROUP's T##hash_blocks, blake3_lanes_group.h): blocks blocks of
 * in[0..15], counters lo/hi per lane, the CVs h out word-major (h[k] lane n: word k of input
 * n's CV), and in unless from_key. lens and lane_flags are hash_lanes' per-lane block lengths
 * and flags, NULL (64, none) from hash_many and subtree: a constant there, which folds away. */
INLINE void z_hash_blocks(const uint8_t *const in[16], size_t blocks, __m512i lo, __m512i hi,
                          const uint32_t *lens, uint8_t flags, uint8_t flags_start,
                          uint8_t flags_end, const uint32_t *lane_flags, int ahead,
                          const uint32_t key[8], int from_key, __m512i h[8]) {
  if (from_key)
    for (int i = 0; i < 8; i++) h[i] = z_set1(key[i]);
  const __m512i len = lens ? z_ld(lens) : z_set1(BLAKE3_BLOCK_LEN);
  const __m512i lf = lane_flags ? z_ld(lane_flags) : _mm512_setzero_si512();
  /* Software-pipelined: block blk+1 is loaded and transposed into the other half of msg
   * before block blk's rounds, which read their words from memory (free micro-fused loads).
   * Run in the same stretch, the shuffles fill gaps among the rounds' adds and rotations
   * instead of stalling each block's start. */
  __m512i msg[2][16];
  if (blocks > 0) load_transposed16(in, 0, msg[0]);
  for (size_t blk = 0; blk < blocks; blk++) {
    if (blk + 1 < blocks) load_transposed16(in, (blk + 1) * BLAKE3_BLOCK_LEN, msg[(blk + 1) & 1]);
    if (ahead)
      for (int k = 0; k < 16; k++)
        _mm_prefetch((const char *)in[k] + blk * BLAKE3_BLOCK_LEN + BLAKE3_PREFETCH_AHEAD, _MM_HINT_T0);
    const __m512i *m = msg[blk & 1];
    uint32_t f = flags;
    if (blk == 0) f |= flags_start;
    if (blk + 1 == blocks) f |= flags_end;
    __m512i v[16] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
                     z_set1(blake3_iv[0]), z_set1(blake3_iv[1]), z_set1(blake3_iv[2]),
                     z_set1(blake3_iv[3]), lo, hi, len, _mm512_or_si512(z_set1(f), lf)};
    SEVEN_ROUNDS(z_);
    for (int i = 0; i < 8; i++) h[i] = z_xor(v[i], v[i + 8]);
  }
}

/* Lane k's block counter, counter + k * step (step 0 or 1), as its low and high words, built in
 * registers (see y_counters). */
INLINE void z_counters(uint64_t counter, int step, __m512i *lo, __m512i *hi) {
  const __m512i base = z_set1(blake3_counter_low(counter));
  const __m512i sum = z_add(base, step ? _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
                                                           12, 13, 14, 15)
                                       : _mm512_setzero_si512());
  const __m512i high = z_set1(blake3_counter_high(counter));
  *lo = sum;
  /* a lane carried into the high word iff its sum is below the base */
  *hi = _mm512_mask_add_epi32(high, _mm512_cmplt_epu32_mask(sum, base), high, z_set1(1));
}

/* The sixteen CVs h, word-major, to out[0..511], one CV after the other. */
INLINE void z_store_cvs(const __m512i h[8], uint8_t *out) {
  /* gather4x4 leaves words 0-3 (then 4-7) of input 4q+r in 128-bit lane q of t[r] */
  for (int half = 0; half < 2; half++) {
    __m512i t[4];
    gather4x4(h[4 * half], h[4 * half + 1], h[4 * half + 2], h[4 * half + 3], t);
    for (int r = 0; r < 4; r++) {
      uint8_t *o = out + 32 * r + 16 * half;
      st(o, _mm512_castsi512_si128(t[r]));
      STORE_LANE(o + 32 * 4, t[r], 1);
      STORE_LANE(o + 32 * 8, t[r], 2);
      STORE_LANE(o + 32 * 12, t[r], 3);
    }
  }
}

/* hash16(in, blocks, key, lo, hi, flags, flags_start, flags_end, out): hash_many's group */
BLAKE3_MANY_GROUP(hash16, __m512i, z_)

/* ---- eight lanes (ymm), for tails ----------------------------------------------------- */

/* The y_ helpers and hash8, with this file's interleaved rounds (32 registers leave room). */
#define B3Y_ROUNDS() SEVEN_ROUNDS(y_)
#include "blake3_ymm8.h"
#include "blake3_ymm_rows.h"

/* ---- hash_many ------------------------------------------------------------------------ */

void blake3_hash_many_avx512(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                             const uint32_t key[8], uint64_t counter, int increment_counter,
                             uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                             uint8_t *out) {
  const uint8_t *in[16];
  uint8_t tmp[16 * BLAKE3_OUT_LEN];
  size_t i = 0;
  while (i < num_inputs) {
    const size_t rest = num_inputs - i;
    const uint64_t c = counter + (increment_counter ? i : 0);
    const int step = increment_counter != 0;
    if (rest == 2 || rest == 4) { /* row-wise, two inputs per ymm: a padded group costs eight */
      hash_last_pairs_rows(inputs + i, rest, blocks, key, c, step, flags, flags_start, flags_end,
                           out + 32 * i);
      return;
    }
    if (rest == 1) {
      hash_one_rows(inputs[i], blocks, key, c, flags, flags_start, flags_end, out + 32 * i);
      return;
    }
    /* Groups of 16 in zmm, 9..15 left as one padded zmm group, 3, 5..8 as one (padded) ymm
     * group: the spare lanes repeat the last input and their CVs are dropped. */
    const size_t width = rest > 8 ? 16 : 8;
    for (size_t k = 0; k < width; k++) in[k] = inputs[i + (k < rest ? k : rest - 1)];
    const int full = rest >= width;
    uint8_t *dst = full ? out + 32 * i : tmp;
    if (width == 16) {
      __m512i lo, hi;
      z_counters(c, step, &lo, &hi);
      hash16(in, blocks, key, lo, hi, flags, flags_start, flags_end, dst);
    } else {
      __m256i lo, hi;
      y_counters(c, step, &lo, &hi);
      hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, dst);
    }
    if (!full) {
      memcpy(out + 32 * i, tmp, 32 * rest);
      return;
    }
    i += width;
  }
}

/* ---- parents without leaving word-major layout --------------------------------------- */

/* z_hash_blocks leaves sixteen CVs word-major (h[w] lane n = word w of CV n), which is also the
 * layout sixteen parent compressions want their message in: parent p of two neighbouring groups
 * a (CVs 0..15) and b (CVs 16..31) has message words w = word w of CV 2p and 8 + w = word w of
 * CV 2p + 1, i.e. the even (odd) lanes of the pair a[w]:b[w], one vpermt2d each. So the levels
 * above the chunks cost sixteen shuffles per sixteen parents and no trip through memory, where
 * hash_many would transpose sixteen CVs out and sixteen blocks back in at every level (and its
 * loads would wait on the 16-byte stores that wrote those CVs). */

/* NAME(m, key, flags, h): the CVs of as many parents as VEC has lanes, whose message words are
 * m[0..15], word-major, into h[0..7]; T is the helper prefix of VEC (z_, y_, or none: xmm). */
#define PARENT_WORDS(NAME, VEC, T)                                                           \
  INLINE void NAME(const VEC m[16], const uint32_t key[8], uint8_t flags, VEC h[8]) {        \
    VEC v[16] = {T##set1(key[0]),       T##set1(key[1]),       T##set1(key[2]),             \
                 T##set1(key[3]),       T##set1(key[4]),       T##set1(key[5]),             \
                 T##set1(key[6]),       T##set1(key[7]),       T##set1(blake3_iv[0]),       \
                 T##set1(blake3_iv[1]), T##set1(blake3_iv[2]), T##set1(blake3_iv[3]),       \
                 T##set1(0),            T##set1(0),            T##set1(BLAKE3_BLOCK_LEN),   \
                 T##set1((uint32_t)(flags | PARENT))};                                       \
    SEVEN_ROUNDS(T);                                                                         \
    for (int i = 0; i < 8; i++) h[i] = T##xor(v[i], v[i + 8]);                               \
  }

PARENT_WORDS(parent16_words, __m512i, z_) /* sixteen parents */
PARENT_WORDS(parent8_words, __m256i, y_)  /* eight: the last levels of a subtree */
PARENT_WORDS(parent4_words, __m128i, )  /* up to four */

/* out <- the sixteen parents of the 32 CVs a (left) then b, word-major. out may alias a or b:
 * both are read whole before out is written. */
INLINE void merge16(const __m512i a[8], const __m512i b[8], const uint32_t key[8], uint8_t flags,
                    __m512i out[8]) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28,
                                         30);
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29,
                                        31);
  __m512i m[16];
  for (int w = 0; w < 8; w++) {
    m[w] = _mm512_permutex2var_epi32(a[w], even, b[w]);
    m[8 + w] = _mm512_permutex2var_epi32(a[w], odd, b[w]);
  }
  parent16_words(m, key, flags, out);
}

/* The CV of a parent node whose block is the CVs lo (left) and hi, row-wise: one compression
 * with no lanes to fill, so about half the latency of a lane-parallel one (the last levels of a
 * tree are a chain of single compressions, each waiting on the one before). */
INLINE __m256i parent_rows(__m256i lo, __m256i hi, const uint32_t key[8], uint8_t flags) {
  __m128i r[4];
  r[0] = ld(key);
  r[1] = ld(key + 4);
  r[2] = ld(blake3_iv);
  r[3] = _mm_setr_epi32(0, 0, BLAKE3_BLOCK_LEN, flags | PARENT);
  rounds_picked(r, lo, hi);
  return _mm256_inserti128_si256(_mm256_castsi128_si256(xor(r[0], r[2])), xor(r[1], r[3]),
                                 1);
}

/* Reduces the sixteen word-major CVs h (the top of a subtree) to its CV (outs 1) or to the CVs
 * of its two halves (outs 2), written at out. The levels of 8 and 4 parents still fill some
 * lanes (ymm, then xmm; the message halves are again the even and odd lanes); the last two go
 * row-wise, where latency, not throughput, is what counts. */
static void reduce16(const __m512i h[8], const uint32_t key[8], uint8_t flags, size_t outs,
                     uint8_t *out) {
  const __m512i even16 = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m512i odd16 = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 0, 0, 0, 0, 0, 0, 0, 0);
  __m256i m8[16], h8[8];
  for (int w = 0; w < 8; w++) {
    m8[w] = _mm512_castsi512_si256(_mm512_permutexvar_epi32(even16, h[w]));
    m8[8 + w] = _mm512_castsi512_si256(_mm512_permutexvar_epi32(odd16, h[w]));
  }
  parent8_words(m8, key, flags, h8);

  const __m256i even8 = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
  const __m256i odd8 = _mm256_setr_epi32(1, 3, 5, 7, 0, 0, 0, 0);
  __m128i m4[16], h4[8];
  for (int w = 0; w < 8; w++) {
    m4[w] = _mm256_castsi256_si128(_mm256_permutexvar_epi32(even8, h8[w]));
    m4[8 + w] = _mm256_castsi256_si128(_mm256_permutexvar_epi32(odd8, h8[w]));
  }
  parent4_words(m4, key, flags, h4);

  /* h4[w] lane j is word w of CV j: transpose to four rows, cv[j] = CV j's eight words */
  __m128i t[8];
  for (int half = 0; half < 2; half++) {
    const __m128i *x = h4 + 4 * half;
    const __m128i ab0 = _mm_unpacklo_epi32(x[0], x[1]), ab1 = _mm_unpackhi_epi32(x[0], x[1]);
    const __m128i cd0 = _mm_unpacklo_epi32(x[2], x[3]), cd1 = _mm_unpackhi_epi32(x[2], x[3]);
    t[4 * half + 0] = _mm_unpacklo_epi64(ab0, cd0);
    t[4 * half + 1] = _mm_unpackhi_epi64(ab0, cd0);
    t[4 * half + 2] = _mm_unpacklo_epi64(ab1, cd1);
    t[4 * half + 3] = _mm_unpackhi_epi64(ab1, cd1);
  }
  __m256i cv[4];
  for (int j = 0; j < 4; j++)
    cv[j] = _mm256_inserti128_si256(_mm256_castsi128_si256(t[j]), t[4 + j], 1);

  /* two independent compressions, one per half of a ymm (hash_pairs_rows) */
  uint8_t blocks[4 * 32], two[2 * 32];
  for (int j = 0; j < 4; j++) y_st(blocks + 32 * j, cv[j]);
  const uint8_t *children[2] = {blocks, blocks + 64};
  hash_pairs_rows(children, 1, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, 0, two);
  const __m256i left = _mm256_loadu_si256((const __m256i *)two);
  const __m256i right = _mm256_loadu_si256((const __m256i *)(two + 32));
  if (outs == 2) {
    y_st(out, left);
    y_st(out + 32, right);
    return;
  }
  y_st(out, parent_rows(left, right, key, flags));
}

/* ---- subtree: the steps blake3_subtree16.h puts in order ------------------------------ */

INLINE void load_cv16(const blake3_cv16 *c, __m512i h[8]) {
  for (int w = 0; w < 8; w++) h[w] = _mm512_load_si512(c->w[w]);
}

INLINE void store_cv16(blake3_cv16 *c, const __m512i h[8]) {
  for (int w = 0; w < 8; w++) _mm512_store_si512(c->w[w], h[w]);
}

INLINE void b3s16_chunks(const uint8_t *input, const uint32_t key[8], uint64_t counter,
                         uint8_t flags, const blake3_cv16 *lefts, size_t merges, int ahead,
                         blake3_cv16 *out) {
  const uint8_t *in[16];
  for (int j = 0; j < 16; j++) in[j] = input + (size_t)j * BLAKE3_CHUNK_LEN;
  __m512i lo, hi, h[8];
  z_counters(counter, 1, &lo, &hi);
  z_hash_blocks(in, BLAKE3_CHUNK_LEN / BLAKE3_BLOCK_LEN, lo, hi, NULL, flags, CHUNK_START,
                CHUNK_END, NULL, ahead, key, 1, h);
  for (size_t l = 0; l < merges; l++) {
    __m512i left[8];
    load_cv16(&lefts[l], left);
    merge16(left, h, key, flags, h);
  }
  store_cv16(out, h);
}

INLINE void b3s16_top(const blake3_cv16 *cvs, const uint32_t key[8], uint8_t flags,
                      size_t outs, uint8_t *out) {
  __m512i h[8];
  load_cv16(cvs, h);
  reduce16(h, key, flags, outs, out);
}

#define B3S16_FN(fn) fn##_avx512
#include "blake3_subtree16.h"

/* ---- xof_many ------------------------------------------------------------------------- */

/* The sixteen output blocks for counters counter..counter+15, word-major: res[w] lane j is
 * word w of block j. */
static void xof16(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
                  uint64_t counter, uint8_t flags, __m512i res[16]) {
  __m512i m[16], v[16];
  for (int i = 0; i < 16; i++) m[i] = z_set1(blake3_load32(block + 4 * i));
  for (int i = 0; i < 8; i++) v[i] = z_set1(cv[i]);
  for (int i = 0; i < 4; i++) v[8 + i] = z_set1(blake3_iv[i]);
  const __m512i base = z_set1(blake3_counter_low(counter));
  const __m512i lo = z_add(base, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
                                                   13, 14, 15));
  /* A lane whose low word wrapped around carries into the high word. */
  const __mmask16 carry = _mm512_cmplt_epu32_mask(lo, base);
  const __m512i hi = z_set1(blake3_counter_high(counter));
  v[12] = lo;
  v[13] = _mm512_mask_add_epi32(hi, carry, hi, z_set1(1));
  v[14] = z_set1(block_len);
  v[15] = z_set1(flags);
  SEVEN_ROUNDS(z_);
  for (int i = 0; i < 8; i++) {
    res[i] = z_xor(v[i], v[i + 8]);
    res[i + 8] = z_xor(v[i + 8], z_set1(cv[i]));
  }
}

/* Writes xof16's result as sixteen consecutive 64-byte blocks. */
INLINE void store_blocks16(const __m512i res[16], uint8_t *out) { transpose16_store(res, out); }

void blake3_xof_many_avx512(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                            uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t *out,
                            size_t n) {
  const size_t groups = n / 16, rest = n % 16;
  /* Three or more left over: cheaper as one more wide pass than one compression each. */
  const int wide_tail = rest >= 3;
  uint8_t tmp[16 * BLAKE3_BLOCK_LEN];
  /* Software-pipelined: group g-1's transpose and stores are issued next to group g's rounds,
   * so the shuffles fill gaps instead of running alone between groups. */
  __m512i pending[16];
  uint8_t *pending_out = NULL;
  for (size_t g = 0; g < groups + (size_t)wide_tail; g++) {
    if (pending_out) store_blocks16(pending, pending_out);
    xof16(cv, block, block_len, counter + 16 * g, flags, pending);
    pending_out = g < groups ? out + 16 * BLAKE3_BLOCK_LEN * g : tmp;
  }
  if (pending_out) store_blocks16(pending, pending_out);
  out += 16 * BLAKE3_BLOCK_LEN * groups;
  counter += 16 * groups;
  if (wide_tail) {
    memcpy(out, tmp, rest * BLAKE3_BLOCK_LEN);
    return;
  }
  for (size_t j = 0; j < rest; j++)
    blake3_compress_xof_avx512(cv, block, block_len, counter + j, flags, out + 64 * j);
}

/* ---- hash_lanes ----------------------------------------------------------------------- */

BLAKE3_LANES_GROUP(lanes16, __m512i, z_)

/* Groups of sixteen in zmm, as hash_many's: nine to fifteen left over as one padded zmm group,
 * two to eight as one (padded) ymm group (lanes8, blake3_ymm8.h), a single one row-wise. */
void blake3_hash_lanes_avx512(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                              const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                              uint8_t *out) {
  const size_t rest = num_inputs % 16 > 8 ? 0 : num_inputs % 16, wide = num_inputs - rest;
  blake3_lanes_groups(lanes16, 16, lanes, 0, wide, blocks, key, flags, flags_start, out);
  if (rest == 1)
    blake3_lane_one(blake3_compress_in_place_avx512, lanes, wide, blocks, key, flags,
                    flags_start, out + BLAKE3_OUT_LEN * wide);
  else if (rest > 1)
    blake3_lanes_groups(lanes8, 8, lanes, wide, rest, blocks, key, flags, flags_start, out);
}
