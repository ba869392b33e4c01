/*
 * blake3-fast: RISC-V Vector 1.0 kernel (build this file alone with clang-19 -march=rv64gcv;
 * the rest of the library stays at rv64gc so it runs on cores without V).
 *
 * Vector-length agnostic. hash_many runs one input per lane of a u32 LMUL=1 register, so it
 * fills VLEN/32 lanes (4 at VLEN=128, 8 at 256, 16 at 512, ...), capped at RVV_MAX_LANES to
 * bound the stack buffers. LMUL=1 because the transposed state alone is 16 vectors and the
 * message another 16: with LMUL=2 nearly everything would spill. The 16 message words of every
 * lane come in with two indexed segment loads (vluxseg8ei64), which is the transpose; the eight
 * CV words go out with one strided segment store. A last pass with fewer inputs than lanes just
 * runs with a shorter vl; a single input left over goes row-wise. hash_lanes is the same with
 * the counter, the last block's length and flags loaded per lane, and the last blocks gathered
 * from their own pointers.
 *
 * Row-wise compress_in_place/compress_xof use vl=4 vectors (one row each; a legal vl at any
 * VLEN >= 128): rows 1..3 are turned by vrgather for the diagonal step, and each round's four
 * message vectors are gathered straight from the block with byte-offset indexed loads, off the
 * dependency chain. Chosen over scalar code because rv64gcv has no scalar rotate (Zbb is not in
 * the baseline), so a scalar G costs about three times the operations; not measured on
 * hardware (qemu timings mean nothing).
 *
 * Alignment: RVV may trap on (or slowly emulate) e32 accesses that are not 4-byte aligned, so
 * misaligned inputs and outputs are bounced through aligned stack buffers.
 */
#include "blake3_impl.h"

#if !defined(__riscv_vector) || !defined(__riscv_v_intrinsic)
#error "blake3_rvv.c needs the RVV intrinsics (clang-19 -march=rv64gcv)"
#endif

#include <riscv_vector.h>

/* Most lanes one pass uses (VLEN 2048). More would only grow the bounce buffers: the
 * dispatcher never hands out more than BLAKE3_MAX_DEGREE inputs per call anyway. */
#define RVV_MAX_LANES 64

size_t blake3_rvv_degree(void) {
  size_t vlmax = __riscv_vsetvlmax_e32m1();
  return vlmax < RVV_MAX_LANES ? vlmax : RVV_MAX_LANES;
}

static inline int misaligned(const void *p) { return ((uintptr_t)p & 3) != 0; }

#define ROTR(x, n, vl)                                                                      \
  __riscv_vor_vv_u32m1(__riscv_vsrl_vx_u32m1((x), (n), (vl)),                              \
                       __riscv_vsll_vx_u32m1((x), 32 - (n), (vl)), (vl))
#define ADD(a, b, vl) __riscv_vadd_vv_u32m1((a), (b), (vl))
#define XOR(a, b, vl) __riscv_vxor_vv_u32m1((a), (b), (vl))

/* G on whole vectors: one G per lane (hash_many) or four at once on rows (compress). */
#define GV(a, b, c, d, x, y, vl)            \
  do {                                      \
    a = ADD(ADD(a, b, vl), (x), vl);        \
    d = ROTR(XOR(d, a, vl), 16, vl);        \
    c = ADD(c, d, vl);                      \
    b = ROTR(XOR(b, c, vl), 12, vl);        \
    a = ADD(ADD(a, b, vl), (y), vl);        \
    d = ROTR(XOR(d, a, vl), 8, vl);         \
    c = ADD(c, d, vl);                      \
    b = ROTR(XOR(b, c, vl), 7, vl);         \
  } while (0)

/* ---- row-wise single block (vl = 4) ------------------------------------------------------ */

