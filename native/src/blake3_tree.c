/*
 * blake3-fast: the hash tree above the kernels, written once for all of them.
 *
 * No allocation; stack use is bounded (about 14 KiB at the deepest point, gcc 12 -O3 on x86-64:
 * blake3_hash_oneshot 2.3 KiB -> b3t_subtree 2.3 KiB -> b3t_wide 5 KiB -> AVX-512 hash_many
 * 4 KiB; or b3t_subtree -> the AVX-512 subtree 8 KiB (AVX2's 6.5 KiB). b3t_wide stays out of line so that its
 * 4 KiB of CVs is on the stack only while it runs, not under every path through its callers):
 *   - a "wide" pass hashes up to B3T_GROUP consecutive chunks through hash_many, `degree` at a
 *     time, then reduces their CVs level by level, again through hash_many with PARENT. Pairing
 *     neighbours and promoting an odd last CV unchanged to the next level builds exactly the
 *     BLAKE3 tree (left subtree = the largest power of two of chunks smaller than the total).
 *   - a kernel with a subtree function (AVX2, AVX-512) hashes whole aligned power-of-two subtrees of
 *     BLAKE3_SUBTREE_MIN..MAX chunks itself instead, keeping the CVs in registers between
 *     levels; the groups below are then that large.
 *   - a power-of-two subtree larger than one group is hashed group by group, with a stack of
 *     group CVs merged lazily (one merge per trailing zero bit of the number of groups done).
 *   - a one-shot hash peels off left subtrees (largest power of two strictly below what is
 *     left) until at most one group remains (or, with a kernel subtree, until what remains is
 *     a power of two of whole chunks), hashes that tail, then folds the right spine. Only the
 *     root node gets ROOT, in the output stage.
 */
#include "blake3_impl.h"

#define B3T_GROUP 128u      /* chunks per wide pass: 128 CVs = 4 KiB of stack */
#define B3T_MAX_LEVELS 64u  /* CV stack depth: enough for any 64-bit chunk count */
#define B3T_BLOCKS_PER_CHUNK (BLAKE3_CHUNK_LEN / BLAKE3_BLOCK_LEN)
#define B3T_ROUTE_BLOCKS 8u /* a chunk of more blocks than this: see b3t_chunk_open */

static void b3t_cv_to_bytes(const uint32_t cv[8], uint8_t out[32]) {
  for (int i = 0; i < 8; i++) blake3_store32(out + 4 * i, cv[i]);
}

static uint64_t b3t_floor_pow2(uint64_t x) { /* x > 0 */
  return (uint64_t)1 << (63 - __builtin_clzll(x));
}

/* The size in chunks of the maximal aligned subtree at chunk c with `chunks` (> 0) to go: the
 * largest power of two that fits and divides c. */
static inline uint64_t b3t_max_subtree(uint64_t c, uint64_t chunks) {
  uint64_t size = b3t_floor_pow2(chunks);
  if (c != 0) {
    const uint64_t align = c & (~c + 1); /* lowest set bit */
    if (align < size) size = align;
  }
  return size;
}

/* Compresses all but the last block of a chunk of len bytes (0..1024) and leaves the node of
 * the last block: cv, the zero-padded block, its length and its flags (CHUNK_END included). */
