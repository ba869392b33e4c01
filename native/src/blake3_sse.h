/*
 * blake3-fast: the 128-bit x86 kernels, one source for two ISA files. blake3_sse2.c and
 * blake3_sse41.c each define B3_SSE(fn) (the function name with their suffix) and include this
 * file; their compiler flags decide the rotations by 16 and 8 (pshufb with SSSE3, else words
 * and shifts: rot16 in blake3_sse_rows.h, B3S_ROT16 here), nothing else differs.
 *
 *   compress_in_place / compress_xof  one block, row-wise (blake3_sse_rows.h)
 *   hash_many                         four inputs at a time, one per 32-bit lane, the blocks
 *                                     in inline assembly (hash4_blocks); two inputs left
 *                                     over row-wise side by side, the rounds in inline
 *                                     assembly (hash_two_rows); one row-wise (hash_one_rows)
 *   hash_lanes                        four lanes at a time through hash4_blocks, twice
 *                                     (blake3_lanes_group.h); one left over row-wise
 */
#ifndef B3_SSE
#error "include blake3_sse.h from an ISA file that defines B3_SSE(fn)"
#endif

#include "blake3_lanes_group.h"
#include "blake3_sse_rows.h"

void B3_SSE(blake3_compress_in_place)(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags) {
  compress_in_place_rows(cv, block, block_len, counter, flags);
}

void B3_SSE(blake3_compress_xof)(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                              uint8_t block_len, uint64_t counter, uint8_t flags,
                              uint8_t out[64]) {
  __m128i r[4];
  compress_rows(r, cv, block, block_len, counter, flags);
  st(out, xor(r[0], r[2]));
  st(out + 16, xor(r[1], r[3]));
  st(out + 32, xor(r[2], ld(cv)));
  st(out + 48, xor(r[3], ld(cv + 4)));
}

/* ---- four inputs across the lanes ----------------------------------------------------- */

/* x0..x3 are rows (one input each, four consecutive words); afterwards x_k holds word k of
 * the four inputs. */
INLINE void transpose4(__m128i *x0, __m128i *x1, __m128i *x2, __m128i *x3) {
  __m128i t0 = _mm_unpacklo_epi32(*x0, *x1), t1 = _mm_unpackhi_epi32(*x0, *x1);
  __m128i t2 = _mm_unpacklo_epi32(*x2, *x3), t3 = _mm_unpackhi_epi32(*x2, *x3);
  *x0 = _mm_unpacklo_epi64(t0, t2);
  *x1 = _mm_unpackhi_epi64(t0, t2);
  *x2 = _mm_unpacklo_epi64(t1, t3);
  *x3 = _mm_unpackhi_epi64(t1, t3);
}

/* One compression of four inputs, one per 32-bit lane, in inline assembly: the sixteen state
 * vectors would take all sixteen xmm registers, and gcc's allocation of the same rounds in
 * intrinsics spilled and reloaded several of them at every step. Here the register use is
 * fixed: rows a, b, c, d of the state in xmm0-3, xmm4-7, xmm8-11, xmm12-15, except that state
 * word 8 (c of the first column, of the third diagonal) lives in a stack slot and visits xmm8
 * only for its add and xor, leaving xmm8 free the rest of the time for the rotations' pshufb
 * pattern or shift temporary. The four G's of a step run side by side, operation by operation
 * (four independent chains); the message is read from memory by the adds.
 *
 * Operands (hash4_blocks): h (the CV words), m (16 vectors: the message words of the current
 * block), d (state row 3 and the slot of word 8), k (the constants below), all 16-byte
 * aligned: legacy SSE instructions fault on an unaligned memory operand. */
#define B3S_ADDM(a, w) "paddd 16*" #w "(%[m]), %%xmm" #a "\n\t"
#define B3S_OP4(op, s0, s1, s2, s3, d0, d1, d2, d3)                                            \
  #op " %%xmm" #s0 ", %%xmm" #d0 "\n\t" #op " %%xmm" #s1 ", %%xmm" #d1 "\n\t"                   \
  #op " %%xmm" #s2 ", %%xmm" #d2 "\n\t" #op " %%xmm" #s3 ", %%xmm" #d3 "\n\t"
