/*
 * blake3-fast: eight inputs across the 32-bit lanes of ymm registers, for blake3_avx2.c's
 * hash_many and blake3_avx512.c's groups of two to eight inputs. Built with -mavx2 the
 * compression is one asm statement (16 registers: see y_block); built with AVX-512VL it is C
 * with vprord, and the includer may define B3Y_ROUNDS() (the seven rounds on v[] and m[] with
 * the y_ operations) before including.
 */
#ifndef BLAKE3_YMM8_H
#define BLAKE3_YMM8_H

#include <immintrin.h>

#include "blake3_impl.h"

#define B3Y_INLINE static inline __attribute__((always_inline))

B3Y_INLINE __m256i y_ld(const void *p) { return _mm256_loadu_si256((const __m256i *)p); }
B3Y_INLINE void y_st(void *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }
B3Y_INLINE __m256i y_add(__m256i a, __m256i b) { return _mm256_add_epi32(a, b); }
B3Y_INLINE __m256i y_xor(__m256i a, __m256i b) { return _mm256_xor_si256(a, b); }
B3Y_INLINE __m256i y_set1(uint32_t x) { return _mm256_set1_epi32((int)x); }

/*
 * y_block(s, m): one compression on eight lanes. s[0..7] is the CV (replaced by the output's
 * first half), s[8..15] the rest of the starting state (IV words, counter, length, flags); m[w]
 * is message word w of each lane.
 */
#ifdef __AVX512VL__
/* AVX-512 rotates with one instruction (vprord), whatever the distance, and its 32 registers
 * leave the compiler room: the rounds stay in C. */
B3Y_INLINE __m256i y_rot16(__m256i x) { return _mm256_ror_epi32(x, 16); }
B3Y_INLINE __m256i y_rot12(__m256i x) { return _mm256_ror_epi32(x, 12); }
B3Y_INLINE __m256i y_rot8(__m256i x) { return _mm256_ror_epi32(x, 8); }
B3Y_INLINE __m256i y_rot7(__m256i x) { return _mm256_ror_epi32(x, 7); }
#ifndef B3Y_ROUNDS
#define B3Y_ROUNDS() BLAKE3_ROUNDS(y_)
#endif
B3Y_INLINE void y_block(__m256i s[16], const __m256i m[16]) {
  __m256i v[16];
  for (int i = 0; i < 16; i++) v[i] = s[i];
  B3Y_ROUNDS();
  for (int i = 0; i < 8; i++) s[i] = y_xor(v[i], v[i + 8]);
}
#else
/*
 * With 16 ymm registers the sixteen state vectors fill them all, and gcc, left to allocate
 * registers, spills state in the middle of the G chains (a store and its reload back to back
 * on the critical path). So the whole compression is one asm statement with the state in
 * ymm0..ymm15 throughout; the message words stay in memory as the adds' operands. The one
 * scratch register the 12- and 7-bit rotations need is ymm0 (`a` of the first column or
 * diagonal), stored after its last read in that half of the round and reloaded well before
 * its next: the store and reload sit beside the chains, not on them. Rotations by 16 and 8
 * are one vpshufb each, the byte table a memory operand.
 */
#define Y_V(i) "%%ymm" #i
#define Y_MSG(x) "32*" #x "(%[m])"
#define Y_4(op, s0, d0, s1, d1, s2, d2, s3, d3)                                               \
  op " " s0 "," d0 "," d0 "\n\t" op " " s1 "," d1 "," d1 "\n\t" op " " s2 "," d2 "," d2 "\n\t" \
  op " " s3 "," d3 "," d3 "\n\t"
#define Y_ROT1(r, l, b)                                                                       \
  "vpsrld $" #r "," b ",%%ymm0\n\tvpslld $" #l "," b "," b "\n\tvpor %%ymm0," b "," b "\n\t"
/* Half of four G functions side by side: a += m[x] + b; d = (d ^ a) >>> (16 or 8: the byte
 * table tbl); c += d; b = (b ^ c) >>> r, l = 32 - r. a0 must be ymm0. */
