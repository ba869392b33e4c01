/*
 * blake3-fast: the kernels of the ISAs whose vectors are four 32-bit lanes with general
 * two-input permutes (VSX, the z13 vector facility, LSX), written once over the macros each
 * ISA file defines before including this header:
 *
 *   B3V                       the vector type (four uint32_t lanes)
 *   B3V_FN(fn)                fn with the ISA's suffix
 *   B3V_LOAD(p), B3V_STORE(p, v)
 *                             16 bytes as they are in memory: lane i <- bytes 4i..4i+3 read as
 *                             a native word (so also four native uint32_t)
 *   B3V_SET4(a, b, c, d), B3V_SPLAT(x), B3V_ADD(a, b), B3V_XOR(a, b)
 *   B3V_ROT16(x) .. B3V_ROT7(x)
 *                             rotations right
 *   B3V_PERM(a, b, w0, w1, w2, w3)
 *                             lane i <- lane wi of a:b (0..3 from a, 4..7 from b)
 *   B3V_LROT1(a) .. B3V_LROT3(a)
 *                             lane i <- lane (i + k) % 4
 *   B3V_EVEN_LE(lo, hi), B3V_ODD_LE(lo, hi)
 *                             lanes 0, 2, 4, 6 (1, 3, 5, 7) of the raw loads lo:hi, as the
 *                             little-endian words BLAKE3 means
 *   B3V_ZIPW_LO(a, b), B3V_ZIPW_HI(a, b)
 *                             (a0 b0 a1 b1), (a2 b2 a3 b3), and between little-endian bytes and
 *                             native words (both ways: on a big-endian machine a byte swap)
 *   B3V_ZIPD_LO(a, b), B3V_ZIPD_HI(a, b)
 *                             (a0 a1 b0 b1), (a2 a3 b2 b3)
 *   B3V_STORE_LE(p, v)        four native words stored little-endian
 *
 * It defines compress_in_place and compress_xof (row-wise: the state is four rows, the diagonal
 * half-round turns rows 1..3 by one, two and three lanes; the message is held as the four
 * vectors a half-round consumes and moved to the next round's order with seven permutes), and
 * b3v_hash_many4 and b3v_hash_lanes4, hash_many and hash_lanes over four lanes for the ISA
 * file's blake3_hash_many_<isa> and blake3_hash_lanes_<isa>.
 */
#ifndef B3V_FN
#error "include blake3_vec128.h from an ISA file that defines the B3V_* macros"
#endif

#include "blake3_impl.h"

#define B3V_INLINE static inline __attribute__((always_inline))

/* ---- row-wise single block --------------------------------------------------------------- */

/* The four G functions of one half-round, on the rows, message words in x and y. */
#define B3V_G(a, b, c, d, x, y)            \
  do {                                     \
    a = B3V_ADD(B3V_ADD(a, b), (x));       \
    d = B3V_ROT16(B3V_XOR(d, a));          \
    c = B3V_ADD(c, d);                     \
    b = B3V_ROT12(B3V_XOR(b, c));          \
    a = B3V_ADD(B3V_ADD(a, b), (y));       \
    d = B3V_ROT8(B3V_XOR(d, a));           \
    c = B3V_ADD(c, d);                     \
    b = B3V_ROT7(B3V_XOR(b, c));           \
  } while (0)

/*
 * One round's message vectors are X = s[0,2,4,6], Y = s[1,3,5,7], Z = s[8,10,12,14],
 * W = s[9,11,13,15] for that round's schedule s. Applying the BLAKE3 permutation once more
 * maps them to: X' = (X1 Y1 Y3 X2), Y' = (X3 Z1 X0 W2), Z' = (Y0 Z2 W0 W3), W' = (W1 Y2 Z3 Z0).
 */
