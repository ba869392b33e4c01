/*
 * blake3-fast: the AArch64 NEON (Advanced SIMD) kernel.
 *
 * NEON is part of the AArch64 base architecture, so this file needs no special compiler flag
 * and no run-time check beyond "this is aarch64".
 *
 *   compress_in_place / compress_xof: one block, row-wise. The 4x4 state lives in four
 *     uint32x4_t rows; the diagonal step rotates rows 1..3 by 1..3 lanes (EXT) and back.
 *     Each round's message words are gathered straight from the 64-byte block with one
 *     TBL (four-register table lookup) per 4-word vector, from a table built from the
 *     BLAKE3 message schedule.
 *   hash_many: four inputs at once, one per lane. The 16 state words are 16 vectors, the
 *     message words of the four inputs are transposed so that vector j holds word j of each
 *     input. Groups of four inputs go through the lanes; the 1..3 left over go row-wise.
 *   hash_lanes: the same, with the counter, the last block's length and its flags per lane.
 *
 * BLAKE3 words are little-endian; AArch64 Linux is little-endian, and this file relies on it.
 */
#include "blake3_impl.h"

#if !defined(__aarch64__) && !defined(_M_ARM64)
#error "blake3_neon.c is for AArch64 targets only"
#endif
#if defined(__AARCH64EB__)
#error "blake3_neon.c assumes a little-endian AArch64 target"
#endif

#include <arm_neon.h>

#if defined(__GNUC__)
#define NEON_INLINE static inline __attribute__((always_inline))
#else
#define NEON_INLINE static inline
#endif

/* Byte indices for TBL that pick four little-endian words out of the 64-byte block. */
#define NEON_PICK(a, b, c, d) \
  { BLAKE3_WORD_BYTES(a), BLAKE3_WORD_BYTES(b), BLAKE3_WORD_BYTES(c), BLAKE3_WORD_BYTES(d) }
/* For round r, four vectors: the first message word of each column G (schedule entries
 * 0,2,4,6), the second (1,3,5,7), then the same for the diagonal Gs (8,10,12,14 / 9,11,13,15). */
#define NEON_ROUND_PICKS(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  NEON_PICK(s0, s2, s4, s6), NEON_PICK(s1, s3, s5, s7), NEON_PICK(s8, s10, s12, s14),           \
      NEON_PICK(s9, s11, s13, s15)

static const uint8_t neon_row_picks[7 * 4][16] = {
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 0),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 1),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 2),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 3),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 4),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 5),
    BLAKE3_WITH_ROW(NEON_ROUND_PICKS, 6),
};

/* Rotate every 32-bit lane right by 8: byte k of a lane takes byte k+1 (mod 4). */
static const uint8_t neon_rot8_bytes[16] = {1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12};

/* ---- lane-wise helpers ------------------------------------------------------------------ */

NEON_INLINE uint32x4_t neon_ror16(uint32x4_t x) {
  return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
}

NEON_INLINE uint32x4_t neon_ror12(uint32x4_t x) { return vsriq_n_u32(vshlq_n_u32(x, 20), x, 12); }

NEON_INLINE uint32x4_t neon_ror8(uint32x4_t x, uint8x16_t rot8) {
  return vreinterpretq_u32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(x), rot8));
}

NEON_INLINE uint32x4_t neon_ror7(uint32x4_t x) { return vsriq_n_u32(vshlq_n_u32(x, 25), x, 7); }

NEON_INLINE uint32x4_t neon_load_words(const uint8_t *p) { return vreinterpretq_u32_u8(vld1q_u8(p)); }

NEON_INLINE void neon_store_words(uint8_t *p, uint32x4_t v) { vst1q_u8(p, vreinterpretq_u8_u32(v)); }

/* ---- one block, row-wise ---------------------------------------------------------------- */

