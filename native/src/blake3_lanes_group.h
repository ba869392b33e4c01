/*
 * blake3-fast: hash_lanes (and hash_many's group) around a kernel's lane-parallel block loop,
 * written once for the x86 widths (blake3_sse.h: four lanes in xmm; blake3_ymm8.h: eight in
 * ymm; blake3_avx512.c: sixteen in zmm).
 *
 * A group runs its lanes in lockstep twice through the width's block loop: the blocks but the
 * last read in place from inputs[], with the same block length (64) and flags in every lane
 * like hash_many's; then the one last block from lasts[], with each lane's length and
 * last-block flags as vectors. So the block loops hash_many is tuned on need only a few more
 * arguments (lens, lane_flags, from_key), constants in every call from hash_many, where they
 * fold away: its code stays as it was. The CVs cross from one pass to the other once per
 * message, through registers or the loop's frame.
 *
 * Lanes that do not fill a last group run as one group over a padded copy of their
 * parameters (blake3_lanes_padded): the group reads the arrays at i .. i + width - 1, which
 * past num_inputs are not there to read.
 */
#ifndef BLAKE3_LANES_GROUP_H
#define BLAKE3_LANES_GROUP_H

#include "blake3_impl.h"

/* BLAKE3_LANES_GROUP's lanes from their own CVs, already in h (cv_words), through the width's
 * HASH_BLOCKS (below): the first block alone, its per-lane flags through lane_flags (or-ed with
 * the last block's on a single block), then the blocks between from inputs[] moved one block
 * on, then the last block. Only the batch's calls that mix continuing and starting lanes come
 * here, and their runs of blocks are short: the extra pass is what keeps hash_many's block
 * loop as it is. */
#define BLAKE3_LANES_FROM_CVS(HASH_BLOCKS, VEC, l, i, blocks, lo, hi, key, flags, h)             \
  do {                                                                                          \
    enum { W_ = sizeof(VEC) / 4 };                                                              \
    const uint32_t *first_ = (l)->first_flags + (i);                                            \
    if ((blocks) == 1) {                                                                        \
      uint32_t both_[W_];                                                                       \
      for (int k_ = 0; k_ < W_; k_++) both_[k_] = first_[k_] | (l)->last_flags[(i) + k_];      \
      HASH_BLOCKS((l)->lasts + (i), 1, lo, hi, (l)->last_len + (i), flags, 0, 0, both_, 0, key, \
                  0, h);                                                                        \
      break;                                                                                    \
    }                                                                                           \
    HASH_BLOCKS((l)->inputs + (i), 1, lo, hi, NULL, flags, 0, 0, first_, 0, key, 0, h);         \
    if ((blocks) > 2) {                                                                         \
      const uint8_t *next_[W_];                                                                 \
      for (int k_ = 0; k_ < W_; k_++) next_[k_] = (l)->inputs[(i) + k_] + BLAKE3_BLOCK_LEN;     \
      HASH_BLOCKS(next_, (blocks) - 2, lo, hi, NULL, flags, 0, 0, NULL, 1, key, 0, h);          \
    }                                                                                           \
    HASH_BLOCKS((l)->lasts + (i), 1, lo, hi, (l)->last_len + (i), flags, 0, 0,                  \
                (l)->last_flags + (i), 0, key, 0, h);                                           \
  } while (0)

/* NAME(l, i, blocks, key, flags, flags_start, out): lanes i .. i + lanes of VEC - 1 of l to
 * their CVs at out, through the width's helpers (T: its prefix, none for xmm):
 *   T##ld(p)              a vector of lane words from memory, unaligned
 *   T##hash_blocks(in, blocks, lo, hi, lens, flags, flags_start, flags_end, lane_flags,
 *                  ahead, key, from_key, h)
 *                         the block loop: the CVs h out word-major, and in unless from_key
 *                         (a constant: then they start from key, and hash_many's loop runs
 *                         as before); per-lane counter lo/hi, block length 64 or, with lens,
 *                         lens[k] in lane k; lane_flags, when not NULL, or-ed into every
 *                         block's flags of lane k
 *   T##store_cvs(h, out)  word-major CVs to one CV per lane, little-endian
 * The second pass reads a single block, too short for prefetching to pay. */
