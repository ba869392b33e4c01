/*
 * blake3-fast: many independent messages hashed at once, one per SIMD lane (Blake3.hashMany).
 *
 * A message of up to a chunk is one chain of compressions, so hashed alone it fills one lane of
 * the 4 to 16 a kernel has. Here the chunks of many messages are the lanes instead:
 *
 *   1. A pass takes the next messages until their chunks would exceed B3B_TASKS. Every chunk
 *      is a task: a one-chunk message is its own root (CHUNK_END | ROOT on its last block,
 *      counter 0); the chunks of a longer message are leaves (counter = chunk index).
 *   2. The tasks are sorted by block count, longest first (a counting sort: 16 buckets), and
 *      go through the kernel's hash_lanes: runs of one length in whole groups of its width,
 *      the rest in slots of its width, each call running the slots in lockstep for the blocks
 *      the shortest has left, the slots that end refilled and the others going on from their
 *      CVs, so that no lane idles while tasks are left; the per-lane counter, last-block
 *      length and flags let messages of different lengths and roles share a call. A partial
 *      last block is copied, zero-padded, into the pass's own memory: the kernel never reads
 *      past a message.
 *   3. The leaves of the longer messages are merged level by level across all of them through
 *      hash_many (PARENT, one block): neighbours paired, an odd last CV promoted unchanged,
 *      which builds exactly the BLAKE3 tree (as blake3_tree.c's b3t_reduce does for one
 *      input); the pair that is a message's last is its root.
 *
 * Messages longer than B3B_MAX_CHUNKS chunks fill lanes on their own: blake3_hash_oneshot.
 * No allocation; the pass lives on the stack: 27 KiB at gcc 12 -O3 on x86-64 (-fstack-usage),
 * under the JNI call's 10 KiB and the kernel's frame: less than the 80 KiB HotSpot keeps free
 * below a Java frame that calls native code on Linux x86-64 (StackShadowPages, 20 pages).
 */
#include "blake3_impl.h"

#define B3B_TASKS 128u     /* chunk tasks per pass */
#define B3B_MAX_CHUNKS 8u  /* a longer message goes through blake3_hash_oneshot */
#define B3B_BUCKETS (BLAKE3_CHUNK_LEN / BLAKE3_BLOCK_LEN)

/* A chunk to hash, in message order, before sorting. */
typedef struct {
  const uint8_t *chunk;
  uint8_t *dest;     /* its 32-byte CV (a root's is the message's hash) */
  uint32_t len;      /* bytes in the chunk, 0..1024 */
  uint32_t counter;  /* chunk index within its message, < B3B_MAX_CHUNKS */
  uint32_t last_flags;
} b3b_task;

/* A message of several chunks, whose leaves' CVs wait at cvs for the parent levels. */
typedef struct {
  uint8_t *cvs;
  uint8_t *out;
  size_t count; /* CVs left at this level */
} b3b_tree;

static size_t b3b_blocks(uint32_t len) {
  return len == 0 ? 1 : (len + BLAKE3_BLOCK_LEN - 1) / BLAKE3_BLOCK_LEN;
}

/* Step 2: the tasks through hash_lanes, longest first. A run of tasks of one length fills
 * the kernel's lanes and ends together: whole groups of them go in one call straight from the
 * sorted arrays. The rest (a few mixed messages leave every last chunk of a length of its own)
 * go through as many slots as the kernel has lanes: each call runs every slot for the blocks
 * the shortest has left; the slots whose task ends there take their last block and flags and
 * are refilled from the next tasks, the others stop on a whole block and keep their CV,
 * word-major as hash_lanes reads it back (cv_words), for the next call. So no lane idles, nor
 * runs alone, while tasks are left. */