/* Half of a round on all four columns (or diagonals) at once: a, b, c, d are the rows. */
NEON_INLINE void neon_row_g(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d, uint32x4_t mx,
                            uint32x4_t my, uint8x16_t rot8) {
  *a = vaddq_u32(vaddq_u32(*a, *b), mx);
  *d = neon_ror16(veorq_u32(*d, *a));
  *c = vaddq_u32(*c, *d);
  *b = neon_ror12(veorq_u32(*b, *c));
  *a = vaddq_u32(vaddq_u32(*a, *b), my);
  *d = neon_ror8(veorq_u32(*d, *a), rot8);
  *c = vaddq_u32(*c, *d);
  *b = neon_ror7(veorq_u32(*b, *c));
}

/* Runs the seven rounds; rows[0..3] in, rows[0..3] out (before the final feed-forward). */
NEON_INLINE void neon_compress_rows(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                    uint8_t block_len, uint64_t counter, uint8_t flags,
                                    uint32x4_t rows[4]) {
  const uint8x16_t rot8 = vld1q_u8(neon_rot8_bytes);
  uint8x16x4_t msg;
  msg.val[0] = vld1q_u8(block);
  msg.val[1] = vld1q_u8(block + 16);
  msg.val[2] = vld1q_u8(block + 32);
  msg.val[3] = vld1q_u8(block + 48);

  uint32x4_t r0 = vld1q_u32(cv);
  uint32x4_t r1 = vld1q_u32(cv + 4);
  uint32x4_t r2 = vld1q_u32(blake3_iv);
  const uint32_t tail[4] = {blake3_counter_low(counter), blake3_counter_high(counter),
                            (uint32_t)block_len, (uint32_t)flags};
  uint32x4_t r3 = vld1q_u32(tail);

  for (int r = 0; r < 7; r++) {
    const uint8_t(*pick)[16] = &neon_row_picks[4 * r];
    uint32x4_t m0 = vreinterpretq_u32_u8(vqtbl4q_u8(msg, vld1q_u8(pick[0])));
    uint32x4_t m1 = vreinterpretq_u32_u8(vqtbl4q_u8(msg, vld1q_u8(pick[1])));
    uint32x4_t m2 = vreinterpretq_u32_u8(vqtbl4q_u8(msg, vld1q_u8(pick[2])));
    uint32x4_t m3 = vreinterpretq_u32_u8(vqtbl4q_u8(msg, vld1q_u8(pick[3])));

    neon_row_g(&r0, &r1, &r2, &r3, m0, m1, rot8);
    /* Diagonalize: lane i of every row now belongs to diagonal G number i. */
    r1 = vextq_u32(r1, r1, 1);
    r2 = vextq_u32(r2, r2, 2);
    r3 = vextq_u32(r3, r3, 3);
    neon_row_g(&r0, &r1, &r2, &r3, m2, m3, rot8);
    r1 = vextq_u32(r1, r1, 3);
    r2 = vextq_u32(r2, r2, 2);
    r3 = vextq_u32(r3, r3, 1);
  }
  rows[0] = r0;
  rows[1] = r1;
  rows[2] = r2;
  rows[3] = r3;
}

void blake3_compress_in_place_neon(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags) {
  uint32x4_t rows[4];
  neon_compress_rows(cv, block, block_len, counter, flags, rows);
  vst1q_u32(cv, veorq_u32(rows[0], rows[2]));
  vst1q_u32(cv + 4, veorq_u32(rows[1], rows[3]));
}

void blake3_compress_xof_neon(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                              uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t out[64]) {
  uint32x4_t rows[4];
  neon_compress_rows(cv, block, block_len, counter, flags, rows);
  neon_store_words(out, veorq_u32(rows[0], rows[2]));
  neon_store_words(out + 16, veorq_u32(rows[1], rows[3]));
  neon_store_words(out + 32, veorq_u32(rows[2], vld1q_u32(cv)));
  neon_store_words(out + 48, veorq_u32(rows[3], vld1q_u32(cv + 4)));
}

/* ---- four inputs, one per lane ---------------------------------------------------------- */

