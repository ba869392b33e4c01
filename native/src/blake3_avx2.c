/*
 * blake3-fast: AVX2 kernels (compiled with -mavx2).
 *
 *   hash_many  eight inputs at a time, one per 32-bit lane of a ymm (blake3_ymm8.h); two or
 *              four left over go row-wise two per ymm (hash_pairs_rows; for four, the rounds
 *              in inline assembly: hash_two_pairs_rows, both in blake3_ymm_rows.h),
 *              one through the SSE4.1 file's compression compiled here (hash_one_rows,
 *              blake3_sse_rows.h). For single blocks the table names SSE4.1's compression
 *              itself (BLAKE3_ISAS).
 *   hash_lanes eight lanes at a time through hash_many's block loop, twice (blake3_ymm8.h,
 *              blake3_lanes_group.h); two to seven left over as a padded group, one row-wise
 *   subtree    sixteen chunks at a time as two eight-lane groups, their CVs kept word-major
 *              between levels (blake3_subtree16.h)
 */
#include "blake3_sse_rows.h"
#include "blake3_ymm8.h"
#include "blake3_ymm_rows.h"

void blake3_hash_many_avx2(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  size_t i = 0;
  while (i < num_inputs) {
    const size_t rest = num_inputs - i;
    const uint64_t c = counter + (increment_counter ? i : 0);
    if (rest == 2 || rest == 4) { /* row-wise, two inputs per ymm: a padded group costs eight */
      hash_last_pairs_rows(inputs + i, rest, blocks, key, c, increment_counter != 0, flags,
                           flags_start, flags_end, out + 32 * i);
      return;
    }
    if (rest == 1) { /* a row-wise chain */
      hash_one_rows(inputs[i], blocks, key, c, flags, flags_start, flags_end, out + 32 * i);
      return;
    }
    /* Eight or more left: a group. Three, five to seven: one padded group (the spare lanes
     * repeat the last input) costs about what a narrower group would, and less than hashing
     * them one by one. */
    const uint8_t *in[8];
    for (size_t k = 0; k < 8; k++) in[k] = inputs[i + (k < rest ? k : rest - 1)];
    __m256i lo, hi;
    y_counters(c, increment_counter != 0, &lo, &hi);
    if (rest >= 8) {
      hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, out + 32 * i);
      i += 8;
    } else {
      uint8_t tmp[8 * BLAKE3_OUT_LEN];
      hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, tmp);
      memcpy(out + 32 * i, tmp, 32 * rest);
      return;
    }
  }
}

void blake3_hash_lanes_avx2(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                            const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                            uint8_t *out) {
  const size_t wide = num_inputs % 8 == 1 ? num_inputs - 1 : num_inputs;
  blake3_lanes_groups(lanes8, 8, lanes, 0, wide, blocks, key, flags, flags_start, out);
  if (wide < num_inputs)
    blake3_lane_one(compress_in_place_rows, lanes, wide, blocks, key, flags, flags_start,
                    out + BLAKE3_OUT_LEN * wide);
}

/* ---- subtree: parents without leaving word-major layout ------------------------------- */

/* Sixteen CVs word-major (blake3_cv16) are two ymm per word: CVs 0-7, then 8-15. The eight
 * parents of those sixteen take as message word w the even lanes of that pair (word w of
 * CVs 0, 2, .., 14) and as word 8 + w the odd lanes: a vshufps picks them inside each 128-bit
 * half, a vpermq puts the halves in order. So each parent level costs two shuffles per message
 * word, where hash_many would transpose the CVs out and the blocks back in. */

/* Eight parent compressions, one per lane, of the message words m (word-major): their CVs,
 * word-major, into h. */
B3Y_INLINE void parents8_lanes(const __m256i m[16], const uint32_t key[8], uint8_t flags,
                               __m256i h[8]) {
  __m256i s[16] = {y_set1(key[0]),       y_set1(key[1]),       y_set1(key[2]),
                   y_set1(key[3]),       y_set1(key[4]),       y_set1(key[5]),
                   y_set1(key[6]),       y_set1(key[7]),       y_set1(blake3_iv[0]),
                   y_set1(blake3_iv[1]), y_set1(blake3_iv[2]), y_set1(blake3_iv[3]),
                   y_set1(0),            y_set1(0),            y_set1(BLAKE3_BLOCK_LEN),
                   y_set1((uint32_t)(flags | PARENT))};
  y_block(s, m);
  for (int w = 0; w < 8; w++) h[w] = s[w];
}

