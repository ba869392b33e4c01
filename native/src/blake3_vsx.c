/*
 * blake3-fast: VSX kernel for ppc64le (POWER8+, -mcpu=power8 -mvsx) and for big-endian ppc64
 * (POWER7+, -mcpu=power7 -mvsx): the code of blake3_vec128.h over VSX vectors.
 *
 * Vector byte order: vec_xl puts the word at byte offset 4*i into element i and vec_perm
 * numbers bytes in element order on both. Little-endian, BLAKE3's little-endian words then
 * load as they are. Big-endian, every element holds its word byte-reversed, exactly as on
 * s390x (blake3_vx.c), and the same trick applies: the first vec_perm that touches a loaded
 * message word (the even/odd split, the first transpose stage) reverses its bytes for free,
 * and outputs are reversed on the way out.
 */
#include "blake3_impl.h"

#if !defined(__VSX__) || !defined(__powerpc64__)
#error "blake3_vsx.c needs ppc64 or ppc64le with VSX (-mcpu=power7/power8 -mvsx)"
#endif

#include <altivec.h>

typedef __vector unsigned int u32x4;
typedef __vector unsigned char u8x16;
typedef __vector unsigned long long u64x2;

#define B3V u32x4
#define B3V_FN(fn) fn##_vsx
#define B3V_LOAD(p) ((u32x4)vec_xl(0, (const unsigned char *)(p)))
#define B3V_STORE(p, v) vec_xst((u8x16)(v), 0, (unsigned char *)(p))
#define B3V_SET4(a, b, c, d) ((u32x4){(a), (b), (c), (d)})
#define B3V_SPLAT(x) vec_splats((uint32_t)(x))
#define B3V_ADD(a, b) ((a) + (b))
#define B3V_XOR(a, b) ((a) ^ (b))
/* Rotations right, done as vrlw left rotations by 32 - n. */
#define B3V_ROT16(x) vec_rl((x), vec_splats(16u))
#define B3V_ROT12(x) vec_rl((x), vec_splats(20u))
#define B3V_ROT8(x) vec_rl((x), vec_splats(24u))
#define B3V_ROT7(x) vec_rl((x), vec_splats(25u))

/* Byte selector for vec_perm(a, b, .): result word i = word wi of a:b (0..3 a, 4..7 b). */
#define WSEL(w0, w1, w2, w3)                                                                  \
  ((u8x16){BLAKE3_WORD_BYTES(w0), BLAKE3_WORD_BYTES(w1), BLAKE3_WORD_BYTES(w2),       \
           BLAKE3_WORD_BYTES(w3)})
#define B3V_PERM(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSEL(w0, w1, w2, w3))

#if defined(__LITTLE_ENDIAN__)
#define B3V_STORE_LE(p, v) B3V_STORE(p, v)
#define B3V_LROT(a, k) B3V_PERM(a, a, (k) % 4, ((k) + 1) % 4, ((k) + 2) % 4, ((k) + 3) % 4)
#define B3V_LROT1(a) B3V_LROT(a, 1)
#define B3V_LROT2(a) B3V_LROT(a, 2)
#define B3V_LROT3(a) B3V_LROT(a, 3)
#define B3V_EVEN_LE(lo, hi) B3V_PERM(lo, hi, 0, 2, 4, 6)
#define B3V_ODD_LE(lo, hi) B3V_PERM(lo, hi, 1, 3, 5, 7)
#define B3V_ZIPW_LO(a, b) vec_mergeh((a), (b))
#define B3V_ZIPW_HI(a, b) vec_mergel((a), (b))
#define B3V_ZIPD_LO(a, b) ((u32x4)vec_mergeh((u64x2)(a), (u64x2)(b)))
#define B3V_ZIPD_HI(a, b) ((u32x4)vec_mergel((u64x2)(a), (u64x2)(b)))

#else
#include "blake3_vec128_be.h"
#endif

#include "blake3_vec128.h"

void blake3_hash_many_vsx(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                          const uint32_t key[8], uint64_t counter, int increment_counter,
                          uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  b3v_hash_many4(inputs, num_inputs, blocks, key, counter, increment_counter, flags,
                 flags_start, flags_end, out);
}

void blake3_hash_lanes_vsx(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                           uint8_t *out) {
  b3v_hash_lanes4(lanes, 0, num_inputs, blocks, key, flags, flags_start, out);
}