/* Byte offsets into the block of each round's message vectors, in the order a round consumes
 * them: X = s[0,2,4,6], Y = s[1,3,5,7], Z = s[8,10,12,14], W = s[9,11,13,15] for that round's
 * schedule s (the BLAKE3 permutation applied r times). */
#define RVV_MSG_OFF(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)      \
  {4 * (s0), 4 * (s2),  4 * (s4),  4 * (s6),  4 * (s1), 4 * (s3),  4 * (s5),  4 * (s7),      \
   4 * (s8), 4 * (s10), 4 * (s12), 4 * (s14), 4 * (s9), 4 * (s11), 4 * (s13), 4 * (s15)}
static const uint8_t rvv_msg_off[7][16] = {
    BLAKE3_WITH_ROW(RVV_MSG_OFF, 0), BLAKE3_WITH_ROW(RVV_MSG_OFF, 1),
    BLAKE3_WITH_ROW(RVV_MSG_OFF, 2), BLAKE3_WITH_ROW(RVV_MSG_OFF, 3),
    BLAKE3_WITH_ROW(RVV_MSG_OFF, 4), BLAKE3_WITH_ROW(RVV_MSG_OFF, 5),
    BLAKE3_WITH_ROW(RVV_MSG_OFF, 6),
};

/* vrgather indices turning a row left by one, two and three lanes. */
static const uint32_t rvv_lrot[3][4] = {{1, 2, 3, 0}, {2, 3, 0, 1}, {3, 0, 1, 2}};

/* The four final rows, as a register tuple (sizeless vectors cannot live in a struct). */
static inline __attribute__((always_inline)) vuint32m1x4_t
compress_rows(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN], uint8_t block_len,
              uint64_t counter, uint8_t flags) {
  const size_t vl = 4;
  uint32_t aligned_block[16];
  const uint32_t *mw = (const uint32_t *)(const void *)block;
  if (misaligned(block)) {
    memcpy(aligned_block, block, sizeof aligned_block);
    mw = aligned_block;
  }
  const uint32_t row3[4] = {blake3_counter_low(counter), blake3_counter_high(counter), block_len,
                            flags};
  vuint32m1_t r0 = __riscv_vle32_v_u32m1(cv, vl);
  vuint32m1_t r1 = __riscv_vle32_v_u32m1(cv + 4, vl);
  vuint32m1_t r2 = __riscv_vle32_v_u32m1(blake3_iv, vl);
  vuint32m1_t r3 = __riscv_vle32_v_u32m1(row3, vl);
  const vuint32m1_t rot1 = __riscv_vle32_v_u32m1(rvv_lrot[0], vl);
  const vuint32m1_t rot2 = __riscv_vle32_v_u32m1(rvv_lrot[1], vl);
  const vuint32m1_t rot3 = __riscv_vle32_v_u32m1(rvv_lrot[2], vl);

  for (int r = 0; r < 7; r++) {
    const uint8_t *o = rvv_msg_off[r];
    vuint32m1_t x = __riscv_vluxei8_v_u32m1(mw, __riscv_vle8_v_u8mf4(o + 0, vl), vl);
    vuint32m1_t y = __riscv_vluxei8_v_u32m1(mw, __riscv_vle8_v_u8mf4(o + 4, vl), vl);
    vuint32m1_t z = __riscv_vluxei8_v_u32m1(mw, __riscv_vle8_v_u8mf4(o + 8, vl), vl);
    vuint32m1_t w = __riscv_vluxei8_v_u32m1(mw, __riscv_vle8_v_u8mf4(o + 12, vl), vl);
    GV(r0, r1, r2, r3, x, y, vl);
    r1 = __riscv_vrgather_vv_u32m1(r1, rot1, vl);
    r2 = __riscv_vrgather_vv_u32m1(r2, rot2, vl);
    r3 = __riscv_vrgather_vv_u32m1(r3, rot3, vl);
    GV(r0, r1, r2, r3, z, w, vl);
    r1 = __riscv_vrgather_vv_u32m1(r1, rot3, vl);
    r2 = __riscv_vrgather_vv_u32m1(r2, rot2, vl);
    r3 = __riscv_vrgather_vv_u32m1(r3, rot1, vl);
  }
  vuint32m1x4_t out = __riscv_vundefined_u32m1x4();
  out = __riscv_vset_v_u32m1_u32m1x4(out, 0, r0);
  out = __riscv_vset_v_u32m1_u32m1x4(out, 1, r1);
  out = __riscv_vset_v_u32m1_u32m1x4(out, 2, r2);
  out = __riscv_vset_v_u32m1_u32m1x4(out, 3, r3);
  return out;
}

