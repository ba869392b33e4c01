/*
 * blake3-fast: the word moves of blake3_vec128.h for a big-endian vector unit with vec_perm,
 * vec_sld and vec_mergeh/l: s390x's vector facility (blake3_vx.c) and big-endian ppc64's VSX
 * (blake3_vsx.c). Element i of a raw load holds bytes 4i..4i+3 in memory order, so BLAKE3's
 * little-endian words load byte-reversed; every permutation that first touches loaded words
 * (WSWP) reverses each word's bytes as it moves it, and the swap costs no extra instruction.
 * The including file defines u32x4, u8x16, u64x2, B3V_STORE and WSEL/B3V_PERM first.
 */
#ifndef BLAKE3_VEC128_BE_H
#define BLAKE3_VEC128_BE_H

/* WSWP selects like WSEL and also reverses each word's bytes (a little-endian load). */
#define WSWP(w0, w1, w2, w3)                                                                 \
  ((u8x16){4 * (w0) + 3, 4 * (w0) + 2, 4 * (w0) + 1, 4 * (w0), 4 * (w1) + 3, 4 * (w1) + 2, \
           4 * (w1) + 1, 4 * (w1), 4 * (w2) + 3, 4 * (w2) + 2, 4 * (w2) + 1, 4 * (w2),     \
           4 * (w3) + 3, 4 * (w3) + 2, 4 * (w3) + 1, 4 * (w3)})
#define PERM_SWAP(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSWP(w0, w1, w2, w3))
#define B3V_STORE_LE(p, v) B3V_STORE(p, PERM_SWAP(v, v, 0, 1, 2, 3))
/* Lane rotation: result lane i = lane (i + k) % 4 (element 0 is the leftmost). */
#define B3V_LROT1(a) vec_sld((a), (a), 4)
#define B3V_LROT2(a) vec_sld((a), (a), 8)
#define B3V_LROT3(a) vec_sld((a), (a), 12)
#define B3V_EVEN_LE(lo, hi) PERM_SWAP(lo, hi, 0, 2, 4, 6)
#define B3V_ODD_LE(lo, hi) PERM_SWAP(lo, hi, 1, 3, 5, 7)
#define B3V_ZIPW_LO(a, b) PERM_SWAP(a, b, 0, 4, 1, 5)
#define B3V_ZIPW_HI(a, b) PERM_SWAP(a, b, 2, 6, 3, 7)
#define B3V_ZIPD_LO(a, b) ((u32x4)vec_mergeh((u64x2)(a), (u64x2)(b)))
#define B3V_ZIPD_HI(a, b) ((u32x4)vec_mergel((u64x2)(a), (u64x2)(b)))

#endif
