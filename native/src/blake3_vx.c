/*
 * blake3-fast: z13 vector facility kernel for s390x (build with -march=z13 -mzvector; this
 * translation unit only, the rest of the library stays at the baseline): the code of
 * blake3_vec128.h over z/Architecture vectors.
 *
 * s390x is big-endian and BLAKE3 words are little-endian. Input bytes are loaded as they are
 * and every word's bytes are reversed by the first vec_perm that touches them anyway (the
 * even/odd split of the row-wise message, the first stage of the 4x4 transpose), so the byte
 * swap costs no extra instruction. Chaining values arrive as native uint32_t words and need none.
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

#define B3V u32x4
#define B3V_FN(fn) fn##_vx
/* Raw loads and stores: element i holds bytes 4i..4i+3 in memory order (big-endian words). */
#define B3V_LOAD(p) ((u32x4)vec_xl(0, (const unsigned char *)(p)))
#define B3V_STORE(p, v) vec_xst((u8x16)(v), 0, (unsigned char *)(p))
#define B3V_SET4(a, b, c, d) ((u32x4){(a), (b), (c), (d)})
#define B3V_SPLAT(x) vec_splats((uint32_t)(x))
#define B3V_ADD(a, b) ((a) + (b))
#define B3V_XOR(a, b) ((a) ^ (b))
/* Rotations right by n, as element rotations left by 32 - n. */
#define B3V_ROT16(x) vec_rli((x), 16)
#define B3V_ROT12(x) vec_rli((x), 20)
#define B3V_ROT8(x) vec_rli((x), 24)
#define B3V_ROT7(x) vec_rli((x), 25)

/* Byte selector for vec_perm(a, b, .): result word i = word wi of a:b (0..3 a, 4..7 b). */
#define WSEL(w0, w1, w2, w3)                                                                  \
  ((u8x16){BLAKE3_WORD_BYTES(w0), BLAKE3_WORD_BYTES(w1), BLAKE3_WORD_BYTES(w2),       \
           BLAKE3_WORD_BYTES(w3)})
#define B3V_PERM(a, b, w0, w1, w2, w3) vec_perm((a), (b), WSEL(w0, w1, w2, w3))
#include "blake3_vec128_be.h"

#include "blake3_vec128.h"

void blake3_hash_many_vx(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                         const uint32_t key[8], uint64_t counter, int increment_counter,
                         uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  b3v_hash_many4(inputs, num_inputs, blocks, key, counter, increment_counter, flags,
                 flags_start, flags_end, out);
}

void blake3_hash_lanes_vx(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,
                          const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                          uint8_t *out) {
  b3v_hash_lanes4(lanes, 0, num_inputs, blocks, key, flags, flags_start, out);
}
