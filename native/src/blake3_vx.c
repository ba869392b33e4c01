/*
 * blake3-fast: z13 vector facility kernel for s390x (build with -march=z13 -mzvector; this
 * translation unit only, the rest of the library stays at the baseline).
 *
 * s390x is big-endian and BLAKE3 words are little-endian. Input bytes are loaded as they are
 * and every word's bytes are reversed by the first vec_perm that touches them anyway (the
 * even/odd split of the row-wise message, the first stage of the 4x4 transpose), so the byte
 * swap costs no extra instruction. Chaining values arrive as native uint32_t words and need none.
 *
 * Row-wise compress: the state is four u32x4 rows, the diagonal half-round rotates rows 1..3
 * by one, two and three lanes (vec_sld). The message is held as the four vectors a half-round
 * consumes (X, Y for the columns; Z, W for the diagonals) and moved to the next round's order
 * with seven two-input permutes.
 *
 * hash_many: four inputs per pass, one per lane, with the message words transposed.
 *
 * Traps: zvector has no vec_add for u32 (the + operator is used), vec_rli wants a constant.
 */
#include "blake3_impl.h"

#if !defined(__VEC__) || !defined(__s390x__)
#error "blake3_vx.c needs s390x with the vector facility (-march=z13 -mzvector)"
#endif

#include <vecintrin.h>

typedef __vector unsigned int u32x4;
typedef __vector unsigned char u8x16;
typedef __vector unsigned long long u64x2;

#define IV0 0x6A09E667u
#define IV1 0xBB67AE85u
#define IV2 0x3C6EF372u
#define IV3 0xA54FF53Au

/* Raw loads and stores: element i holds bytes 4i..4i+3 in memory order (big-endian words). */
static inline u32x4 ld(const void *p) { return (u32x4)vec_xl(0, (const unsigned char *)p); }
static inline void st(void *p, u32x4 v) { vec_xst((u8x16)v, 0, (unsigned char *)p); }

/* Rotations right by n, as element rotations left by 32 - n. */
#define rot16(x) vec_rli((x), 16)
#define rot12(x) vec_rli((x), 20)
#define rot8(x) vec_rli((x), 24)
#define rot7(x) vec_rli((x), 25)

/* Byte selectors for vec_perm(a, b, .): result word i = word wi of a:b (0..3 a, 4..7 b).
 * WSEL keeps each word's bytes in order, WSWP also reverses them (little-endian load). */
#define WSEL(w0, w1, w2, w3)                                                                 \
  ((u8x16){4 * (w0), 4 * (w0) + 1, 4 * (w0) + 2, 4 * (w0) + 3, 4 * (w1), 4 * (w1) + 1,     \
           4 * (w1) + 2, 4 * (w1) + 3, 4 * (w2), 4 * (w2) + 1, 4 * (w2) + 2, 4 * (w2) + 3, \
           4 * (w3), 4 * (w3) + 1, 4 * (w3) + 2, 4 * (w3) + 3})
#define WSWP(w0, w1, w2, w3)                                                                 \
  ((u8x16){4 * (w0) + 3, 4 * (w0) + 2, 4 * (w0) + 1, 4 * (w0), 4 * (w1) + 3, 4 * (w1) + 2, \
           4 * (w1) + 1, 4 * (w1), 4 * (w2) + 3, 4 * (w2) + 2, 4 * (w2) + 1, 4 * (w2),     \
           4 * (w3) + 3, 4 * (w3) + 2, 4 * (w3) + 1, 4 * (w3)})
#define PERM(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSEL(w0, w1, w2, w3))
#define PERM_SWAP(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSWP(w0, w1, w2, w3))
/* Little-endian store of four words. */
static inline void st_le(void *p, u32x4 v) { st(p, PERM_SWAP(v, v, 0, 1, 2, 3)); }
/* Lane rotation: result lane i = lane (i + k) % 4 (element 0 is the leftmost). */
#define LROT(a, k) vec_sld((a), (a), 4 * (k))

/* ---- row-wise single block --------------------------------------------------------------- */

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