#define ROW(s, i) __riscv_vget_v_u32m1x4_u32m1((s), (i))

void blake3_compress_in_place_rvv(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                  uint8_t block_len, uint64_t counter, uint8_t flags) {
  vuint32m1x4_t s = compress_rows(cv, block, block_len, counter, flags);
  __riscv_vse32_v_u32m1(cv, XOR(ROW(s, 0), ROW(s, 2), 4), 4);
  __riscv_vse32_v_u32m1(cv + 4, XOR(ROW(s, 1), ROW(s, 3), 4), 4);
}

void blake3_compress_xof_rvv(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                             uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t out[64]) {
  vuint32m1x4_t s = compress_rows(cv, block, block_len, counter, flags);
  uint32_t bounce[16];
  uint32_t *o = misaligned(out) ? bounce : (uint32_t *)(void *)out;
  __riscv_vse32_v_u32m1(o, XOR(ROW(s, 0), ROW(s, 2), 4), 4);
  __riscv_vse32_v_u32m1(o + 4, XOR(ROW(s, 1), ROW(s, 3), 4), 4);
  __riscv_vse32_v_u32m1(o + 8, XOR(ROW(s, 2), __riscv_vle32_v_u32m1(cv, 4), 4), 4);
  __riscv_vse32_v_u32m1(o + 12, XOR(ROW(s, 3), __riscv_vle32_v_u32m1(cv + 4, 4), 4), 4);
  if (o == bounce) memcpy(out, bounce, sizeof bounce);
}

/* ---- one input per lane ------------------------------------------------------------------ */

#define MV(i) m##i
/* A full round; the arguments are the message word indices in this round's schedule order. */
#define ROUNDV(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  do {                                                                             \
    GV(v0, v4, v8, v12, MV(s0), MV(s1), vl);                                       \
    GV(v1, v5, v9, v13, MV(s2), MV(s3), vl);                                       \
    GV(v2, v6, v10, v14, MV(s4), MV(s5), vl);                                      \
    GV(v3, v7, v11, v15, MV(s6), MV(s7), vl);                                      \
    GV(v0, v5, v10, v15, MV(s8), MV(s9), vl);                                      \
    GV(v1, v6, v11, v12, MV(s10), MV(s11), vl);                                    \
    GV(v2, v7, v8, v13, MV(s12), MV(s13), vl);                                     \
    GV(v3, v4, v9, v14, MV(s14), MV(s15), vl);                                     \
  } while (0)

#define RVV_INLINE static inline __attribute__((always_inline))

/* Gather addressing for blocks at ptrs[0..vl): lane i reads *base + offsets[i]; *aligned says
 * whether the gather may read them in place (else they are bounced). */
RVV_INLINE vuint64m2_t lane_offsets(const uint8_t *const *ptrs, size_t vl, const uint8_t **base,
                                    int *aligned) {
  *base = ptrs[0];
  int a = 1;
  for (size_t i = 0; i < vl; i++) a &= !misaligned(ptrs[i]);
  *aligned = a;
  return __riscv_vsub_vx_u64m2(__riscv_vle64_v_u64m2((const uint64_t *)(const void *)ptrs, vl),
                               (uint64_t)(uintptr_t)*base, vl);
}

