/*
 * blake3-fast: eight inputs across the 32-bit lanes of ymm registers, for blake3_avx2.c's
 * hash_many and subtree and blake3_avx512.c's groups of three, five to eight inputs. Built with
 * -mavx2 a compression is asm (16 registers: see y_block), and so is y_hash_blocks' whole block
 * loop; built with AVX-512VL it is C with vprord, and the includer may define B3Y_ROUNDS() (the
 * seven rounds on v[] and m[] with the y_ operations) before including.
 */
#ifndef BLAKE3_YMM8_H
#define BLAKE3_YMM8_H

#include <immintrin.h>

#include "blake3_impl.h"
#include "blake3_lanes_group.h"

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
 * on the critical path). So a compression is asm with the state in ymm0..ymm15 throughout; the
 * message words stay in memory as the adds' operands. One state vector lives in memory for part
 * of each half round: c of the first G (its value belongs to ymm8), stored after its last read
 * (b ^= c) and read back as the operand of its next update (c += d), where its load is off the
 * chain. Meanwhile ymm8 holds the byte table of the 16- and 8-bit rotations (one vpshufb each),
 * then the bits the 12- and 7-bit rotations shift out.
 */
#define Y_V(i) "%%ymm" #i
#define Y_MSG(x) "32*" #x "(%[m])"
#define Y_4(op, s0, d0, s1, d1, s2, d2, s3, d3)                                               \
  op " " s0 "," d0 "," d0 "\n\t" op " " s1 "," d1 "," d1 "\n\t" op " " s2 "," d2 "," d2 "\n\t" \
  op " " s3 "," d3 "," d3 "\n\t"
#define Y_ROT1(r, l, b)                                                                       \
  "vpsrld $" #r "," b ",%%ymm8\n\tvpslld $" #l "," b "," b "\n\tvpor %%ymm8," b "," b "\n\t"
/* Half of four G functions side by side: a += m[x] + b; d = (d ^ a) >>> (16 or 8: the byte
 * table tbl); c += d; b = (b ^ c) >>> r, l = 32 - r. The first G's c is ymm8's value, in %[t]
 * on entry and on exit. */
#define Y_HALF(a0, a1, a2, a3, b0, b1, b2, b3, c1, c2, c3, d0, d1, d2, d3, x0, x1, x2, x3, tbl, \
               r, l)                                                                          \
  Y_4("vpaddd", Y_MSG(x0), Y_V(a0), Y_MSG(x1), Y_V(a1), Y_MSG(x2), Y_V(a2), Y_MSG(x3), Y_V(a3)) \
  Y_4("vpaddd", Y_V(b0), Y_V(a0), Y_V(b1), Y_V(a1), Y_V(b2), Y_V(a2), Y_V(b3), Y_V(a3))         \
  Y_4("vpxor", Y_V(a0), Y_V(d0), Y_V(a1), Y_V(d1), Y_V(a2), Y_V(d2), Y_V(a3), Y_V(d3))          \
  "vmovdqa " tbl ",%%ymm8\n\t"                                                                 \
  Y_4("vpshufb", "%%ymm8", Y_V(d0), "%%ymm8", Y_V(d1), "%%ymm8", Y_V(d2), "%%ymm8", Y_V(d3))    \
  "vpaddd %[t]," Y_V(d0) ",%%ymm8\n\t"                                                         \
  "vpaddd " Y_V(d1) "," Y_V(c1) "," Y_V(c1) "\n\t"                                             \
  "vpaddd " Y_V(d2) "," Y_V(c2) "," Y_V(c2) "\n\t"                                             \
  "vpaddd " Y_V(d3) "," Y_V(c3) "," Y_V(c3) "\n\t"                                             \
  Y_4("vpxor", "%%ymm8", Y_V(b0), Y_V(c1), Y_V(b1), Y_V(c2), Y_V(b2), Y_V(c3), Y_V(b3))         \
  "vmovdqa %%ymm8,%[t]\n\t" Y_ROT1(r, l, Y_V(b0)) Y_ROT1(r, l, Y_V(b1)) Y_ROT1(r, l, Y_V(b2))  \
  Y_ROT1(r, l, Y_V(b3))
/* One round, s0..s15 its schedule row: G on the columns, then on the diagonals, starting with
 * the diagonal whose c is ymm8 (a2, b3, c0, d1). */
