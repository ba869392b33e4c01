/*
 * blake3-fast: definitions shared by every native source file.
 *
 * The native side is stateless. Every ISA file (blake3_<isa>.c) provides functions named
 * blake3_<fn>_<isa>, as its entry in BLAKE3_ISAS below says:
 *
 *   compress_in_place  one block, row-wise: cv <- first half of the compression output
 *   compress_xof       one block, row-wise: all 64 output bytes (for the root's XOF)
 *                      (or it names another ISA's pair)
 *   hash_many          N independent inputs of the same number of blocks, one per SIMD lane
 *   xof_many           optional: consecutive root output blocks many at a time
 *   subtree            optional: a whole aligned subtree of chunks, its CVs kept in the
 *                      kernel's own layout between levels (blake3_subtree16.h)
 *   hash_lanes         optional: N independent inputs of the same number of blocks, one per
 *                      SIMD lane, each with its own counter, last block, last block length and
 *                      last-block flags, and maybe its own starting CV and first-block flags
 *                      (the batch of many short messages, blake3_batch.c)
 *
 * blake3_dispatch.c picks one set from CPU detection; blake3_tree.c builds the tree above them,
 * the only place that decides how an input is cut.
 */
#ifndef BLAKE3_IMPL_H
#define BLAKE3_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define BLAKE3_KEY_LEN 32
#define BLAKE3_OUT_LEN 32
#define BLAKE3_BLOCK_LEN 64
#define BLAKE3_CHUNK_LEN 1024

/* The widest hash_many any kernel runs at once (AVX-512: 16; RVV at VLEN 512: 16). Kernels
 * with more lanes process several groups; the tree sizes its stack buffers from this. */
#define BLAKE3_MAX_DEGREE 16

/* How far past the block it compresses a lane-parallel kernel asks for each of its inputs: they
 * are streams a KiB apart, which the hardware prefetchers do not run far enough ahead of once
 * the input comes from memory rather than cache (bench/notes/prefetch.md). Four
 * blocks. A prefetch is a hint, not a read: past the end of an input it cannot fault. */
#define BLAKE3_PREFETCH_AHEAD 256
/* A subtree of fewer chunks than this is hashed without the hints: smaller than the L2 cache of
 * any CPU the kernels run on, it is most likely in cache already, and sixteen hints a block
 * then cost the AVX-512 kernel a few per cent for nothing. */
#define BLAKE3_PREFETCH_MIN_CHUNKS 128

/* Domain flags, from the BLAKE3 specification. */
enum blake3_flags {
  CHUNK_START = 1 << 0,
  CHUNK_END = 1 << 1,
  PARENT = 1 << 2,
  ROOT = 1 << 3,
  KEYED_HASH = 1 << 4,
  DERIVE_KEY_CONTEXT = 1 << 5,
  DERIVE_KEY_MATERIAL = 1 << 6,
};

/*
 * Every kernel, one line each; everything that lists the ISAs (the enum, the declarations, the
 * dispatch table, the names, the compiled mask, the test drivers) is generated from this list.
 *
 *   X(ID, name, arch, degree, rows, xof, subtree, lanes)
 *
 *   ID       BLAKE3_ISA_<ID>; its position is its number, which crosses JNI (NativeBlake3.java
 *            mirrors the names in this order, a test compares them): append only
 *   name     as -Dblake3.isa and BLAKE3_ISA spell it; also the file blake3_<name>.c, its
 *            functions blake3_<fn>_<name>, and BLAKE3_HAVE_<ID>=1, which CMake defines when it
 *            compiled that file
 *   arch     the architecture whose CPUs may run it (B3D_ARCH_<arch> in blake3_dispatch.c;
 *            ANY: every one); within an architecture the list order is the rank order
 *   degree   lanes one hash_many pass fills (RVV: replaced at run time by blake3_rvv_degree)
 *   rows     whose single-block compression it uses: its own name, or the name of an ISA of the
 *            same architecture that every CPU running it also runs (AVX2 uses SSE4.1's, as the
 *            official dispatch does: a wider register does not help one row-wise block)
 *   xof      WIDE: the file defines blake3_xof_many_<name>; LOOP: dispatch loops compress_xof
 *   subtree  OWN: the file defines blake3_subtree_<name> (from blake3_subtree16.h); NONE: the
 *            tree reduces hash_many's CVs
 *   lanes    OWN: the file defines blake3_hash_lanes_<name>; LOOP: dispatch runs each lane
 *            through the rows' compress_in_place, one after the other
 *
 * LSX runs eight lanes because its file switches to LASX when the CPU has it; on an LSX-only
 * core eight inputs are two 4-lane passes, which costs nothing.
 */
