/*
 * blake3-fast: the row-wise rounds, written once for two vector widths. The 4x4 state is four
 * row vectors, diagonalised with pshufd, the message permuted with shufps; every operation
 * works inside a 128-bit half, so a ymm holds two independent states, one per half.
 * Included (no guard: once per width) by blake3_sse_rows.h with ROWS_V = __m128i and by
 * blake3_ymm_rows.h with __m256i. The includer defines ROWS_V, ROWS_(name) and the operations
 * R_ADD, R_XOR, R_ROT16, R_ROT12, R_ROT8, R_ROT7, R_PSHUFD, R_SHUFPS, R_BLEND32 (an 8-bit
 * mask, the same in each half), R_UNPACKLO32, R_UNPACKHI32; the end of this file undefines
 * them, so that the next width can define its own.
 */

/* One block is a chain of dependent operations, so its speed is the latency of that chain.
 * In a = a + m + b, row b is the last to be ready (it ends every G), so a + m must be summed
 * first, while b is still being computed, leaving one add after b. gcc reassociates integer
 * vector adds freely and often sums m + b first, putting two adds after b on the chain; this
 * empty asm makes its argument an opaque value, so the sum of a and m is kept as written. */
#ifdef __AVX512F__
INLINE ROWS_V ROWS_(early)(ROWS_V x) { __asm__("" : "+v"(x)); return x; }
#else
INLINE ROWS_V ROWS_(early)(ROWS_V x) { __asm__("" : "+x"(x)); return x; }
#endif

/* Rows r0..r3 hold state words 0-3, 4-7, 8-11, 12-15. The column step uses the message words
 * a = (w0 w2 w4 w6), b = (w1 w3 w5 w7). For the diagonal step rows 0, 2 and 3 are rotated
 * (row 1 stays, it is the last one a G finishes), so lane j holds diagonal j-1; the diagonal
 * words are therefore kept rotated too: c = (w14 w8 w10 w12), d = (w15 w9 w11 w13). */
INLINE void ROWS_(g_rows)(ROWS_V *a, ROWS_V *b, ROWS_V *c, ROWS_V *d, ROWS_V mx, ROWS_V my) {
  *a = R_ADD(ROWS_(early)(R_ADD(*a, mx)), *b);
  *d = R_ROT16(R_XOR(*d, *a));
  *c = R_ADD(*c, *d);
  *b = R_ROT12(R_XOR(*b, *c));
  *a = R_ADD(ROWS_(early)(R_ADD(*a, my)), *b);
  *d = R_ROT8(R_XOR(*d, *a));
  *c = R_ADD(*c, *d);
  *b = R_ROT7(R_XOR(*b, *c));
}

INLINE void ROWS_(round_rows)(ROWS_V r[4], ROWS_V a, ROWS_V b, ROWS_V c, ROWS_V d) {
  ROWS_(g_rows)(&r[0], &r[1], &r[2], &r[3], a, b);
  r[0] = R_PSHUFD(r[0], 3, 0, 1, 2);
  r[2] = R_PSHUFD(r[2], 1, 2, 3, 0);
  r[3] = R_PSHUFD(r[3], 2, 3, 0, 1);
  ROWS_(g_rows)(&r[0], &r[1], &r[2], &r[3], c, d);
  r[0] = R_PSHUFD(r[0], 1, 2, 3, 0);
  r[2] = R_PSHUFD(r[2], 3, 0, 1, 2);
  r[3] = R_PSHUFD(r[3], 2, 3, 0, 1);
}

/* Next round's (a, b, c, d) from this round's, by the BLAKE3 message permutation: with a, b,
 * c, d = (w0 w2 w4 w6), (w1 w3 w5 w7), (w14 w8 w10 w12), (w15 w9 w11 w13), the next round's are
 * (a1 b1 b3 a2), (a3 c2 a0 d3), (d0 b0 c3 d1), (c1 d2 b2 c0) (xk: lane k of x). Without
 * SSE4.1 every step is a shuffle; with it, blends take some of them: shuffles have one or two
 * ports on most cores, blends three. */