#define Y_ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)          \
  Y_HALF(0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, s0, s2, s4, s6, "%[r16]", 12, 20)    \
  Y_HALF(0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12, 13, 14, 15, s1, s3, s5, s7, "%[r8]", 7, 25)      \
  Y_HALF(2, 3, 0, 1, 7, 4, 5, 6, 9, 10, 11, 13, 14, 15, 12, s12, s14, s8, s10, "%[r16]", 12, 20) \
  Y_HALF(2, 3, 0, 1, 7, 4, 5, 6, 9, 10, 11, 13, 14, 15, 12, s13, s15, s9, s11, "%[r8]", 7, 25)
#define Y_ROUNDS                                                                              \
  BLAKE3_WITH_ROW(Y_ROUND, 0) BLAKE3_WITH_ROW(Y_ROUND, 1) BLAKE3_WITH_ROW(Y_ROUND, 2)         \
  BLAKE3_WITH_ROW(Y_ROUND, 3) BLAKE3_WITH_ROW(Y_ROUND, 4) BLAKE3_WITH_ROW(Y_ROUND, 5)         \
  BLAKE3_WITH_ROW(Y_ROUND, 6)
/* The new CV, v[i] ^ v[i + 8], into ymm0..ymm7 */
#define Y_FEED                                                                                \
  "vpxor %[t],%%ymm0,%%ymm0\n\t" Y_4("vpxor", Y_V(9), Y_V(1), Y_V(10), Y_V(2), Y_V(11), Y_V(3),  \
                                     Y_V(12), Y_V(4))                                        \
  "vpxor " Y_V(13) "," Y_V(5) "," Y_V(5) "\n\tvpxor " Y_V(14) "," Y_V(6) "," Y_V(6)            \
  "\n\tvpxor " Y_V(15) "," Y_V(7) "," Y_V(7) "\n\t"
#define Y_CONSTRAINTS                                                                         \
  [r16] "m"(*(const __m256i *)y_rot16_bytes), [r8] "m"(*(const __m256i *)y_rot8_bytes)
#define Y_CLOBBERS                                                                            \
  "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",     \
      "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"

_Alignas(32) static const uint8_t y_rot16_bytes[32] = {2, 3,  0,  1,  6,  7,  4,  5,  10, 11, 8,
                                                       9, 14, 15, 12, 13, 2,  3,  0,  1,  6,  7,
                                                       4, 5,  10, 11, 8,  9,  14, 15, 12, 13};
_Alignas(32) static const uint8_t y_rot8_bytes[32] = {1, 2,  3,  0,  5,  6,  7,  4,  9,  10, 11,
                                                      8, 13, 14, 15, 12, 1,  2,  3,  0,  5,  6,
                                                      7, 4,  9,  10, 11, 8,  13, 14, 15, 12};

/* The rotations as C, for code outside the asm (blake3_ymm_rows.h): by 16 and 8 one vpshufb
 * with the tables above, by 12 and 7 two shifts and an OR. */
B3Y_INLINE __m256i y_rot16(__m256i x) { return _mm256_shuffle_epi8(x, y_ld(y_rot16_bytes)); }
B3Y_INLINE __m256i y_rot8(__m256i x) { return _mm256_shuffle_epi8(x, y_ld(y_rot8_bytes)); }
B3Y_INLINE __m256i y_rot12(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi32(x, 12), _mm256_slli_epi32(x, 20));
}
B3Y_INLINE __m256i y_rot7(__m256i x) {
  return _mm256_or_si256(_mm256_srli_epi32(x, 7), _mm256_slli_epi32(x, 25));
}

#define Y_LD(i, src) "vmovdqa " src "," Y_V(i) "\n\t"
#define Y_ST(i, dst) "vmovdqa " Y_V(i) "," dst "\n\t"