static void b3t_chunk_open(const blake3_kernel *k, const uint8_t *chunk, size_t len,
                           const uint32_t key[8], uint64_t counter, uint8_t flags, uint32_t cv[8],
                           uint8_t block[BLAKE3_BLOCK_LEN], uint8_t *block_len,
                           uint8_t *block_flags) {
  size_t nblocks = len == 0 ? 1 : (len + BLAKE3_BLOCK_LEN - 1) / BLAKE3_BLOCK_LEN;
  uint8_t f = (uint8_t)(flags | CHUNK_START);
  if (k->degree > 1 && nblocks > B3T_ROUTE_BLOCKS) {
    /* The blocks before the last as one input of a SIMD kernel's hash_many, whose single-input
     * path keeps the CV in registers from block to block (x86: hash_one_rows) instead of
     * passing it through memory at each call. The call costs a fixed amount, the saving is per
     * block: below a few blocks, and for the portable kernel, whose hash_many is the same loop
     * of compressions, the plain loop is faster (bench/notes/single-block-sse-kernels.md,
     * change 11). */
    uint8_t cv_bytes[BLAKE3_OUT_LEN];
    k->hash_many(&chunk, 1, nblocks - 1, key, counter, 0, flags, CHUNK_START, 0, cv_bytes);
    for (int w = 0; w < 8; w++) cv[w] = blake3_load32(cv_bytes + 4 * w);
    f = flags;
  } else {
    memcpy(cv, key, 32);
    for (size_t b = 0; b + 1 < nblocks; b++) {
      k->compress_in_place(cv, chunk + b * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN, counter, f);
      f = flags;
    }
  }
  size_t rest = len - (nblocks - 1) * BLAKE3_BLOCK_LEN;
  if (rest == BLAKE3_BLOCK_LEN) { /* a fixed-size copy: a few moves, no library call */
    memcpy(block, chunk + (nblocks - 1) * BLAKE3_BLOCK_LEN, BLAKE3_BLOCK_LEN);
  } else {
    memset(block, 0, BLAKE3_BLOCK_LEN);
    if (rest > 0) memcpy(block, chunk + (nblocks - 1) * BLAKE3_BLOCK_LEN, rest);
  }
  *block_len = (uint8_t)rest;
  *block_flags = (uint8_t)(f | CHUNK_END);
}

/* The CV of one non-root chunk of len bytes (1..1024). */
static void b3t_chunk_cv(const blake3_kernel *k, const uint8_t *chunk, size_t len,
                         const uint32_t key[8], uint64_t counter, uint8_t flags, uint8_t out[32]) {
  uint32_t cv[8];
  uint8_t block[BLAKE3_BLOCK_LEN], block_len, block_flags;
  b3t_chunk_open(k, chunk, len, key, counter, flags, cv, block, &block_len, &block_flags);
  k->compress_in_place(cv, block, block_len, counter, block_flags);
  b3t_cv_to_bytes(cv, out);
}

/* The CV of a non-root parent node whose 64-byte block is two child CVs. out may alias block. */
static void b3t_parent_cv(const blake3_kernel *k, const uint8_t block[BLAKE3_BLOCK_LEN],
                          const uint32_t key[8], uint8_t flags, uint8_t out[32]) {
  uint32_t cv[8];
  memcpy(cv, key, 32);
  k->compress_in_place(cv, block, BLAKE3_BLOCK_LEN, 0, (uint8_t)(flags | PARENT));
  b3t_cv_to_bytes(cv, out);
}

/* Reduces `count` CVs (32 bytes each, in place) level by level until at most `stop` remain;
 * returns how many remain. */
static size_t b3t_reduce(const blake3_kernel *k, uint8_t *cvs, size_t count, size_t stop,
                         const uint32_t key[8], uint8_t flags) {
  const size_t deg = k->degree;
  const uint8_t *ptrs[BLAKE3_MAX_DEGREE];
  uint8_t tmp[BLAKE3_MAX_DEGREE * 32];
  while (count > stop) {
    const size_t pairs = count / 2;
    for (size_t i = 0; i < pairs; i += deg) {
      const size_t n = pairs - i < deg ? pairs - i : deg;
      for (size_t j = 0; j < n; j++) ptrs[j] = cvs + 64 * (i + j);
      k->hash_many(ptrs, n, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, 0, tmp);
      /* the batch's inputs start at 64 * i >= 32 * i: what we overwrite is already read */
      memcpy(cvs + 32 * i, tmp, 32 * n);
    }
    if (count & 1) memcpy(cvs + 32 * pairs, cvs + 32 * (count - 1), 32);
    count = pairs + (count & 1);
  }
  return count;
}

/* Hashes m (1..B3T_GROUP) consecutive chunks starting at chunk `counter`; all are full except
 * that the last holds last_len bytes (1..1024). Reduces to at most `stop` CVs (1 or 2; for a
 * run of equal aligned subtrees, one per subtree) and writes them to out; returns how many. */
