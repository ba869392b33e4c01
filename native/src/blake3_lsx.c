/*
 * blake3-fast: LoongArch LSX kernel (build this file alone with clang-19 -mlsx; the rest of
 * the library is built with -mno-lsx so it runs where AT_HWCAP has no LSX).
 *
 * Row-wise compress and four-lane hash_many and hash_lanes: the code of blake3_vec128.h over
 * LSX vectors (lanes turned by vshuf4i.w, message permuted by vshuf.b, transposed by
 * vilvl/vilvh). LoongArch is little-endian, so words load as they are.
 *
 * LASX: when AT_HWCAP says the CPU has it (checked once), hash_many and hash_lanes run eight
 * inputs per pass in 256-bit registers. That code is compiled per function with target("lasx")
 * and written with the __builtin_lasx_* builtins (lasxintrin.h needs the whole file built with
 * -mlasx), so this file still builds with -mlsx alone and runs on LSX-only cores. It only
 * engages when the tree hands over at least five inputs at once, which is why LSX's degree in
 * BLAKE3_ISAS is 8 (on an LSX-only core that costs nothing: eight inputs are two 4-lane
 * passes).
 */
#include "blake3_impl.h"

#if !defined(__loongarch_sx)
#error "blake3_lsx.c needs LSX (-mlsx)"
#endif

#include <lsxintrin.h>
#include <sys/auxv.h>

typedef __m128i v128;
typedef unsigned char b3_u8x16 __attribute__((vector_size(16)));

static inline __attribute__((always_inline)) v128 lsx_set4(uint32_t a, uint32_t b, uint32_t c,
                                                            uint32_t d) {
  const uint32_t w[4] = {a, b, c, d};
  return __lsx_vld((const void *)w, 0);
}

#define B3V v128
#define B3V_FN(fn) fn##_lsx
#define B3V_LOAD(p) __lsx_vld((const void *)(p), 0)
#define B3V_STORE(p, v) __lsx_vst((v), (void *)(p), 0)
#define B3V_STORE_LE(p, v) B3V_STORE(p, v)
#define B3V_SET4(a, b, c, d) lsx_set4((a), (b), (c), (d))
#define B3V_SPLAT(x) __lsx_vreplgr2vr_w((int)(x))
#define B3V_ADD(a, b) __lsx_vadd_w((a), (b))
#define B3V_XOR(a, b) __lsx_vxor_v((a), (b))
/* vrotri.w rotates right. */
#define B3V_ROT16(x) __lsx_vrotri_w((x), 16)
#define B3V_ROT12(x) __lsx_vrotri_w((x), 12)
#define B3V_ROT8(x) __lsx_vrotri_w((x), 8)
#define B3V_ROT7(x) __lsx_vrotri_w((x), 7)

/* Byte indices for PERM(a, b, .): result word i = word wi of a:b (0..3 a, 4..7 b). vshuf.b
 * takes indices 0..15 from its second operand and 16..31 from its first, hence (b, a). */
#define WSEL(w0, w1, w2, w3)                                                                  \
  ((v128)(b3_u8x16){BLAKE3_WORD_BYTES(w0), BLAKE3_WORD_BYTES(w1), BLAKE3_WORD_BYTES(w2),       \
           BLAKE3_WORD_BYTES(w3)})
#define B3V_PERM(a, b, w0, w1, w2, w3) __lsx_vshuf_b((b), (a), WSEL(w0, w1, w2, w3))
/* Lane rotation: result lane i = lane (i + k) % 4 (vshuf4i.w immediates for k = 1, 2, 3). */
#define B3V_LROT1(a) __lsx_vshuf4i_w((a), 0x39)
#define B3V_LROT2(a) __lsx_vshuf4i_w((a), 0x4E)
#define B3V_LROT3(a) __lsx_vshuf4i_w((a), 0x93)
/* vpickev.w/vpickod.w, vilvl/vilvh: second operand first (LoongArch is little-endian). */
#define B3V_EVEN_LE(lo, hi) __lsx_vpickev_w((hi), (lo))
#define B3V_ODD_LE(lo, hi) __lsx_vpickod_w((hi), (lo))
#define B3V_ZIPW_LO(a, b) __lsx_vilvl_w((b), (a))
#define B3V_ZIPW_HI(a, b) __lsx_vilvh_w((b), (a))
#define B3V_ZIPD_LO(a, b) __lsx_vilvl_d((b), (a))
#define B3V_ZIPD_HI(a, b) __lsx_vilvh_d((b), (a))

#include "blake3_vec128.h"

