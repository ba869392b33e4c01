/*
 * blake3-fast: the 128-bit x86 kernels, one source for two ISA files. blake3_sse2.c and
 * blake3_sse41.c each define B3_SSE(fn) (the function name with their suffix) and include this
 * file; their compiler flags decide the rotations (rot16 in blake3_sse_rows.h), nothing else
 * differs.
 *
 *   compress_in_place / compress_xof  one block, row-wise (blake3_sse_rows.h)
 *   hash_many                         four inputs at a time, one per 32-bit lane
 */
#ifndef B3_SSE
#error "include blake3_sse.h from an ISA file that defines B3_SSE(fn)"
#endif

#include "blake3_sse_rows.h"

void B3_SSE(blake3_compress_in_place)(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags) {
  compress_in_place_rows(cv, block, block_len, counter, flags);
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
    __m128i v[16] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
                     set1(blake3_iv[0]), set1(blake3_iv[1]), set1(blake3_iv[2]),
                     set1(blake3_iv[3]), lo, hi, set1(BLAKE3_BLOCK_LEN), set1(f)};
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
        hash_one_rows(inputs[k], blocks, key, counter + (increment_counter ? k : 0), flags,
                      flags_start, flags_end, out + 32 * k);
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