#define BLAKE3_ISAS(X)                                                                          \
  X(PORTABLE, portable, ANY, 1, portable, LOOP, NONE, LOOP)                                     \
  X(SSE2, sse2, X86_64, 4, sse2, LOOP, NONE, OWN)                                               \
  X(SSE41, sse41, X86_64, 4, sse41, LOOP, NONE, OWN)                                            \
  X(AVX2, avx2, X86_64, 8, sse41, LOOP, OWN, OWN)                                               \
  X(AVX512, avx512, X86_64, 16, avx512, WIDE, OWN, OWN)                                         \
  X(NEON, neon, AARCH64, 4, neon, LOOP, NONE, OWN)                                              \
  X(VSX, vsx, PPC64LE, 4, vsx, LOOP, NONE, OWN)                                                 \
  X(RVV, rvv, RISCV64, 1, rvv, LOOP, NONE, OWN)                                                 \
  X(LSX, lsx, LOONGARCH64, 8, lsx, LOOP, NONE, OWN)                                             \
  X(VX, vx, S390X, 4, vx, LOOP, NONE, OWN)

#define BLAKE3_ISA_ENUM_(ID, name, arch, degree, rows, xof, subtree, lanes) BLAKE3_ISA_##ID,
enum blake3_isa { BLAKE3_ISAS(BLAKE3_ISA_ENUM_) BLAKE3_ISA_COUNT };

/* The names in enum order, as a string-array initializer: {BLAKE3_ISA_NAMES}. */
#define BLAKE3_ISA_NAME_(ID, name, arch, degree, rows, xof, subtree, lanes) #name,
#define BLAKE3_ISA_NAMES BLAKE3_ISAS(BLAKE3_ISA_NAME_)

/* BLAKE3_IS_SET(MACRO) is 1 when MACRO is defined as 1, else 0, usable where #ifdef is not
 * (inside a macro expansion): a defined MACRO turns into a name with a comma in it. */
#define BLAKE3_IS_SET(macro) BLAKE3_IS_SET_(macro)
#define BLAKE3_IS_SET_(value) BLAKE3_IS_SET__(BLAKE3_SET_##value)
#define BLAKE3_IS_SET__(comma_or_junk) BLAKE3_SECOND_(comma_or_junk 1, 0, ~)
#define BLAKE3_SET_1 ~,
#define BLAKE3_SECOND_(a, b, ...) b
/* BLAKE3_IF(bit)(text): text when bit is 1, nothing when it is 0. */
#define BLAKE3_IF(bit) BLAKE3_IF_(bit)
#define BLAKE3_IF_(bit) BLAKE3_IF_##bit
#define BLAKE3_IF_0(...)
#define BLAKE3_IF_1(...) __VA_ARGS__

/* The specification's constants. Static in every file that includes this header, so that the
 * compiler folds them into immediates and shuffles instead of loading them. */
__attribute__((unused)) static const uint32_t blake3_iv[8] = {
    0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
    0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u,
};

/* The message schedule: BLAKE3_MSG_ROW_<r> lists the message word at each position i of round
 * r. Row 0 is the identity; each next row applies the permutation {2, 6, 3, 10, 7, 0, 4, 13, 1,
 * 11, 12, 5, 9, 14, 15, 8} to the one before. BLAKE3_WITH_ROW(F, r) is F(s0, .., s15) with
 * round r's row: for tables and unrolled code that need the numbers as literals. */
