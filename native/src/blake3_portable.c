/*
 * blake3-fast: the portable kernel, plain C for every architecture.
 *
 * The state lives in sixteen local words and the message in sixteen more, so the compiler
 * keeps everything in registers. Rather than indexing the message through the schedule table
 * at run time, each of the seven rounds is written out with its message words named directly
 * (BLAKE3_WITH_ROW hands B3P_ROUND the schedule's row for that round). Words are read and
 * written little-endian through blake3_load32/blake3_store32, so the kernel is correct on
 * big-endian machines too.
 */
#include "blake3_impl.h"

#define B3P_ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* The quarter-round G of the specification on state words a, b, c, d with message words x, y. */
#define B3P_G(a, b, c, d, x, y)                                                                  \
  do {                                                                                           \
    a += b + (x);                                                                                \
    d = B3P_ROTR(d ^ a, 16);                                                                     \
    c += d;                                                                                      \
    b = B3P_ROTR(b ^ c, 12);                                                                     \
    a += b + (y);                                                                                \
    d = B3P_ROTR(d ^ a, 8);                                                                      \
    c += d;                                                                                      \
    b = B3P_ROTR(b ^ c, 7);                                                                      \
  } while (0)

/* One round: four column mixes, then four diagonal mixes. The arguments are the message word
 * numbers in schedule order for that round. */
#define B3P_ROUND(s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15)           \
  do {                                                                                           \
    B3P_G(v0, v4, v8, v12, m##s0, m##s1);                                                        \
    B3P_G(v1, v5, v9, v13, m##s2, m##s3);                                                        \
    B3P_G(v2, v6, v10, v14, m##s4, m##s5);                                                       \
    B3P_G(v3, v7, v11, v15, m##s6, m##s7);                                                       \
    B3P_G(v0, v5, v10, v15, m##s8, m##s9);                                                       \
    B3P_G(v1, v6, v11, v12, m##s10, m##s11);                                                     \
    B3P_G(v2, v7, v8, v13, m##s12, m##s13);                                                      \
    B3P_G(v3, v4, v9, v14, m##s14, m##s15);                                                      \
  } while (0)

/* Runs the seven rounds; st receives the final sixteen state words (before the feed-forward). */
static inline __attribute__((always_inline)) void
b3p_rounds(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN], uint8_t block_len,
           uint64_t counter, uint8_t flags, uint32_t st[16]) {
  const uint32_t m0 = blake3_load32(block + 0), m1 = blake3_load32(block + 4);
  const uint32_t m2 = blake3_load32(block + 8), m3 = blake3_load32(block + 12);
  const uint32_t m4 = blake3_load32(block + 16), m5 = blake3_load32(block + 20);
  const uint32_t m6 = blake3_load32(block + 24), m7 = blake3_load32(block + 28);
  const uint32_t m8 = blake3_load32(block + 32), m9 = blake3_load32(block + 36);
  const uint32_t m10 = blake3_load32(block + 40), m11 = blake3_load32(block + 44);
  const uint32_t m12 = blake3_load32(block + 48), m13 = blake3_load32(block + 52);
  const uint32_t m14 = blake3_load32(block + 56), m15 = blake3_load32(block + 60);

  uint32_t v0 = cv[0], v1 = cv[1], v2 = cv[2], v3 = cv[3];
  uint32_t v4 = cv[4], v5 = cv[5], v6 = cv[6], v7 = cv[7];
  uint32_t v8 = blake3_iv[0], v9 = blake3_iv[1], v10 = blake3_iv[2], v11 = blake3_iv[3];
  uint32_t v12 = blake3_counter_low(counter), v13 = blake3_counter_high(counter);
  uint32_t v14 = (uint32_t)block_len, v15 = (uint32_t)flags;

  BLAKE3_WITH_ROW(B3P_ROUND, 0);
  BLAKE3_WITH_ROW(B3P_ROUND, 1);
  BLAKE3_WITH_ROW(B3P_ROUND, 2);
  BLAKE3_WITH_ROW(B3P_ROUND, 3);
  BLAKE3_WITH_ROW(B3P_ROUND, 4);
  BLAKE3_WITH_ROW(B3P_ROUND, 5);
  BLAKE3_WITH_ROW(B3P_ROUND, 6);

  st[0] = v0; st[1] = v1; st[2] = v2; st[3] = v3;
  st[4] = v4; st[5] = v5; st[6] = v6; st[7] = v7;
  st[8] = v8; st[9] = v9; st[10] = v10; st[11] = v11;
  st[12] = v12; st[13] = v13; st[14] = v14; st[15] = v15;
}

void blake3_compress_in_place_portable(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                       uint8_t block_len, uint64_t counter, uint8_t flags) {
  uint32_t st[16];
  b3p_rounds(cv, block, block_len, counter, flags, st);
  for (int i = 0; i < 8; i++) cv[i] = st[i] ^ st[i + 8];
}

void blake3_compress_xof_portable(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                  uint8_t block_len, uint64_t counter, uint8_t flags,
                                  uint8_t out[64]) {
  uint32_t st[16];
  b3p_rounds(cv, block, block_len, counter, flags, st);
  for (int i = 0; i < 8; i++) {
    blake3_store32(out + 4 * i, st[i] ^ st[i + 8]);
    blake3_store32(out + 32 + 4 * i, st[i + 8] ^ cv[i]);
  }
}

void blake3_hash_many_portable(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                               const uint32_t key[8], uint64_t counter, int increment_counter,
                               uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                               uint8_t *out) {
  for (size_t i = 0; i < num_inputs; i++)
    blake3_hash_one(blake3_compress_in_place_portable, inputs[i], blocks, key,
                    counter + (increment_counter ? i : 0), flags, flags_start, flags_end,
                    out + 32 * i);
}