B3Y_INLINE void y_block(__m256i s[16], const __m256i m[16]) {
  __m256i c0;
  __asm__(Y_LD(0, "0(%[s])") Y_LD(1, "32(%[s])") Y_LD(2, "64(%[s])") Y_LD(3, "96(%[s])")
          Y_LD(4, "128(%[s])") Y_LD(5, "160(%[s])") Y_LD(6, "192(%[s])") Y_LD(7, "224(%[s])")
          Y_LD(8, "256(%[s])") Y_ST(8, "%[t]") Y_LD(9, "288(%[s])") Y_LD(10, "320(%[s])")
          Y_LD(11, "352(%[s])") Y_LD(12, "384(%[s])") Y_LD(13, "416(%[s])")
          Y_LD(14, "448(%[s])") Y_LD(15, "480(%[s])")
          Y_ROUNDS Y_FEED
          Y_ST(0, "0(%[s])") Y_ST(1, "32(%[s])") Y_ST(2, "64(%[s])") Y_ST(3, "96(%[s])")
          Y_ST(4, "128(%[s])") Y_ST(5, "160(%[s])") Y_ST(6, "192(%[s])") Y_ST(7, "224(%[s])")
          : "+m"(*(__m256i(*)[16])s), [t] "=m"(c0)
          : [s] "r"(s), [m] "r"(m), "m"(*(const __m256i(*)[16])m), Y_CONSTRAINTS
          : Y_CLOBBERS);
}
#endif

/* Lane k's block counter, counter + k * step (step 0 or 1), as its low and high words. Built in
 * registers: eight 32-bit stores read back as one vector miss store-to-load forwarding, a stall
 * at every call. */
B3Y_INLINE void y_counters(uint64_t counter, int step, __m256i *lo, __m256i *hi) {
  const __m256i base = y_set1(blake3_counter_low(counter));
  const __m256i sum =
      y_add(base, step ? _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) : _mm256_setzero_si256());
  /* a lane carried into the high word iff its sum is below the base (unsigned: flip the signs) */
  const __m256i sign = y_set1(0x80000000u);
  const __m256i carried = _mm256_cmpgt_epi32(y_xor(base, sign), y_xor(sum, sign));
  *lo = sum;
  *hi = _mm256_sub_epi32(y_set1(blake3_counter_high(counter)), carried);
}

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

/* y_hash_blocks: the block loop (BLAKE3_LANES_GROUP's T##hash_blocks, blake3_lanes_group.h):
 * blocks blocks of in[0..7], counters lo/hi per lane, the CVs h out word-major (h[k] lane n:
 * word k of input n's CV), and in unless from_key. lens and lane_flags are hash_lanes'
 * per-lane block lengths and flags, NULL (64, none) from hash_many and subtree: a constant
 * there, which folds away. */
#ifdef __AVX512VL__
B3Y_INLINE void y_hash_blocks(const uint8_t *const in[8], size_t blocks, __m256i lo, __m256i hi,
                              const uint32_t *lens, uint8_t flags, uint8_t flags_start,
                              uint8_t flags_end, const uint32_t *lane_flags, int ahead,
                              const uint32_t key[8], int from_key, __m256i h[8]) {
  const __m256i lf = lane_flags ? y_ld(lane_flags) : _mm256_setzero_si256();
  /* s: the CVs in 0..7, then the rest of the starting state, of which only the flags change */
  __m256i s[16];
  for (int i = 0; i < 8; i++) s[i] = from_key ? y_set1(key[i]) : h[i];
  for (int i = 0; i < 4; i++) s[8 + i] = y_set1(blake3_iv[i]);
  s[12] = lo;
  s[13] = hi;
  s[14] = lens ? y_ld(lens) : y_set1(BLAKE3_BLOCK_LEN);
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
    s[15] = _mm256_or_si256(y_set1(f), lf);
    y_block(s, m);
  }
  for (int i = 0; i < 8; i++) h[i] = s[i];
}

#else
/* What the block loop reads and writes besides the inputs, one base register away. */
typedef struct {
  __m256i m[16];       /* the block's message, word-major: m[w] lane n is word w of input n */
  __m256i cv[8];       /* the CVs in and out, word-major */
  __m256i rest[7];     /* the rest of the starting state but the flags: IV 0-3, counters,
                          block length */
  __m256i flags[3];    /* the flags word of a first block, of a later one; what a last one adds */
  const uint8_t *in[8];
} y_frame;
_Static_assert(offsetof(y_frame, m) == 0, "Y_MSG addresses the message from the frame's start");

/* ymm<x> gets 16 bytes at byte o of the block, %[off] bytes into the inputs, from the input
 * whose pointer is in register lo in its low half and from the one in register hi in its high
 * half. */
