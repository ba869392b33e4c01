/*
 * blake3-fast: eight inputs across the 32-bit lanes of ymm registers, for blake3_avx2.c's
 * hash_many and blake3_avx512.c's groups of two to eight inputs. Built with -mavx2 it rotates
 * with vpshufb and shifts, built with AVX-512VL with vprord. The includer may define
 * B3Y_ROUNDS() (the seven rounds on v[] and m[] with the y_ operations) before including.
 */
#ifndef BLAKE3_YMM8_H
#define BLAKE3_YMM8_H

#include <immintrin.h>

#include "blake3_impl.h"

#ifndef B3Y_ROUNDS
#define B3Y_ROUNDS() BLAKE3_ROUNDS(y_)
#endif

#define B3Y_INLINE static inline __attribute__((always_inline))

B3Y_INLINE __m256i y_ld(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
B3Y_INLINE void y_st(void *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
B3Y_INLINE __m256i y_add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
B3Y_INLINE __m256i y_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
B3Y_INLINE __m256i y_set1(uint32_t x) { return _mm256_set1_epi32((int)x); }

#ifdef __AVX512VL__
/* AVX-512 rotates with one instruction (vprord), whatever the distance. */
B3Y_INLINE __m256i y_rot16(__m256i x) { return _mm256_ror_epi32(x, 16); }
B3Y_INLINE __m256i y_rot12(__m256i x) { return _mm256_ror_epi32(x, 12); }
B3Y_INLINE __m256i y_rot8(__m256i x) { return _mm256_ror_epi32(x, 8); }
B3Y_INLINE __m256i y_rot7(__m256i x) { return _mm256_ror_epi32(x, 7); }
#else
/* Rotations by 16 and 8 move whole bytes, one vpshufb each; by 12 and 7, two shifts and an OR. */
B3Y_INLINE __m256i y_rot16(__m256i x) {
  return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15,
                                                 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                                 14, 15, 12, 13));
}
B3Y_INLINE __m256i y_rot12(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20));
}
B3Y_INLINE __m256i y_rot8(__m256i x) {
  return _mm256_shuffle_epi8(x, _mm256_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14,
                                                 15, 12, 1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8,
                                                 13, 14, 15, 12));
}
B3Y_INLINE __m256i y_rot7(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25));
}
#endif

/* A 4x4 transpose inside each 128-bit half: rows x0..x3 (four consecutive words of one input
 * per half) become x_k = word k of those inputs. */
B3Y_INLINE void transpose4x2(__m256i *x0, __m256i *x1, __m256i *x2, __m256i *x3) {
  __m256i t0 = _mm256_unpacklo_epi32(*x0, *x1), t1 = _mm256_unpackhi_epi32(*x0, *x1);
  __m256i t2 = _mm256_unpacklo_epi32(*x2, *x3), t3 = _mm256_unpackhi_epi32(*x2, *x3);
  *x0 = _mm256_unpacklo_epi64(t0, t2);
  *x1 = _mm256_unpackhi_epi64(t0, t2);
  *x2 = _mm256_unpacklo_epi64(t1, t3);
  *x3 = _mm256_unpackhi_epi64(t1, t3);
}

/* 16 bytes from lo in the low half, 16 bytes from hi in the high half. */
B3Y_INLINE __m256i ld_halves(const uint8_t *lo, const uint8_t *hi) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                 _mm_loadu_si128((const __m128i *)hi), 1);
}

/* Hashes in[0..7] (blocks blocks each) to eight CVs written at out[0..255]. */
static void hash8(const uint8_t *const in[8], size_t blocks, const uint32_t key[8],
                  const uint32_t ctr_lo[8], const uint32_t ctr_hi[8], uint8_t flags,
                  uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  __m256i h[8];
  for (int i = 0; i < 8; i++) h[i] = y_set1(key[i]);
  const __m256i lo = y_ld(ctr_lo), hi = y_ld(ctr_hi);
  for (size_t blk = 0; blk < blocks; blk++) {
    const size_t off = blk * BLAKE3_BLOCK_LEN;
    __m256i m[16];
    for (int g = 0; g < 4; g++) {
      const size_t o = off + 16 * g;
      m[4 * g + 0] = ld_halves(in[0] + o, in[4] + o);
      m[4 * g + 1] = ld_halves(in[1] + o, in[5] + o);
      m[4 * g + 2] = ld_halves(in[2] + o, in[6] + o);
      m[4 * g + 3] = ld_halves(in[3] + o, in[7] + o);
      transpose4x2(&m[4 * g + 0], &m[4 * g + 1], &m[4 * g + 2], &m[4 * g + 3]);
    }
    uint32_t f = flags;
    if (blk == 0) f |= flags_start;
    if (blk + 1 == blocks) f |= flags_end;
    __m256i v[16] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
                     y_set1(blake3_iv[0]), y_set1(blake3_iv[1]), y_set1(blake3_iv[2]),
                     y_set1(blake3_iv[3]), lo, hi, y_set1(BLAKE3_BLOCK_LEN), y_set1(f)};
    B3Y_ROUNDS();
    for (int i = 0; i < 8; i++) h[i] = y_xor(v[i], v[i + 8]);
  }
  /* h[k] holds word k of inputs 0..7. After the in-half transposes, h[k] is words 0-3 of
   * inputs k and k+4, h[4+k] words 4-7 of the same two inputs. */
  transpose4x2(&h[0], &h[1], &h[2], &h[3]);
  transpose4x2(&h[4], &h[5], &h[6], &h[7]);
  for (int k = 0; k < 4; k++) {
    y_st(out + 32 * k, _mm256_permute2x128_si256(h[k], h[4 + k], 0x20));
    y_st(out + 32 * (k + 4), _mm256_permute2x128_si256(h[k], h[4 + k], 0x31));
  }
}

#endif /* BLAKE3_YMM8_H */
