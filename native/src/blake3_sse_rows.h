/*
 * blake3-fast: the row-wise compression of one block in xmm registers: the 4x4 state is four
 * row vectors, diagonalised with pshufd, the message permuted with shufps. Its compiler flags
 * decide the rotations (see rot16). Included by blake3_sse.h (the SSE2 and SSE4.1 kernels); by
 * blake3_avx2.c, which inlines it into the inputs its lanes leave over (its table entry names
 * SSE4.1's compression for single blocks: the same code, not inlined); and by
 * blake3_avx512.c, where every rotation is one vprord.
 */
#ifndef BLAKE3_SSE_ROWS_H
#define BLAKE3_SSE_ROWS_H

#include <immintrin.h>

#include "blake3_impl.h"

#define INLINE static inline __attribute__((always_inline))

/* ---- vector helpers ------------------------------------------------------------------- */

INLINE __m128i ld(const void *p) { return _mm_loadu_si128((const __m128i *)p); }
INLINE void st(void *p, __m128i v) { _mm_storeu_si128((__m128i *)p, v); }
INLINE __m128i add(__m128i a, __m128i b) { return _mm_add_epi32(a, b); }
INLINE __m128i xor(__m128i a, __m128i b) { return _mm_xor_si128(a, b); }
INLINE __m128i set1(uint32_t x) { return _mm_set1_epi32((int)x); }

/* Rotations right. With AVX-512VL (the AVX-512 file) one vprord each, whatever the distance.
 * Otherwise by 16 and 8 they move whole bytes: one pshufb each where SSSE3 is there (the
 * SSE4.1 and AVX2 builds); the SSE2 build swaps the 16-bit halves with pshuflw/pshufhw for 16
 * and shifts for 8. By 12 and 7: two shifts and an OR. */
#ifdef __AVX512VL__
INLINE __m128i rot16(__m128i x) { return _mm_ror_epi32(x, 16); }
INLINE __m128i rot12(__m128i x) { return _mm_ror_epi32(x, 12); }
INLINE __m128i rot8(__m128i x) { return _mm_ror_epi32(x, 8); }
INLINE __m128i rot7(__m128i x) { return _mm_ror_epi32(x, 7); }
#else
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
#endif

/* Lane k of the result is lane ik of the source (pshufd), or for SHUFPS lanes 0-1 come
 * from a and lanes 2-3 from b. */
#define PSHUFD(x, i0, i1, i2, i3) _mm_shuffle_epi32((x), _MM_SHUFFLE(i3, i2, i1, i0))
#define SHUFPS(a, b, i0, i1, i2, i3)                                                         \
  _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b),                 \
                                  _MM_SHUFFLE(i3, i2, i1, i0)))

/* ---- row-wise compression ------------------------------------------------------------- */

/* One block is a chain of dependent operations, so its speed is the latency of that chain.
 * In a = a + m + b, row b is the last to be ready (it ends every G), so a + m must be summed
 * first, while b is still being computed, leaving one add after b. gcc reassociates integer
 * vector adds freely and often sums m + b first, putting two adds after b on the chain; this
 * empty asm makes its argument an opaque value, so the sum of a and m is kept as written. */
#ifdef __AVX512F__
INLINE __m128i early(__m128i x) { __asm__("" : "+v"(x)); return x; }
#else
INLINE __m128i early(__m128i x) { __asm__("" : "+x"(x)); return x; }
#endif

/* Rows r0..r3 hold state words 0-3, 4-7, 8-11, 12-15. The column step uses the message words
 * a = (w0 w2 w4 w6), b = (w1 w3 w5 w7). For the diagonal step rows 0, 2 and 3 are rotated
 * (row 1 stays, it is the last one a G finishes), so lane j holds diagonal j-1; the diagonal
 * words are therefore kept rotated too: c = (w14 w8 w10 w12), d = (w15 w9 w11 w13). */
