/*
 * blake3-fast: the row-wise compression of one block in xmm registers: the 4x4 state is four
 * row vectors, diagonalised with pshufd, the message permuted with shufps (the rounds:
 * blake3_rows_body.h, shared with the two-states-per-ymm form). Its compiler flags decide the
 * rotations (see rot16). Included by blake3_sse.h (the SSE2 and SSE4.1 kernels); by
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

#if defined(__SSE4_1__)
#ifdef __AVX2__
#define BLEND32(a, b, mask) _mm_blend_epi32((a), (b), (mask))
#else /* blendps: SSE4.1's one dword blend that is not limited to the shuffle port on Intel */
#define BLEND32(a, b, mask)                                                                  \
  _mm_castps_si128(_mm_blend_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), (mask)))
#endif
#endif
#define ROWS_V __m128i
#define ROWS_(name) name
#define R_ADD add
#define R_XOR xor
#define R_ROT16 rot16
#define R_ROT12 rot12
#define R_ROT8 rot8
#define R_ROT7 rot7
#define R_PSHUFD PSHUFD
#define R_SHUFPS SHUFPS
#define R_BLEND32 BLEND32
#define R_UNPACKLO32 _mm_unpacklo_epi32
#define R_UNPACKHI32 _mm_unpackhi_epi32
#include "blake3_rows_body.h"

/* The seven rounds on the rows r, set up by the caller, with the message block. */
INLINE void rounds_block_rows(__m128i r[4], const uint8_t block[64]) {
  __m128i m[4];
  msg_rows(ld(block), ld(block + 16), ld(block + 32), ld(block + 48), m);
  rounds_rows(r, m);
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
  rounds_block_rows(r, block);
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
    rounds_block_rows(r, input + b * BLAKE3_BLOCK_LEN);
    h0 = xor(r[0], r[2]);
    h1 = xor(r[1], r[3]);
    block_flags = flags;
  }
  st(out, h0); /* x86 is little-endian: the words' bytes are the CV's bytes */
  st(out + 16, h1);
}

#endif /* BLAKE3_SSE_ROWS_H */