B3V_INLINE void b3v_msg_next(B3V *X, B3V *Y, B3V *Z, B3V *W) {
  const B3V x = *X, y = *Y, z = *Z, w = *W;
  *X = B3V_PERM(x, y, 1, 5, 7, 2);
  *Y = B3V_PERM(B3V_PERM(x, z, 3, 5, 0, 0), w, 0, 1, 2, 6);
  *Z = B3V_PERM(B3V_PERM(y, z, 0, 6, 0, 0), w, 0, 1, 4, 7);
  *W = B3V_PERM(B3V_PERM(y, z, 0, 2, 7, 4), w, 5, 1, 2, 3);
}

B3V_INLINE void b3v_round_rows(B3V r[4], B3V X, B3V Y, B3V Z, B3V W) {
  B3V_G(r[0], r[1], r[2], r[3], X, Y);
  r[1] = B3V_LROT1(r[1]);
  r[2] = B3V_LROT2(r[2]);
  r[3] = B3V_LROT3(r[3]);
  B3V_G(r[0], r[1], r[2], r[3], Z, W);
  r[1] = B3V_LROT3(r[1]);
  r[2] = B3V_LROT2(r[2]);
  r[3] = B3V_LROT1(r[3]);
}

B3V_INLINE void b3v_compress_rows(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                  uint8_t block_len, uint64_t counter, uint8_t flags, B3V r[4]) {
  const B3V m0 = B3V_LOAD(block), m1 = B3V_LOAD(block + 16);
  const B3V m2 = B3V_LOAD(block + 32), m3 = B3V_LOAD(block + 48);
  B3V X = B3V_EVEN_LE(m0, m1), Y = B3V_ODD_LE(m0, m1);
  B3V Z = B3V_EVEN_LE(m2, m3), W = B3V_ODD_LE(m2, m3);
  r[0] = B3V_LOAD(cv);
  r[1] = B3V_LOAD(cv + 4);
  r[2] = B3V_LOAD(blake3_iv);
  r[3] = B3V_SET4(blake3_counter_low(counter), blake3_counter_high(counter), block_len, flags);
  for (int round = 0; round < 6; round++) {
    b3v_round_rows(r, X, Y, Z, W);
    b3v_msg_next(&X, &Y, &Z, &W);
  }
  b3v_round_rows(r, X, Y, Z, W);
}

void B3V_FN(blake3_compress_in_place)(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                      uint8_t block_len, uint64_t counter, uint8_t flags) {
  B3V r[4];
  b3v_compress_rows(cv, block, block_len, counter, flags, r);
  B3V_STORE(cv, B3V_XOR(r[0], r[2]));
  B3V_STORE(cv + 4, B3V_XOR(r[1], r[3]));
}

void B3V_FN(blake3_compress_xof)(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                 uint8_t block_len, uint64_t counter, uint8_t flags,
                                 uint8_t out[64]) {
  B3V r[4];
  b3v_compress_rows(cv, block, block_len, counter, flags, r);
  B3V_STORE_LE(out, B3V_XOR(r[0], r[2]));
  B3V_STORE_LE(out + 16, B3V_XOR(r[1], r[3]));
  B3V_STORE_LE(out + 32, B3V_XOR(r[2], B3V_LOAD(cv)));
  B3V_STORE_LE(out + 48, B3V_XOR(r[3], B3V_LOAD(cv + 4)));
}

/* ---- four inputs at once, one per lane --------------------------------------------------- */

/* 4x4 word transpose between little-endian bytes and native words: a, b, c, d become
 * columns 0..3 of the rows a, b, c, d. */
#define B3V_TRANSPOSE4(a, b, c, d)                                           \
  do {                                                                       \
    const B3V ab_lo = B3V_ZIPW_LO(a, b), ab_hi = B3V_ZIPW_HI(a, b);          \
    const B3V cd_lo = B3V_ZIPW_LO(c, d), cd_hi = B3V_ZIPW_HI(c, d);          \
    a = B3V_ZIPD_LO(ab_lo, cd_lo);                                           \
    b = B3V_ZIPD_HI(ab_lo, cd_lo);                                           \
    c = B3V_ZIPD_LO(ab_hi, cd_hi);                                           \
    d = B3V_ZIPD_HI(ab_hi, cd_hi);                                           \
  } while (0)

