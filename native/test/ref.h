/*
 * blake3-fast test helper: a deliberately simple BLAKE3, written straight from the
 * specification and independent of the library (its own compression loop, message permutation
 * and recursive tree). The harness and the fuzz target check the library against it.
 */
#ifndef BLAKE3_TEST_REF_H
#define BLAKE3_TEST_REF_H

#include <stddef.h>
#include <stdint.h>

/* An uncompressed node: what the root's output is made of. */
typedef struct {
  uint32_t cv[8];
  uint8_t block[64];
  uint8_t block_len;
  uint8_t flags;      /* without ROOT */
  uint64_t counter;   /* chunk counter (0 for parents) */
} ref_node;

extern const uint32_t ref_iv[8];

/* The sixteen output words of one compression. */
void ref_compress(const uint32_t cv[8], const uint8_t block[64], uint8_t block_len,
                  uint64_t counter, uint8_t flags, uint32_t out[16]);

/* The node at the top of the tree over input[0..len) whose first chunk is `counter`. */
ref_node ref_tree(const uint8_t *input, size_t len, const uint32_t key[8], uint8_t flags,
                  uint64_t counter);

/* The chaining value of a node (first eight output words). */
void ref_node_cv(const ref_node *n, uint32_t cv[8]);

/* Root output bytes [position, position + out_len) of a node. */
void ref_root_output(const ref_node *n, uint64_t position, uint8_t *out, size_t out_len);

/* Whole hash: out_len bytes of root output from byte `seek`. */
void ref_hash(const uint8_t *input, size_t len, const uint32_t key[8], uint8_t flags,
              uint64_t seek, uint8_t *out, size_t out_len);

/* Splits chunks [counter, counter + chunks) into maximal aligned power-of-two subtrees and
 * writes each one's CV (8 words); returns their number. */
size_t ref_subtrees(const uint8_t *input, uint64_t chunks, const uint32_t key[8], uint8_t flags,
                    uint64_t counter, uint32_t *cvs);

/* Words of a 32-byte key, little-endian. */
void ref_key_words(const uint8_t key[32], uint32_t words[8]);

#endif