#define Y_HALVES(lo, hi, o, x)                                                                \
  "vmovdqu " #o "(%%" #lo ",%[off]),%%xmm" #x "\n\t"                                           \
  "vinserti128 $1," #o "(%%" #hi ",%[off]),%%ymm" #x ",%%ymm" #x "\n\t"
/* Message words 4g..4g+3 of the eight inputs, word-major, into m[4g..4g+3]: a 4x4 transpose
 * inside each 128-bit half (ymm8..15 are free between blocks). */
#define Y_WORDS(g, o)                                                                         \
  Y_HALVES(r8, r12, o, 8) Y_HALVES(r9, r13, o, 9) Y_HALVES(r10, r14, o, 10)                   \
  Y_HALVES(r11, r15, o, 11)                                                                   \
  "vpunpckldq %%ymm9,%%ymm8,%%ymm12\n\tvpunpckhdq %%ymm9,%%ymm8,%%ymm13\n\t"                   \
  "vpunpckldq %%ymm11,%%ymm10,%%ymm14\n\tvpunpckhdq %%ymm11,%%ymm10,%%ymm15\n\t"               \
  "vpunpcklqdq %%ymm14,%%ymm12,%%ymm8\n\tvpunpckhqdq %%ymm14,%%ymm12,%%ymm9\n\t"               \
  "vpunpcklqdq %%ymm15,%%ymm13,%%ymm10\n\tvpunpckhqdq %%ymm15,%%ymm13,%%ymm11\n\t"             \
  Y_ST(8, "32*(4*" #g "+0)(%[m])") Y_ST(9, "32*(4*" #g "+1)(%[m])")                            \
  Y_ST(10, "32*(4*" #g "+2)(%[m])") Y_ST(11, "32*(4*" #g "+3)(%[m])")
#define Y_STR(x) Y_STR_(x)
#define Y_STR_(x) #x
#define Y_PREFETCH(r) "prefetcht0 " Y_STR(BLAKE3_PREFETCH_AHEAD) "(%%" #r ",%[off])\n\t"

/* The whole block loop is one asm statement, so that the CVs stay in ymm0..7 from block to
 * block: between two asm statements they would go through memory, a store and a reload on
 * the chain at every block. The eight input pointers live in r8..r15; everything else the loop
 * reads is in memory (fr, last, ahead), so that the statement needs only two more registers
 * and compiles at every optimisation level, with or without sanitizers. */
B3Y_INLINE void y_hash_blocks(const uint8_t *const in[8], size_t blocks, __m256i lo, __m256i hi,
                              const uint32_t *lens, uint8_t flags, uint8_t flags_start,
                              uint8_t flags_end, const uint32_t *lane_flags, int ahead,
                              const uint32_t key[8], int from_key, __m256i h[8]) {
  const __m256i lf = lane_flags ? y_ld(lane_flags) : _mm256_setzero_si256();
  y_frame fr;
  for (int i = 0; i < 8; i++) {
    fr.cv[i] = from_key ? y_set1(key[i]) : h[i];
    fr.in[i] = in[i];
  }
  for (int i = 0; i < 4; i++) fr.rest[i] = y_set1(blake3_iv[i]);
  fr.rest[4] = lo;
  fr.rest[5] = hi;
  fr.rest[6] = lens ? y_ld(lens) : y_set1(BLAKE3_BLOCK_LEN);
  fr.flags[0] = _mm256_or_si256(y_set1((uint32_t)(flags | flags_start)), lf);
  fr.flags[1] = _mm256_or_si256(y_set1(flags), lf);
  fr.flags[2] = y_set1(flags_end);
  if (blocks > 0) {
    size_t off = 0;
    const size_t last = (blocks - 1) * BLAKE3_BLOCK_LEN; /* the last block's offset */
    __m256i c0;
    __asm__ volatile(
        Y_LD(0, "%c[ocv]+0(%[m])") Y_LD(1, "%c[ocv]+32(%[m])") Y_LD(2, "%c[ocv]+64(%[m])")
        Y_LD(3, "%c[ocv]+96(%[m])") Y_LD(4, "%c[ocv]+128(%[m])") Y_LD(5, "%c[ocv]+160(%[m])")
        Y_LD(6, "%c[ocv]+192(%[m])") Y_LD(7, "%c[ocv]+224(%[m])")
        "mov %c[oin](%[m]),%%r8\n\tmov %c[oin]+8(%[m]),%%r9\n\tmov %c[oin]+16(%[m]),%%r10\n\t"
        "mov %c[oin]+24(%[m]),%%r11\n\tmov %c[oin]+32(%[m]),%%r12\n\tmov %c[oin]+40(%[m]),%%r13\n\t"
        "mov %c[oin]+48(%[m]),%%r14\n\tmov %c[oin]+56(%[m]),%%r15\n\t"
        "1:\n\t"
        Y_WORDS(0, 0) Y_WORDS(1, 16) Y_WORDS(2, 32) Y_WORDS(3, 48)
        "cmpl $0,%[ahead]\n\tje 2f\n\t"
        Y_PREFETCH(r8) Y_PREFETCH(r9) Y_PREFETCH(r10) Y_PREFETCH(r11) Y_PREFETCH(r12)
        Y_PREFETCH(r13) Y_PREFETCH(r14) Y_PREFETCH(r15)
        "2:\n\t"
        /* the flags word: the start flags on the first block, the end flags on the last */
        "test %[off],%[off]\n\tjne 3f\n\t" Y_LD(15, "%c[oflags](%[m])") "jmp 4f\n\t3:\n\t"
        Y_LD(15, "%c[oflags]+32(%[m])") "4:\n\tcmp %[last],%[off]\n\tjne 5f\n\t"
        "vpor %c[oflags]+64(%[m]),%%ymm15,%%ymm15\n\t5:\n\t"
        Y_LD(8, "%c[orest]+0(%[m])") Y_ST(8, "%[t]") Y_LD(9, "%c[orest]+32(%[m])")
        Y_LD(10, "%c[orest]+64(%[m])") Y_LD(11, "%c[orest]+96(%[m])")
        Y_LD(12, "%c[orest]+128(%[m])") Y_LD(13, "%c[orest]+160(%[m])")
        Y_LD(14, "%c[orest]+192(%[m])")
        Y_ROUNDS Y_FEED
        "add $64,%[off]\n\tcmp %[last],%[off]\n\tjbe 1b\n\t"
        Y_ST(0, "%c[ocv]+0(%[m])") Y_ST(1, "%c[ocv]+32(%[m])") Y_ST(2, "%c[ocv]+64(%[m])")
        Y_ST(3, "%c[ocv]+96(%[m])") Y_ST(4, "%c[ocv]+128(%[m])") Y_ST(5, "%c[ocv]+160(%[m])")
        Y_ST(6, "%c[ocv]+192(%[m])") Y_ST(7, "%c[ocv]+224(%[m])")
        : [off] "+r"(off), [t] "=m"(c0)
        : [m] "r"(&fr), [last] "m"(last), [ahead] "m"(ahead), [ocv] "i"(offsetof(y_frame, cv)),
          [orest] "i"(offsetof(y_frame, rest)), [oflags] "i"(offsetof(y_frame, flags)),
          [oin] "i"(offsetof(y_frame, in)), Y_CONSTRAINTS
        : "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc", "memory", Y_CLOBBERS);
  }
  for (int i = 0; i < 8; i++) h[i] = fr.cv[i];
}
#endif

/* The eight CVs h, word-major, to out[0..255], one CV after the other. */
B3Y_INLINE void y_store_cvs(__m256i h[8], uint8_t *out) {
  /* After the in-half transposes, h[k] is words 0-3 of inputs k and k+4, h[4+k] words 4-7 of
   * the same two inputs. */
  transpose4x2(&h[0], &h[1], &h[2], &h[3]);
  transpose4x2(&h[4], &h[5], &h[6], &h[7]);
  for (int k = 0; k < 4; k++) {
    y_st(out + 32 * k, _mm256_permute2x128_si256(h[k], h[4 + k], 0x20));
    y_st(out + 32 * (k + 4), _mm256_permute2x128_si256(h[k], h[4 + k], 0x31));
  }
}

/* hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, out): hash_many's group */
BLAKE3_MANY_GROUP(hash8, __m256i, y_)

/* hash_lanes' eight-lane group (blake3_lanes_group.h) */
BLAKE3_LANES_GROUP(lanes8, __m256i, y_)

#endif /* BLAKE3_YMM8_H */