#define BLAKE3_MSG_ROW_0 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define BLAKE3_MSG_ROW_1 2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8
#define BLAKE3_MSG_ROW_2 3, 4, 10, 12, 13, 2, 7, 14, 6, 5, 9, 0, 11, 15, 8, 1
#define BLAKE3_MSG_ROW_3 10, 7, 12, 9, 14, 3, 13, 15, 4, 0, 11, 2, 5, 8, 1, 6
#define BLAKE3_MSG_ROW_4 12, 13, 9, 11, 15, 10, 14, 8, 7, 2, 5, 3, 0, 1, 6, 4
#define BLAKE3_MSG_ROW_5 9, 14, 11, 5, 8, 12, 15, 1, 13, 3, 0, 10, 2, 6, 4, 7
#define BLAKE3_MSG_ROW_6 11, 15, 5, 0, 1, 9, 8, 6, 14, 10, 2, 12, 3, 4, 7, 13
#define BLAKE3_WITH_ROW(F, r) BLAKE3_APPLY_(F, BLAKE3_MSG_ROW_##r)
#define BLAKE3_APPLY_(F, ...) F(__VA_ARGS__)

/* blake3_msg_schedule[r][i]: the same as a table. */
__attribute__((unused)) static const uint8_t blake3_msg_schedule[7][16] = {
    {BLAKE3_MSG_ROW_0}, {BLAKE3_MSG_ROW_1}, {BLAKE3_MSG_ROW_2}, {BLAKE3_MSG_ROW_3},
    {BLAKE3_MSG_ROW_4}, {BLAKE3_MSG_ROW_5}, {BLAKE3_MSG_ROW_6},
};

/* BLAKE3 words are little-endian whatever the machine (s390x is big-endian). */
static inline uint32_t blake3_load32(const void *src) {
  const uint8_t *p = (const uint8_t *)src;
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void blake3_store32(void *dst, uint32_t w) {
  uint8_t *p = (uint8_t *)dst;
  p[0] = (uint8_t)w;
  p[1] = (uint8_t)(w >> 8);
  p[2] = (uint8_t)(w >> 16);
  p[3] = (uint8_t)(w >> 24);
}

static inline uint32_t blake3_counter_low(uint64_t counter) { return (uint32_t)counter; }
static inline uint32_t blake3_counter_high(uint64_t counter) { return (uint32_t)(counter >> 32); }

/* cv[8] <- compression of one block (block_len bytes used, zero-padded to 64 by the caller). */
typedef void (*blake3_compress_in_place_fn)(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                            uint8_t block_len, uint64_t counter, uint8_t flags);

/* out[64] <- the full 16-word compression output, serialized little-endian: words 0..7 are
 * v[i] ^ v[i+8], words 8..15 are v[i+8] ^ cv[i]. */
typedef void (*blake3_compress_xof_fn)(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                       uint8_t block_len, uint64_t counter, uint8_t flags,
                                       uint8_t out[64]);

/* For each i < num_inputs: start from key, compress `blocks` full 64-byte blocks read from
 * inputs[i], with counter + (increment_counter ? i : 0), flags | flags_start on the first block
 * and flags | flags_end on the last (both on a single block), and write the 32-byte CV
 * little-endian at out + 32 * i. Chunks: blocks = 16, CHUNK_START/CHUNK_END, increment.
 * Parents: blocks = 1, flags include PARENT, no increment. Any num_inputs is allowed. */
typedef void (*blake3_hash_many_fn)(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,
                                    const uint32_t key[8], uint64_t counter, int increment_counter,
                                    uint8_t flags, uint8_t flags_start, uint8_t flags_end,
                                    uint8_t *out);

/* out[64 * n] <- compress_xof(cv, block, block_len, counter + j, flags) for j < n. */
typedef void (*blake3_xof_many_fn)(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],
                                   uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t *out,
                                   size_t n);

/* Per-lane parameters of hash_lanes, each array indexed by lane (input) number. */
typedef struct {
  const uint8_t *const *inputs; /* lane i's blocks 0 .. blocks-2 at inputs[i] + 64 b (unread
                                   when blocks == 1) */
  const uint8_t *const *lasts;  /* lane i's last block: 64 bytes, zero past last_len[i] */
  const uint32_t *counter_lo;   /* lane i's counter (the same for all its blocks), low word */
  const uint32_t *counter_hi;   /* ... and high word */
  const uint32_t *last_len;     /* lane i's last block length, 0..64 */
  const uint32_t *last_flags;   /* or-ed into lane i's last block's flags (CHUNK_END, ROOT) */
  /* NULL: every lane starts from the key, flags_start on its first block. Else lane i goes on
   * from a CV of its own, word w at cv_words[w][i] (native order: a vector load per word), and
   * its first block takes first_flags[i] in place of flags_start: the batch's lanes that
   * continue a chunk beside lanes that start one (blake3_batch.c). */
  const uint32_t *const *cv_words;
  const uint32_t *first_flags;
} blake3_lanes;

