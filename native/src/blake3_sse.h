/*
 * blake3-fast: the 128-bit x86 kernels, one source for two ISA files. blake3_sse2.c and
 * blake3_sse41.c each define B3_SSE(fn) (the function name with their suffix) and include this
 * file; their compiler flags decide the rotations (see rot16), nothing else differs.
 *
 *   compress_in_place / compress_xof  one block, row-wise: the 4x4 state is four row vectors,
 *                                     diagonalised with pshufd, message permuted with shufps
 *   hash_many                         four inputs at a time, one per 32-bit lane
 */
#ifndef B3_SSE
#error "include blake3_sse.h from an ISA file that defines B3_SSE(fn)"
#endif

#include <immintrin.h>

#include "blake3_impl.h"

#define INLINE static inline __attribute__((always_inline))

/* ---- vector helpers ------------------------------------------------------------------- */

INLINE __m128i ld(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
INLINE void st(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }
INLINE __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
INLINE __m128i xor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
INLINE __m128i set1(uint32_t x) { return _mm_set1_epi32((int)x); }

/* Rotations right. By 16 and 8 they move whole bytes: one pshufb each where SSSE3 is there
 * (the SSE4.1 build); the SSE2 build swaps the 16-bit halves with pshuflw/pshufhw for 16 and
 * shifts for 8. By 12 and 7: two shifts and an OR either way. */
#ifdef __SSSE3__
INLINE __m128i rot16(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
}
INLINE __m128i rot8(__m128i x) {
  return _mm_shuffle_epi8(x, _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12));
}
#else
INLINE __m128i rot16(__m128i x) {
  return _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0xB1), 0xB1);
}
INLINE __m128i rot8(__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 8), _mm_slli_epi32(x, 24)); }
#endif
INLINE __m128i rot12(__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)); }
INLINE __m128i rot7(__m128i x) { return _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)); }

/* Lane k of the result is lane ik of the source (pshufd), or for SHUFPS lanes 0-1 come
 * from a and lanes 2-3 from b. */
#define PSHUFD(x, i0, i1, i2, i3) _mm_shuffle_epi32((x), _MM_SHUFFLE(i3, i2, i1, i0))
#define SHUFPS(a, b, i0, i1, i2, i3)                                                         \
  _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b),                 \
                                  _MM_SHUFFLE(i3, i2, i1, i0)))

/* ---- row-wise compression ------------------------------------------------------------- */

/* Rows r0..r3 hold state words 0-3, 4-7, 8-11, 12-15. The column step uses the message words
 * a = (w0 w2 w4 w6), b = (w1 w3 w5 w7). For the diagonal step rows 0, 2 and 3 are rotated
 * (row 1 stays, it is the last one a G finishes), so lane j holds diagonal j-1; the diagonal
 * words are therefore kept rotated too: c = (w14 w8 w10 w12), d = (w15 w9 w11 w13). */
INLINE void g_rows(__m128i *a, __m128i *b, __m128i *c, __m128i *d, __m128i mx, __m128i my) {
  *a = add(add(*a, mx), *b);
  *d = rot16(xor(*d, *a));
  *c = add(*c, *d);
  *b = rot12(xor(*b, *c));
  *a = add(add(*a, my), *b);
  *d = rot8(xor(*d, *a));
  *c = add(*c, *d);
  *b = rot7(xor(*b, *c));
}

INLINE void round_rows(__m128i r[4], __m128i a, __m128i b, __m128i c, __m128i d) {
  g_rows(&r[0], &r[1], &r[2], &r[3], a, b);
  r[0] = PSHUFD(r[0], 3, 0, 1, 2);
  r[2] = PSHUFD(r[2], 1, 2, 3, 0);
  r[3] = PSHUFD(r[3], 2, 3, 0, 1);
  g_rows(&r[0], &r[1], &r[2], &r[3], c, d);
  r[0] = PSHUFD(r[0], 1, 2, 3, 0);
  r[2] = PSHUFD(r[2], 3, 0, 1, 2);
  r[3] = PSHUFD(r[3], 2, 3, 0, 1);
}

/* Next round's (a, b, c, d) from this round's, by the BLAKE3 message permutation. */
INLINE void permute_msg(__m128i *pa, __m128i *pb, __m128i *pc, __m128i *pd) {
  __m128i a = *pa, b = *pb, c = *pc, d = *pd;
  *pa = PSHUFD(SHUFPS(a, b, 1, 2, 1, 3), 0, 2, 3, 1);                          /* w2 w3 w7 w4 */
  *pb = SHUFPS(SHUFPS(a, c, 3, 3, 2, 2), SHUFPS(a, d, 0, 0, 3, 3), 0, 2, 0, 2); /* w6 w10 w0 w13 */
  *pc = SHUFPS(SHUFPS(d, b, 0, 0, 0, 0), SHUFPS(c, d, 3, 3, 1, 1), 0, 2, 0, 2); /* w15 w1 w12 w9 */
  *pd = SHUFPS(SHUFPS(c, d, 1, 1, 2, 2), SHUFPS(b, c, 2, 2, 0, 0), 0, 2, 0, 2); /* w8 w11 w5 w14 */
}

