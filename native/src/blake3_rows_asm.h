/*
 * blake3-fast: two row-wise states side by side, one block's rounds as inline-assembly text,
 * written once for two encodings: legacy SSE on xmm (blake3_sse.h, hash_two_rows: two inputs)
 * and VEX on ymm (blake3_ymm_rows.h, hash_two_pairs_rows: four inputs, two per ymm). A state
 * alone is one chain of dependent operations; the two states' operations alternate, so each
 * fills the other's latency.
 *
 * The asm statement that expands RA_BLOCK names its operands [a0] [b0] [c0] [d0] and [a1] ..
 * [d1] (the two states' rows, blake3_rows_body.h's layout and diagonalisation; rows a, b are
 * the CV in and out), [t0] [t1] [p0] [p1] (scratch) and [m], the address of the message
 * vectors m[2][7][4] (aligned to the vector: movdqa, and legacy SSE's memory operands, fault
 * otherwise; __m128i and __m256i arrays are): the rounds read them with their adds; each
 * round's are permuted from the round before during it (a few shuffles after each half step,
 * off the chains) and, in the last round, the next block's first ones loaded (RA_ROWS) and set
 * up.
 * The includer defines, before including this file:
 *   RA_VEC                vector bytes, "16" or "32"
 *   RA_V                  "" (legacy SSE) or "v" (VEX), the mnemonics' prefix
 *   RA_OP(op, src, dst)   dst = dst op src: "op src, dst" or "vop src, dst, dst"
 *   RA_OPI(op, imm, src, dst)  the same with an immediate first
 *   RA_ROT16(x0, x1) .. RA_ROT7(x0, x1)   rotate two registers right (t0, t1 scratch)
 *   RA_ROWS(i, off)       p0, p1 <- bytes off..off+31 of state i's next block(s), in rows
 * Only the destination of an operation is a name; a source is operand text (RA_R, RA_M).
 */
#ifndef BLAKE3_ROWS_ASM_H
#define BLAKE3_ROWS_ASM_H

#define RA_R(x) "%[" #x "]"
/* Message vector v (0..3) of round r of state i. */
#define RA_M(i, r, v) RA_VEC "*(28*" #i "+4*" #r "+" #v ")(%[m])"
#define RA_MOV(src, dst) RA_V "movdqa " src ", " dst "\n\t"
#define RA_PSHUFD(imm, x) RA_V "pshufd $" #imm ", %[" #x "], %[" #x "]\n\t"
#define RA_OP2(op, s0, d0, s1, d1) RA_OP(op, RA_R(s0), d0) RA_OP(op, RA_R(s1), d1)

/* Half a G step on both states, with message vector v of round r. */
#define RA_HALF(r, v, ROTD, ROTB)                                                              \
  RA_OP(paddd, RA_M(0, r, v), a0) RA_OP(paddd, RA_M(1, r, v), a1)                              \
  RA_OP2(paddd, b0, a0, b1, a1) RA_OP2(pxor, a0, d0, a1, d1) ROTD(d0, d1)                      \
  RA_OP2(paddd, d0, c0, d1, c1) RA_OP2(pxor, c0, b0, c1, b1) ROTB(b0, b1)
/* pshufd on rows a, c, d of both states (row b stays) */
#define RA_SHUF3(ia, ic, id)                                                                   \
  RA_PSHUFD(ia, a0) RA_PSHUFD(ia, a1) RA_PSHUFD(ic, c0) RA_PSHUFD(ic, c1) RA_PSHUFD(id, d0)    \
  RA_PSHUFD(id, d1)

/* permute_msg (blake3_rows_body.h) from round r's vectors A B C D of state i to round n's, one
 * vector at a time: A' = (A1 B1 B3 A2), B' = (A3 C2 A0 D3), C' = (D0 B0 C3 D1),
 * D' = (C1 D2 B2 C0) (in each 128-bit half). */
#define RA_LD(i, r, v, x) RA_MOV(RA_M(i, r, v), RA_R(x))
#define RA_ST(i, r, v, x) RA_MOV(RA_R(x), RA_M(i, r, v))
#define RA_PERM_A(i, r, n)                                                                     \
  RA_LD(i, r, 0, p0) RA_OPI(shufps, 0xd9, RA_M(i, r, 1), p0) RA_PSHUFD(0x78, p0)               \
  RA_ST(i, n, 0, p0)
#ifdef __SSE4_1__
/* blendps' immediate has a bit per 32-bit lane: 0x44 and 0x88 pick lane 2, 3 of each half of
 * a ymm; the legacy xmm form reads the low four bits. */