#if defined(__SSE4_1__)
INLINE void ROWS_(permute_msg)(ROWS_V *pa, ROWS_V *pb, ROWS_V *pc, ROWS_V *pd) {
  ROWS_V a = *pa, b = *pb, c = *pc, d = *pd;
  *pa = R_PSHUFD(R_SHUFPS(a, b, 1, 2, 1, 3), 0, 2, 3, 1);                       /* a1 b1 b3 a2 */
  *pb = R_BLEND32(R_PSHUFD(R_BLEND32(a, c, 0x4), 3, 2, 0, 0), d, 0x8);          /* a3 c2 a0 d3 */
  *pc = R_SHUFPS(R_UNPACKLO32(d, b), R_BLEND32(d, c, 0x8), 0, 1, 3, 1);         /* d0 b0 c3 d1 */
  *pd = R_PSHUFD(R_SHUFPS(c, R_UNPACKHI32(d, b), 1, 0, 0, 1), 0, 2, 3, 1);      /* c1 d2 b2 c0 */
}
#else
INLINE void ROWS_(permute_msg)(ROWS_V *pa, ROWS_V *pb, ROWS_V *pc, ROWS_V *pd) {
  ROWS_V a = *pa, b = *pb, c = *pc, d = *pd;
  /* a1 b1 b3 a2, a3 c2 a0 d3, d0 b0 c3 d1, c1 d2 b2 c0 */
  *pa = R_PSHUFD(R_SHUFPS(a, b, 1, 2, 1, 3), 0, 2, 3, 1);
  *pb = R_SHUFPS(R_SHUFPS(a, c, 3, 3, 2, 2), R_SHUFPS(a, d, 0, 0, 3, 3), 0, 2, 0, 2);
  *pc = R_SHUFPS(R_SHUFPS(d, b, 0, 0, 0, 0), R_SHUFPS(c, d, 3, 3, 1, 1), 0, 2, 0, 2);
  *pd = R_SHUFPS(R_SHUFPS(c, d, 1, 1, 2, 2), R_SHUFPS(b, c, 2, 2, 0, 0), 0, 2, 0, 2);
}
#endif

/* The first round's message vectors from the block's words 0-3, 4-7, 8-11, 12-15. */
INLINE void ROWS_(msg_rows)(ROWS_V w0, ROWS_V w1, ROWS_V w2, ROWS_V w3, ROWS_V m[4]) {
  m[0] = R_SHUFPS(w0, w1, 0, 2, 0, 2);
  m[1] = R_SHUFPS(w0, w1, 1, 3, 1, 3);
  m[2] = R_PSHUFD(R_SHUFPS(w2, w3, 0, 2, 0, 2), 3, 0, 1, 2);
  m[3] = R_PSHUFD(R_SHUFPS(w2, w3, 1, 3, 1, 3), 3, 0, 1, 2);
}

/* The seven rounds on the rows r, set up by the caller, with the first round's message m. */
INLINE void ROWS_(rounds_rows)(ROWS_V r[4], const ROWS_V m[4]) {
  ROWS_V a = m[0], b = m[1], c = m[2], d = m[3];
  /* Unrolled: as a loop, gcc passed a row through the stack at the loop's exit, on the chain. */
#pragma GCC unroll 6
  for (int i = 0; i < 6; i++) {
    ROWS_(round_rows)(r, a, b, c, d);
    ROWS_(permute_msg)(&a, &b, &c, &d);
  }
  ROWS_(round_rows)(r, a, b, c, d);
}

#undef ROWS_V
#undef ROWS_
#undef R_ADD
#undef R_XOR
#undef R_ROT16
#undef R_ROT12
#undef R_ROT8
#undef R_ROT7
#undef R_PSHUFD
#undef R_SHUFPS
#undef R_BLEND32
#undef R_UNPACKLO32
#undef R_UNPACKHI32