/* ---- LASX: eight inputs at once ------------------------------------------------------------ */

#define B3_HWCAP_LOONGARCH_LASX (1ul << 5)

/* 0 = no LASX, 1 = LASX, -1 = not looked yet. Races only ever store the same value. */
static int lasx_state = -1;

static int have_lasx(void) {
  int s = __atomic_load_n(&lasx_state, __ATOMIC_RELAXED);
  if (s < 0) {
    s = (getauxval(AT_HWCAP) & B3_HWCAP_LOONGARCH_LASX) != 0;
    __atomic_store_n(&lasx_state, s, __ATOMIC_RELAXED);
  }
  return s;
}

typedef unsigned int u32x8 __attribute__((vector_size(32)));
typedef int b3_v8i32 __attribute__((vector_size(32)));
typedef long long b3_v4i64 __attribute__((vector_size(32)));
typedef signed char b3_v32i8 __attribute__((vector_size(32)));

#define XLD(p) ((u32x8)__builtin_lasx_xvld((const void *)(p), 0))
#define XST(p, v) __builtin_lasx_xvst((b3_v32i8)(v), (void *)(p), 0)
#define XSPLAT(x) ((u32x8)__builtin_lasx_xvreplgr2vr_w((int)(x)))
#define XROTR(x, n) ((u32x8)__builtin_lasx_xvrotri_w((b3_v8i32)(x), (n)))
/* Interleaves within each 128-bit half, second operand in the even positions (as in LSX). */
#define XILVL_W(a, b) ((u32x8)__builtin_lasx_xvilvl_w((b3_v8i32)(a), (b3_v8i32)(b)))
#define XILVH_W(a, b) ((u32x8)__builtin_lasx_xvilvh_w((b3_v8i32)(a), (b3_v8i32)(b)))
#define XILVL_D(a, b) ((u32x8)__builtin_lasx_xvilvl_d((b3_v4i64)(a), (b3_v4i64)(b)))
#define XILVH_D(a, b) ((u32x8)__builtin_lasx_xvilvh_d((b3_v4i64)(a), (b3_v4i64)(b)))
/* xvpermi.q d, j, imm: 128-bit half k of the result is j.lo, j.hi, d.lo or d.hi for the
 * selector (imm >> 4k) & 3 = 0, 1, 2, 3. PAIR_LO(b, a) = [a.lo | b.lo], PAIR_HI = [a.hi | b.hi]. */
#define PAIR_LO(b, a) ((u32x8)__builtin_lasx_xvpermi_q((b3_v32i8)(b), (b3_v32i8)(a), 0x20))
#define PAIR_HI(b, a) ((u32x8)__builtin_lasx_xvpermi_q((b3_v32i8)(b), (b3_v32i8)(a), 0x31))

/* 8x8 word transpose: r0..r7 become columns 0..7 of the rows r0..r7. */
#define TRANSPOSE8(r0, r1, r2, r3, r4, r5, r6, r7)                                  \
  do {                                                                              \
    u32x8 a0 = XILVL_W(r1, r0), a1 = XILVH_W(r1, r0), a2 = XILVL_W(r3, r2),         \
          a3 = XILVH_W(r3, r2), a4 = XILVL_W(r5, r4), a5 = XILVH_W(r5, r4),         \
          a6 = XILVL_W(r7, r6), a7 = XILVH_W(r7, r6);                               \
    /* b0 = rows 0..3 of columns 0 | 4, b1: 1 | 5, b2: 2 | 6, b3: 3 | 7; b4..b7 rows 4..7 */ \
    u32x8 b0 = XILVL_D(a2, a0), b1 = XILVH_D(a2, a0), b2 = XILVL_D(a3, a1),         \
          b3 = XILVH_D(a3, a1), b4 = XILVL_D(a6, a4), b5 = XILVH_D(a6, a4),         \
          b6 = XILVL_D(a7, a5), b7 = XILVH_D(a7, a5);                               \
    r0 = PAIR_LO(b4, b0);                                                           \
    r4 = PAIR_HI(b4, b0);                                                           \
    r1 = PAIR_LO(b5, b1);                                                           \
    r5 = PAIR_HI(b5, b1);                                                           \
    r2 = PAIR_LO(b6, b2);                                                           \
    r6 = PAIR_HI(b6, b2);                                                           \
    r3 = PAIR_LO(b7, b3);                                                           \
    r7 = PAIR_HI(b7, b3);                                                           \
  } while (0)