INLINE void g_rows(__m128i *a, __m128i *b, __m128i *c, __m128i *d, __m128i mx, __m128i my) {
  *a = add(early(add(*a, mx)), *b);
  *d = rot16(xor(*d, *a));
  *c = add(*c, *d);
  *b = rot12(xor(*b, *c));
  *a = add(early(add(*a, my)), *b);
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

/* Next round's (a, b, c, d) from this round's, by the BLAKE3 message permutation: with a, b,
 * c, d = (w0 w2 w4 w6), (w1 w3 w5 w7), (w14 w8 w10 w12), (w15 w9 w11 w13), the next round's are
 * (a1 b1 b3 a2), (a3 c2 a0 d3), (d0 b0 c3 d1), (c1 d2 b2 c0) (xk: lane k of x). Without
 * SSE4.1 every step is a shuffle; with it, blends take some of them: shuffles have one or two
 * ports on most cores, blends three. */
#if defined(__SSE4_1__)
#ifdef __AVX2__
#define BLEND32(a, b, mask) _mm_blend_epi32((a), (b), (mask))
#else /* blendps: SSE4.1's one dword blend that is not limited to the shuffle port on Intel */
#define BLEND32(a, b, mask)                                                                  \
  _mm_castps_si128(_mm_blend_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), (mask)))
#endif
INLINE void permute_msg(__m128i *pa, __m128i *pb, __m128i *pc, __m128i *pd) {
  __m128i a = *pa, b = *pb, c = *pc, d = *pd;
  *pa = PSHUFD(SHUFPS(a, b, 1, 2, 1, 3), 0, 2, 3, 1);                    /* a1 b1 b3 a2 */
  *pb = BLEND32(PSHUFD(BLEND32(a, c, 0x4), 3, 2, 0, 0), d, 0x8);         /* a3 c2 a0 d3 */
  *pc = SHUFPS(_mm_unpacklo_epi32(d, b), BLEND32(d, c, 0x8), 0, 1, 3, 1); /* d0 b0 c3 d1 */
  *pd = PSHUFD(SHUFPS(c, _mm_unpackhi_epi32(d, b), 1, 0, 0, 1), 0, 2, 3, 1); /* c1 d2 b2 c0 */
}
#else
INLINE void permute_msg(__m128i *pa, __m128i *pb, __m128i *pc, __m128i *pd) {
  __m128i a = *pa, b = *pb, c = *pc, d = *pd;
  *pa = PSHUFD(SHUFPS(a, b, 1, 2, 1, 3), 0, 2, 3, 1);                          /* a1 b1 b3 a2 */
  *pb = SHUFPS(SHUFPS(a, c, 3, 3, 2, 2), SHUFPS(a, d, 0, 0, 3, 3), 0, 2, 0, 2); /* a3 c2 a0 d3 */
  *pc = SHUFPS(SHUFPS(d, b, 0, 0, 0, 0), SHUFPS(c, d, 3, 3, 1, 1), 0, 2, 0, 2); /* d0 b0 c3 d1 */
  *pd = SHUFPS(SHUFPS(c, d, 1, 1, 2, 2), SHUFPS(b, c, 2, 2, 0, 0), 0, 2, 0, 2); /* c1 d2 b2 c0 */
}
#endif

/* The seven rounds on the rows r, set up by the caller, with the message block. */
INLINE void rounds_rows(__m128i r[4], const uint8_t block[64]) {
  __m128i w0 = ld(block), w1 = ld(block + 16), w2 = ld(block + 32), w3 = ld(block + 48);
  __m128i a = SHUFPS(w0, w1, 0, 2, 0, 2);
  __m128i b = SHUFPS(w0, w1, 1, 3, 1, 3);
  __m128i c = PSHUFD(SHUFPS(w2, w3, 0, 2, 0, 2), 3, 0, 1, 2);
  __m128i d = PSHUFD(SHUFPS(w2, w3, 1, 3, 1, 3), 3, 0, 1, 2);
  /* Unrolled: as a loop, gcc passed a row through the stack at the loop's exit, on the chain. */
#pragma GCC unroll 6
  for (int i = 0; i < 6; i++) {
    round_rows(r, a, b, c, d);
    permute_msg(&a, &b, &c, &d);
  }
  round_rows(r, a, b, c, d);
}

/* Row 3 of the initial state: counter, block length, flags. */
INLINE __m128i counter_row(uint64_t counter, uint8_t block_len, uint8_t flags) {
  return _mm_set_epi32((int)flags, (int)block_len, (int)blake3_counter_high(counter),
                       (int)blake3_counter_low(counter));
}

INLINE void compress_rows(__m128i r[4], const uint32_t cv[8], const uint8_t block[64],
                          uint8_t block_len, uint64_t counter, uint8_t flags) {
  r[0] = ld(cv);
  r[1] = ld(cv + 4);
  r[2] = ld(blake3_iv);
  r[3] = counter_row(counter, block_len, flags);
  rounds_rows(r, block);
}

INLINE void compress_in_place_rows(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(cv, xor(r[0], r[2]));
  st(cv + 4, xor(r[1], r[3]));
}