/* 4x4 transpose of u32 lanes: in row i lane j -> out row j lane i. */
NEON_INLINE void neon_transpose4(uint32x4_t *a, uint32x4_t *b, uint32x4_t *c, uint32x4_t *d) {
  uint32x4_t ab_even = vtrn1q_u32(*a, *b); /* a0 b0 a2 b2 */
  uint32x4_t ab_odd = vtrn2q_u32(*a, *b);  /* a1 b1 a3 b3 */
  uint32x4_t cd_even = vtrn1q_u32(*c, *d); /* c0 d0 c2 d2 */
  uint32x4_t cd_odd = vtrn2q_u32(*c, *d);  /* c1 d1 c3 d3 */
  *a = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(ab_even), vreinterpretq_u64_u32(cd_even)));
  *b = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(ab_odd), vreinterpretq_u64_u32(cd_odd)));
  *c = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(ab_even), vreinterpretq_u64_u32(cd_even)));
  *d = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(ab_odd), vreinterpretq_u64_u32(cd_odd)));
}

/* Message words 0..15 of block `offset` of four inputs, transposed: m[j] lane i = word j of
 * input i. */
NEON_INLINE void neon_load_transposed(const uint8_t *const in[4], size_t offset, uint32x4_t m[16]) {
  for (int q = 0; q < 4; q++) {
    m[4 * q + 0] = neon_load_words(in[0] + offset + 16 * q);
    m[4 * q + 1] = neon_load_words(in[1] + offset + 16 * q);
    m[4 * q + 2] = neon_load_words(in[2] + offset + 16 * q);
    m[4 * q + 3] = neon_load_words(in[3] + offset + 16 * q);
    neon_transpose4(&m[4 * q + 0], &m[4 * q + 1], &m[4 * q + 2], &m[4 * q + 3]);
  }
}

/* One step of the four G functions of a half-round, interleaved so that the four
 * independent dependency chains run side by side. v holds the 16 state words. */
#define NEON_QUARTER(a0, b0, c0, d0, a1, b1, c1, d1, a2, b2, c2, d2, a3, b3, c3, d3, x0, y0, x1, y1, \
                     x2, y2, x3, y3)                                                                  \
  do {                                                                                                \
    v[a0] = vaddq_u32(vaddq_u32(v[a0], v[b0]), m[x0]);                                                \
    v[a1] = vaddq_u32(vaddq_u32(v[a1], v[b1]), m[x1]);                                                \
    v[a2] = vaddq_u32(vaddq_u32(v[a2], v[b2]), m[x2]);                                                \
    v[a3] = vaddq_u32(vaddq_u32(v[a3], v[b3]), m[x3]);                                                \
    v[d0] = neon_ror16(veorq_u32(v[d0], v[a0]));                                                      \
    v[d1] = neon_ror16(veorq_u32(v[d1], v[a1]));                                                      \
    v[d2] = neon_ror16(veorq_u32(v[d2], v[a2]));                                                      \
    v[d3] = neon_ror16(veorq_u32(v[d3], v[a3]));                                                      \
    v[c0] = vaddq_u32(v[c0], v[d0]);                                                                  \
    v[c1] = vaddq_u32(v[c1], v[d1]);                                                                  \
    v[c2] = vaddq_u32(v[c2], v[d2]);                                                                  \
    v[c3] = vaddq_u32(v[c3], v[d3]);                                                                  \
    v[b0] = neon_ror12(veorq_u32(v[b0], v[c0]));                                                      \
    v[b1] = neon_ror12(veorq_u32(v[b1], v[c1]));                                                      \
    v[b2] = neon_ror12(veorq_u32(v[b2], v[c2]));                                                      \
    v[b3] = neon_ror12(veorq_u32(v[b3], v[c3]));                                                      \
    v[a0] = vaddq_u32(vaddq_u32(v[a0], v[b0]), m[y0]);                                                \
    v[a1] = vaddq_u32(vaddq_u32(v[a1], v[b1]), m[y1]);                                                \
    v[a2] = vaddq_u32(vaddq_u32(v[a2], v[b2]), m[y2]);                                                \
    v[a3] = vaddq_u32(vaddq_u32(v[a3], v[b3]), m[y3]);                                                \
    v[d0] = neon_ror8(veorq_u32(v[d0], v[a0]), rot8);                                                 \
    v[d1] = neon_ror8(veorq_u32(v[d1], v[a1]), rot8);                                                 \
    v[d2] = neon_ror8(veorq_u32(v[d2], v[a2]), rot8);                                                 \
    v[d3] = neon_ror8(veorq_u32(v[d3], v[a3]), rot8);                                                 \
    v[c0] = vaddq_u32(v[c0], v[d0]);                                                                  \
    v[c1] = vaddq_u32(v[c1], v[d1]);                                                                  \
    v[c2] = vaddq_u32(v[c2], v[d2]);                                                                  \
    v[c3] = vaddq_u32(v[c3], v[d3]);                                                                  \
    v[b0] = neon_ror7(veorq_u32(v[b0], v[c0]));                                                       \
    v[b1] = neon_ror7(veorq_u32(v[b1], v[c1]));                                                       \
    v[b2] = neon_ror7(veorq_u32(v[b2], v[c2]));                                                       \
    v[b3] = neon_ror7(veorq_u32(v[b3], v[c3]));                                                       \
  } while (0)