#define G8(a, b, c, d, x, y)   \
  do {                         \
    a = a + b + (x);           \
    d = XROTR(d ^ a, 16);      \
    c = c + d;                 \
    b = XROTR(b ^ c, 12);      \
    a = a + b + (y);           \
    d = XROTR(d ^ a, 8);       \
    c = c + d;                 \
    b = XROTR(b ^ c, 7);       \
  } while (0)

#define M8(i) m##i
#define ROUND8(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15) \
  do {                                                                             \
    G8(v0, v4, v8, v12, M8(s0), M8(s1));                                           \
    G8(v1, v5, v9, v13, M8(s2), M8(s3));                                           \
    G8(v2, v6, v10, v14, M8(s4), M8(s5));                                          \
    G8(v3, v7, v11, v15, M8(s6), M8(s7));                                          \
    G8(v0, v5, v10, v15, M8(s8), M8(s9));                                          \
    G8(v1, v6, v11, v12, M8(s10), M8(s11));                                        \
    G8(v2, v7, v8, v13, M8(s12), M8(s13));                                         \
    G8(v3, v4, v9, v14, M8(s14), M8(s15));                                         \
  } while (0)

#define LASX_INLINE __attribute__((target("lasx"), always_inline)) static inline

/* Block `off` of eight inputs through one compression in every lane: h[j] lane i is word j
 * of lane i's CV, before and after; the state's last row comes per lane. */
LASX_INLINE void compress8_lasx(u32x8 h[8], const uint8_t *const in[8], size_t off,
                                u32x8 ctr_lo, u32x8 ctr_hi, u32x8 len, u32x8 f) {
  u32x8 m0 = XLD(in[0] + off), m1 = XLD(in[1] + off), m2 = XLD(in[2] + off),
        m3 = XLD(in[3] + off), m4 = XLD(in[4] + off), m5 = XLD(in[5] + off),
        m6 = XLD(in[6] + off), m7 = XLD(in[7] + off);
  u32x8 m8 = XLD(in[0] + off + 32), m9 = XLD(in[1] + off + 32), m10 = XLD(in[2] + off + 32),
        m11 = XLD(in[3] + off + 32), m12 = XLD(in[4] + off + 32), m13 = XLD(in[5] + off + 32),
        m14 = XLD(in[6] + off + 32), m15 = XLD(in[7] + off + 32);
  TRANSPOSE8(m0, m1, m2, m3, m4, m5, m6, m7);
  TRANSPOSE8(m8, m9, m10, m11, m12, m13, m14, m15);

  u32x8 v0 = h[0], v1 = h[1], v2 = h[2], v3 = h[3], v4 = h[4], v5 = h[5], v6 = h[6], v7 = h[7];
  u32x8 v8 = XSPLAT(blake3_iv[0]), v9 = XSPLAT(blake3_iv[1]), v10 = XSPLAT(blake3_iv[2]),
        v11 = XSPLAT(blake3_iv[3]);
  u32x8 v12 = ctr_lo, v13 = ctr_hi, v14 = len, v15 = f;

  BLAKE3_WITH_ROW(ROUND8, 0);
  BLAKE3_WITH_ROW(ROUND8, 1);
  BLAKE3_WITH_ROW(ROUND8, 2);
  BLAKE3_WITH_ROW(ROUND8, 3);
  BLAKE3_WITH_ROW(ROUND8, 4);
  BLAKE3_WITH_ROW(ROUND8, 5);
  BLAKE3_WITH_ROW(ROUND8, 6);

  h[0] = v0 ^ v8;
  h[1] = v1 ^ v9;
  h[2] = v2 ^ v10;
  h[3] = v3 ^ v11;
  h[4] = v4 ^ v12;
  h[5] = v5 ^ v13;
  h[6] = v6 ^ v14;
  h[7] = v7 ^ v15;
}

/* Columns back to rows: row i, lane i's CV, to out + 32 * i. */
LASX_INLINE void store_cvs8_lasx(u32x8 h[8], uint8_t *out) {
  TRANSPOSE8(h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);
  for (int i = 0; i < 8; i++) XST(out + 32 * i, h[i]);
}