__attribute__((noinline)) static size_t b3t_wide(const blake3_kernel *k, const uint8_t *input,
                                                 size_t m, size_t last_len, const uint32_t key[8],
                                                 uint64_t counter, uint8_t flags, size_t stop,
                                                 uint8_t *out) {
  uint8_t cvs[B3T_GROUP * 32];
  const uint8_t *ptrs[BLAKE3_MAX_DEGREE];
  const size_t deg = k->degree;
  const size_t full = last_len == BLAKE3_CHUNK_LEN ? m : m - 1;
  for (size_t i = 0; i < full; i += deg) {
    const size_t n = full - i < deg ? full - i : deg;
    for (size_t j = 0; j < n; j++) ptrs[j] = input + (i + j) * BLAKE3_CHUNK_LEN;
    k->hash_many(ptrs, n, B3T_BLOCKS_PER_CHUNK, key, counter + i, 1, flags, CHUNK_START,
                 CHUNK_END, cvs + 32 * i);
  }
  if (full < m)
    b3t_chunk_cv(k, input + full * BLAKE3_CHUNK_LEN, last_len, key, counter + full, flags,
                 cvs + 32 * full);
  const size_t left = b3t_reduce(k, cvs, m, stop, key, flags);
  memcpy(out, cvs, 32 * left);
  return left;
}

/* The CV of one aligned group of n chunks (a power of two, at most the group size below):
 * through the kernel's own subtree when it has one and n is large enough, else the wide way. */
static void b3t_group(const blake3_kernel *k, const uint8_t *input, uint64_t n,
                      const uint32_t key[8], uint64_t counter, uint8_t flags, uint8_t out[32]) {
  if (k->subtree != NULL && n >= BLAKE3_SUBTREE_MIN)
    k->subtree(input, (size_t)n, key, counter, flags, 1, out);
  else
    b3t_wide(k, input, (size_t)n, BLAKE3_CHUNK_LEN, key, counter, flags, 1, out);
}

/* The CV of the aligned subtree of n chunks (a power of two) starting at chunk `counter`. */
static void b3t_subtree(const blake3_kernel *k, const uint8_t *input, uint64_t n,
                        const uint32_t key[8], uint64_t counter, uint8_t flags, uint8_t out[32]) {
  const uint64_t group = k->subtree != NULL ? BLAKE3_SUBTREE_MAX : B3T_GROUP;
  if (n <= group) {
    b3t_group(k, input, n, key, counter, flags, out);
    return;
  }
  uint8_t stack[B3T_MAX_LEVELS * 32];
  size_t depth = 0;
  const uint64_t groups = n / group;
  for (uint64_t g = 0; g < groups; g++) {
    b3t_group(k, input + (size_t)(g * group) * BLAKE3_CHUNK_LEN, group, key, counter + g * group,
              flags, stack + 32 * depth);
    depth++;
    for (uint64_t done = g + 1; (done & 1) == 0; done >>= 1) {
      b3t_parent_cv(k, stack + 32 * (depth - 2), key, flags, stack + 32 * (depth - 2));
      depth--;
    }
  }
  memcpy(out, stack, 32);
}

/* Root output bytes [position, position + out_len) of a node given as bytes. */
static void b3t_output(const blake3_kernel *k, const uint32_t cv[8],
                       const uint8_t block[BLAKE3_BLOCK_LEN], uint8_t block_len, uint8_t flags,
                       uint64_t position, uint8_t *out, size_t out_len) {
  const uint8_t f = (uint8_t)(flags | ROOT);
  uint64_t counter = position / BLAKE3_BLOCK_LEN;
  const size_t skip = (size_t)(position % BLAKE3_BLOCK_LEN);
  uint8_t tmp[BLAKE3_BLOCK_LEN];
  if (out_len == 0) return;
  if (skip == 0 && out_len <= BLAKE3_OUT_LEN) {
    /* The first 32 output bytes are the root compression's CV: no full XOF block needed. */
    uint32_t root_cv[8];
    memcpy(root_cv, cv, 32);
    k->compress_in_place(root_cv, block, block_len, counter, f);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* One wide copy: the caller (Java, through a slot) reads the hash back with wide loads, which
     * cannot be forwarded from eight narrower stores still in the store buffer. */
    if (out_len == BLAKE3_OUT_LEN) {
      memcpy(out, root_cv, BLAKE3_OUT_LEN); /* a constant size: two moves, no library call */
    } else {
      memcpy(out, root_cv, out_len);
    }
#else
    b3t_cv_to_bytes(root_cv, tmp);
    memcpy(out, tmp, out_len);
#endif
    return;
  }
  if (skip != 0) {
    k->compress_xof(cv, block, block_len, counter, f, tmp);
    size_t take = BLAKE3_BLOCK_LEN - skip;
    if (take > out_len) take = out_len;
    memcpy(out, tmp + skip, take);
    out += take;
    out_len -= take;
    counter++;
  }
  const size_t whole = out_len / BLAKE3_BLOCK_LEN;
  if (whole != 0) {
    k->xof_many(cv, block, block_len, counter, f, out, whole);
    out += whole * BLAKE3_BLOCK_LEN;
    out_len -= whole * BLAKE3_BLOCK_LEN;
    counter += whole;
  }
  if (out_len != 0) {
    k->compress_xof(cv, block, block_len, counter, f, tmp);
    memcpy(out, tmp, out_len);
  }
}