static void b3b_hash_tasks(const blake3_kernel *k, const b3b_task *tasks, size_t n,
                           const uint32_t key[8], uint8_t flags) {
  /* Sorted by block count, longest first: position p is a task's place in that order. */
  const uint8_t *inputs[B3B_TASKS], *lasts[B3B_TASKS];
  uint32_t lo[B3B_TASKS], hi[B3B_TASKS], len[B3B_TASKS], lflags[B3B_TASKS];
  uint8_t blocks_of[B3B_TASKS], *dest[B3B_TASKS];
  _Alignas(64) uint8_t padded[B3B_TASKS][BLAKE3_BLOCK_LEN];
  uint8_t cvs[B3B_TASKS * BLAKE3_OUT_LEN];
  size_t start[B3B_BUCKETS] = {0};

  /* A counting sort: tasks of b blocks begin at start[B3B_BUCKETS - b] once counts are summed. */
  for (size_t t = 0; t < n; t++) start[B3B_BUCKETS - b3b_blocks(tasks[t].len)]++;
  for (size_t b = 0, sum = 0; b < B3B_BUCKETS; b++) {
    const size_t count = start[b];
    start[b] = sum;
    sum += count;
  }
  for (size_t t = 0; t < n; t++) {
    const b3b_task *task = &tasks[t];
    const size_t blocks = b3b_blocks(task->len);
    const size_t p = start[B3B_BUCKETS - blocks]++;
    const uint32_t rest = task->len - (uint32_t)(blocks - 1) * BLAKE3_BLOCK_LEN;
    inputs[p] = task->chunk;
    if (rest == BLAKE3_BLOCK_LEN) {
      lasts[p] = task->chunk + (blocks - 1) * BLAKE3_BLOCK_LEN;
    } else { /* zero-padded in the pass's memory: the kernel never reads past a message */
      memset(padded[p], 0, BLAKE3_BLOCK_LEN);
      if (rest > 0) memcpy(padded[p], task->chunk + (blocks - 1) * BLAKE3_BLOCK_LEN, rest);
      lasts[p] = padded[p];
    }
    lo[p] = task->counter;
    hi[p] = 0;
    len[p] = rest;
    lflags[p] = task->last_flags;
    blocks_of[p] = (uint8_t)blocks;
    dest[p] = task->dest;
  }

  /* The slots' arrays hold BLAKE3_MAX_DEGREE, which dispatch caps every degree at. */
  const size_t width = k->degree < 1                   ? 1
                       : k->degree > BLAKE3_MAX_DEGREE ? BLAKE3_MAX_DEGREE
                                                       : k->degree;
  size_t next = 0;
  /* Whole groups of one length, while no slot is in use. */
  for (;;) {
    size_t same = next;
    while (same < n && blocks_of[same] == blocks_of[next]) same++;
    const size_t whole = (same - next) / width * width;
    if (whole == 0) break;
    const blake3_lanes lanes = {inputs + next, lasts + next, lo + next, hi + next,
                                len + next,    lflags + next, NULL,     NULL};
    k->hash_lanes(&lanes, whole, blocks_of[next], key, flags, CHUNK_START,
                  cvs + BLAKE3_OUT_LEN * next);
    next += whole;
  }

  /* The slots, for the rest: slot s holds task position pos[s], done[s] blocks hashed. */
  size_t pos[BLAKE3_MAX_DEGREE], done[BLAKE3_MAX_DEGREE], active = 0;
  const uint8_t *s_inputs[BLAKE3_MAX_DEGREE], *s_lasts[BLAKE3_MAX_DEGREE];
  uint32_t s_lo[BLAKE3_MAX_DEGREE], s_hi[BLAKE3_MAX_DEGREE] = {0}, s_len[BLAKE3_MAX_DEGREE],
      s_lflags[BLAKE3_MAX_DEGREE], first[BLAKE3_MAX_DEGREE], cv[8][BLAKE3_MAX_DEGREE];
  const uint32_t *const cv_words[8] = {cv[0], cv[1], cv[2], cv[3], cv[4], cv[5], cv[6], cv[7]};
  uint8_t out[BLAKE3_MAX_DEGREE * BLAKE3_OUT_LEN];
  for (;;) {
    for (; active < width && next < n; active++) { /* refill: a task starts from the key */
      pos[active] = next++;
      done[active] = 0;
    }
    if (active == 0) break;
    size_t run = B3B_BUCKETS;
    int resumed = 0;
    for (size_t s = 0; s < active; s++) {
      const size_t left = blocks_of[pos[s]] - done[s];
      if (left < run) run = left;
      resumed |= done[s] > 0;
    }
    for (size_t s = 0; s < active; s++) {
      const size_t p = pos[s];
      const int ends = blocks_of[p] - done[s] == run;
      s_inputs[s] = inputs[p] + done[s] * BLAKE3_BLOCK_LEN;
      s_lasts[s] = ends ? lasts[p] : s_inputs[s] + (run - 1) * BLAKE3_BLOCK_LEN;
      s_lo[s] = lo[p];
      s_len[s] = ends ? len[p] : BLAKE3_BLOCK_LEN;
      s_lflags[s] = ends ? lflags[p] : 0;
      first[s] = done[s] == 0 ? CHUNK_START : 0;
      if (resumed && done[s] == 0)
        for (int w = 0; w < 8; w++) cv[w][s] = key[w];
    }
    const blake3_lanes lanes = {s_inputs, s_lasts,  s_lo, s_hi, s_len, s_lflags,
                                resumed ? cv_words : NULL, first};
    k->hash_lanes(&lanes, active, run, key, flags, CHUNK_START, out);
    /* The slots that ended hand their CV on and leave; the others keep theirs, moved down. */
    size_t kept = 0;
    for (size_t s = 0; s < active; s++) {
      const uint8_t *cv_out = out + BLAKE3_OUT_LEN * s;
      if (blocks_of[pos[s]] - done[s] == run) {
        memcpy(cvs + BLAKE3_OUT_LEN * pos[s], cv_out, BLAKE3_OUT_LEN);
        continue;
      }
      pos[kept] = pos[s];
      done[kept] = done[s] + run;
      for (int w = 0; w < 8; w++) cv[w][kept] = blake3_load32(cv_out + 4 * w);
      kept++;
    }
    active = kept;
  }
  for (size_t p = 0; p < n; p++) memcpy(dest[p], cvs + BLAKE3_OUT_LEN * p, BLAKE3_OUT_LEN);
}