#define B3S_W8_IN "movdqa 64(%[d]), %%xmm8\n\t"
#define B3S_W8_OUT "movdqa %%xmm8, 64(%[d])\n\t"
/* x <- x rotated right by n, xmm8 the temporary */
#define B3S_SHIFTROT1(n, x)                                                                    \
  "movdqa %%xmm" #x ", %%xmm8\n\t"                                                            \
  "psrld $" #n ", %%xmm8\n\t"                                                                 \
  "pslld $32-" #n ", %%xmm" #x "\n\t"                                                         \
  "por %%xmm8, %%xmm" #x "\n\t"
#define B3S_SHIFTROT4(n, x0, x1, x2, x3)                                                       \
  B3S_SHIFTROT1(n, x0) B3S_SHIFTROT1(n, x1) B3S_SHIFTROT1(n, x2) B3S_SHIFTROT1(n, x3)
#define B3S_ROT12(x0, x1, x2, x3) B3S_SHIFTROT4(12, x0, x1, x2, x3)
#define B3S_ROT7(x0, x1, x2, x3) B3S_SHIFTROT4(7, x0, x1, x2, x3)
#ifdef __SSSE3__
/* by 16 and 8: one pshufb each, the byte pattern (at offset off of the constants) in xmm8 */
#define B3S_PSHUFB4(off, x0, x1, x2, x3)                                                       \
  "movdqa " #off "(%[k]), %%xmm8\n\t"                                                         \
  "pshufb %%xmm8, %%xmm" #x0 "\n\tpshufb %%xmm8, %%xmm" #x1 "\n\t"                              \
  "pshufb %%xmm8, %%xmm" #x2 "\n\tpshufb %%xmm8, %%xmm" #x3 "\n\t"
#define B3S_ROT16(x0, x1, x2, x3) B3S_PSHUFB4(64, x0, x1, x2, x3)
#define B3S_ROT8(x0, x1, x2, x3) B3S_PSHUFB4(80, x0, x1, x2, x3)
#else
/* SSE2: by 16, swap the 16-bit halves of each word; by 8, shifts like 12 and 7 */
#define B3S_SWAP16(x)                                                                          \
  "pshuflw $0xb1, %%xmm" #x ", %%xmm" #x "\n\tpshufhw $0xb1, %%xmm" #x ", %%xmm" #x "\n\t"
#define B3S_ROT16(x0, x1, x2, x3) B3S_SWAP16(x0) B3S_SWAP16(x1) B3S_SWAP16(x2) B3S_SWAP16(x3)
#define B3S_ROT8(x0, x1, x2, x3) B3S_SHIFTROT4(8, x0, x1, x2, x3)
#endif
/* One half of a step: the four G's up to their first (w: message word x; rotations 16, 12) or
 * second (w: word y; rotations 8, 7) half. Word 8 is in xmm8 only between W8_IN and W8_OUT. */
#define B3S_HALF(a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, w0, w1, w2, w3, \
                 ROTD, ROTB)                                                                   \
  B3S_ADDM(a0, w0) B3S_ADDM(a1, w1) B3S_ADDM(a2, w2) B3S_ADDM(a3, w3)                          \
  B3S_OP4(paddd, b0, b1, b2, b3, a0, a1, a2, a3)                                               \
  B3S_OP4(pxor, a0, a1, a2, a3, d0, d1, d2, d3)                                                \
  ROTD(d0, d1, d2, d3)                                                                         \
  B3S_W8_IN                                                                                    \
  B3S_OP4(paddd, d0, d1, d2, d3, c0, c1, c2, c3)                                               \
  B3S_OP4(pxor, c0, c1, c2, c3, b0, b1, b2, b3)                                                \
  B3S_W8_OUT                                                                                   \
  ROTB(b0, b1, b2, b3)