/* The eight parents of the sixteen CVs c (word-major), word-major into h. */
B3Y_INLINE void parents8_of16(const uint32_t c[8][16], const uint32_t key[8], uint8_t flags,
                              __m256i h[8]) {
  __m256i m[16];
  for (int w = 0; w < 8; w++) {
    const __m256 lo = _mm256_castsi256_ps(y_ld(&c[w][0]));
    const __m256 hi = _mm256_castsi256_ps(y_ld(&c[w][8]));
    m[w] = _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0x88)), 0xD8);
    m[8 + w] =
        _mm256_permute4x64_epi64(_mm256_castps_si256(_mm256_shuffle_ps(lo, hi, 0xDD)), 0xD8);
  }
  parents8_lanes(m, key, flags, h);
}

/* The four parents of the eight CVs h (word-major) into lanes 0-3 of h; lanes 4-7 get copies
 * that nobody reads. */
B3Y_INLINE void parents4_of8(__m256i h[8], const uint32_t key[8], uint8_t flags) {
  const __m256i even = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  const __m256i odd = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);
  __m256i m[16];
  for (int w = 0; w < 8; w++) {
    m[w] = _mm256_permutevar8x32_epi32(h[w], even);
    m[8 + w] = _mm256_permutevar8x32_epi32(h[w], odd);
  }
  parents8_lanes(m, key, flags, h);
}

/* ---- subtree: the steps blake3_subtree16.h puts in order ------------------------------ */

INLINE void b3s16_chunks(const uint8_t *input, const uint32_t key[8], uint64_t counter,
                         uint8_t flags, const blake3_cv16 *lefts, size_t merges, int ahead,
                         blake3_cv16 *out) {
  blake3_cv16 cur;
  for (int g = 0; g < 2; g++) {
    const uint8_t *in[8];
    for (int j = 0; j < 8; j++) in[j] = input + (size_t)(8 * g + j) * BLAKE3_CHUNK_LEN;
    __m256i lo, hi, h[8];
    y_counters(counter + (uint64_t)(8 * g), 1, &lo, &hi);
    y_hash_blocks(in, BLAKE3_CHUNK_LEN / BLAKE3_BLOCK_LEN, lo, hi, NULL, flags, CHUNK_START,
                  CHUNK_END, NULL, ahead, key, 1, h);
    for (int w = 0; w < 8; w++) y_st(&cur.w[w][8 * g], h[w]);
  }
  /* a merge: parents 0-7 from the left group's sixteen CVs, 8-15 from this one's */
  for (size_t l = 0; l < merges; l++) {
    __m256i left[8], right[8];
    parents8_of16(lefts[l].w, key, flags, left);
    parents8_of16(cur.w, key, flags, right);
    for (int w = 0; w < 8; w++) {
      y_st(&cur.w[w][0], left[w]);
      y_st(&cur.w[w][8], right[w]);
    }
  }
  *out = cur;
}

/* The CV of the parent whose children are CVs l and r (eight words each), row-wise: for two
 * parents or one, a lane-parallel compression would run mostly empty lanes at full cost. */
INLINE void parent_rows(const uint32_t l[8], const uint32_t r[8], const uint32_t key[8],
                        uint8_t flags, uint32_t out[8]) {
  uint8_t block[BLAKE3_BLOCK_LEN];
  memcpy(block, l, 32);
  memcpy(block + 32, r, 32);
  memcpy(out, key, 32);
  compress_in_place_rows(out, block, BLAKE3_BLOCK_LEN, 0, (uint8_t)(flags | PARENT));
}

INLINE void b3s16_top(const blake3_cv16 *cvs, const uint32_t key[8], uint8_t flags,
                      size_t outs, uint8_t *out) {
  __m256i h[8];
  parents8_of16(cvs->w, key, flags, h); /* 8 CVs */
  parents4_of8(h, key, flags);          /* 4, in lanes 0-3 */
  _Alignas(32) uint32_t words[8][8];
  /* four CVs in a row: the block of each child of the top is two neighbouring ones */
  uint32_t cv[4 * 8], two[2][8];
  for (int w = 0; w < 8; w++) y_st(words[w], h[w]);
  for (int j = 0; j < 4; j++)
    for (int w = 0; w < 8; w++) cv[8 * j + w] = words[w][j];
  /* the children of the top side by side, then the top */
  const uint8_t *children[2] = {(const uint8_t *)cv, (const uint8_t *)(cv + 16)};
  hash_pairs_rows(children, 1, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, 0,
                  (uint8_t *)two);
  if (outs == 1) parent_rows(two[0], two[1], key, flags, two[0]);
  for (size_t j = 0; j < outs; j++)
    for (int w = 0; w < 8; w++) blake3_store32(out + 32 * j + 4 * w, two[j][w]);
}

#define B3S16_FN(fn) fn##_avx2
#include "blake3_subtree16.h"