INLINE void compress_rows(__m128i r[4], const uint32_t cv[8], const uint8_t block[64],
                          uint8_t block_len, uint64_t counter, uint8_t flags) {
  r[0] = ld(cv);
  r[1] = ld(cv + 4);
  r[2] = ld(blake3_iv);
  r[3] = _mm_set_epi32((int)flags, (int)block_len, (int)blake3_counter_high(counter),
                       (int)blake3_counter_low(counter));
  __m128i w0 = ld(block), w1 = ld(block + 16), w2 = ld(block + 32), w3 = ld(block + 48);
  __m128i a = SHUFPS(w0, w1, 0, 2, 0, 2);
  __m128i b = SHUFPS(w0, w1, 1, 3, 1, 3);
  __m128i c = PSHUFD(SHUFPS(w2, w3, 0, 2, 0, 2), 3, 0, 1, 2);
  __m128i d = PSHUFD(SHUFPS(w2, w3, 1, 3, 1, 3), 3, 0, 1, 2);
  for (int i = 0; i < 6; i++) {
    round_rows(r, a, b, c, d);
    permute_msg(&a, &b, &c, &d);
  }
  round_rows(r, a, b, c, d);
}

void B3_SSE(blake3_compress_in_place)(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(cv, xor(r[0], r[2]));
  st(cv + 4, xor(r[1], r[3]));
}

void B3_SSE(blake3_compress_xof)(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                              uint8_t block_len, uint64_t counter, uint8_t flags,
                              uint8_t out[64]) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(out, xor(r[0], r[2]));
  st(out + 16, xor(r[1], r[3]));
  st(out + 32, xor(r[2], ld(cv)));
  st(out + 48, xor(r[3], ld(cv + 4)));
}

/* ---- four inputs across the lanes ----------------------------------------------------- */

/* x0..x3 are rows (one input each, four consecutive words); afterwards x_k holds word k of
 * the four inputs. */
INLINE void transpose4(__m128i *x0, __m128i *x1, __m128i *x2, __m128i *x3) {
  __m128i t0 = _mm_unpacklo_epi32(*x0, *x1), t1 = _mm_unpackhi_epi32(*x0, *x1);
  __m128i t2 = _mm_unpacklo_epi32(*x2, *x3), t3 = _mm_unpackhi_epi32(*x2, *x3);
  *x0 = _mm_unpacklo_epi64(t0, t2);
  *x1 = _mm_unpackhi_epi64(t0, t2);
  *x2 = _mm_unpacklo_epi64(t1, t3);
  *x3 = _mm_unpackhi_epi64(t1, t3);
}

/* Hashes in[0..3] (blocks blocks each) to four CVs written at out[0..127]. */
static void hash4(const uint8_t *const in[4], size_t blocks, const uint32_t key[8],
                  const uint32_t ctr_lo[4], const uint32_t ctr_hi[4], uint8_t flags,
                  uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  __m128i h[8];
  for (int i = 0; i < 8; i++) h[i] = set1(key[i]);
  const __m128i lo = ld(ctr_lo), hi = ld(ctr_hi);
  for (size_t blk = 0; blk < blocks; blk++) {
    const size_t off = blk * BLAKE3_BLOCK_LEN;
    __m128i m[16];
    for (int g = 0; g < 4; g++) {
      m[4 * g + 0] = ld(in[0] + off + 16 * g);
      m[4 * g + 1] = ld(in[1] + off + 16 * g);
      m[4 * g + 2] = ld(in[2] + off + 16 * g);
      m[4 * g + 3] = ld(in[3] + off + 16 * g);
      transpose4(&m[4 * g + 0], &m[4 * g + 1], &m[4 * g + 2], &m[4 * g + 3]);
    }
    uint32_t f = flags;
    if (blk == 0) f |= flags_start;
    if (blk + 1 == blocks) f |= flags_end;
    __m128i v[16] = {h[0],       h[1],       h[2],       h[3],       h[4],      h[5],
                     h[6],       h[7],       set1(blake3_iv[0]), set1(blake3_iv[1]), set1(blake3_iv[2]),
                     set1(blake3_iv[3]), lo,      hi,         set1(BLAKE3_BLOCK_LEN), set1(f)};
    BLAKE3_ROUNDS();
    for (int i = 0; i < 8; i++) h[i] = xor(v[i], v[i + 8]);
  }
  transpose4(&h[0], &h[1], &h[2], &h[3]);
  transpose4(&h[4], &h[5], &h[6], &h[7]);
  for (int i = 0; i < 4; i++) {
    st(out + 32 * i, h[i]);
    st(out + 32 * i + 16, h[4 + i]);
  }
}

void B3_SSE(blake3_hash_many)(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  uint32_t lo[4], hi[4];
  size_t i = 0;
  while (i < num_inputs) {
    const size_t rest = num_inputs - i;
    if (rest < 3) {
      /* One or two left: single row-wise compressions beat a padded group (measured). */
      for (size_t k = i; k < num_inputs; k++)
        blake3_hash_one(B3_SSE(blake3_compress_in_place), inputs[k], blocks, key,
                        counter + (increment_counter ? k : 0), flags, flags_start, flags_end,
                        out + 32 * k);
      return;
    }
    /* Three left: one padded group (the spare lane repeats the last input) beats hashing
     * them one by one. */
    const uint8_t *in[4];
    for (size_t k = 0; k < 4; k++) {
      in[k] = inputs[i + (k < rest ? k : rest - 1)];
      const uint64_t c = counter + (increment_counter ? i + k : 0);
      lo[k] = blake3_counter_low(c);
      hi[k] = blake3_counter_high(c);
    }
    if (rest >= 4) {
      hash4(in, blocks, key, lo, hi, flags, flags_start, flags_end, out + 32 * i);
      i += 4;
    } else {
      uint8_t tmp[4 * BLAKE3_OUT_LEN];
      hash4(in, blocks, key, lo, hi, flags, flags_start, flags_end, tmp);
      memcpy(out + 32 * i, tmp, 32 * rest);
      return;
    }
  }
}