/* A round with the schedule row s0..s15: the column step, then the diagonal step (G i on a_i,
 * b_(i+1), c_(i+2), d_(i+3)). */
#define B3S_ROUND_S(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)       \
  B3S_HALF(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s0, s2, s4, s6, B3S_ROT16,      \
           B3S_ROT12)                                                                          \
  B3S_HALF(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s1, s3, s5, s7, B3S_ROT8,       \
           B3S_ROT7)                                                                           \
  B3S_HALF(0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s8, s10, s12, s14, B3S_ROT16,   \
           B3S_ROT12)                                                                          \
  B3S_HALF(0, 1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s9, s11, s13, s15, B3S_ROT8,    \
           B3S_ROT7)
#define B3S_ROUND(r) BLAKE3_WITH_ROW(B3S_ROUND_S, r)
#define B3S_LOAD4(base, off, x0, x1, x2, x3)                                                   \
  "movdqa " #off "(%[" #base "]), %%xmm" #x0 "\n\tmovdqa " #off "+16(%[" #base "]), %%xmm" #x1   \
  "\n\tmovdqa " #off "+32(%[" #base "]), %%xmm" #x2 "\n\tmovdqa " #off "+48(%[" #base "]), %%xmm" \
  #x3 "\n\t"

/* The IV's first four words, each in all four lanes, then the pshufb patterns that rotate every
 * 32-bit word right by 16 and by 8. */
static const uint32_t b3s_consts[6][4] __attribute__((aligned(16))) = {
    {0x6A09E667u, 0x6A09E667u, 0x6A09E667u, 0x6A09E667u},
    {0xBB67AE85u, 0xBB67AE85u, 0xBB67AE85u, 0xBB67AE85u},
    {0x3C6EF372u, 0x3C6EF372u, 0x3C6EF372u, 0x3C6EF372u},
    {0xA54FF53Au, 0xA54FF53Au, 0xA54FF53Au, 0xA54FF53Au},
    {0x01000302u, 0x05040706u, 0x09080B0Au, 0x0D0C0F0Eu},
    {0x00030201u, 0x04070605u, 0x080B0A09u, 0x0C0F0E0Du},
};

/* Rows x0..x3 (four consecutive words of inputs 0..3) to words: x0 <- word 0 of the four
 * inputs, x1 <- word 1, x4 <- word 2, x3 <- word 3 (x4, x5 temporaries). */
#define B3S_TRANSPOSE(x0, x1, x2, x3, x4, x5)                                                  \
  "movdqa %%xmm" #x0 ", %%xmm" #x4 "\n\tpunpckldq %%xmm" #x1 ", %%xmm" #x0 "\n\t"                \
  "punpckhdq %%xmm" #x1 ", %%xmm" #x4 "\n\tmovdqa %%xmm" #x2 ", %%xmm" #x5 "\n\t"                \
  "punpckldq %%xmm" #x3 ", %%xmm" #x2 "\n\tpunpckhdq %%xmm" #x3 ", %%xmm" #x5 "\n\t"             \
  "movdqa %%xmm" #x0 ", %%xmm" #x1 "\n\tpunpcklqdq %%xmm" #x2 ", %%xmm" #x0 "\n\t"               \
  "punpckhqdq %%xmm" #x2 ", %%xmm" #x1 "\n\tmovdqa %%xmm" #x4 ", %%xmm" #x3 "\n\t"               \
  "punpcklqdq %%xmm" #x5 ", %%xmm" #x4 "\n\tpunpckhqdq %%xmm" #x5 ", %%xmm" #x3 "\n\t"
