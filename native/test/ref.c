/* blake3-fast test helper: see ref.h. Clarity over speed. */
#include "ref.h"

#include <string.h>

const uint32_t ref_iv[8] = {0x6A09E667u, 0xBB67AE85u, 0x3C6EF372u, 0xA54FF53Au,
                            0x510E527Fu, 0x9B05688Cu, 0x1F83D9ABu, 0x5BE0CD19u};

static const unsigned ref_perm[16] = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};

enum { R_CHUNK_START = 1, R_CHUNK_END = 2, R_PARENT = 4, R_ROOT = 8 };

static uint32_t rd32(const uint8_t *p) {
  uint32_t w = 0;
  for (int i = 3; i >= 0; i--) w = (w << 8) | p[i];
  return w;
}

static void wr32(uint8_t *p, uint32_t w) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(w >> (8 * i));
}

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void mix(uint32_t s[16], int a, int b, int c, int d, uint32_t x, uint32_t y) {
  s[a] = s[a] + s[b] + x;
  s[d] = rotr(s[d] ^ s[a], 16);
  s[c] = s[c] + s[d];
  s[b] = rotr(s[b] ^ s[c], 12);
  s[a] = s[a] + s[b] + y;
  s[d] = rotr(s[d] ^ s[a], 8);
  s[c] = s[c] + s[d];
  s[b] = rotr(s[b] ^ s[c], 7);
}

void ref_key_words(const uint8_t key[32], uint32_t words[8]) {
  for (int i = 0; i < 8; i++) words[i] = rd32(key + 4 * i);
}

void ref_compress(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
                  uint64_t counter, uint8_t flags, uint32_t out[16]) {
  uint32_t m[16], s[16], t[16];
  for (int i = 0; i < 16; i++) m[i] = rd32(block + 4 * i);
  for (int i = 0; i < 8; i++) s[i] = cv[i];
  for (int i = 0; i < 4; i++) s[8 + i] = ref_iv[i];
  s[12] = (uint32_t)counter;
  s[13] = (uint32_t)(counter >> 32);
  s[14] = block_len;
  s[15] = flags;
  for (int r = 0; r < 7; r++) {
    mix(s, 0, 4, 8, 12, m[0], m[1]);
    mix(s, 1, 5, 9, 13, m[2], m[3]);
    mix(s, 2, 6, 10, 14, m[4], m[5]);
    mix(s, 3, 7, 11, 15, m[6], m[7]);
    mix(s, 0, 5, 10, 15, m[8], m[9]);
    mix(s, 1, 6, 11, 12, m[10], m[11]);
    mix(s, 2, 7, 8, 13, m[12], m[13]);
    mix(s, 3, 4, 9, 14, m[14], m[15]);
    for (int i = 0; i < 16; i++) t[i] = m[ref_perm[i]];
    memcpy(m, t, sizeof m);
  }
  for (int i = 0; i < 8; i++) {
    out[i] = s[i] ^ s[i + 8];
    out[i + 8] = s[i + 8] ^ cv[i];
  }
}

void ref_node_cv(const ref_node *n, uint32_t cv[8]) {
  uint32_t o[16];
  ref_compress(n->cv, n->block, n->block_len, n->counter, n->flags, o);
  memcpy(cv, o, 32);
}

static ref_node ref_chunk(const uint8_t *chunk, size_t len, const uint32_t key[8], uint8_t flags,
                          uint64_t counter) {
  ref_node n;
  memcpy(n.cv, key, 32);
  n.counter = counter;
  uint8_t start = R_CHUNK_START;
  size_t pos = 0;
  while (len - pos > 64) {
    uint32_t o[16];
    ref_compress(n.cv, chunk + pos, 64, counter, (uint8_t)(flags | start), o);
    memcpy(n.cv, o, 32);
    start = 0;
    pos += 64;
  }
  memset(n.block, 0, 64);
  if (len > pos) memcpy(n.block, chunk + pos, len - pos);
  n.block_len = (uint8_t)(len - pos);
  n.flags = (uint8_t)(flags | start | R_CHUNK_END);
  return n;
}

static ref_node ref_parent(const uint32_t l[8], const uint32_t r[8], const uint32_t key[8],
                           uint8_t flags) {
  ref_node n;
  memcpy(n.cv, key, 32);
  for (int i = 0; i < 8; i++) {
    wr32(n.block + 4 * i, l[i]);
    wr32(n.block + 32 + 4 * i, r[i]);
  }
  n.block_len = 64;
  n.flags = (uint8_t)(flags | R_PARENT);
  n.counter = 0;
  return n;
}

ref_node ref_tree(const uint8_t *input, size_t len, const uint32_t key[8], uint8_t flags,
                  uint64_t counter) {
  if (len <= 1024) return ref_chunk(input, len, key, flags, counter);
  /* left: the largest power of two of whole chunks that leaves at least one byte on the right */
  uint64_t left_chunks = 1;
  while (left_chunks * 2 * 1024 < len) left_chunks *= 2;
  size_t left_len = (size_t)left_chunks * 1024;
  ref_node l = ref_tree(input, left_len, key, flags, counter);
  ref_node r = ref_tree(input + left_len, len - left_len, key, flags, counter + left_chunks);
  uint32_t lcv[8], rcv[8];
  ref_node_cv(&l, lcv);
  ref_node_cv(&r, rcv);
  return ref_parent(lcv, rcv, key, flags);
}

void ref_root_output(const ref_node *n, uint64_t position, uint8_t *out, size_t out_len) {
  size_t done = 0;
  while (done < out_len) {
    uint64_t p = position + done;
    uint32_t o[16];
    uint8_t bytes[64];
    ref_compress(n->cv, n->block, n->block_len, p / 64, (uint8_t)(n->flags | R_ROOT), o);
    for (int i = 0; i < 16; i++) wr32(bytes + 4 * i, o[i]);
    size_t off = (size_t)(p % 64), take = 64 - off;
    if (take > out_len - done) take = out_len - done;
    memcpy(out + done, bytes + off, take);
    done += take;
  }
}

void ref_hash(const uint8_t *input, size_t len, const uint32_t key[8], uint8_t flags,
              uint64_t seek, uint8_t *out, size_t out_len) {
  ref_node root = ref_tree(input, len, key, flags, 0);
  ref_root_output(&root, seek, out, out_len);
}

size_t ref_subtrees(const uint8_t *input, uint64_t chunks, const uint32_t key[8], uint8_t flags,
                    uint64_t counter, uint32_t *cvs) {
  size_t count = 0;
  while (chunks > 0) {
    uint64_t size = 1;
    while (size * 2 <= chunks && (counter % (size * 2)) == 0) size *= 2;
    ref_node n = ref_tree(input, (size_t)size * 1024, key, flags, counter);
    ref_node_cv(&n, cvs + 8 * count);
    count++;
    input += (size_t)size * 1024;
    counter += size;
    chunks -= size;
  }
  return count;
}