/* The CVs of the run of whole subtrees of `size` chunks (a power of two below B3T_GROUP) that
 * starts at chunk `counter` (a multiple of size): as many as fit in one wide pass and in
 * `chunks`, reduced level by level down to one CV per subtree, as words to cvs_out. Returns
 * how many subtrees; *done gets their chunks. */
__attribute__((noinline)) static size_t b3t_run(const blake3_kernel *k, const uint8_t *input,
                                                uint64_t size, uint64_t chunks,
                                                const uint32_t key[8], uint64_t counter,
                                                uint8_t flags, uint32_t *cvs_out, uint64_t *done) {
  uint8_t cvs[B3T_GROUP * 32];
  uint64_t run = size;
  while (run + size <= B3T_GROUP && run + size <= chunks) run += size;
  const size_t n = (size_t)(run / size);
  b3t_wide(k, input, (size_t)run, BLAKE3_CHUNK_LEN, key, counter, flags, n, cvs);
  for (size_t i = 0; i < 8 * n; i++) cvs_out[i] = blake3_load32(cvs + 4 * i);
  *done = run;
  return n;
}

size_t blake3_hash_subtrees(const blake3_kernel *k, const uint8_t *input, size_t len,
                            const uint32_t key[8], uint64_t counter, uint8_t flags,
                            unsigned max_log, uint32_t *cvs_out) {
  const uint64_t cap = max_log < 63 ? (uint64_t)1 << max_log : UINT64_MAX;
  uint64_t chunks = len / BLAKE3_CHUNK_LEN;
  size_t count = 0;
  while (chunks > 0) {
    uint64_t size = b3t_max_subtree(counter, chunks);
    if (size > cap) {
      size = cap;
      if (size < B3T_GROUP && (k->subtree == NULL || size < BLAKE3_SUBTREE_MIN)) {
        /* Small capped subtrees (Bao's chunk groups) come many of a size in a row: one wide
         * pass for as many as fit, so that chunks of neighbouring subtrees share the lanes. */
        count += b3t_run(k, input, size, chunks, key, counter, flags, cvs_out + 8 * count, &size);
        input += (size_t)size * BLAKE3_CHUNK_LEN;
        chunks -= size;
        counter += size;
        continue;
      }
    }
    uint8_t cv[32];
    b3t_subtree(k, input, size, key, counter, flags, cv);
    for (int w = 0; w < 8; w++) cvs_out[8 * count + w] = blake3_load32(cv + 4 * w);
    count++;
    input += (size_t)size * BLAKE3_CHUNK_LEN;
    chunks -= size;
    counter += size;
  }
  return count;
}

void blake3_hash_parent_cvs(const blake3_kernel *k, const uint8_t *blocks, size_t count,
                            const uint32_t key[8], uint8_t flags, uint8_t *out) {
  const uint8_t *ptrs[BLAKE3_MAX_DEGREE];
  uint8_t tmp[BLAKE3_MAX_DEGREE * 32];
  const size_t deg = k->degree;
  for (size_t i = 0; i < count; i += deg) {
    const size_t n = count - i < deg ? count - i : deg;
    for (size_t j = 0; j < n; j++) ptrs[j] = blocks + 64 * (i + j);
    k->hash_many(ptrs, n, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, 0, tmp);
    /* through tmp: out may overlap blocks (a level reduced in place) */
    memcpy(out + 32 * i, tmp, 32 * n);
  }
}