/* Message words 4g..4g+3 of the block at offset off of the four inputs, to m[4g..4g+3]. */
#define B3S_MSG4(g)                                                                            \
  "movdqu 16*" #g "(%[p0],%[off]), %%xmm8\n\tmovdqu 16*" #g "(%[p1],%[off]), %%xmm9\n\t"        \
  "movdqu 16*" #g "(%[p2],%[off]), %%xmm10\n\tmovdqu 16*" #g "(%[p3],%[off]), %%xmm11\n\t"      \
  B3S_TRANSPOSE(8, 9, 10, 11, 12, 13)                                                          \
  "movdqa %%xmm8, 64*" #g "(%[m])\n\tmovdqa %%xmm9, 64*" #g "+16(%[m])\n\t"                      \
  "movdqa %%xmm12, 64*" #g "+32(%[m])\n\tmovdqa %%xmm11, 64*" #g "+48(%[m])\n\t"

/* Input p, BLAKE3_PREFETCH_AHEAD bytes past the block at off. */
#define B3S_STR(x) B3S_STR_(x)
#define B3S_STR_(x) #x
#define B3S_PREFETCH(p) "prefetcht0 " B3S_STR(BLAKE3_PREFETCH_AHEAD) "(%[" #p "],%[off])\n\t"

/* The block loop, one asm statement; LANE_FLAGS is inserted where the flags vector (xmm15) is
 * built, so that hash_lanes' pass over its last blocks can or the lanes' own flags into it
 * while hash_many's loop stays as it was. */
#define B3S_BLOCKS(LANE_FLAGS)                                                                 \
  B3S_LOAD4(h, 0, 0, 1, 2, 3) B3S_LOAD4(h, 64, 4, 5, 6, 7)                                     \
  "1:\n\t"                                                                                     \
  B3S_MSG4(0) B3S_MSG4(1) B3S_MSG4(2) B3S_MSG4(3)                                              \
  B3S_PREFETCH(p0) B3S_PREFETCH(p1) B3S_PREFETCH(p2) B3S_PREFETCH(p3)                          \
  /* this block's flags: the middle ones, unless it is the last or the first */               \
  "movl 52(%[d]), %k[f]\n\t"                                                                   \
  "lea 64(%[off]), %[t]\n\t"                                                                   \
  "cmp %[t], %[end]\n\t"                                                                       \
  "cmove 56(%[d]), %k[f]\n\t"                                                                  \
  "test %[off], %[off]\n\t"                                                                    \
  "cmovz 48(%[d]), %k[f]\n\t"                                                                  \
  "movd %k[f], %%xmm15\n\t"                                                                    \
  "pshufd $0, %%xmm15, %%xmm15\n\t"                                                            \
  LANE_FLAGS                                                                                   \
  B3S_LOAD4(k, 0, 8, 9, 10, 11) B3S_W8_OUT                                                     \
  "movdqa (%[d]), %%xmm12\n\tmovdqa 16(%[d]), %%xmm13\n\tmovdqa 32(%[d]), %%xmm14\n\t"         \
  B3S_ROUND(0) B3S_ROUND(1) B3S_ROUND(2) B3S_ROUND(3) B3S_ROUND(4) B3S_ROUND(5)                \
  B3S_ROUND(6)                                                                                 \
  "pxor 64(%[d]), %%xmm0\n\t" B3S_OP4(pxor, 9, 10, 11, 12, 1, 2, 3, 4)                         \
  "pxor %%xmm13, %%xmm5\n\tpxor %%xmm14, %%xmm6\n\tpxor %%xmm15, %%xmm7\n\t"                   \
  "add $64, %[off]\n\t"                                                                        \
  "cmp %[off], %[end]\n\t"                                                                     \
  "jne 1b\n\t"                                                                                 \
  "movdqa %%xmm0, (%[h])\n\tmovdqa %%xmm1, 16(%[h])\n\t"                                       \
  "movdqa %%xmm2, 32(%[h])\n\tmovdqa %%xmm3, 48(%[h])\n\t"                                     \
  "movdqa %%xmm4, 64(%[h])\n\tmovdqa %%xmm5, 80(%[h])\n\t"                                     \
  "movdqa %%xmm6, 96(%[h])\n\tmovdqa %%xmm7, 112(%[h])"                                        \
  : [off] "+r"(off), [t] "=&r"(t), [f] "=&r"(f)                                                \
  : [p0] "r"(in[0]), [p1] "r"(in[1]), [p2] "r"(in[2]), [p3] "r"(in[3]), [end] "r"(end),       \
    [h] "r"(h), [m] "r"(m), [d] "r"(d), [k] "r"(b3s_consts)                                    \
  : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",    \
    "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