#define Y_HALF(a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3, tbl, \
               r, l)                                                                          \
  Y_4("vpaddd", Y_MSG(x0), Y_V(0), Y_MSG(x1), Y_V(a1), Y_MSG(x2), Y_V(a2), Y_MSG(x3), Y_V(a3))  \
  Y_4("vpaddd", Y_V(b0), Y_V(0), Y_V(b1), Y_V(a1), Y_V(b2), Y_V(a2), Y_V(b3), Y_V(a3))          \
  Y_4("vpxor", Y_V(0), Y_V(d0), Y_V(a1), Y_V(d1), Y_V(a2), Y_V(d2), Y_V(a3), Y_V(d3))           \
  Y_4("vpshufb", tbl, Y_V(d0), tbl, Y_V(d1), tbl, Y_V(d2), tbl, Y_V(d3))                        \
  Y_4("vpaddd", Y_V(d0), Y_V(c0), Y_V(d1), Y_V(c1), Y_V(d2), Y_V(c2), Y_V(d3), Y_V(c3))         \
  Y_4("vpxor", Y_V(c0), Y_V(b0), Y_V(c1), Y_V(b1), Y_V(c2), Y_V(b2), Y_V(c3), Y_V(b3))          \
  "vmovdqa %%ymm0,%[t]\n\t" Y_ROT1(r, l, Y_V(b0)) Y_ROT1(r, l, Y_V(b1)) Y_ROT1(r, l, Y_V(b2))  \
  Y_ROT1(r, l, Y_V(b3)) "vmovdqa %[t],%%ymm0\n\t"
/* One round: G on the columns, then on the diagonals; s0..s15 the round's schedule row. */
#define Y_ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)          \
  Y_HALF(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s0, s2, s4, s6, "%[r16]", 12, 20)    \
  Y_HALF(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, s1, s3, s5, s7, "%[r8]", 7, 25)      \
  Y_HALF(1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s8, s10, s12, s14, "%[r16]", 12, 20) \
  Y_HALF(1, 2, 3, 5, 6, 7, 4, 10, 11, 8, 9, 15, 12, 13, 14, s9, s11, s13, s15, "%[r8]", 7, 25)
#define Y_LD(i) "vmovdqa 32*" #i "(%[s])," Y_V(i) "\n\t"
#define Y_OUT(i, j)                                                                           \
  "vpxor " Y_V(j) "," Y_V(i) "," Y_V(i) "\n\tvmovdqa " Y_V(i) ",32*" #i "(%[s])\n\t"

_Alignas(32) static const uint8_t y_rot16_bytes[32] = {2, 3,  0,  1,  6,  7,  4,  5,  10, 11, 8,
                                                       9, 14, 15, 12, 13, 2,  3,  0,  1,  6,  7,
                                                       4, 5,  10, 11, 8,  9,  14, 15, 12, 13};
_Alignas(32) static const uint8_t y_rot8_bytes[32] = {1, 2,  3,  0,  5,  6,  7,  4,  9,  10, 11,
                                                      8, 13, 14, 15, 12, 1,  2,  3,  0,  5,  6,
                                                      7, 4,  9,  10, 11, 8,  13, 14, 15, 12};

B3Y_INLINE void y_block(__m256i s[16], const __m256i m[16]) {
  __m256i scratch;
  __asm__(Y_LD(0) Y_LD(1) Y_LD(2) Y_LD(3) Y_LD(4) Y_LD(5) Y_LD(6) Y_LD(7) Y_LD(8) Y_LD(9)
              Y_LD(10) Y_LD(11) Y_LD(12) Y_LD(13) Y_LD(14) Y_LD(15)
          BLAKE3_WITH_ROW(Y_ROUND, 0) BLAKE3_WITH_ROW(Y_ROUND, 1) BLAKE3_WITH_ROW(Y_ROUND, 2)
          BLAKE3_WITH_ROW(Y_ROUND, 3) BLAKE3_WITH_ROW(Y_ROUND, 4) BLAKE3_WITH_ROW(Y_ROUND, 5)
          BLAKE3_WITH_ROW(Y_ROUND, 6)
          Y_OUT(0, 8) Y_OUT(1, 9) Y_OUT(2, 10) Y_OUT(3, 11) Y_OUT(4, 12) Y_OUT(5, 13)
          Y_OUT(6, 14) Y_OUT(7, 15)
          : "+m"(*(__m256i(*)[16])s), [t] "=m"(scratch)
          : [s] "r"(s), [m] "r"(m), "m"(*(const __m256i(*)[16])m),
            [r16] "m"(*(const __m256i *)y_rot16_bytes), [r8] "m"(*(const __m256i *)y_rot8_bytes)
          : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
            "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
}
#endif

/* A 4x4 transpose inside each 128-bit half: rows x0..x3 (four consecutive words of one input
 * per half) become x_k = word k of those inputs. */
B3Y_INLINE void transpose4x2(__m256i *x0, __m256i *x1, __m256i *x2, __m256i *x3) {
  __m256i t0 = _mm256_unpacklo_epi32(*x0, *x1), t1 = _mm256_unpackhi_epi32(*x0, *x1);
  __m256i t2 = _mm256_unpacklo_epi32(*x2, *x3), t3 = _mm256_unpackhi_epi32(*x2, *x3);
  *x0 = _mm256_unpacklo_epi64(t0, t2);
  *x1 = _mm256_unpackhi_epi64(t0, t2);
  *x2 = _mm256_unpacklo_epi64(t1, t3);
  *x3 = _mm256_unpackhi_epi64(t1, t3);
}

/* 16 bytes from lo in the low half, 16 bytes from hi in the high half. */
B3Y_INLINE __m256i ld_halves(const uint8_t *lo, const uint8_t *hi) {
  return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                 _mm_loadu_si128((const __m128i *)hi), 1);
}