/* For each i < num_inputs: start from key (or lane i's own CV, cv_words) and compress `blocks`
 * (1..16) blocks of lane i: block b < blocks - 1 is inputs[i] + 64 b with block length 64, the
 * last is lasts[i] with length last_len[i]; every block's counter is lane i's; flags on every
 * block, | flags_start (or first_flags[i]) on block 0, | last_flags[i] on the last (both on a
 * single block). The 32-byte CV goes
 * little-endian to out + 32 * i. Lanes are independent: a kernel runs them in groups of its
 * degree, every group in lockstep (same block count), and those left over as it likes.
 * Any num_inputs is allowed. */
typedef void (*blake3_hash_lanes_fn)(const blake3_lanes *lanes, size_t num_inputs,
                                     size_t blocks, const uint32_t key[8], uint8_t flags,
                                     uint8_t flags_start, uint8_t *out);

/* Sixteen CVs word-major: w[j][i] is word j of CV i, i.e. lane i of a 16-lane vector
 * (blake3_subtree16.h). */
typedef struct {
  _Alignas(64) uint32_t w[8][16];
} blake3_cv16;

/* The aligned subtree of `chunks` full chunks at input, whose first chunk is number `counter`
 * (chunks a power of two, BLAKE3_SUBTREE_MIN..MAX): with outs = 1, out[32] <- its CV; with
 * outs = 2, out[64] <- the CVs of its two halves (the children of its top node, which may be
 * the root). Never ROOT. A kernel builds it from blake3_subtree16.h. */
typedef void (*blake3_subtree_fn)(const uint8_t *input, size_t chunks, const uint32_t key[8],
                                  uint64_t counter, uint8_t flags, size_t outs, uint8_t *out);
#define BLAKE3_SUBTREE_MIN 16
#ifndef BLAKE3_SUBTREE_MAX /* a power of two, MIN..2048; tests lower it to reach the split paths */
#define BLAKE3_SUBTREE_MAX 2048
#endif

typedef struct {
  enum blake3_isa isa;
  const char *name; /* as -Dblake3.isa spells it: "portable", "sse41", "avx512", ... */
  size_t degree;    /* lanes hash_many fills at once, 1..BLAKE3_MAX_DEGREE */
  blake3_compress_in_place_fn compress_in_place;
  blake3_compress_xof_fn compress_xof;
  blake3_hash_many_fn hash_many;
  blake3_xof_many_fn xof_many; /* never NULL once dispatched: a generic loop stands in */
  blake3_subtree_fn subtree;   /* NULL: the tree reduces hash_many's CVs itself */
  blake3_hash_lanes_fn hash_lanes; /* never NULL once dispatched: a per-lane loop stands in */
} blake3_kernel;

/* The quarter-round G of the specification on the state v[a], v[b], v[c], v[d] with the
 * message words m[x] and m[y], in vectors whose operations are named P##add, P##xor and
 * P##rot16, P##rot12, P##rot8, P##rot7 (rotations right); P may be empty. */
#define BLAKE3_G(P, a, b, c, d, x, y)                                                           \
  do {                                                                                          \
    v[a] = P##add(P##add(v[a], m[x]), v[b]);                                                    \
    v[d] = P##rot16(P##xor(v[d], v[a]));                                                        \
    v[c] = P##add(v[c], v[d]);                                                                  \
    v[b] = P##rot12(P##xor(v[b], v[c]));                                                        \
    v[a] = P##add(P##add(v[a], m[y]), v[b]);                                                    \
    v[d] = P##rot8(P##xor(v[d], v[a]));                                                         \
    v[c] = P##add(v[c], v[d]);                                                                  \
    v[b] = P##rot7(P##xor(v[b], v[c]));                                                         \
  } while (0)

/* Round r on v[0..15] with message m[0..15]: G on the four columns, then on the four
 * diagonals, one after the other (the out-of-order core finds the parallelism between them;
 * with 16 vector registers, interleaving them by hand only adds spills). */