/* One full round r: the column step, then the diagonal step. `r` is a constant at every call
 * site, so the schedule lookups fold into register choices. */
NEON_INLINE void neon_round4(uint32x4_t v[16], const uint32x4_t m[16], int r, uint8x16_t rot8) {
  const uint8_t *s = blake3_msg_schedule[r];
  NEON_QUARTER(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15, /* columns */
               s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
  NEON_QUARTER(0, 5, 10, 15, 1, 6, 11, 12, 2, 7, 8, 13, 3, 4, 9, 14, /* diagonals */
               s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15]);
}

/* One compression in every lane: h[j] lane i is word j of lane i's CV, before and after;
 * the state's last row (counter, block length, flags) comes per lane. */
NEON_INLINE void neon_compress4(uint32x4_t h[8], const uint32x4_t m[16], uint32x4_t counter_lo,
                                uint32x4_t counter_hi, uint32x4_t block_len,
                                uint32x4_t block_flags, uint8x16_t rot8) {
  uint32x4_t v[16] = {
      h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
      vdupq_n_u32(blake3_iv[0]), vdupq_n_u32(blake3_iv[1]),
      vdupq_n_u32(blake3_iv[2]), vdupq_n_u32(blake3_iv[3]),
      counter_lo, counter_hi, block_len, block_flags,
  };
  neon_round4(v, m, 0, rot8);
  neon_round4(v, m, 1, rot8);
  neon_round4(v, m, 2, rot8);
  neon_round4(v, m, 3, rot8);
  neon_round4(v, m, 4, rot8);
  neon_round4(v, m, 5, rot8);
  neon_round4(v, m, 6, rot8);
  for (int i = 0; i < 8; i++) h[i] = veorq_u32(v[i], v[i + 8]);
}

/* h[j] lane i = CV word j of input i: transpose back and store each CV contiguously. */
NEON_INLINE void neon_store_cvs4(uint32x4_t h[8], uint8_t *out) {
  neon_transpose4(&h[0], &h[1], &h[2], &h[3]);
  neon_transpose4(&h[4], &h[5], &h[6], &h[7]);
  for (int i = 0; i < 4; i++) {
    neon_store_words(out + 32 * i, h[i]);
    neon_store_words(out + 32 * i + 16, h[4 + i]);
  }
}

/* Hashes four inputs of `blocks` blocks each; counters[i] is input i's counter. */
static void neon_hash4(const uint8_t *const in[4], size_t blocks, const uint32_t key[8],
                       const uint64_t counters[4], uint8_t flags, uint8_t flags_start,
                       uint8_t flags_end, uint8_t *out) {
  const uint8x16_t rot8 = vld1q_u8(neon_rot8_bytes);
  uint32x4_t h[8];
  for (int i = 0; i < 8; i++) h[i] = vdupq_n_u32(key[i]);

  const uint32_t lo[4] = {blake3_counter_low(counters[0]), blake3_counter_low(counters[1]),
                          blake3_counter_low(counters[2]), blake3_counter_low(counters[3])};
  const uint32_t hi[4] = {blake3_counter_high(counters[0]), blake3_counter_high(counters[1]),
                          blake3_counter_high(counters[2]), blake3_counter_high(counters[3])};
  const uint32x4_t counter_lo = vld1q_u32(lo);
  const uint32x4_t counter_hi = vld1q_u32(hi);
  const uint32x4_t block_len = vdupq_n_u32(BLAKE3_BLOCK_LEN);

  for (size_t b = 0; b < blocks; b++) {
    uint32_t block_flags = flags;
    if (b == 0) block_flags |= flags_start;
    if (b + 1 == blocks) block_flags |= flags_end;

    uint32x4_t m[16];
    neon_load_transposed(in, b * BLAKE3_BLOCK_LEN, m);
    neon_compress4(h, m, counter_lo, counter_hi, block_len, vdupq_n_u32(block_flags), rot8);
  }
  neon_store_cvs4(h, out);
}