/* The names BLAKE3_ROUNDS gives the vector operations. */
#define b3v_add B3V_ADD
#define b3v_xor B3V_XOR
#define b3v_rot16 B3V_ROT16
#define b3v_rot12 B3V_ROT12
#define b3v_rot8 B3V_ROT8
#define b3v_rot7 B3V_ROT7

/* Block `off` of four inputs, transposed: m[j] lane i is word j of in[i]. */
B3V_INLINE void b3v_load_msg4(const uint8_t *const in[4], size_t off, B3V m[16]) {
  for (int q = 0; q < 4; q++) {
    m[4 * q + 0] = B3V_LOAD(in[0] + off + 16 * q);
    m[4 * q + 1] = B3V_LOAD(in[1] + off + 16 * q);
    m[4 * q + 2] = B3V_LOAD(in[2] + off + 16 * q);
    m[4 * q + 3] = B3V_LOAD(in[3] + off + 16 * q);
    B3V_TRANSPOSE4(m[4 * q + 0], m[4 * q + 1], m[4 * q + 2], m[4 * q + 3]);
  }
}

/* One compression in every lane: h[j] lane i is word j of lane i's CV, before and after;
 * the state's last row (counter, block length, flags) comes per lane. */
B3V_INLINE void b3v_compress4(B3V h[8], const B3V m[16], B3V ctr_lo, B3V ctr_hi, B3V len,
                              B3V f) {
  B3V v[16] = {h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7],
               B3V_SPLAT(blake3_iv[0]), B3V_SPLAT(blake3_iv[1]), B3V_SPLAT(blake3_iv[2]),
               B3V_SPLAT(blake3_iv[3]), ctr_lo, ctr_hi, len, f};
  BLAKE3_ROUNDS(b3v_);
  for (int i = 0; i < 8; i++) h[i] = B3V_XOR(v[i], v[i + 8]);
}

/* Back to one CV per lane (little-endian bytes) at out + 32 * i. */
B3V_INLINE void b3v_store_cvs4(B3V h[8], uint8_t *out) {
  B3V_TRANSPOSE4(h[0], h[1], h[2], h[3]);
  B3V_TRANSPOSE4(h[4], h[5], h[6], h[7]);
  for (int i = 0; i < 4; i++) {
    B3V_STORE(out + 32 * i, h[i]);
    B3V_STORE(out + 32 * i + 16, h[4 + i]);
  }
}

static void b3v_hash4(const uint8_t *const in[4], size_t blocks, const uint32_t key[8],
                      uint64_t counter, int increment_counter, uint8_t flags,
                      uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  uint32_t lo[4], hi[4];
  for (int i = 0; i < 4; i++) {
    uint64_t c = counter + (increment_counter ? (uint64_t)i : 0);
    lo[i] = blake3_counter_low(c);
    hi[i] = blake3_counter_high(c);
  }
  const B3V ctr_lo = B3V_LOAD(lo), ctr_hi = B3V_LOAD(hi);
  B3V h[8];
  for (int i = 0; i < 8; i++) h[i] = B3V_SPLAT(key[i]);

  for (size_t b = 0; b < blocks; b++) {
    B3V m[16];
    b3v_load_msg4(in, b * BLAKE3_BLOCK_LEN, m);
    uint32_t f = flags;
    if (b == 0) f |= flags_start;
    if (b + 1 == blocks) f |= flags_end;
    b3v_compress4(h, m, ctr_lo, ctr_hi, B3V_SPLAT(BLAKE3_BLOCK_LEN), B3V_SPLAT(f));
  }
  b3v_store_cvs4(h, out);
}

/* hash_many four lanes at a time: three left over still go as one padded pass (lane 3 repeats
 * lane 2), which beats three row-wise chains; one or two go row-wise. */
