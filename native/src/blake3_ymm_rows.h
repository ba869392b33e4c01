/*
 * blake3-fast: two independent inputs row-wise in ymm registers, one state per 128-bit half
 * (blake3_rows_body.h's rounds at width 256). A block alone is a chain of dependent operations
 * that leaves most of the core idle; a second block in the other half rides along in the same
 * instructions, at the cost of one. For the inputs an eight-lane group would mostly pad: two
 * left over by hash_many's groups, two parents at the top of a subtree. Needs AVX2; the
 * operations are blake3_ymm8.h's (with AVX-512VL every rotation is one vprord). Four inputs
 * on AVX2 take hash_two_pairs_rows, the same rounds in inline assembly.
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

/* Row 3 of pair p's states but the flags: its two counters (counter + (2p, 2p + 1) * step), the
 * block length. */
INLINE __m256i pair_row3(uint64_t counter, int step, int p) {
  const uint64_t c0 = counter + (uint64_t)(step * 2 * p), c1 = c0 + (uint64_t)step;
  return _mm256_setr_epi32((int)blake3_counter_low(c0), (int)blake3_counter_high(c0),
                           BLAKE3_BLOCK_LEN, 0, (int)blake3_counter_low(c1),
                           (int)blake3_counter_high(c1), BLAKE3_BLOCK_LEN, 0);
}

/* The first round's message vectors of pair p's blocks at offset off of in[2p], in[2p + 1]. */
INLINE void pair_msg_rows(const uint8_t *const in[], int p, size_t off, __m256i m[4]) {
  const uint8_t *p0 = in[2 * p] + off, *p1 = in[2 * p + 1] + off;
  msg_rows_y(ld_halves(p0, p1), ld_halves(p0 + 16, p1 + 16), ld_halves(p0 + 32, p1 + 32),
             ld_halves(p0 + 48, p1 + 48), m);
}

/* A pair's two CVs (rows a, b: the low halves one input's, the high halves the other's) to
 * out and out + 32. */