#define BLAKE3_LANES_GROUP(NAME, VEC, T)                                                       \
  static void NAME(const blake3_lanes *l, size_t i, size_t blocks, const uint32_t key[8],      \
                   uint8_t flags, uint8_t flags_start, uint8_t *out) {                         \
    VEC h[8];                                                                                   \
    const VEC lo = T##ld(l->counter_lo + i), hi = T##ld(l->counter_hi + i);                     \
    const uint32_t *lens = l->last_len + i, *lane_flags = l->last_flags + i;                    \
    if (l->cv_words) {                                                                          \
      for (int w = 0; w < 8; w++) h[w] = T##ld(l->cv_words[w] + i);                             \
      BLAKE3_LANES_FROM_CVS(T##hash_blocks, VEC, l, i, blocks, lo, hi, key, flags, h);          \
    } else if (blocks > 1) {                                                                    \
      T##hash_blocks(l->inputs + i, blocks - 1, lo, hi, NULL, flags, flags_start, 0, NULL, 1,   \
                     key, 1, h);                                                                \
      T##hash_blocks(l->lasts + i, 1, lo, hi, lens, flags, 0, 0, lane_flags, 0, key, 0, h);     \
    } else {                                                                                    \
      T##hash_blocks(l->lasts + i, 1, lo, hi, lens, flags, flags_start, 0, lane_flags, 0, key,  \
                     1, h);                                                                     \
    }                                                                                           \
    T##store_cvs(h, out);                                                                       \
  }

/* NAME(in, blocks, key, lo, hi, flags, flags_start, flags_end, out): hash_many's group over
 * the same helpers, in[0 .. lanes of VEC - 1] (blocks blocks each, counters lo/hi per lane)
 * to their CVs at out. */
#define BLAKE3_MANY_GROUP(NAME, VEC, T)                                                        \
  static void NAME(const uint8_t *const in[], size_t blocks, const uint32_t key[8], VEC lo,    \
                   VEC hi, uint8_t flags, uint8_t flags_start, uint8_t flags_end,              \
                   uint8_t *out) {                                                             \
    VEC h[8];                                                                                   \
    T##hash_blocks(in, blocks, lo, hi, NULL, flags, flags_start, flags_end, NULL, 1, key, 1,   \
                   h);                                                                          \
    T##store_cvs(h, out);                                                                       \
  }

typedef void (*blake3_lanes_group_fn)(const blake3_lanes *l, size_t i, size_t blocks,
                                      const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                                      uint8_t *out);

/* Lanes i .. i + count - 1 of l through group, width at a time, the last few as one padded
 * group. */
static inline __attribute__((always_inline)) void
blake3_lanes_groups(blake3_lanes_group_fn group, size_t width, const blake3_lanes *l, size_t i,
                    size_t count, size_t blocks, const uint32_t key[8], uint8_t flags,
                    uint8_t flags_start, uint8_t *out) {
  const size_t end = i + count;
  for (; end - i >= width; i += width)
    group(l, i, blocks, key, flags, flags_start, out + BLAKE3_OUT_LEN * i);
  if (i < end) {
    blake3_lanes_pad pad;
    uint8_t tmp[BLAKE3_MAX_DEGREE * BLAKE3_OUT_LEN];
    group(blake3_lanes_padded(&pad, l, i, end - i, width, blocks), 0, blocks, key, flags,
          flags_start, tmp);
    memcpy(out + BLAKE3_OUT_LEN * i, tmp, BLAKE3_OUT_LEN * (end - i));
  }
}

#endif /* BLAKE3_LANES_GROUP_H */
