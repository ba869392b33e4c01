/*
 * The official test vectors, checked the same way by the C harness (harness.c) and by the
 * freestanding harness (platforms/freestanding/fs_harness.c). The freestanding one has no C
 * library, so nothing here calls one; each harness reads the vectors its own way (a file, or
 * a table generated at build time) and reports each result through its own function.
 *
 * A case is one line of the official vectors: an input length and, for each mode (hash,
 * keyed_hash, derive_key), the hex of the output (131 bytes in the official files; the first
 * VEC_MAX_OUT bytes are checked). Each mode is checked whole, at the default 32 bytes, and read
 * from positions inside the first block, on its end and in the next one.
 */
#ifndef BLAKE3_VECTOR_CHECK_H
#define BLAKE3_VECTOR_CHECK_H

#include "blake3_impl.h"

/* The key and context of the official vectors (test_vectors.json). */
#define VEC_KEY "whats the Elvish word for friend"
#define VEC_CONTEXT "BLAKE3 2019-12-27 16:29:52 test vectors context"
#define VEC_MAX_INPUT (1u << 18)
#define VEC_MAX_OUT 1024u

/* hex: the hash, keyed_hash and derive_key outputs, in that order. */
struct vec_case {
  size_t input_len;
  const char *hex[3];
};

/* One way to hash: a kernel through the library, or the reference (which ignores k). */
typedef void (*vec_hash_fn)(const blake3_kernel *k, const uint8_t *in, size_t len,
                            const uint32_t key[8], uint8_t flags, uint64_t seek, uint8_t *out,
                            size_t out_len);
/* One result: the mode's name (or what went wrong), the input length, and the output window. */
typedef void (*vec_report_fn)(int ok, const char *what, size_t input_len, uint64_t seek,
                              size_t out_len);

/* The library's one-shot through kernel k, as a vec_hash_fn. */
static void vec_oneshot(const blake3_kernel *k, const uint8_t *in, size_t len, const uint32_t key[8],
                        uint8_t flags, uint64_t seek, uint8_t *out, size_t out_len) {
  blake3_hash_oneshot(k, in, len, key, flags, seek, out, out_len);
}

/* The vectors' input: byte i is i % 251. */
static const uint8_t *vec_input(void) {
  static uint8_t input[VEC_MAX_INPUT];
  static int filled;
  if (!filled) {
    for (size_t i = 0; i < VEC_MAX_INPUT; i++) input[i] = (uint8_t)(i % 251);
    filled = 1;
  }
  return input;
}

static size_t vec_strlen(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}

static int vec_hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/* Does out[0, n) equal the bytes hex[2 * off, 2 * (off + n)) ? */
static int vec_matches_hex(const uint8_t *out, size_t n, const char *hex, size_t off) {
  for (size_t i = 0; i < n; i++) {
    int hi = vec_hexval(hex[2 * (off + i)]);
    int lo = hi < 0 ? -1 : vec_hexval(hex[2 * (off + i) + 1]);
    if (lo < 0 || out[i] != (uint8_t)(hi * 16 + lo)) return 0;
  }
  return 1;
}

/* The key of derive_key's material, hashed from the context through h. */
static void vec_context_key(const blake3_kernel *k, vec_hash_fn h, const char *context,
                            uint32_t key[8]) {
  uint8_t bytes[32];
  h(k, (const uint8_t *)context, vec_strlen(context), blake3_iv, DERIVE_KEY_CONTEXT, 0, bytes,
    32);
  for (int i = 0; i < 8; i++) key[i] = blake3_load32(bytes + 4 * i);
}

static void vec_check_case(const blake3_kernel *k, vec_hash_fn h, const struct vec_case *v,
                           vec_report_fn report) {
  static const char *const names[3] = {"hash", "keyed_hash", "derive_key"};
  static const uint8_t flags[3] = {0, KEYED_HASH, DERIVE_KEY_MATERIAL};
  static const size_t seeks[] = {1, 31, 32, 63, 64, 65, 100};
  static uint8_t out[VEC_MAX_OUT];
  if (v->input_len > VEC_MAX_INPUT) {
    report(0, "input longer than the harness holds", v->input_len, 0, 0);
    return;
  }
  uint32_t keys[3][8];
  for (int i = 0; i < 8; i++) {
    keys[0][i] = blake3_iv[i];
    keys[1][i] = blake3_load32((const uint8_t *)VEC_KEY + 4 * i);
  }
  vec_context_key(k, h, VEC_CONTEXT, keys[2]);
  const uint8_t *input = vec_input();
  for (int m = 0; m < 3; m++) {
    size_t full = vec_strlen(v->hex[m]) / 2;
    if (full > VEC_MAX_OUT) full = VEC_MAX_OUT;
    const size_t lens[2] = {full, 32};
    for (int l = 0; l < (full > 32 ? 2 : 1); l++) {
      h(k, input, v->input_len, keys[m], flags[m], 0, out, lens[l]);
      report(vec_matches_hex(out, lens[l], v->hex[m], 0), names[m], v->input_len, 0, lens[l]);
    }
    for (size_t s = 0; s < sizeof seeks / sizeof seeks[0] && seeks[s] < full; s++) {
      size_t n = full - seeks[s];
      h(k, input, v->input_len, keys[m], flags[m], seeks[s], out, n);
      report(vec_matches_hex(out, n, v->hex[m], seeks[s]), names[m], v->input_len, seeks[s], n);
    }
  }
}

#endif