/* Every lane's CV set to the key: vector j of the tuple holds word j. */
RVV_INLINE vuint32m1x8_t key_cvs(const uint32_t key[8], size_t vl) {
  vuint32m1x8_t h = __riscv_vundefined_u32m1x8();
  h = __riscv_vset_v_u32m1_u32m1x8(h, 0, __riscv_vmv_v_x_u32m1(key[0], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 1, __riscv_vmv_v_x_u32m1(key[1], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 2, __riscv_vmv_v_x_u32m1(key[2], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 3, __riscv_vmv_v_x_u32m1(key[3], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 4, __riscv_vmv_v_x_u32m1(key[4], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 5, __riscv_vmv_v_x_u32m1(key[5], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 6, __riscv_vmv_v_x_u32m1(key[6], vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 7, __riscv_vmv_v_x_u32m1(key[7], vl));
  return h;
}

/* Lanes i .. i + vl - 1's own CVs, word w from cv_words[w] (hash_lanes' continuing lanes). */
RVV_INLINE vuint32m1x8_t lane_cvs(const uint32_t *const cv_words[8], size_t i, size_t vl) {
  vuint32m1x8_t h = __riscv_vundefined_u32m1x8();
  h = __riscv_vset_v_u32m1_u32m1x8(h, 0, __riscv_vle32_v_u32m1(cv_words[0] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 1, __riscv_vle32_v_u32m1(cv_words[1] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 2, __riscv_vle32_v_u32m1(cv_words[2] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 3, __riscv_vle32_v_u32m1(cv_words[3] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 4, __riscv_vle32_v_u32m1(cv_words[4] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 5, __riscv_vle32_v_u32m1(cv_words[5] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 6, __riscv_vle32_v_u32m1(cv_words[6] + i, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 7, __riscv_vle32_v_u32m1(cv_words[7] + i, vl));
  return h;
}

#define WORD(t, i) __riscv_vget_v_u32m1x8_u32m1((t), (i))

/* One compression in every lane: h (vector j = word j of each lane's CV) before and after;
 * lane i's block at ptrs[i] + off, addressed as lane_offsets says; the state's last row
 * (counter, block length, flags) per lane. bounce holds RVV_MAX_LANES blocks. */
RVV_INLINE vuint32m1x8_t compress_vl(vuint32m1x8_t h, const uint8_t *const *ptrs,
                                     const uint8_t *base, vuint64m2_t offs, int aligned,
                                     size_t off, uint32_t *bounce, vuint32m1_t ctr_lo,
                                     vuint32m1_t ctr_hi, vuint32m1_t len, vuint32m1_t f,
                                     size_t vl) {
  vuint32m1x8_t lo8, hi8;
  if (aligned) {
    const uint32_t *p = (const uint32_t *)(const void *)(base + off);
    lo8 = __riscv_vluxseg8ei64_v_u32m1x8(p, offs, vl);
    hi8 = __riscv_vluxseg8ei64_v_u32m1x8(p + 8, offs, vl);
  } else {
    for (size_t i = 0; i < vl; i++) memcpy(bounce + 16 * i, ptrs[i] + off, BLAKE3_BLOCK_LEN);
    lo8 = __riscv_vlsseg8e32_v_u32m1x8(bounce, BLAKE3_BLOCK_LEN, vl);
    hi8 = __riscv_vlsseg8e32_v_u32m1x8(bounce + 8, BLAKE3_BLOCK_LEN, vl);
  }
  vuint32m1_t m0 = WORD(lo8, 0), m1 = WORD(lo8, 1), m2 = WORD(lo8, 2), m3 = WORD(lo8, 3),
              m4 = WORD(lo8, 4), m5 = WORD(lo8, 5), m6 = WORD(lo8, 6), m7 = WORD(lo8, 7),
              m8 = WORD(hi8, 0), m9 = WORD(hi8, 1), m10 = WORD(hi8, 2), m11 = WORD(hi8, 3),
              m12 = WORD(hi8, 4), m13 = WORD(hi8, 5), m14 = WORD(hi8, 6), m15 = WORD(hi8, 7);

  vuint32m1_t v0 = WORD(h, 0), v1 = WORD(h, 1), v2 = WORD(h, 2), v3 = WORD(h, 3),
              v4 = WORD(h, 4), v5 = WORD(h, 5), v6 = WORD(h, 6), v7 = WORD(h, 7);
  vuint32m1_t v8 = __riscv_vmv_v_x_u32m1(blake3_iv[0], vl),
              v9 = __riscv_vmv_v_x_u32m1(blake3_iv[1], vl),
              v10 = __riscv_vmv_v_x_u32m1(blake3_iv[2], vl),
              v11 = __riscv_vmv_v_x_u32m1(blake3_iv[3], vl);
  vuint32m1_t v12 = ctr_lo, v13 = ctr_hi, v14 = len, v15 = f;

  ROUNDV(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  ROUNDV(2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8);
  ROUNDV(3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1);
  ROUNDV(10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6);
  ROUNDV(12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4);
  ROUNDV(9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7);
  ROUNDV(11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13);

  h = __riscv_vset_v_u32m1_u32m1x8(h, 0, XOR(v0, v8, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 1, XOR(v1, v9, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 2, XOR(v2, v10, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 3, XOR(v3, v11, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 4, XOR(v4, v12, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 5, XOR(v5, v13, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 6, XOR(v6, v14, vl));
  h = __riscv_vset_v_u32m1_u32m1x8(h, 7, XOR(v7, v15, vl));
  return h;
}

#undef WORD

/* Lane i's eight CV words go to out + 32 * i: one strided segment store. */
RVV_INLINE void store_cvs_vl(vuint32m1x8_t h, uint8_t *out, uint32_t *bounce, size_t vl) {
  if (misaligned(out)) {
    __riscv_vssseg8e32_v_u32m1x8(bounce, BLAKE3_OUT_LEN, h, vl);
    memcpy(out, bounce, vl * BLAKE3_OUT_LEN);
  } else {
    __riscv_vssseg8e32_v_u32m1x8((uint32_t *)(void *)out, BLAKE3_OUT_LEN, h, vl);
  }
}

/* Hashes inputs[0..vl) (vl <= RVV_MAX_LANES, already set for e32/m1) to out + 32 * i. */
static void hash_many_vl(const uint8_t *const *inputs, size_t vl, size_t blocks,
                         const uint32_t key[8], uint64_t counter, int increment_counter,
                         uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  const uint8_t *base;
  int aligned;
  const vuint64m2_t offs = lane_offsets(inputs, vl, &base, &aligned);

  /* Per-lane 64-bit counters, split into the low and high state words. */
  vuint64m2_t ctr = __riscv_vmv_v_x_u64m2(counter, vl);
  if (increment_counter) ctr = __riscv_vadd_vv_u64m2(ctr, __riscv_vid_v_u64m2(vl), vl);
  const vuint32m1_t ctr_lo = __riscv_vnsrl_wx_u32m1(ctr, 0, vl);
  const vuint32m1_t ctr_hi = __riscv_vnsrl_wx_u32m1(ctr, 32, vl);

  vuint32m1x8_t h = key_cvs(key, vl);
  uint32_t bounce[RVV_MAX_LANES * 16];
  for (size_t b = 0; b < blocks; b++) {
    uint32_t f = flags;
    if (b == 0) f |= flags_start;
    if (b + 1 == blocks) f |= flags_end;
    h = compress_vl(h, inputs, base, offs, aligned, b * BLAKE3_BLOCK_LEN, bounce, ctr_lo, ctr_hi,
                    __riscv_vmv_v_x_u32m1(BLAKE3_BLOCK_LEN, vl), __riscv_vmv_v_x_u32m1(f, vl),
                    vl);
  }
  store_cvs_vl(h, out, bounce, vl);
}

/* hash_lanes' lanes i .. i + vl - 1 (vl as in hash_many_vl) to out + 32 * (lane - i). */
static void lanes_vl(const blake3_lanes *l, size_t i, size_t vl, size_t blocks,
                     const uint32_t key[8], uint8_t flags, uint8_t flags_start, uint8_t *out) {
  const vuint32m1_t ctr_lo = __riscv_vle32_v_u32m1(l->counter_lo + i, vl);
  const vuint32m1_t ctr_hi = __riscv_vle32_v_u32m1(l->counter_hi + i, vl);
  vuint32m1x8_t h = l->cv_words ? lane_cvs(l->cv_words, i, vl) : key_cvs(key, vl);
  uint32_t bounce[RVV_MAX_LANES * 16];
  /* The first block's flags from flags_start, or per lane with the lanes' own CVs. */
  vuint32m1_t f = l->cv_words
                      ? __riscv_vor_vx_u32m1(__riscv_vle32_v_u32m1(l->first_flags + i, vl),
                                             flags, vl)
                      : __riscv_vmv_v_x_u32m1((uint32_t)(flags | flags_start), vl);
  const uint8_t *base;
  int aligned;
  if (blocks > 1) { /* inputs[] is not even read for a single block */
    const vuint64m2_t offs = lane_offsets(l->inputs + i, vl, &base, &aligned);
    for (size_t b = 0; b + 1 < blocks; b++) {
      h = compress_vl(h, l->inputs + i, base, offs, aligned, b * BLAKE3_BLOCK_LEN, bounce,
                      ctr_lo, ctr_hi, __riscv_vmv_v_x_u32m1(BLAKE3_BLOCK_LEN, vl), f, vl);
      f = __riscv_vmv_v_x_u32m1(flags, vl);
    }
  }
  const vuint64m2_t last_offs = lane_offsets(l->lasts + i, vl, &base, &aligned);
  const vuint32m1_t last_f =
      __riscv_vor_vv_u32m1(__riscv_vle32_v_u32m1(l->last_flags + i, vl), f, vl);
  h = compress_vl(h, l->lasts + i, base, last_offs, aligned, 0, bounce, ctr_lo, ctr_hi,
                  __riscv_vle32_v_u32m1(l->last_len + i, vl), last_f, vl);
  store_cvs_vl(h, out, bounce, vl);
}

void blake3_hash_many_rvv(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                          const uint32_t key[8], uint64_t counter, int increment_counter,
                          uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  while (num_inputs >= 2) {
    size_t avl = num_inputs < RVV_MAX_LANES ? num_inputs : RVV_MAX_LANES;
    size_t vl = __riscv_vsetvl_e32m1(avl);
    hash_many_vl(inputs, vl, blocks, key, counter, increment_counter, flags, flags_start,
                 flags_end, out);
    if (increment_counter) counter += vl;
    inputs += vl;
    num_inputs -= vl;
    out += vl * BLAKE3_OUT_LEN;
  }
  if (num_inputs == 1)
    blake3_hash_one(blake3_compress_in_place_rvv, inputs[0], blocks, key, counter, flags,
                    flags_start, flags_end, out);
}

void blake3_hash_lanes_rvv(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                           uint8_t *out) {
  size_t i = 0;
  while (num_inputs - i >= 2) {
    const size_t left = num_inputs - i;
    const size_t vl = __riscv_vsetvl_e32m1(left < RVV_MAX_LANES ? left : RVV_MAX_LANES);
    lanes_vl(lanes, i, vl, blocks, key, flags, flags_start, out + BLAKE3_OUT_LEN * i);
    i += vl;
  }
  if (i < num_inputs)
    blake3_lane_one(blake3_compress_in_place_rvv, lanes, i, blocks, key, flags, flags_start,
                    out + BLAKE3_OUT_LEN * i);
}
