/*
 * blake3-fast: POWER8+ VSX kernel for ppc64le (build with -mcpu=power8 -mvsx).
 *
 * Row-wise compress: the 16-word state is four u32x4 rows; the diagonal half of each round
 * rotates rows 1..3 by one, two and three lanes. The message is kept as the four vectors a
 * half-round consumes (X, Y for the columns; Z, W for the diagonals) and moved to the next
 * round's order with seven two-input permutes (see msg_next).
 *
 * hash_many: four inputs per pass, one per lane, with the message words transposed.
 *
 * Vector byte order: this file assumes little-endian ppc64 (ppc64le), where vec_xl puts the
 * word at byte offset 4*i into element i and vec_perm numbers bytes in element order.
 */
#include "blake3_impl.h"

#if !defined(__VSX__) || !defined(__LITTLE_ENDIAN__)
#error "blake3_vsx.c needs ppc64le with VSX (-mcpu=power8 -mvsx)"
#endif

#include <altivec.h>

typedef __vector unsigned int u32x4;
typedef __vector unsigned char u8x16;
typedef __vector unsigned long long u64x2;

#define IV0 0x6A09E667u
#define IV1 0xBB67AE85u
#define IV2 0x3C6EF372u
#define IV3 0xA54FF53Au

static inline u32x4 ld(const void *p) { return (u32x4)vec_xl(0, (const unsigned char *)p); }
static inline void st(void *p, u32x4 v) { vec_xst((u8x16)v, 0, (unsigned char *)p); }

/* Rotations right, done as vrlw left rotations by 32 - n. */
static inline u32x4 rot16(u32x4 x) { return vec_rl(x, vec_splats(16u)); }
static inline u32x4 rot12(u32x4 x) { return vec_rl(x, vec_splats(20u)); }
static inline u32x4 rot8(u32x4 x) { return vec_rl(x, vec_splats(24u)); }
static inline u32x4 rot7(u32x4 x) { return vec_rl(x, vec_splats(25u)); }

/* Byte selector for vec_perm(a, b, .): result word i = word wi of a:b (0..3 a, 4..7 b). */
#define WSEL(w0, w1, w2, w3)                                                                 \
  ((u8x16){4 * (w0), 4 * (w0) + 1, 4 * (w0) + 2, 4 * (w0) + 3, 4 * (w1), 4 * (w1) + 1,     \
           4 * (w1) + 2, 4 * (w1) + 3, 4 * (w2), 4 * (w2) + 1, 4 * (w2) + 2, 4 * (w2) + 3, \
           4 * (w3), 4 * (w3) + 1, 4 * (w3) + 2, 4 * (w3) + 3})
#define PERM(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSEL(w0, w1, w2, w3))
/* Lane rotation of one vector: result lane i = lane (i + k) % 4. */
#define LROT(a, k) PERM(a, a, (k) % 4, ((k) + 1) % 4, ((k) + 2) % 4, ((k) + 3) % 4)

/* ---- row-wise single block --------------------------------------------------------------- */

/* Half a round on the rows: the four G functions of one step, message words in x and y. */
#define HALF(r0, r1, r2, r3, x, y) \
  do {                             \
    r0 = r0 + r1 + (x);            \
    r3 = rot16(r3 ^ r0);           \
    r2 = r2 + r3;                  \
    r1 = rot12(r1 ^ r2);           \
    r0 = r0 + r1 + (y);            \
    r3 = rot8(r3 ^ r0);            \
    r2 = r2 + r3;                  \
    r1 = rot7(r1 ^ r2);            \
  } while (0)

/*
 * One round's message vectors are X = s[0,2,4,6], Y = s[1,3,5,7], Z = s[8,10,12,14],
 * W = s[9,11,13,15] for that round's schedule s. Applying the BLAKE3 permutation once more
 * maps them to: X' = (X1 Y1 Y3 X2), Y' = (X3 Z1 X0 W2), Z' = (Y0 Z2 W0 W3), W' = (W1 Y2 Z3 Z0).
 */
#define MSG_NEXT(X, Y, Z, W)                                 \
  do {                                                       \
    u32x4 nx_ = PERM(X, Y, 1, 5, 7, 2);                      \
    u32x4 ny_ = PERM(PERM(X, Z, 3, 5, 0, 0), W, 0, 1, 2, 6); \
    u32x4 nz_ = PERM(PERM(Y, Z, 0, 6, 0, 0), W, 0, 1, 4, 7); \
    u32x4 nw_ = PERM(PERM(Y, Z, 0, 2, 7, 4), W, 5, 1, 2, 3); \
    X = nx_;                                                 \
    Y = ny_;                                                 \
    Z = nz_;                                                 \
    W = nw_;                                                 \
  } while (0)