static void b3v_hash_many4(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  while (num_inputs >= 4) {
    b3v_hash4(inputs, blocks, key, counter, increment_counter, flags, flags_start, flags_end,
              out);
    if (increment_counter) counter += 4;
    inputs += 4;
    num_inputs -= 4;
    out += 4 * BLAKE3_OUT_LEN;
  }
  if (num_inputs == 3) {
    const uint8_t *in4[4] = {inputs[0], inputs[1], inputs[2], inputs[2]};
    uint8_t tmp[4 * BLAKE3_OUT_LEN];
    b3v_hash4(in4, blocks, key, counter, increment_counter, flags, flags_start, flags_end, tmp);
    memcpy(out, tmp, 3 * BLAKE3_OUT_LEN);
    return;
  }
  for (size_t i = 0; i < num_inputs; i++)
    blake3_hash_one(B3V_FN(blake3_compress_in_place), inputs[i], blocks, key,
                    counter + (increment_counter ? i : 0), flags, flags_start, flags_end,
                    out + BLAKE3_OUT_LEN * i);
}

/* ---- hash_lanes: four lanes at once, each with its own counter and last block ------------ */

static void b3v_lanes4(const blake3_lanes *l, size_t i, size_t blocks, const uint32_t key[8],
                       uint8_t flags, uint8_t flags_start, uint8_t *out) {
  /* The per-lane words are native uint32_t, which is what B3V_LOAD gives on either byte order. */
  const B3V ctr_lo = B3V_LOAD(l->counter_lo + i), ctr_hi = B3V_LOAD(l->counter_hi + i);
  B3V h[8], m[16];
  /* Block b's flags per lane: the first block's from flags_start or the lane's own. */
  uint32_t f[4];
  for (int k = 0; k < 4; k++) f[k] = flags | (l->cv_words ? l->first_flags[i + k] : flags_start);
  for (int w = 0; w < 8; w++)
    h[w] = l->cv_words ? B3V_LOAD(l->cv_words[w] + i) : B3V_SPLAT(key[w]);
  for (size_t b = 0; b + 1 < blocks; b++) {
    b3v_load_msg4(l->inputs + i, b * BLAKE3_BLOCK_LEN, m);
    b3v_compress4(h, m, ctr_lo, ctr_hi, B3V_SPLAT(BLAKE3_BLOCK_LEN), B3V_LOAD(f));
    for (int k = 0; k < 4; k++) f[k] = flags;
  }
  for (int k = 0; k < 4; k++) f[k] |= l->last_flags[i + k];
  b3v_load_msg4(l->lasts + i, 0, m);
  b3v_compress4(h, m, ctr_lo, ctr_hi, B3V_LOAD(l->last_len + i), B3V_LOAD(f));
  b3v_store_cvs4(h, out);
}

/* hash_lanes on lanes first .. num_inputs - 1 (the ones a wider path left), four at a time,
 * the lanes left over as b3v_hash_many4 does its inputs; lane i's CV still goes to
 * out + 32 * i. */
static void b3v_hash_lanes4(const blake3_lanes *l, size_t first, size_t num_inputs,
                            size_t blocks, const uint32_t key[8], uint8_t flags,
                            uint8_t flags_start, uint8_t *out) {
  size_t i = first;
  for (; i + 4 <= num_inputs; i += 4)
    b3v_lanes4(l, i, blocks, key, flags, flags_start, out + BLAKE3_OUT_LEN * i);
  if (num_inputs - i == 3) {
    blake3_lanes_pad pad;
    uint8_t tmp[4 * BLAKE3_OUT_LEN];
    b3v_lanes4(blake3_lanes_padded(&pad, l, i, 3, 4, blocks), 0, blocks, key, flags,
               flags_start, tmp);
    memcpy(out + BLAKE3_OUT_LEN * i, tmp, 3 * BLAKE3_OUT_LEN);
    return;
  }
  for (; i < num_inputs; i++)
    blake3_lane_one(B3V_FN(blake3_compress_in_place), l, i, blocks, key, flags, flags_start,
                    out + BLAKE3_OUT_LEN * i);
}