#define RA_PERM_B(i, r, n)                                                                     \
  RA_LD(i, r, 0, p1) RA_OPI(blendps, 0x44, RA_M(i, r, 2), p1) RA_PSHUFD(0x0b, p1)              \
  RA_OPI(blendps, 0x88, RA_M(i, r, 3), p1) RA_ST(i, n, 1, p1)
#define RA_PERM_C(i, r, n)                                                                     \
  RA_LD(i, r, 3, p0) RA_OP(punpckldq, RA_M(i, r, 1), p0) RA_LD(i, r, 3, p1)                    \
  RA_OPI(blendps, 0x88, RA_M(i, r, 2), p1) RA_OPI(shufps, 0x74, RA_R(p1), p0) RA_ST(i, n, 2, p0)
#define RA_PERM_D(i, r, n)                                                                     \
  RA_LD(i, r, 3, p1) RA_OP(punpckhdq, RA_M(i, r, 1), p1) RA_LD(i, r, 2, p0)                    \
  RA_OPI(shufps, 0x41, RA_R(p1), p0) RA_PSHUFD(0x78, p0) RA_ST(i, n, 3, p0)
#else
/* Without blends (SSE2): vector w of round n = shufps(shufps(va, vb, ia), shufps(vc, vd, ic),
 * lanes 0 and 2 of each). */
#define RA_PERM_SHUF(i, r, n, w, va, vb, ia, vc, vd, ic)                                       \
  RA_LD(i, r, va, p0) RA_OPI(shufps, ia, RA_M(i, r, vb), p0) RA_LD(i, r, vc, p1)                \
  RA_OPI(shufps, ic, RA_M(i, r, vd), p1) RA_OPI(shufps, 0x88, RA_R(p1), p0) RA_ST(i, n, w, p0)
#define RA_PERM_B(i, r, n) RA_PERM_SHUF(i, r, n, 1, 0, 2, 0xaf, 0, 3, 0xf0)
#define RA_PERM_C(i, r, n) RA_PERM_SHUF(i, r, n, 2, 3, 1, 0x00, 2, 3, 0x5f)
#define RA_PERM_D(i, r, n) RA_PERM_SHUF(i, r, n, 3, 2, 3, 0xa5, 1, 2, 0x0a)
#endif

/* msg_rows of state i's next block(s) to its first-round vectors: words 0-7 (vectors 0, 1),
 * then 8-15 (vectors 2, 3, rotated like the diagonal step's rows). */
#define RA_MSG(i, off, v, rot)                                                                 \
  RA_ROWS(i, off) RA_MOV(RA_R(p0), RA_R(t0)) RA_OPI(shufps, 0x88, RA_R(p1), t0)                 \
  RA_OPI(shufps, 0xdd, RA_R(p1), p0) rot RA_ST(i, 0, v, t0) RA_ST(i, 0, v + 1, p0)
#define RA_MSG01(i) RA_MSG(i, 0, 0, "")
#define RA_MSG23(i) RA_MSG(i, 32, 2, RA_PSHUFD(0x93, t0) RA_PSHUFD(0x93, p0))

/* Round r, with P0..P3 after its four half steps. */
#define RA_ROUND_P(r, P0, P1, P2, P3)                                                          \
  RA_HALF(r, 0, RA_ROT16, RA_ROT12) P0 RA_HALF(r, 1, RA_ROT8, RA_ROT7) P1                      \
  RA_SHUF3(0x93, 0x39, 0x4e)                                                                   \
  RA_HALF(r, 2, RA_ROT16, RA_ROT12) P2 RA_HALF(r, 3, RA_ROT8, RA_ROT7) P3                      \
  RA_SHUF3(0x39, 0x93, 0x4e)
#define RA_ROUND(r, n)                                                                         \
  RA_ROUND_P(r, RA_PERM_A(0, r, n) RA_PERM_B(0, r, n), RA_PERM_C(0, r, n) RA_PERM_D(0, r, n),  \
             RA_PERM_A(1, r, n) RA_PERM_B(1, r, n), RA_PERM_C(1, r, n) RA_PERM_D(1, r, n))
/* The block: seven rounds (the last sets up the next block's message), then the CVs a ^= c,
 * b ^= d. */
#define RA_BLOCK                                                                               \
  RA_ROUND(0, 1) RA_ROUND(1, 2) RA_ROUND(2, 3) RA_ROUND(3, 4) RA_ROUND(4, 5) RA_ROUND(5, 6)    \
  RA_ROUND_P(6, RA_MSG01(0), RA_MSG23(0), RA_MSG01(1), RA_MSG23(1))                            \
  RA_OP2(pxor, c0, a0, c1, a1) RA_OP2(pxor, d0, b0, d1, b1)

#endif /* BLAKE3_ROWS_ASM_H */