/* Compresses the blocks [0, end) (end = 64 * blocks > 0) of the four inputs in[0..3], the CV
 * words h[0..7] (one vector each) in and out; they stay in xmm0-7 from block to block.
 * d holds state row 3 but the flags (counter low, counter high, block length), then the
 * flags of the first, the middle and the last block (the first's with CHUNK_END too when it is
 * also the last) as 32-bit words, then the slot of word 8, then (with lane_flags) flags to or
 * into every block's, per lane; m is the message scratch. */
INLINE void hash4_blocks(const uint8_t *const in[4], size_t end, __m128i h[8], __m128i m[16],
                         __m128i d[6], int lane_flags) {
  size_t off = 0;
  uint64_t t, f;
  /* volatile: its results go through memory (h), which gcc does not count as outputs */
  if (lane_flags)
    __asm__ volatile(B3S_BLOCKS("por 80(%[d]), %%xmm15\n\t"));
  else
    __asm__ volatile(B3S_BLOCKS(""));
}

/* hash4_blocks for BLAKE3_LANES_GROUP (blake3_lanes_group.h) and hash4: blocks blocks of in,
 * the CVs h (word-major) out, and in unless from_key. The asm always prefetches: `ahead` is
 * for the wider loops, whose block loops take it. */
INLINE void hash_blocks(const uint8_t *const in[4], size_t blocks, __m128i lo, __m128i hi,
                        const uint32_t *lens, uint8_t flags, uint8_t flags_start,
                        uint8_t flags_end, const uint32_t *lane_flags, int ahead,
                        const uint32_t key[8], int from_key, __m128i h[8]) {
  (void)ahead;
  if (from_key)
    for (int i = 0; i < 8; i++) h[i] = set1(key[i]);
  if (blocks == 0) return;
  __m128i m[16], d[6];
  d[0] = lo;
  d[1] = hi;
  d[2] = lens ? ld(lens) : set1(BLAKE3_BLOCK_LEN);
  d[3] = _mm_setr_epi32((int)(flags | flags_start | (blocks == 1 ? flags_end : 0)), (int)flags,
                        (int)(flags | flags_end), 0);
  if (lane_flags) d[5] = ld(lane_flags);
  hash4_blocks(in, blocks * BLAKE3_BLOCK_LEN, h, m, d, lane_flags != NULL);
}

/* The CVs h, word-major (h[k] lane n: word k of input n), to four CVs at out[0..127]. */
INLINE void store_cvs(__m128i h[8], uint8_t *out) {
  transpose4(&h[0], &h[1], &h[2], &h[3]);
  transpose4(&h[4], &h[5], &h[6], &h[7]);
  for (int i = 0; i < 4; i++) {
    st(out + 32 * i, h[i]);
    st(out + 32 * i + 16, h[4 + i]);
  }
}

/* ---- two inputs row-wise, side by side ------------------------------------------------- */

/* Two inputs of several blocks. A padded four-lane group does four inputs' work for two; one
 * input row-wise is a single chain of dependent operations (a block's latency), and two such
 * chains one after the other are twice that. hash_two_rows keeps the two states in eight xmm
 * registers, the CVs from block to block, and runs a block's rounds as one asm statement
 * (blake3_rows_asm.h; its message vectors in memory, permuted during the rounds). As
 * intrinsics, gcc spilled state rows; each step from intrinsics to this, with its figures:
 * bench/notes/x86-on-zen4.md, "Second pass". Legacy SSE encoding, two-operand; the rotations
 * as in hash4_blocks. */
