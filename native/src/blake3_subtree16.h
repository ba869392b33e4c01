/*
 * blake3-fast: the subtree function of a kernel that hashes sixteen chunks at a time (AVX-512:
 * sixteen lanes; AVX2: two groups of eight) and keeps their CVs word-major (blake3_cv16)
 * between levels, so that every parent level is sixteen lane-parallel compressions whose
 * message words are two CVs' words side by side, with no transpose out and back in. The order
 * of the work is written here once; the kernel supplies the two steps, as static always-inline
 * functions defined before it includes this file:
 *
 *   b3s16_chunks(input, key, counter, flags, lefts, merges, ahead, out)
 *       out <- the CVs of the 16 whole chunks at input (the first is chunk number counter),
 *       then merged with lefts[0], lefts[1], .., lefts[merges - 1] in turn, each the 16 CVs of
 *       the left neighbour of what is merged so far (a merge: the 16 parents of the 32 CVs
 *       left then right, in order); out may be lefts + merges; ahead: prefetch the input
 *       (BLAKE3_PREFETCH_AHEAD), set for subtrees of BLAKE3_PREFETCH_MIN_CHUNKS or more
 *   b3s16_top(cvs, key, flags, outs, out)
 *       the four levels above 16 CVs: outs = 1: out[32] <- the CV at the top; outs = 2:
 *       out[64] <- the two CVs below it
 *
 * and B3S16_FN(fn), the function name with its suffix. Both steps inline into the loop below
 * in the kernel's own translation unit: a call per sixteen chunks through blake3_tree.c costs
 * measurably (bench/notes/kernels-refactor.md).
 */
#ifndef B3S16_FN
#error "include blake3_subtree16.h from a kernel file that defines B3S16_FN and the b3s16_ steps"
#endif

#include "blake3_impl.h"

/* Levels of pending groups: up to 2^B3S16_LEVELS groups, i.e. subtrees of up to 16 << 7 = 2048
 * chunks (the last group's merges end above the last pending level); 7 x 512 B of stack. */
#define B3S16_LEVELS 7
_Static_assert((16u << B3S16_LEVELS) >= BLAKE3_SUBTREE_MAX, "pending[] too shallow");

void B3S16_FN(blake3_subtree)(const uint8_t *input, size_t chunks, const uint32_t key[8],
                              uint64_t counter, uint8_t flags, size_t outs, uint8_t *out) {
  /* pending[l]: a finished group of sixteen CVs at level l (each the CV of 2^l x 16 chunks),
   * waiting for its right neighbour; merged lazily like a binary counter (one merge per
   * trailing zero bit of the number of groups done), so the CVs stay in L1 and the stack
   * stays small whatever the subtree size. */
  blake3_cv16 pending[B3S16_LEVELS], top;
  const size_t groups = chunks / 16;
  const int ahead = chunks >= BLAKE3_PREFETCH_MIN_CHUNKS;
  for (size_t g = 0; g < groups; g++) {
    const size_t merges = (size_t)__builtin_ctzll((unsigned long long)g + 1);
    b3s16_chunks(input + 16 * g * BLAKE3_CHUNK_LEN, key, counter + 16 * g, flags, pending,
                 merges, ahead, g + 1 < groups ? &pending[merges] : &top);
  }
  /* top: the last group merged with everything before it, the sixteen CVs under the top */
  b3s16_top(&top, key, flags, outs, out);
}