#define ROUND_ROWS(X, Y, Z, W)      \
  do {                              \
    HALF(r0, r1, r2, r3, X, Y);     \
    r1 = LROT(r1, 1);               \
    r2 = LROT(r2, 2);               \
    r3 = LROT(r3, 3);               \
    HALF(r0, r1, r2, r3, Z, W);     \
    r1 = LROT(r1, 3);               \
    r2 = LROT(r2, 2);               \
    r3 = LROT(r3, 1);               \
  } while (0)

static inline __attribute__((always_inline)) void
compress_rows(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN], uint8_t block_len,
              uint64_t counter, uint8_t flags, u32x4 out[4]) {
  u32x4 m0 = ld(block), m1 = ld(block + 16), m2 = ld(block + 32), m3 = ld(block + 48);
  u32x4 X = PERM(m0, m1, 0, 2, 4, 6), Y = PERM(m0, m1, 1, 3, 5, 7);
  u32x4 Z = PERM(m2, m3, 0, 2, 4, 6), W = PERM(m2, m3, 1, 3, 5, 7);
  u32x4 r0 = ld(cv), r1 = ld(cv + 4);
  u32x4 r2 = (u32x4){IV0, IV1, IV2, IV3};
  u32x4 r3 = (u32x4){blake3_counter_low(counter), blake3_counter_high(counter), block_len, flags};

  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);
  MSG_NEXT(X, Y, Z, W);
  ROUND_ROWS(X, Y, Z, W);

  out[0] = r0;
  out[1] = r1;
  out[2] = r2;
  out[3] = r3;
}

void blake3_compress_in_place_vsx(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                  uint8_t block_len, uint64_t counter, uint8_t flags) {
  u32x4 r[4];
  compress_rows(cv, block, block_len, counter, flags, r);
  st(cv, r[0] ^ r[2]);
  st(cv + 4, r[1] ^ r[3]);
}

void blake3_compress_xof_vsx(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                             uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t out[64]) {
  u32x4 r[4];
  compress_rows(cv, block, block_len, counter, flags, r);
  st(out, r[0] ^ r[2]);
  st(out + 16, r[1] ^ r[3]);
  st(out + 32, r[2] ^ ld(cv));
  st(out + 48, r[3] ^ ld(cv + 4));
}

/* ---- four inputs at once, one per lane ----------------------------------------------------- */

/* 4x4 transpose of words: on return a, b, c, d hold column 0, 1, 2, 3 of the input rows. */
#define TRANSPOSE4(a, b, c, d)                                \
  do {                                                        \
    u32x4 ab_lo = vec_mergeh(a, b), ab_hi = vec_mergel(a, b); \
    u32x4 cd_lo = vec_mergeh(c, d), cd_hi = vec_mergel(c, d); \
    a = (u32x4)vec_mergeh((u64x2)ab_lo, (u64x2)cd_lo);        \
    b = (u32x4)vec_mergel((u64x2)ab_lo, (u64x2)cd_lo);        \
    c = (u32x4)vec_mergeh((u64x2)ab_hi, (u64x2)cd_hi);        \
    d = (u32x4)vec_mergel((u64x2)ab_hi, (u64x2)cd_hi);        \
  } while (0)

/* One G on four lanes at once. */
#define G4(a, b, c, d, x, y) \
  do {                       \
    a = a + b + (x);         \
    d = rot16(d ^ a);        \
    c = c + d;               \
    b = rot12(b ^ c);        \
    a = a + b + (y);         \
    d = rot8(d ^ a);         \
    c = c + d;               \
    b = rot7(b ^ c);         \
  } while (0)

/* A full round; the arguments are the message word indices in this round's schedule order. */
#define ROUND4(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  do {                                                                             \
    G4(v0, v4, v8, v12, m[s0], m[s1]);                                             \
    G4(v1, v5, v9, v13, m[s2], m[s3]);                                             \
    G4(v2, v6, v10, v14, m[s4], m[s5]);                                            \
    G4(v3, v7, v11, v15, m[s6], m[s7]);                                            \
    G4(v0, v5, v10, v15, m[s8], m[s9]);                                            \
    G4(v1, v6, v11, v12, m[s10], m[s11]);                                          \
    G4(v2, v7, v8, v13, m[s12], m[s13]);                                           \
    G4(v3, v4, v9, v14, m[s14], m[s15]);                                           \
  } while (0)