/* hash_lanes' four lanes i .. i + 3. */
static void neon_lanes4(const blake3_lanes *l, size_t i, size_t blocks, const uint32_t key[8],
                        uint8_t flags, uint8_t flags_start, uint8_t *out) {
  const uint8x16_t rot8 = vld1q_u8(neon_rot8_bytes);
  const uint32x4_t counter_lo = vld1q_u32(l->counter_lo + i);
  const uint32x4_t counter_hi = vld1q_u32(l->counter_hi + i);
  uint32x4_t h[8], m[16];
  /* The first block's flags from flags_start, or per lane with the lanes' own CVs. */
  uint32x4_t block_flags = vdupq_n_u32((uint32_t)(flags | flags_start));
  if (l->cv_words) {
    for (int w = 0; w < 8; w++) h[w] = vld1q_u32(l->cv_words[w] + i);
    block_flags = vorrq_u32(vdupq_n_u32(flags), vld1q_u32(l->first_flags + i));
  } else {
    for (int w = 0; w < 8; w++) h[w] = vdupq_n_u32(key[w]);
  }
  for (size_t b = 0; b + 1 < blocks; b++) {
    neon_load_transposed(l->inputs + i, b * BLAKE3_BLOCK_LEN, m);
    neon_compress4(h, m, counter_lo, counter_hi, vdupq_n_u32(BLAKE3_BLOCK_LEN), block_flags,
                   rot8);
    block_flags = vdupq_n_u32(flags);
  }
  const uint32x4_t last_flags = vorrq_u32(block_flags, vld1q_u32(l->last_flags + i));
  neon_load_transposed(l->lasts + i, 0, m);
  neon_compress4(h, m, counter_lo, counter_hi, vld1q_u32(l->last_len + i), last_flags, rot8);
  neon_store_cvs4(h, out);
}

void blake3_hash_many_neon(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  const uint64_t step = increment_counter ? 1 : 0;
  size_t i = 0;
  if (blocks == 0) {
    /* Nothing to compress: every CV is the key (no kernel is asked this, but stay defined). */
    for (; i < num_inputs; i++)
      blake3_hash_one(blake3_compress_in_place_neon, inputs[i], 0, key, 0, 0, 0, 0, out + 32 * i);
    return;
  }
  for (; i + 4 <= num_inputs; i += 4) {
    const uint64_t counters[4] = {counter + step * i, counter + step * (i + 1),
                                  counter + step * (i + 2), counter + step * (i + 3)};
    neon_hash4(inputs + i, blocks, key, counters, flags, flags_start, flags_end, out + 32 * i);
  }
  for (; i < num_inputs; i++) {
    blake3_hash_one(blake3_compress_in_place_neon, inputs[i], blocks, key, counter + step * i,
                    flags, flags_start, flags_end, out + 32 * i);
  }
}

void blake3_hash_lanes_neon(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                            const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                            uint8_t *out) {
  size_t i = 0;
  for (; i + 4 <= num_inputs; i += 4)
    neon_lanes4(lanes, i, blocks, key, flags, flags_start, out + BLAKE3_OUT_LEN * i);
  for (; i < num_inputs; i++)
    blake3_lane_one(blake3_compress_in_place_neon, lanes, i, blocks, key, flags, flags_start,
                    out + BLAKE3_OUT_LEN * i);
}