/* Step 3: the parent levels of every tree until each has written its root to its out. */
static void b3b_merge(const blake3_kernel *k, b3b_tree *trees, size_t ntrees,
                      const uint32_t key[8], uint8_t flags) {
  const uint8_t *ptrs[B3B_TASKS / 2];
  uint8_t *dest[B3B_TASKS / 2];
  uint8_t tmp[B3B_TASKS / 2 * BLAKE3_OUT_LEN];
  for (;;) {
    /* Roots first (a tree with two CVs left), then every other pair of this level. */
    size_t roots = 0;
    for (size_t m = 0; m < ntrees; m++) {
      if (trees[m].count != 2) continue;
      ptrs[roots] = trees[m].cvs;
      dest[roots++] = trees[m].out;
      trees[m].count = 1;
    }
    if (roots > 0) {
      k->hash_many(ptrs, roots, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, ROOT, tmp);
      for (size_t j = 0; j < roots; j++) memcpy(dest[j], tmp + BLAKE3_OUT_LEN * j, BLAKE3_OUT_LEN);
    }
    size_t n = 0;
    for (size_t m = 0; m < ntrees; m++) {
      const size_t count = trees[m].count;
      if (count < 3) continue;
      for (size_t j = 0; j < count / 2; j++) {
        ptrs[n] = trees[m].cvs + 2 * BLAKE3_OUT_LEN * j;
        dest[n++] = trees[m].cvs + BLAKE3_OUT_LEN * j;
      }
    }
    if (n == 0) return;
    k->hash_many(ptrs, n, 1, key, 0, 0, (uint8_t)(flags | PARENT), 0, 0, tmp);
    /* Every parent of the level is read before any is written back over its children. */
    for (size_t j = 0; j < n; j++) memcpy(dest[j], tmp + BLAKE3_OUT_LEN * j, BLAKE3_OUT_LEN);
    for (size_t m = 0; m < ntrees; m++) {
      const size_t count = trees[m].count;
      if (count < 3) continue;
      if (count & 1) /* the odd last CV moves up unchanged */
        memcpy(trees[m].cvs + BLAKE3_OUT_LEN * (count / 2),
               trees[m].cvs + BLAKE3_OUT_LEN * (count - 1), BLAKE3_OUT_LEN);
      trees[m].count = count / 2 + (count & 1);
    }
  }
}

void blake3_hash_batch(const blake3_kernel *k, const uint8_t *data, const int32_t *offsets,
                       const int32_t *lengths, size_t n, const uint32_t key[8], uint8_t flags,
                       uint8_t *out) {
  b3b_task tasks[B3B_TASKS];
  b3b_tree trees[B3B_TASKS / 2];
  uint8_t leaf_cvs[B3B_TASKS * BLAKE3_OUT_LEN];
  size_t i = 0;
  while (i < n) {
    size_t ntasks = 0, ntrees = 0;
    for (; i < n; i++) {
      const uint8_t *msg = data + offsets[i];
      const size_t len = (size_t)lengths[i];
      uint8_t *dest = out + (size_t)BLAKE3_OUT_LEN * i;
      if (len > (size_t)B3B_MAX_CHUNKS * BLAKE3_CHUNK_LEN) {
        blake3_hash_oneshot(k, msg, len, key, flags, 0, dest, BLAKE3_OUT_LEN);
        continue;
      }
      const size_t chunks = len == 0 ? 1 : (len + BLAKE3_CHUNK_LEN - 1) / BLAKE3_CHUNK_LEN;
      if (ntasks + chunks > B3B_TASKS) break; /* the next pass takes it */
      if (chunks == 1) {
        tasks[ntasks++] = (b3b_task){msg, dest, (uint32_t)len, 0, CHUNK_END | ROOT};
        continue;
      }
      uint8_t *cvs = leaf_cvs + BLAKE3_OUT_LEN * ntasks;
      trees[ntrees++] = (b3b_tree){cvs, dest, chunks};
      for (size_t c = 0; c < chunks; c++) {
        const size_t rest = len - c * BLAKE3_CHUNK_LEN;
        tasks[ntasks++] = (b3b_task){msg + c * BLAKE3_CHUNK_LEN, cvs + BLAKE3_OUT_LEN * c,
                                     (uint32_t)(rest < BLAKE3_CHUNK_LEN ? rest : BLAKE3_CHUNK_LEN),
                                     (uint32_t)c, CHUNK_END};
      }
    }
    if (ntasks > 0) b3b_hash_tasks(k, tasks, ntasks, key, flags);
    if (ntrees > 0) b3b_merge(k, trees, ntrees, key, flags);
  }
}