#define BLAKE3_ROUND(P, r)                                                                      \
  do {                                                                                          \
    const uint8_t *s_ = blake3_msg_schedule[r];                                                 \
    BLAKE3_G(P, 0, 4, 8, 12, s_[0], s_[1]);                                                     \
    BLAKE3_G(P, 1, 5, 9, 13, s_[2], s_[3]);                                                     \
    BLAKE3_G(P, 2, 6, 10, 14, s_[4], s_[5]);                                                    \
    BLAKE3_G(P, 3, 7, 11, 15, s_[6], s_[7]);                                                    \
    BLAKE3_G(P, 0, 5, 10, 15, s_[8], s_[9]);                                                    \
    BLAKE3_G(P, 1, 6, 11, 12, s_[10], s_[11]);                                                  \
    BLAKE3_G(P, 2, 7, 8, 13, s_[12], s_[13]);                                                   \
    BLAKE3_G(P, 3, 4, 9, 14, s_[14], s_[15]);                                                   \
  } while (0)

/* The seven rounds of one compression, written out so that every schedule index is a
 * constant the compiler folds (a loop it might not unroll would index m[] at run time). */
#define BLAKE3_ROUNDS(P)                                                                        \
  do {                                                                                          \
    BLAKE3_ROUND(P, 0);                                                                         \
    BLAKE3_ROUND(P, 1);                                                                         \
    BLAKE3_ROUND(P, 2);                                                                         \
    BLAKE3_ROUND(P, 3);                                                                         \
    BLAKE3_ROUND(P, 4);                                                                         \
    BLAKE3_ROUND(P, 5);                                                                         \
    BLAKE3_ROUND(P, 6);                                                                         \
  } while (0)

/* The four byte offsets of word w: for byte-shuffle tables that pick whole words. */
#define BLAKE3_WORD_BYTES(w) 4 * (w), 4 * (w) + 1, 4 * (w) + 2, 4 * (w) + 3

/* hash_many's work for one input, one compression after another: the portable kernel's whole
 * hash_many, and the SIMD kernels' path for the inputs left over that do not fill their lanes.
 * Always inlined, so that `compress` becomes a direct call (inlined when in the same file). */
static inline __attribute__((always_inline)) void
blake3_hash_one(blake3_compress_in_place_fn compress, const uint8_t *input, size_t blocks,
                const uint32_t key[8], uint64_t counter, uint8_t flags, uint8_t flags_start,
                uint8_t flags_end, uint8_t out[BLAKE3_OUT_LEN]) {
  uint32_t cv[8];
  memcpy(cv, key, sizeof cv);
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  for (size_t b = 0; b < blocks; b++) {
    if (b + 1 == blocks) block_flags = (uint8_t)(block_flags | flags_end);
    compress(cv, input + b * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN, counter, block_flags);
    block_flags = flags;
  }
  for (int w = 0; w < 8; w++) blake3_store32(out + 4 * w, cv[w]);
}

/* hash_lanes' work for lane i alone, one compression after another: the stand-in for ISAs
 * without their own hash_lanes, and the SIMD kernels' path for the lanes left over. */
static inline __attribute__((always_inline)) void
blake3_lane_one(blake3_compress_in_place_fn compress, const blake3_lanes *l, size_t i,
                size_t blocks, const uint32_t key[8], uint8_t flags, uint8_t flags_start,
                uint8_t out[BLAKE3_OUT_LEN]) {
  uint32_t cv[8];
  memcpy(cv, key, sizeof cv);
  uint8_t block_flags = (uint8_t)(flags | flags_start);
  if (l->cv_words) {
    for (int w = 0; w < 8; w++) cv[w] = l->cv_words[w][i];
    block_flags = (uint8_t)(flags | l->first_flags[i]);
  }
  const uint64_t counter = (uint64_t)l->counter_lo[i] | ((uint64_t)l->counter_hi[i] << 32);
  for (size_t b = 0; b + 1 < blocks; b++) {
    compress(cv, l->inputs[i] + b * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN, counter, block_flags);
    block_flags = flags;
  }
  compress(cv, l->lasts[i], (uint8_t)l->last_len[i], counter,
           (uint8_t)(block_flags | l->last_flags[i]));
  for (int w = 0; w < 8; w++) blake3_store32(out + 4 * w, cv[w]);
}

/* Lanes i .. i + n - 1 of l (0 < n <= width <= BLAKE3_MAX_DEGREE) repeated up to width, so
 * that a group too small to fill a kernel's lanes can still go as one pass: the spare lanes
 * hash the last one again and their CVs are dropped. */