void blake3_root_node(const blake3_kernel *k, const uint8_t *input, size_t len,
                      const uint32_t key[8], uint8_t flags, blake3_node *root) {
  uint8_t *block = root->block;
  if (len <= BLAKE3_CHUNK_LEN) { /* one chunk: its last block is the root node */
    b3t_chunk_open(k, input, len, key, 0, flags, root->cv, block, &root->block_len,
                   &root->flags);
    return;
  }
  const uint64_t chunks = len / BLAKE3_CHUNK_LEN + (len % BLAKE3_CHUNK_LEN != 0);
  const size_t last_len = len - (size_t)(chunks - 1) * BLAKE3_CHUNK_LEN;

  /* With a kernel subtree, a tail of whole chunks that is a power of two is itself a subtree
   * (or, for the whole input, two): hash it as such instead of peeling it further into ever
   * smaller subtrees, each ending in its own narrow levels. */
  const int whole_tail = k->subtree != NULL && last_len == BLAKE3_CHUNK_LEN;
  uint8_t lefts[B3T_MAX_LEVELS * 32];
  size_t nleft = 0;
  uint64_t pos = 0, remaining = chunks;
  while (remaining > B3T_GROUP && !(whole_tail && (remaining & (remaining - 1)) == 0)) {
    const uint64_t size = b3t_floor_pow2(remaining - 1);
    b3t_subtree(k, input + (size_t)pos * BLAKE3_CHUNK_LEN, size, key, pos, flags,
                lefts + 32 * nleft);
    nleft++;
    pos += size;
    remaining -= size;
  }
  /* the tail: the whole root when nothing was peeled off, else the last right child */
  const uint8_t *tail = input + (size_t)pos * BLAKE3_CHUNK_LEN;
  if (whole_tail && (remaining & (remaining - 1)) == 0 && remaining >= BLAKE3_SUBTREE_MIN) {
    if (nleft > 0) {
      b3t_subtree(k, tail, remaining, key, pos, flags, block + 32);
    } else if (remaining <= BLAKE3_SUBTREE_MAX) {
      k->subtree(tail, (size_t)remaining, key, pos, flags, 2, block);
    } else {
      const uint64_t half = remaining / 2;
      b3t_subtree(k, tail, half, key, pos, flags, block);
      b3t_subtree(k, tail + (size_t)half * BLAKE3_CHUNK_LEN, half, key, pos + half, flags,
                  block + 32);
    }
  } else {
    b3t_wide(k, tail, (size_t)remaining, last_len, key, pos, flags, nleft == 0 ? 2 : 1,
             nleft == 0 ? block : block + 32);
  }
  if (nleft > 0) {
    for (size_t i = nleft - 1; i >= 1; i--) {
      memcpy(block, lefts + 32 * i, 32);
      b3t_parent_cv(k, block, key, flags, block + 32);
    }
    memcpy(block, lefts, 32);
  }
  memcpy(root->cv, key, 32);
  root->block_len = BLAKE3_BLOCK_LEN;
  root->flags = (uint8_t)(flags | PARENT);
}

void blake3_node_output(const blake3_kernel *k, const blake3_node *root, uint64_t position,
                        uint8_t *out, size_t out_len) {
  b3t_output(k, root->cv, root->block, root->block_len, root->flags, position, out, out_len);
}

void blake3_hash_oneshot(const blake3_kernel *k, const uint8_t *input, size_t len,
                         const uint32_t key[8], uint8_t flags, uint64_t seek, uint8_t *out,
                         size_t out_len) {
  blake3_node root;
  blake3_root_node(k, input, len, key, flags, &root);
  blake3_node_output(k, &root, seek, out, out_len);
}

void blake3_root_output(const blake3_kernel *k, const uint32_t cv[8], const uint32_t block[16],
                        uint8_t block_len, uint8_t flags, uint64_t position, uint8_t *out,
                        size_t out_len) {
  uint8_t bytes[BLAKE3_BLOCK_LEN];
  for (int i = 0; i < 16; i++) blake3_store32(bytes + 4 * i, block[i]);
  b3t_output(k, cv, bytes, block_len, flags, position, out, out_len);
}