/* Hashes in[0..7] (blocks blocks each, counters lo/hi per lane) and leaves the eight CVs
 * word-major: h[k] lane n is word k of input n's CV. */
B3Y_INLINE void hash8_words(const uint8_t *const in[8], size_t blocks, const uint32_t key[8],
                            __m256i lo, __m256i hi, uint8_t flags, uint8_t flags_start,
                            uint8_t flags_end, int ahead, __m256i h[8]) {
  /* s: the CVs in 0..7, then the rest of the starting state, of which only the flags change */
  __m256i s[16] = {y_set1(key[0]),       y_set1(key[1]),       y_set1(key[2]),
                   y_set1(key[3]),       y_set1(key[4]),       y_set1(key[5]),
                   y_set1(key[6]),       y_set1(key[7]),       y_set1(blake3_iv[0]),
                   y_set1(blake3_iv[1]), y_set1(blake3_iv[2]), y_set1(blake3_iv[3]),
                   lo,                   hi,                   y_set1(BLAKE3_BLOCK_LEN),
                   y_set1(flags)};
  for (size_t blk = 0; blk < blocks; blk++) {
    const size_t off = blk * BLAKE3_BLOCK_LEN;
    __m256i m[16];
    for (int g = 0; g < 4; g++) {
      const size_t o = off + 16 * g;
      m[4 * g + 0] = ld_halves(in[0] + o, in[4] + o);
      m[4 * g + 1] = ld_halves(in[1] + o, in[5] + o);
      m[4 * g + 2] = ld_halves(in[2] + o, in[6] + o);
      m[4 * g + 3] = ld_halves(in[3] + o, in[7] + o);
      transpose4x2(&m[4 * g + 0], &m[4 * g + 1], &m[4 * g + 2], &m[4 * g + 3]);
    }
    if (ahead)
      for (int k = 0; k < 8; k++) _mm_prefetch((const char *)in[k] + off + BLAKE3_PREFETCH_AHEAD, _MM_HINT_T0);
    uint32_t f = flags;
    if (blk == 0) f |= flags_start;
    if (blk + 1 == blocks) f |= flags_end;
    s[15] = y_set1(f);
    y_block(s, m);
  }
  for (int i = 0; i < 8; i++) h[i] = s[i];
}

/* Hashes in[0..7] (blocks blocks each) to eight CVs written at out[0..255]. */
static void hash8(const uint8_t *const in[8], size_t blocks, const uint32_t key[8],
                  const uint32_t ctr_lo[8], const uint32_t ctr_hi[8], uint8_t flags,
                  uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  __m256i h[8];
  hash8_words(in, blocks, key, y_ld(ctr_lo), y_ld(ctr_hi), flags, flags_start, flags_end, 1, h);
  /* h[k] holds word k of inputs 0..7. After the in-half transposes, h[k] is words 0-3 of
   * inputs k and k+4, h[4+k] words 4-7 of the same two inputs. */
  transpose4x2(&h[0], &h[1], &h[2], &h[3]);
  transpose4x2(&h[4], &h[5], &h[6], &h[7]);
  for (int k = 0; k < 4; k++) {
    y_st(out + 32 * k, _mm256_permute2x128_si256(h[k], h[4 + k], 0x20));
    y_st(out + 32 * (k + 4), _mm256_permute2x128_si256(h[k], h[4 + k], 0x31));
  }
}

#endif /* BLAKE3_YMM8_H */