#define RA_VEC "16"
#define RA_V ""
#define RA_OP(op, src, dst) #op " " src ", %[" #dst "]\n\t"
#define RA_OPI(op, imm, src, dst) #op " $" #imm ", " src ", %[" #dst "]\n\t"
#define B3P_SHIFTROT(n, x0, x1)                                                                \
  "movdqa %[" #x0 "], %[t0]\n\tmovdqa %[" #x1 "], %[t1]\n\t"                                    \
  "psrld $" #n ", %[t0]\n\tpsrld $" #n ", %[t1]\n\t"                                            \
  "pslld $32-" #n ", %[" #x0 "]\n\tpslld $32-" #n ", %[" #x1 "]\n\t"                            \
  "por %[t0], %[" #x0 "]\n\tpor %[t1], %[" #x1 "]\n\t"
#ifdef __SSSE3__
#define RA_ROT16(x0, x1) RA_OP(pshufb, "64(%[k])", x0) RA_OP(pshufb, "64(%[k])", x1)
#define RA_ROT8(x0, x1) RA_OP(pshufb, "80(%[k])", x0) RA_OP(pshufb, "80(%[k])", x1)
#else
#define B3P_SWAP16(x) RA_OPI(pshuflw, 0xb1, RA_R(x), x) RA_OPI(pshufhw, 0xb1, RA_R(x), x)
#define RA_ROT16(x0, x1) B3P_SWAP16(x0) B3P_SWAP16(x1)
#define RA_ROT8(x0, x1) B3P_SHIFTROT(8, x0, x1)
#endif
#define RA_ROT12(x0, x1) B3P_SHIFTROT(12, x0, x1)
#define RA_ROT7(x0, x1) B3P_SHIFTROT(7, x0, x1)
#define RA_ROWS(i, off)                                                                        \
  "movdqu " #off "(%[n" #i "]), %[p0]\n\tmovdqu " #off "+16(%[n" #i "]), %[p1]\n\t"
#include "blake3_rows_asm.h"

/* in0 and in1, blocks blocks each, counters c0 and c1, to their CVs at out0 and out1 (the key,
 * for no blocks). */