INLINE void store_pair(uint8_t *out, __m256i a, __m256i b) {
  st(out, _mm256_castsi256_si128(a));
  st(out + 16, _mm256_castsi256_si128(b));
  st(out + 32, _mm256_extracti128_si256(a, 1));
  st(out + 48, _mm256_extracti128_si256(b, 1));
}

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
  for (int p = 0; p < pairs; p++) {
    row3[p] = pair_row3(counter, step, p);
    h[p][0] = _mm256_broadcastsi128_si256(ld(key));
    h[p][1] = _mm256_broadcastsi128_si256(ld(key + 4));
  }
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  for (size_t blk = 0; blk < blocks; blk++) {
    if (blk + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    __m256i m[2][4], r[2][4];
    for (int p = 0; p < pairs; p++) {
      pair_msg_rows(in, p, blk * BLAKE3_BLOCK_LEN, m[p]);
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
  for (int p = 0; p < pairs; p++) store_pair(out + 64 * p, h[p][0], h[p][1]);
}

#ifndef __AVX512VL__
/* Four inputs on AVX2: hash_pairs_rows with two pairs, a block's rounds in one asm statement
 * (blake3_rows_asm.h, VEX encoding), as blake3_sse.h's hash_two_rows does for two inputs in
 * xmm: as intrinsics, two states and both messages took more than the sixteen ymm registers
 * and gcc spilled state rows. (AVX-512 has 32.) Pair i's next blocks are at lo<i>, hi<i>. */
#define RA_VEC "32"
#define RA_V "v"
#define RA_OP(op, src, dst) "v" #op " " src ", %[" #dst "], %[" #dst "]\n\t"
#define RA_OPI(op, imm, src, dst) "v" #op " $" #imm ", " src ", %[" #dst "], %[" #dst "]\n\t"
#define B4Y_SHIFTROT(n, x0, x1)                                                                \
  "vpsrld $" #n ", %[" #x0 "], %[t0]\n\tvpsrld $" #n ", %[" #x1 "], %[t1]\n\t"                  \
  "vpslld $32-" #n ", %[" #x0 "], %[" #x0 "]\n\tvpslld $32-" #n ", %[" #x1 "], %[" #x1 "]\n\t"  \
  RA_OP(por, RA_R(t0), x0) RA_OP(por, RA_R(t1), x1)
#define RA_ROT16(x0, x1) RA_OP(pshufb, RA_R(r16), x0) RA_OP(pshufb, RA_R(r16), x1)
#define RA_ROT8(x0, x1) RA_OP(pshufb, RA_R(r8), x0) RA_OP(pshufb, RA_R(r8), x1)
#define RA_ROT12(x0, x1) B4Y_SHIFTROT(12, x0, x1)
#define RA_ROT7(x0, x1) B4Y_SHIFTROT(7, x0, x1)
#define B4Y_ROW(i, off, x)                                                                     \
  "vmovdqu " off "(%[lo" #i "]), %x[" #x "]\n\t"                                                \
  "vinserti128 $1, " off "(%[hi" #i "]), %[" #x "], %[" #x "]\n\t"
#define RA_ROWS(i, off) B4Y_ROW(i, #off, p0) B4Y_ROW(i, #off "+16", p1)
#include "blake3_rows_asm.h"

/* hash_pairs_rows(in, 2, ...) (see there), blocks blocks each. */
INLINE void hash_two_pairs_rows(const uint8_t *const in[4], size_t blocks, const uint32_t key[8],
                                uint64_t counter, int step, uint8_t flags, uint8_t flags_start,
                                uint8_t flags_end, uint8_t *out) {
  const __m256i iv = _mm256_broadcastsi128_si256(ld(blake3_iv));
  const __m256i r16 = y_ld(y_rot16_bytes), r8 = y_ld(y_rot8_bytes);
  __m256i row3[2], a[2], b[2];
  __m256i m[2][7][4];
  for (int p = 0; p < 2; p++) {
    row3[p] = pair_row3(counter, step, p);
    a[p] = _mm256_broadcastsi128_si256(ld(key));
    b[p] = _mm256_broadcastsi128_si256(ld(key + 4));
    if (blocks > 0) pair_msg_rows(in, p, 0, m[p][0]);
  }
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  for (size_t blk = 0; blk < blocks; blk++) {
    /* the next blocks, whose first vectors the last round computes; after the last block, the
     * last block again (read, not used) */
    const size_t next = (blk + 1 < blocks ? blk + 1 : blk) * BLAKE3_BLOCK_LEN;
    const uint8_t *n0 = in[0] + next, *n1 = in[1] + next, *n2 = in[2] + next, *n3 = in[3] + next;
    if (blk + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    const __m256i f = _mm256_set1_epi32(block_flags);
    __m256i c0 = iv, c1 = iv, t0, t1, p0, p1;
    __m256i d0 = YR_BLEND32(row3[0], f, 0x8), d1 = YR_BLEND32(row3[1], f, 0x8);
    __asm__(RA_BLOCK
            : [a0] "+x"(a[0]), [b0] "+x"(b[0]), [c0] "+x"(c0), [d0] "+x"(d0), [a1] "+x"(a[1]),
              [b1] "+x"(b[1]), [c1] "+x"(c1), [d1] "+x"(d1), [t0] "=&x"(t0), [t1] "=&x"(t1),
              [p0] "=&x"(p0), [p1] "=&x"(p1)
            : [m] "r"(m), [lo0] "r"(n0), [hi0] "r"(n1), [lo1] "r"(n2), [hi1] "r"(n3),
              [r16] "x"(r16), [r8] "x"(r8)
            : "memory");
    block_flags = flags;
  }
  for (int p = 0; p < 2; p++) store_pair(out + 64 * p, a[p], b[p]);
}
#endif

/* hash_many's last two or four inputs (rest), from inputs[0], counter the first one's. */
INLINE void hash_last_pairs_rows(const uint8_t *const *inputs, size_t rest, size_t blocks,
                                 const uint32_t key[8], uint64_t counter, int step, uint8_t flags,
                                 uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  if (rest == 2) /* the pair count a constant in each call, for the unrolling */
    hash_pairs_rows(inputs, 1, blocks, key, counter, step, flags, flags_start, flags_end, out);
  else
#ifdef __AVX512VL__
    hash_pairs_rows(inputs, 2, blocks, key, counter, step, flags, flags_start, flags_end, out);
#else
    hash_two_pairs_rows(inputs, blocks, key, counter, step, flags, flags_start, flags_end, out);
#endif
}

#endif /* BLAKE3_YMM_ROWS_H */