#define ROUND_ROWS(X, Y, Z, W)  \
  do {                          \
    HALF(r0, r1, r2, r3, X, Y); \
    r1 = LROT(r1, 1);           \
    r2 = LROT(r2, 2);           \
    r3 = LROT(r3, 3);           \
    HALF(r0, r1, r2, r3, Z, W); \
    r1 = LROT(r1, 3);           \
    r2 = LROT(r2, 2);           \
    r3 = LROT(r3, 1);           \
  } while (0)

static inline __attribute__((always_inline)) void
compress_rows(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN], uint8_t block_len,
              uint64_t counter, uint8_t flags, u32x4 out[4]) {
  u32x4 m0 = ld(block), m1 = ld(block + 16), m2 = ld(block + 32), m3 = ld(block + 48);
  u32x4 X = PERM_SWAP(m0, m1, 0, 2, 4, 6), Y = PERM_SWAP(m0, m1, 1, 3, 5, 7);
  u32x4 Z = PERM_SWAP(m2, m3, 0, 2, 4, 6), W = PERM_SWAP(m2, m3, 1, 3, 5, 7);
  u32x4 r0 = vec_xl(0, cv), r1 = vec_xl(16, cv);
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

void blake3_compress_in_place_vx(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                 uint8_t block_len, uint64_t counter, uint8_t flags) {
  u32x4 r[4];
  compress_rows(cv, block, block_len, counter, flags, r);
  vec_xst(r[0] ^ r[2], 0, cv);
  vec_xst(r[1] ^ r[3], 16, cv);
}

void blake3_compress_xof_vx(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                            uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t out[64]) {
  u32x4 r[4];
  compress_rows(cv, block, block_len, counter, flags, r);
  st_le(out, r[0] ^ r[2]);
  st_le(out + 16, r[1] ^ r[3]);
  st_le(out + 32, r[2] ^ vec_xl(0, cv));
  st_le(out + 48, r[3] ^ vec_xl(16, cv));
}

/* ---- four inputs at once, one per lane ----------------------------------------------------- */

/* 4x4 word transpose: a, b, c, d become columns 0..3 of the rows a, b, c, d. The first stage
 * uses `first` (PERM for values, PERM_SWAP for raw little-endian bytes). */
#define TRANSPOSE4(first, a, b, c, d)                                            \
  do {                                                                           \
    u32x4 ab_lo = first(a, b, 0, 4, 1, 5), ab_hi = first(a, b, 2, 6, 3, 7);      \
    u32x4 cd_lo = first(c, d, 0, 4, 1, 5), cd_hi = first(c, d, 2, 6, 3, 7);      \
    a = (u32x4)vec_mergeh((u64x2)ab_lo, (u64x2)cd_lo);                           \
    b = (u32x4)vec_mergel((u64x2)ab_lo, (u64x2)cd_lo);                           \
    c = (u32x4)vec_mergeh((u64x2)ab_hi, (u64x2)cd_hi);                           \
    d = (u32x4)vec_mergel((u64x2)ab_hi, (u64x2)cd_hi);                           \
  } while (0)

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
  const u32x4 ctr_lo = vec_xl(0, lo), ctr_hi = vec_xl(0, hi);
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
      TRANSPOSE4(PERM_SWAP, m[4 * q + 0], m[4 * q + 1], m[4 * q + 2], m[4 * q + 3]);
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

  /* Back to one CV per lane, bytes reversed to little-endian on the way. */
  TRANSPOSE4(PERM_SWAP, h0, h1, h2, h3);
  TRANSPOSE4(PERM_SWAP, h4, h5, h6, h7);
  st(out + 0, h0);
  st(out + 16, h4);
  st(out + 32, h1);
  st(out + 48, h5);
  st(out + 64, h2);
  st(out + 80, h6);
  st(out + 96, h3);
  st(out + 112, h7);
}

void blake3_hash_many_vx(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
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
      blake3_compress_in_place_vx(cv, inputs[0] + b * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN,
                                  counter, f);
    }
    for (int w = 0; w < 8; w++) blake3_store32(out + 4 * w, cv[w]);
    if (increment_counter) counter += 1;
    inputs += 1;
    out += BLAKE3_OUT_LEN;
  }
}
