/*
 * blake3-fast: two independent inputs row-wise in ymm registers, one state per 128-bit half
 * (blake3_rows_body.h's rounds at width 256). A block alone is a chain of dependent operations
 * that leaves most of the core idle; a second block in the other half rides along in the same
 * instructions, at the cost of one. For the inputs an eight-lane group would mostly pad: two
 * left over by hash_many's groups, two parents at the top of a subtree. Needs AVX2; the
 * operations are blake3_ymm8.h's (with AVX-512VL every rotation is one vprord).
 */
#ifndef BLAKE3_YMM_ROWS_H
#define BLAKE3_YMM_ROWS_H

#include <immintrin.h>

#include "blake3_sse_rows.h"
#include "blake3_ymm8.h" /* y_add, y_xor, y_rot16..y_rot7, ld_halves */

#define YR_PSHUFD(x, i0, i1, i2, i3) _mm256_shuffle_epi32((x), _MM_SHUFFLE(i3, i2, i1, i0))
#define YR_SHUFPS(a, b, i0, i1, i2, i3)                                                      \
  _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b),     \
                                        _MM_SHUFFLE(i3, i2, i1, i0)))
#define YR_BLEND32(a, b, mask) _mm256_blend_epi32((a), (b), (mask) | ((mask) << 4))

#define ROWS_V __m256i
#define ROWS_(name) name##_y
#define R_ADD y_add
#define R_XOR y_xor
#define R_ROT16 y_rot16
#define R_ROT12 y_rot12
#define R_ROT8 y_rot8
#define R_ROT7 y_rot7
#define R_PSHUFD YR_PSHUFD
#define R_SHUFPS YR_SHUFPS
#define R_BLEND32 YR_BLEND32
#define R_UNPACKLO32 _mm256_unpacklo_epi32
#define R_UNPACKHI32 _mm256_unpackhi_epi32
#include "blake3_rows_body.h"

/* hash_many's work for 2 * pairs inputs (pairs 1 or 2, a constant where inlined): in[j], with
 * counter counter + j * step (step 0 or 1), blocks blocks each; CV j to out + 32 * j. Pair p is
 * one state, in[2p] in the low half and in[2p + 1] in the high half; two pairs run side by
 * side, step by step, for the same reason as their halves. The CVs stay in registers from
 * block to block. With one block, out may alias the inputs. */
INLINE void hash_pairs_rows(const uint8_t *const in[], int pairs, size_t blocks,
                            const uint32_t key[8], uint64_t counter, int step, uint8_t flags,
                            uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  const __m256i iv = _mm256_broadcastsi128_si256(ld(blake3_iv));
  __m256i row3[2], h[2][2];
  for (int p = 0; p < pairs; p++) { /* row 3 but the flags: counters, block length */
    const uint64_t c0 = counter + (uint64_t)(step * 2 * p), c1 = c0 + (uint64_t)step;
    row3[p] = _mm256_setr_epi32((int)blake3_counter_low(c0), (int)blake3_counter_high(c0),
                                BLAKE3_BLOCK_LEN, 0, (int)blake3_counter_low(c1),
                                (int)blake3_counter_high(c1), BLAKE3_BLOCK_LEN, 0);
    h[p][0] = _mm256_broadcastsi128_si256(ld(key));
    h[p][1] = _mm256_broadcastsi128_si256(ld(key + 4));
  }
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  for (size_t blk = 0; blk < blocks; blk++) {
    if (blk + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    __m256i m[2][4], r[2][4];
    for (int p = 0; p < pairs; p++) {
      const uint8_t *p0 = in[2 * p] + blk * BLAKE3_BLOCK_LEN;
      const uint8_t *p1 = in[2 * p + 1] + blk * BLAKE3_BLOCK_LEN;
      msg_rows_y(ld_halves(p0, p1), ld_halves(p0 + 16, p1 + 16), ld_halves(p0 + 32, p1 + 32),
                 ld_halves(p0 + 48, p1 + 48), m[p]);
      r[p][0] = h[p][0];
      r[p][1] = h[p][1];
      r[p][2] = iv;
      r[p][3] = YR_BLEND32(row3[p], _mm256_set1_epi32(block_flags), 0x8);
    }
    /* the next round's message is permuted off the chains, between the rounds */
#pragma GCC unroll 7
    for (int i = 0; i < 7; i++)
      for (int p = 0; p < pairs; p++) {
        round_rows_y(r[p], m[p][0], m[p][1], m[p][2], m[p][3]);
        if (i < 6) permute_msg_y(&m[p][0], &m[p][1], &m[p][2], &m[p][3]);
      }
    for (int p = 0; p < pairs; p++) {
      h[p][0] = y_xor(r[p][0], r[p][2]);
      h[p][1] = y_xor(r[p][1], r[p][3]);
    }
    block_flags = flags;
  }
  for (int p = 0; p < pairs; p++) {
    st(out + 64 * p, _mm256_castsi256_si128(h[p][0]));
    st(out + 64 * p + 16, _mm256_castsi256_si128(h[p][1]));
    st(out + 64 * p + 32, _mm256_extracti128_si256(h[p][0], 1));
    st(out + 64 * p + 48, _mm256_extracti128_si256(h[p][1], 1));
  }
}

/* hash_many's last two or four inputs (rest), from inputs[0], counter the first one's. */
INLINE void hash_last_pairs_rows(const uint8_t *const *inputs, size_t rest, size_t blocks,
                                 const uint32_t key[8], uint64_t counter, int step, uint8_t flags,
                                 uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  if (rest == 2) /* the pair count a constant in each call, for the unrolling */
    hash_pairs_rows(inputs, 1, blocks, key, counter, step, flags, flags_start, flags_end, out);
  else
    hash_pairs_rows(inputs, 2, blocks, key, counter, step, flags, flags_start, flags_end, out);
}

#endif /* BLAKE3_YMM_ROWS_H */
