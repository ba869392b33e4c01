/*
 * blake3-fast: AVX2 kernels (compiled with -mavx2).
 *
 *   hash_many  eight inputs at a time, one per 32-bit lane of a ymm (blake3_ymm8.h); one or
 *              two left over go row-wise, through the SSE4.1 file's compression compiled here
 *              (hash_one_rows, blake3_sse_rows.h). For single blocks the table names SSE4.1's
 *              compression itself (BLAKE3_ISAS).
 */
#include "blake3_sse_rows.h"
#include "blake3_ymm8.h"

void blake3_hash_many_avx2(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                           const uint32_t key[8], uint64_t counter, int increment_counter,
                           uint8_t flags, uint8_t flags_start, uint8_t flags_end, uint8_t *out) {
  uint32_t lo[8], hi[8];
  size_t i = 0;
  while (i < num_inputs) {
    const size_t rest = num_inputs - i;
    if (rest < 3) {
      /* One or two left: single row-wise compressions beat a padded group (measured). */
      for (size_t k = i; k < num_inputs; k++)
        hash_one_rows(inputs[k], blocks, key, counter + (increment_counter ? k : 0), flags,
                      flags_start, flags_end, out + 32 * k);
      return;
    }
    /* Three to seven left: one padded group (the spare lanes repeat the last input) costs
     * about what a narrower group would, and less than hashing them one by one. */
    const uint8_t *in[8];
    for (size_t k = 0; k < 8; k++) {
      in[k] = inputs[i + (k < rest ? k : rest - 1)];
      const uint64_t c = counter + (increment_counter ? i + k : 0);
      lo[k] = blake3_counter_low(c);
      hi[k] = blake3_counter_high(c);
    }
    if (rest >= 8) {
      hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, out + 32 * i);
      i += 8;
    } else {
      uint8_t tmp[8 * BLAKE3_OUT_LEN];
      hash8(in, blocks, key, lo, hi, flags, flags_start, flags_end, tmp);
      memcpy(out + 32 * i, tmp, 32 * rest);
      return;
    }
  }
}