/* hash_many's work for one input (blake3_hash_one's contract), its CV kept in two registers
 * from block to block: the blocks are a chain, and a CV passed through memory would add a
 * store and a load to it at every block. A short input's one chunk runs here too (for a chunk
 * of more than a few blocks, blake3_tree.c asks hash_many for its blocks but the last). */
INLINE void hash_one_rows(const uint8_t *input, size_t blocks, const uint32_t key[8],
                          uint64_t counter, uint8_t flags, uint8_t flags_start,
                          uint8_t flags_end, uint8_t out[BLAKE3_OUT_LEN]) {
  __m128i h0 = ld(key), h1 = ld(key + 4);
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  for (size_t b = 0; b < blocks; b++) {
    if (b + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    __m128i r[4] = {h0, h1, ld(blake3_iv), counter_row(counter, BLAKE3_BLOCK_LEN, block_flags)};
    rounds_rows(r, input + b * BLAKE3_BLOCK_LEN);
    h0 = xor(r[0], r[2]);
    h1 = xor(r[1], r[3]);
    block_flags = flags;
  }
  st(out, h0); /* x86 is little-endian: the words' bytes are the CV's bytes */
  st(out + 16, h1);
}

/* Two independent single-block compressions (two parents of a level, whose inputs are ready
 * together) in one instruction stream, step by step: a block alone is a chain of dependent
 * operations that leaves most of the core idle, so the second one's operations fill the gaps
 * of the first instead of waiting for its end. out0/out1 may alias block0/block1. */
INLINE void hash_two_blocks_rows(const uint8_t block0[64], const uint8_t block1[64],
                                 const uint32_t key[8], uint64_t counter0, uint64_t counter1,
                                 uint8_t flags, uint8_t out0[BLAKE3_OUT_LEN],
                                 uint8_t out1[BLAKE3_OUT_LEN]) {
  __m128i r[4] = {ld(key), ld(key + 4), ld(blake3_iv),
                  counter_row(counter0, BLAKE3_BLOCK_LEN, flags)};
  __m128i s[4] = {r[0], r[1], r[2], counter_row(counter1, BLAKE3_BLOCK_LEN, flags)};
  /* The seven rounds' message vectors of both blocks first, off the chains, so that the
   * rounds hold only the two states in registers (both messages as well would spill). */
  __m128i m[2][7][4];
  const uint8_t *blocks[2] = {block0, block1};
  for (int k = 0; k < 2; k++) {
    __m128i w0 = ld(blocks[k]), w1 = ld(blocks[k] + 16), w2 = ld(blocks[k] + 32),
            w3 = ld(blocks[k] + 48);
    __m128i a = SHUFPS(w0, w1, 0, 2, 0, 2), b = SHUFPS(w0, w1, 1, 3, 1, 3);
    __m128i c = PSHUFD(SHUFPS(w2, w3, 0, 2, 0, 2), 3, 0, 1, 2);
    __m128i d = PSHUFD(SHUFPS(w2, w3, 1, 3, 1, 3), 3, 0, 1, 2);
    for (int i = 0; i < 7; i++) {
      m[k][i][0] = a, m[k][i][1] = b, m[k][i][2] = c, m[k][i][3] = d;
      permute_msg(&a, &b, &c, &d);
    }
  }
#pragma GCC unroll 7
  for (int i = 0; i < 7; i++) {
    round_rows(r, m[0][i][0], m[0][i][1], m[0][i][2], m[0][i][3]);
    round_rows(s, m[1][i][0], m[1][i][1], m[1][i][2], m[1][i][3]);
  }
  st(out0, xor(r[0], r[2]));
  st(out0 + 16, xor(r[1], r[3]));
  st(out1, xor(s[0], s[2]));
  st(out1 + 16, xor(s[1], s[3]));
}

/* hash_many's case of exactly two single-block inputs left (i and i + 1: two parents), as
 * hash_two_blocks_rows: the x86 hash_many kernels all take it so. */
INLINE void hash_last_two_blocks_rows(const uint8_t *const *inputs, size_t i,
                                      const uint32_t key[8], uint64_t counter,
                                      int increment_counter, uint8_t flags, uint8_t *out) {
  hash_two_blocks_rows(inputs[i], inputs[i + 1], key, counter + (increment_counter ? i : 0),
                       counter + (increment_counter ? i + 1 : 0), flags, out + 32 * i,
                       out + 32 * i + 32);
}

#endif /* BLAKE3_SSE_ROWS_H */