INLINE void hash_two_rows(const uint8_t *in0, const uint8_t *in1, size_t blocks,
                          const uint32_t key[8], uint64_t c0, uint64_t c1, uint8_t flags,
                          uint8_t flags_start, uint8_t flags_end, uint8_t out0[BLAKE3_OUT_LEN],
                          uint8_t out1[BLAKE3_OUT_LEN]) {
  __m128i a0 = ld(key), b0 = ld(key + 4), a1 = a0, b1 = b0;
  __m128i m[2][7][4];
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  if (blocks > 0) {
    msg_rows(ld(in0), ld(in0 + 16), ld(in0 + 32), ld(in0 + 48), m[0][0]);
    msg_rows(ld(in1), ld(in1 + 16), ld(in1 + 32), ld(in1 + 48), m[1][0]);
  }
  for (size_t b = 0; b < blocks; b++) {
    /* the next blocks, whose first vectors the last round computes; after the last block, the
     * last block again (read, not used) */
    const size_t next = b + 1 < blocks ? (b + 1) * BLAKE3_BLOCK_LEN : b * BLAKE3_BLOCK_LEN;
    const uint8_t *n0 = in0 + next, *n1 = in1 + next;
    if (b + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    __m128i c0r = ld(blake3_iv), c1r = c0r, t0, t1, p0, p1;
    __m128i d0 = counter_row(c0, BLAKE3_BLOCK_LEN, block_flags);
    __m128i d1 = counter_row(c1, BLAKE3_BLOCK_LEN, block_flags);
    __asm__(RA_BLOCK
            : [a0] "+x"(a0), [b0] "+x"(b0), [c0] "+x"(c0r), [d0] "+x"(d0), [a1] "+x"(a1),
              [b1] "+x"(b1), [c1] "+x"(c1r), [d1] "+x"(d1), [t0] "=&x"(t0), [t1] "=&x"(t1),
              [p0] "=&x"(p0), [p1] "=&x"(p1), "+m"(m)
            : [m] "r"(m), [k] "r"(b3s_consts), [n0] "r"(n0), [n1] "r"(n1),
              "m"(*(const uint8_t(*)[BLAKE3_BLOCK_LEN])n0),
              "m"(*(const uint8_t(*)[BLAKE3_BLOCK_LEN])n1));
    block_flags = flags;
  }
  st(out0, a0);
  st(out0 + 16, b0);
  st(out1, a1);
  st(out1 + 16, b1);
}

/* Lane k's block counter, counter + k * step (step 0 or 1), as its low and high words. Built in
 * registers: four 32-bit stores read back as one vector miss store-to-load forwarding, a stall
 * at every call. */
INLINE void x_counters(uint64_t counter, int step, __m128i *lo, __m128i *hi) {
  const __m128i base = set1(blake3_counter_low(counter));
  const __m128i sum = add(base, step ? _mm_setr_epi32(0, 1, 2, 3) : _mm_setzero_si128());
  /* a lane carried into the high word iff its sum is below the base (unsigned: flip the signs) */
  const __m128i sign = set1(0x80000000u);
  const __m128i carried = _mm_cmpgt_epi32(xor(base, sign), xor(sum, sign));
  *lo = sum;
  *hi = _mm_sub_epi32(set1(blake3_counter_high(counter)), carried);
}

/* hash4(in, blocks, key, lo, hi, flags, flags_start, flags_end, out): hash_many's group */
BLAKE3_MANY_GROUP(hash4, __m128i, )

void B3_SSE(blake3_hash_many)(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  size_t i = 0;
  while (i < num_inputs) {
    const size_t rest = num_inputs - i;
    if (rest == 2) {
      const uint64_t c = counter + (increment_counter ? i : 0);
      hash_two_rows(inputs[i], inputs[i + 1], blocks, key, c, c + (increment_counter ? 1 : 0),
                    flags, flags_start, flags_end, out + 32 * i, out + 32 * i + 32);
      return;
    }
    if (rest == 1) {
      /* One left: row-wise, a chain of compressions. */
      for (size_t k = i; k < num_inputs; k++)
        hash_one_rows(inputs[k], blocks, key, counter + (increment_counter ? k : 0), flags,
                      flags_start, flags_end, out + 32 * k);
      return;
    }
    /* Four or more, or three: a group (padded: the spare lane repeats the last input and its
     * CV is dropped; three inputs row-wise would cost more than the fourth lane). */
    const uint8_t *in[4];
    for (size_t k = 0; k < 4; k++) in[k] = inputs[i + (k < rest ? k : rest - 1)];
    __m128i lo, hi;
    x_counters(counter + (increment_counter ? i : 0), increment_counter != 0, &lo, &hi);
    if (rest >= 4) {
      hash4(in, blocks, key, lo, hi, flags, flags_start, flags_end, out + 32 * i);
      i += 4;
    } else {
      uint8_t tmp[4 * BLAKE3_OUT_LEN];
      hash4(in, blocks, key, lo, hi, flags, flags_start, flags_end, tmp);
      memcpy(out + 32 * i, tmp, 32 * rest);
      return;
    }
  }
}

/* ---- hash_lanes ----------------------------------------------------------------------- */

BLAKE3_LANES_GROUP(lanes4, __m128i, )

void B3_SSE(blake3_hash_lanes)(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                               const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                               uint8_t *out) {
  /* one lane left over alone runs row-wise, a chain of compressions that costs less than a
   * four-lane pass; two or three go as a padded pass */
  const size_t wide = num_inputs % 4 == 1 ? num_inputs - 1 : num_inputs;
  blake3_lanes_groups(lanes4, 4, lanes, 0, wide, blocks, key, flags, flags_start, out);
  if (wide < num_inputs)
    blake3_lane_one(B3_SSE(blake3_compress_in_place), lanes, wide, blocks, key, flags,
                    flags_start, out + BLAKE3_OUT_LEN * wide);
}