typedef struct {
  const uint8_t *inputs[BLAKE3_MAX_DEGREE], *lasts[BLAKE3_MAX_DEGREE];
  uint32_t lo[BLAKE3_MAX_DEGREE], hi[BLAKE3_MAX_DEGREE], len[BLAKE3_MAX_DEGREE],
      flags[BLAKE3_MAX_DEGREE], first[BLAKE3_MAX_DEGREE], cv[8][BLAKE3_MAX_DEGREE];
  const uint32_t *cv_words[8];
  blake3_lanes l;
} blake3_lanes_pad;

static inline const blake3_lanes *blake3_lanes_padded(blake3_lanes_pad *p, const blake3_lanes *l,
                                                      size_t i, size_t n, size_t width,
                                                      size_t blocks) {
  for (size_t k = 0; k < width; k++) {
    const size_t j = i + (k < n ? k : n - 1);
    p->inputs[k] = blocks > 1 ? l->inputs[j] : NULL; /* the contract leaves them unread */
    p->lasts[k] = l->lasts[j];
    p->lo[k] = l->counter_lo[j];
    p->hi[k] = l->counter_hi[j];
    p->len[k] = l->last_len[j];
    p->flags[k] = l->last_flags[j];
    if (l->cv_words) {
      for (int w = 0; w < 8; w++) p->cv[w][k] = l->cv_words[w][j];
      p->first[k] = l->first_flags[j];
    }
  }
  for (int w = 0; w < 8; w++) p->cv_words[w] = p->cv[w];
  p->l = (blake3_lanes){p->inputs, p->lasts,  p->lo,
                        p->hi,     p->len,    p->flags,
                        l->cv_words ? p->cv_words : NULL, p->first};
  return &p->l;
}

/* ---- per-ISA functions ---------------------------------------------------------------- */

#define BLAKE3_DECLARE_ROWS_(isa)                                                               \
  void blake3_compress_in_place_##isa(uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],    \
                                      uint8_t block_len, uint64_t counter, uint8_t flags);      \
  void blake3_compress_xof_##isa(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],   \
                                 uint8_t block_len, uint64_t counter, uint8_t flags,            \
                                 uint8_t out[64]);
#define BLAKE3_DECLARE_XOF_LOOP(isa)
#define BLAKE3_DECLARE_XOF_WIDE(isa)                                                            \
  void blake3_xof_many_##isa(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],       \
                             uint8_t block_len, uint64_t counter, uint8_t flags, uint8_t *out,  \
                             size_t n);
#define BLAKE3_DECLARE_LANES_LOOP(isa)
#define BLAKE3_DECLARE_LANES_OWN(isa)                                                           \
  void blake3_hash_lanes_##isa(const blake3_lanes *lanes, size_t num_inputs, size_t blocks,     \
                               const uint32_t key[8], uint8_t flags, uint8_t flags_start,       \
                               uint8_t *out);
#define BLAKE3_DECLARE_SUBTREE_NONE(isa)
#define BLAKE3_DECLARE_SUBTREE_OWN(isa)                                                         \
  void blake3_subtree_##isa(const uint8_t *input, size_t chunks, const uint32_t key[8],         \
                            uint64_t counter, uint8_t flags, size_t outs, uint8_t *out);
#define BLAKE3_DECLARE_KERNEL_(ID, isa, arch, degree, rows, xof, subtree, lanes)                \
  BLAKE3_DECLARE_ROWS_(rows)                                                                    \
  void blake3_hash_many_##isa(const uint8_t *const *inputs, size_t num_inputs, size_t blocks,   \
                              const uint32_t key[8], uint64_t counter, int increment_counter,   \
                              uint8_t flags, uint8_t flags_start, uint8_t flags_end,            \
                              uint8_t *out);                                                    \
  BLAKE3_DECLARE_XOF_##xof(isa) BLAKE3_DECLARE_SUBTREE_##subtree(isa)                           \
  BLAKE3_DECLARE_LANES_##lanes(isa)
BLAKE3_ISAS(BLAKE3_DECLARE_KERNEL_)

/* RVV is vector-length agnostic: its lane count is read at run time. */
size_t blake3_rvv_degree(void);