static void hash4(const uint8_t *const in[4], size_t blocks, const uint32_t key[8],
                  uint64_t counter, int increment_counter, uint8_t flags, uint8_t flags_start,
                  uint8_t flags_end, uint8_t *out) {
  uint32_t lo[4], hi[4];
  for (int i = 0; i < 4; i++) {
    uint64_t c = counter + (increment_counter ? (uint64_t)i : 0);
    lo[i] = blake3_counter_low(c);
    hi[i] = blake3_counter_high(c);
  }
  const u32x4 ctr_lo = ld(lo), ctr_hi = ld(hi);
  u32x4 h0 = vec_splats(key[0]), h1 = vec_splats(key[1]), h2 = vec_splats(key[2]),
        h3 = vec_splats(key[3]), h4 = vec_splats(key[4]), h5 = vec_splats(key[5]),
        h6 = vec_splats(key[6]), h7 = vec_splats(key[7]);

  for (size_t b = 0; b < blocks; b++) {
    const size_t off = b * BLAKE3_BLOCK_LEN;
    u32x4 m[16];
    for (int q = 0; q < 4; q++) {
      m[4 * q + 0] = ld(in[0] + off + 16 * q);
      m[4 * q + 1] = ld(in[1] + off + 16 * q);
      m[4 * q + 2] = ld(in[2] + off + 16 * q);
      m[4 * q + 3] = ld(in[3] + off + 16 * q);
      TRANSPOSE4(m[4 * q + 0], m[4 * q + 1], m[4 * q + 2], m[4 * q + 3]);
    }
    uint32_t f = flags;
    if (b == 0) f |= flags_start;
    if (b + 1 == blocks) f |= flags_end;

    u32x4 v0 = h0, v1 = h1, v2 = h2, v3 = h3, v4 = h4, v5 = h5, v6 = h6, v7 = h7;
    u32x4 v8 = vec_splats(IV0), v9 = vec_splats(IV1), v10 = vec_splats(IV2),
          v11 = vec_splats(IV3);
    u32x4 v12 = ctr_lo, v13 = ctr_hi, v14 = vec_splats((uint32_t)BLAKE3_BLOCK_LEN),
          v15 = vec_splats(f);

    ROUND4(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    ROUND4(2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8);
    ROUND4(3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1);
    ROUND4(10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6);
    ROUND4(12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4);
    ROUND4(9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7);
    ROUND4(11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13);

    h0 = v0 ^ v8;
    h1 = v1 ^ v9;
    h2 = v2 ^ v10;
    h3 = v3 ^ v11;
    h4 = v4 ^ v12;
    h5 = v5 ^ v13;
    h6 = v6 ^ v14;
    h7 = v7 ^ v15;
  }

  /* Back to one CV per lane: lane i's words 0..3 and 4..7. */
  TRANSPOSE4(h0, h1, h2, h3);
  TRANSPOSE4(h4, h5, h6, h7);
  st(out + 0, h0);
  st(out + 16, h4);
  st(out + 32, h1);
  st(out + 48, h5);
  st(out + 64, h2);
  st(out + 80, h6);
  st(out + 96, h3);
  st(out + 112, h7);
}

void blake3_hash_many_vsx(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                          const uint32_t key[8], uint64_t counter, int increment_counter,
                          uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  while (num_inputs >= 4) {
    hash4(inputs, blocks, key, counter, increment_counter, flags, flags_start, flags_end, out);
    if (increment_counter) counter += 4;
    inputs += 4;
    num_inputs -= 4;
    out += 4 * BLAKE3_OUT_LEN;
  }
  if (num_inputs == 3) {
    /* Three left: one padded pass beats three row-wise chains. Lane 3 repeats lane 2. */
    const uint8_t *in4[4] = {inputs[0], inputs[1], inputs[2], inputs[2]};
    uint8_t tmp[4 * BLAKE3_OUT_LEN];
    hash4(in4, blocks, key, counter, increment_counter, flags, flags_start, flags_end, tmp);
    memcpy(out, tmp, 3 * BLAKE3_OUT_LEN);
    return;
  }
  for (; num_inputs > 0; num_inputs--) {
    uint32_t cv[8];
    memcpy(cv, key, sizeof cv);
    for (size_t b = 0; b < blocks; b++) {
      uint8_t f = flags;
      if (b == 0) f |= flags_start;
      if (b + 1 == blocks) f |= flags_end;
      blake3_compress_in_place_vsx(cv, inputs[0] + b * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN,
                                   counter, f);
    }
    for (int w = 0; w < 8; w++) blake3_store32(out + 4 * w, cv[w]);
    if (increment_counter) counter += 1;
    inputs += 1;
    out += BLAKE3_OUT_LEN;
  }
}