__attribute__((target("lasx"))) static void
hash8_lasx(const uint8_t *const in[8], size_t blocks, const uint32_t key[8], uint64_t counter,
           int increment_counter, uint8_t flags, uint8_t flags_start, uint8_t flags_end,
           uint8_t *out) {
  uint32_t lo[8], hi[8];
  /* Plain shifts: clang does not inline the header's helpers into a target("lasx") function. */
  for (int i = 0; i < 8; i++) {
    uint64_t c = counter + (increment_counter ? (uint64_t)i : 0);
    lo[i] = (uint32_t)c;
    hi[i] = (uint32_t)(c >> 32);
  }
  const u32x8 ctr_lo = XLD(lo), ctr_hi = XLD(hi);
  u32x8 h[8];
  for (int i = 0; i < 8; i++) h[i] = XSPLAT(key[i]);

  for (size_t b = 0; b < blocks; b++) {
    uint32_t f = flags;
    if (b == 0) f |= flags_start;
    if (b + 1 == blocks) f |= flags_end;
    compress8_lasx(h, in, b * BLAKE3_BLOCK_LEN, ctr_lo, ctr_hi, XSPLAT(BLAKE3_BLOCK_LEN),
                   XSPLAT(f));
  }
  store_cvs8_lasx(h, out);
}

/* hash_lanes' eight lanes i .. i + 7. */
__attribute__((target("lasx"))) static void lanes8_lasx(const blake3_lanes *l, size_t i,
                                                        size_t blocks, const uint32_t key[8],
                                                        uint8_t flags, uint8_t flags_start,
                                                        uint8_t *out) {
  const u32x8 ctr_lo = XLD(l->counter_lo + i), ctr_hi = XLD(l->counter_hi + i);
  u32x8 h[8];
  /* Block b's flags per lane: the first block's from flags_start or the lane's own. */
  uint32_t f[8];
  for (int k = 0; k < 8; k++) f[k] = flags | (l->cv_words ? l->first_flags[i + k] : flags_start);
  for (int w = 0; w < 8; w++) h[w] = l->cv_words ? XLD(l->cv_words[w] + i) : XSPLAT(key[w]);
  for (size_t b = 0; b + 1 < blocks; b++) {
    compress8_lasx(h, l->inputs + i, b * BLAKE3_BLOCK_LEN, ctr_lo, ctr_hi,
                   XSPLAT(BLAKE3_BLOCK_LEN), XLD(f));
    for (int k = 0; k < 8; k++) f[k] = flags;
  }
  for (int k = 0; k < 8; k++) f[k] |= l->last_flags[i + k];
  compress8_lasx(h, l->lasts + i, 0, ctr_lo, ctr_hi, XLD(l->last_len + i), XLD(f));
  store_cvs8_lasx(h, out);
}

void blake3_hash_many_lsx(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                          const uint32_t key[8], uint64_t counter, int increment_counter,
                          uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  if (num_inputs >= 5 && have_lasx()) {
    /* Five to seven left: one padded 8-lane pass costs about one 4-lane pass, less than a
     * 4-lane pass plus the rest. The padding lanes repeat the last input. */
    while (num_inputs >= 5) {
      const size_t n = num_inputs < 8 ? num_inputs : 8;
      const uint8_t *in8[8];
      for (size_t i = 0; i < 8; i++) in8[i] = inputs[i < n ? i : n - 1];
      if (n == 8) {
        hash8_lasx(in8, blocks, key, counter, increment_counter, flags, flags_start, flags_end,
                   out);
      } else {
        uint8_t tmp[8 * BLAKE3_OUT_LEN];
        hash8_lasx(in8, blocks, key, counter, increment_counter, flags, flags_start, flags_end,
                   tmp);
        memcpy(out, tmp, n * BLAKE3_OUT_LEN);
      }
      if (increment_counter) counter += n;
      inputs += n;
      num_inputs -= n;
      out += n * BLAKE3_OUT_LEN;
    }
  }
  b3v_hash_many4(inputs, num_inputs, blocks, key, counter, increment_counter, flags,
                 flags_start, flags_end, out);
}

void blake3_hash_lanes_lsx(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                           uint8_t *out) {
  size_t i = 0;
  if (num_inputs >= 5 && have_lasx()) {
    /* As in hash_many: five to seven left go as one padded 8-lane pass. */
    for (; i + 8 <= num_inputs; i += 8)
      lanes8_lasx(lanes, i, blocks, key, flags, flags_start, out + BLAKE3_OUT_LEN * i);
    const size_t n = num_inputs - i;
    if (n >= 5) {
      blake3_lanes_pad pad;
      uint8_t tmp[8 * BLAKE3_OUT_LEN];
      lanes8_lasx(blake3_lanes_padded(&pad, lanes, i, n, 8, blocks), 0, blocks, key, flags,
                  flags_start, tmp);
      memcpy(out + BLAKE3_OUT_LEN * i, tmp, n * BLAKE3_OUT_LEN);
      i += n;
    }
  }
  b3v_hash_lanes4(lanes, i, num_inputs, blocks, key, flags, flags_start, out);
}