/* ---- dispatch (blake3_dispatch.c) ----------------------------------------------------- */

/* Bit set of the ISAs this CPU and build can run (bit = 1 << enum blake3_isa). */
uint32_t blake3_supported_isas(void);

/* The best kernel whose ISA is supported and ranks no higher than `cap` (cap < 0: no cap).
 * Returns NULL when cap names an ISA this build or CPU cannot run. Thread-safe. */
const blake3_kernel *blake3_kernel_for(int cap);

/* The kernel of exactly this ISA, or NULL when this build or CPU cannot run it: a plain index,
 * for lookups on every call of an ISA blake3_kernel_for chose before. Thread-safe. */
const blake3_kernel *blake3_kernel_of(int isa);

/* Parses an ISA name ("avx2", ...); -1 when unknown. */
int blake3_isa_from_name(const char *name);

/* ---- the tree (blake3_tree.c), written once for every kernel -------------------------- */

/* Hashes whole chunks [counter, counter + len / 1024) of input as the maximal aligned
 * power-of-two subtrees of at most 2^max_log chunks (max_log 63: no limit), left to right (at
 * each step the largest 2^k chunks with counter % 2^k == 0, 2^k <= chunks left and k <=
 * max_log). Writes each subtree's CV (never ROOT) as 8 words at cvs_out + 8 * i and returns
 * the number of subtrees. len must be a positive multiple of BLAKE3_CHUNK_LEN; cvs_out must
 * hold that many values: 128 for any length without a limit (2 per bit of the chunk count),
 * and with one, len / 2^(10 + max_log) plus two per bit of max_log. */
size_t blake3_hash_subtrees(const blake3_kernel *k, const uint8_t *input, size_t len,
                            const uint32_t key[8], uint64_t counter, uint8_t flags,
                            unsigned max_log, uint32_t *cvs_out);

/* The non-root CVs of `count` parent nodes, each a 64-byte block (two child CVs) at
 * blocks + 64 * i, written as 32 bytes each to out (which may be `blocks` itself). */
void blake3_hash_parent_cvs(const blake3_kernel *k, const uint8_t *blocks, size_t count,
                            const uint32_t key[8], uint8_t flags, uint8_t *out);

/* A node whose output is the root output: chaining value, block (zero past block_len) and
 * flags without ROOT, which the output stage adds. */
typedef struct {
  uint32_t cv[8];
  uint8_t block[BLAKE3_BLOCK_LEN];
  uint8_t block_len;
  uint8_t flags;
} blake3_node;

/* The root node of a whole input of len bytes: everything but the root's own compression. */
void blake3_root_node(const blake3_kernel *k, const uint8_t *input, size_t len,
                      const uint32_t key[8], uint8_t flags, blake3_node *root);

/* Root output bytes [position, position + out_len) of a root node. */
void blake3_node_output(const blake3_kernel *k, const blake3_node *root, uint64_t position,
                        uint8_t *out, size_t out_len);

/* One-shot hash of a whole input: out_len bytes of root output starting at byte `seek`
 * (blake3_root_node, then blake3_node_output). */
void blake3_hash_oneshot(const blake3_kernel *k, const uint8_t *input, size_t len,
                         const uint32_t key[8], uint8_t flags, uint64_t seek, uint8_t *out,
                         size_t out_len);

/* Root output bytes [position, position + out_len) of the output node (cv, block words,
 * block_len, flags without ROOT). */
void blake3_root_output(const blake3_kernel *k, const uint32_t cv[8], const uint32_t block[16],
                        uint8_t block_len, uint8_t flags, uint64_t position, uint8_t *out,
                        size_t out_len);

/* ---- many messages at once (blake3_batch.c) ------------------------------------------- */

/* For each i < n: the 32-byte hash of data[offsets[i] .. offsets[i] + lengths[i]) under key
 * and the mode flag `flags` (0, KEYED_HASH or DERIVE_KEY_MATERIAL) to out + 32 * i. Ranges may
 * overlap and come in any order; every one lies inside data and is at most INT32_MAX bytes. */
void blake3_hash_batch(const blake3_kernel *k, const uint8_t *data, const int32_t *offsets,
                       const int32_t *lengths, size_t n, const uint32_t key[8], uint8_t flags,
                       uint8_t *out);

#endif /* BLAKE3_IMPL_H */
