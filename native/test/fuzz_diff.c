/*
 * blake3-fast differential fuzz target: every kernel this CPU supports against the portable
 * path (and the portable path against ref.c).
 *
 * Input layout (missing bytes read as zero):
 *   [0]      mode (bits 0-1: hash, keyed, derive-key material, derive-key context) and a
 *            repeat code r (bits 2-7): the message is the data repeated r + 1 times (r < 32)
 *            or (r - 31) * 32 times (up to 1024), each copy xored with its index, capped at
 *            MAX_MSG, so short inputs still make messages of many chunks
 *   [1..2]   output length (mod 1100)
 *   [3..10]  seek selector (0, small, around 2^32 output blocks, or anywhere below 2^62)
 *   [11..14] split points for the streaming check (fractions of the whole chunks)
 *   [15..22] chunk counter selector for the stand-alone hash_subtrees check
 *   [23..54] key
 *   [55..]   data
 *
 * Checks per kernel: blake3_hash_oneshot; blake3_hash_subtrees at an arbitrary counter; a
 * streaming driver (CV stack with lazy merging, as the Java side does) that hashes the message
 * in pieces through blake3_hash_subtrees and finishes with blake3_root_output, which must give
 * the one-shot output; and blake3_hash_batch over up to 64 pieces of the message (lengths and
 * overlaps drawn from the data), each of which must hash as a one-shot of the portable path.
 *
 * Built with -fsanitize=fuzzer this is a libFuzzer target; built with
 * BLAKE3_FUZZ_REPLAY_MAIN it has a main() that replays files or directories given as arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake3_impl.h"
#include "ref.h"

#define MAX_MSG (1024u * 1024u + 3000u)
#define MAX_OUT 1100u

typedef struct {
  const uint8_t *p;
  size_t n;
} reader;

static uint8_t rd8(reader *r) {
  if (r->n == 0) return 0;
  r->n--;
  return *r->p++;
}

static uint64_t rd64(reader *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v |= (uint64_t)rd8(r) << (8 * i);
  return v;
}

static void fail(const char *what, const char *kernel, size_t len, uint64_t seek, size_t out_len) {
  fprintf(stderr, "blake3_fuzz: MISMATCH %s kernel=%s len=%zu seek=%llu out_len=%zu\n", what,
          kernel, len, (unsigned long long)seek, out_len);
  abort();
}

static const blake3_kernel *g_kernels[BLAKE3_ISA_COUNT];
static size_t g_nkernels;

static void init_kernels(void) {
  if (g_nkernels != 0) return;
  int cap = -1;
  const char *env = getenv("BLAKE3_ISA");
  if (env != NULL && *env != '\0') cap = blake3_isa_from_name(env);
  const blake3_kernel *best = blake3_kernel_for(cap);
  if (best == NULL) best = blake3_kernel_for(BLAKE3_ISA_PORTABLE);
  uint32_t supported = blake3_supported_isas();
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++)
    if ((supported & (1u << i)) && i <= (int)best->isa) g_kernels[g_nkernels++] = blake3_kernel_for(i);
}

static uint64_t pick_seek(uint64_t raw) {
  switch (raw & 3) {
    case 0: return 0;
    case 1: return (raw >> 2) % 4096;
    case 2: return ((1ULL << 32) - ((raw >> 2) % 8)) * 64 + ((raw >> 10) % 64);
    default: return (raw >> 2) & ((1ULL << 62) - 1);
  }
}

static uint64_t pick_counter(uint64_t raw) {
  switch (raw & 3) {
    case 0: return 0;
    case 1: return (raw >> 2) % 5000;
    case 2: return (1ULL << 32) - ((raw >> 2) % 700);
    default: return raw >> 12;
  }
}

static uint64_t floor_pow2(uint64_t x) { return (uint64_t)1 << (63 - __builtin_clzll(x)); }

/* The sizes blake3_hash_subtrees uses, recomputed independently. */
static uint64_t subtree_size(uint64_t counter, uint64_t chunks) {
  uint64_t size = floor_pow2(chunks);
  while (counter % size != 0) size /= 2;
  return size;
}

/* ---- the streaming driver ------------------------------------------------------------------ */

typedef struct {
  uint8_t cvs[64][32];
  size_t len;
} cv_stack;

static void parent_cv(const blake3_kernel *k, const uint8_t l[32], const uint8_t r[32],
                      const uint32_t key[8], uint8_t flags, uint8_t out[32]) {
  uint8_t block[64];
  uint32_t cv[8];
  memcpy(block, l, 32);
  memcpy(block + 32, r, 32);
  memcpy(cv, key, 32);
  k->compress_in_place(cv, block, 64, 0, (uint8_t)(flags | PARENT));
  for (int i = 0; i < 8; i++) blake3_store32(out + 4 * i, cv[i]);
}

/* Merges until the stack holds one CV per set bit of `chunks_done`. */
static void merge(const blake3_kernel *k, cv_stack *s, uint64_t chunks_done, const uint32_t key[8],
                  uint8_t flags) {
  while (s->len > (size_t)__builtin_popcountll(chunks_done)) {
    parent_cv(k, s->cvs[s->len - 2], s->cvs[s->len - 1], key, flags, s->cvs[s->len - 2]);
    s->len--;
  }
}

/* Hashes msg the streaming way and writes the root output. */
static void streamed(const blake3_kernel *k, const uint8_t *msg, size_t len, const uint32_t key[8],
                     uint8_t flags, const uint8_t splits[4], uint64_t seek, uint8_t *out,
                     size_t out_len) {
  const uint64_t chunks = len == 0 ? 1 : (len + 1023) / 1024;
  const uint64_t whole = chunks - 1; /* full chunks before the last one */
  uint64_t cut[6];
  size_t ncut = 0;
  cut[ncut++] = 0;
  uint64_t pts[4];
  for (int i = 0; i < 4; i++) pts[i] = whole * splits[i] / 256;
  for (int i = 0; i < 4; i++) /* sort the four points */
    for (int j = i + 1; j < 4; j++)
      if (pts[j] < pts[i]) {
        uint64_t t = pts[i];
        pts[i] = pts[j];
        pts[j] = t;
      }
  for (int i = 0; i < 4; i++)
    if (pts[i] > cut[ncut - 1]) cut[ncut++] = pts[i];
  if (whole > cut[ncut - 1]) cut[ncut++] = whole;

  cv_stack st;
  st.len = 0;
  static uint32_t words[8 * 128];
  for (size_t p = 0; p + 1 < ncut; p++) {
    uint64_t c = cut[p];
    const uint64_t end = cut[p + 1];
    size_t n = blake3_hash_subtrees(k, msg + c * 1024, (size_t)(end - c) * 1024, key, c, flags,
                                    63, words);
    for (size_t i = 0; i < n; i++) {
      merge(k, &st, c, key, flags);
      for (int w = 0; w < 8; w++) blake3_store32(st.cvs[st.len] + 4 * w, words[8 * i + w]);
      st.len++;
      c += subtree_size(c, end - c);
    }
    if (c != end) fail("subtree sizes", k->name, len, seek, out_len);
  }
  /* the last chunk, kept back like a streaming hasher's chunk state */
  const uint8_t *last = msg + whole * 1024;
  const size_t last_len = len - (size_t)whole * 1024;
  uint32_t cv[8];
  memcpy(cv, key, 32);
  size_t nb = last_len == 0 ? 1 : (last_len + 63) / 64;
  uint8_t f = (uint8_t)(flags | CHUNK_START);
  for (size_t b = 0; b + 1 < nb; b++) {
    k->compress_in_place(cv, last + 64 * b, 64, whole, f);
    f = flags;
  }
  uint8_t block[64];
  memset(block, 0, 64);
  const size_t rest = last_len - 64 * (nb - 1);
  if (rest) memcpy(block, last + 64 * (nb - 1), rest);
  f = (uint8_t)(f | CHUNK_END);
  uint8_t root_len = (uint8_t)rest;
  merge(k, &st, whole, key, flags);
  if (st.len > 0) {
    uint8_t right[32];
    k->compress_in_place(cv, block, (uint8_t)rest, whole, f);
    for (int w = 0; w < 8; w++) blake3_store32(right + 4 * w, cv[w]);
    while (st.len > 1) {
      parent_cv(k, st.cvs[st.len - 1], right, key, flags, right);
      st.len--;
    }
    memcpy(block, st.cvs[0], 32);
    memcpy(block + 32, right, 32);
    memcpy(cv, key, 32);
    root_len = 64;
    f = (uint8_t)(flags | PARENT);
  }
  uint32_t bw[16];
  for (int i = 0; i < 16; i++) bw[i] = blake3_load32(block + 4 * i);
  blake3_root_output(k, cv, bw, root_len, f, seek, out, out_len);
}

/* ---- the batch ------------------------------------------------------------------------------ */

#define MAX_BATCH 64

/* Cuts msg into up to MAX_BATCH ranges drawn from the data bytes: lengths up to a few chunks
 * (now and then past the batch's 8-chunk limit), each starting where the last ended or, one
 * time in four, somewhere earlier (overlapping). Returns how many. */
static size_t batch_layout(const uint8_t *d, size_t dn, size_t len, int32_t *offs, int32_t *lens) {
  size_t n = 0, at = 0;
  for (size_t i = 0; n < MAX_BATCH && dn > 0; i += 2) {
    const uint8_t a = d[i % dn], b = d[(i + 1) % dn];
    size_t want = (a & 0x80) ? (size_t)a * 41 + b : (size_t)(a & 0x7f);
    if (a == 0xff) want = 9000 + (size_t)b * 7;
    if ((b & 3) == 0 && at > 0) at = (size_t)b * 13 % at;
    if (at + want > len) break;
    offs[n] = (int32_t)at;
    lens[n++] = (int32_t)want;
    at += want;
    if (i > 4 * MAX_BATCH) break;
  }
  return n;
}

static void check_batch(const blake3_kernel *k, const blake3_kernel *p, const uint8_t *msg,
                        size_t len, const uint8_t *d, size_t dn, const uint32_t key[8],
                        uint8_t flags) {
  int32_t offs[MAX_BATCH], lens[MAX_BATCH];
  uint8_t got[MAX_BATCH * 32], want[32];
  const size_t n = batch_layout(d, dn, len, offs, lens);
  if (n == 0) return;
  blake3_hash_batch(k, msg, offs, lens, n, key, flags, got);
  for (size_t i = 0; i < n; i++) {
    blake3_hash_oneshot(p, msg + offs[i], (size_t)lens[i], key, flags, 0, want, 32);
    if (memcmp(got + 32 * i, want, 32) != 0) fail("batch", k->name, (size_t)lens[i], i, n);
  }
}

/* ---- the target ------------------------------------------------------------------------------ */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint8_t msg[MAX_MSG];
  static uint8_t want[MAX_OUT], got[MAX_OUT], refout[MAX_OUT];
  static uint32_t want_cvs[8 * 128], got_cvs[8 * 128];
  init_kernels();
  reader r = {data, size};
  const uint8_t h0 = rd8(&r);
  const int mode = h0 & 3;
  const unsigned rep = h0 >> 2;
  const size_t out_lo = rd8(&r), out_hi = rd8(&r);
  const size_t out_len = (out_lo | (out_hi << 8)) % MAX_OUT;
  const uint64_t seek = pick_seek(rd64(&r));
  uint8_t splits[4];
  for (int i = 0; i < 4; i++) splits[i] = rd8(&r);
  const uint64_t counter = pick_counter(rd64(&r));
  uint8_t key_bytes[32];
  for (int i = 0; i < 32; i++) key_bytes[i] = rd8(&r);

  const size_t copies = rep < 32 ? rep + 1 : (size_t)(rep - 31) * 32;
  size_t len = r.n * copies;
  if (len > MAX_MSG) len = MAX_MSG;
  for (size_t i = 0; i < len; i++) msg[i] = (uint8_t)(r.p[i % r.n] ^ (i / r.n));

  uint32_t key[8];
  uint8_t flags;
  if (mode == 0) {
    memcpy(key, blake3_iv, 32);
    flags = 0;
  } else {
    ref_key_words(key_bytes, key);
    flags = mode == 1 ? KEYED_HASH : mode == 2 ? DERIVE_KEY_MATERIAL : DERIVE_KEY_CONTEXT;
  }

  const blake3_kernel *p = g_kernels[0]; /* portable */
  blake3_hash_oneshot(p, msg, len, key, flags, seek, want, out_len);
  if (len <= 64 * 1024) {
    ref_hash(msg, len, key, flags, seek, refout, out_len);
    if (memcmp(refout, want, out_len) != 0) fail("oneshot vs ref", p->name, len, seek, out_len);
  }
  const size_t whole_len = len / 1024 * 1024;
  size_t want_n = 0;
  /* subtrees of at most 2^limit chunks (Bao's groups) or of any size, as the fuzz input says */
  unsigned limit = (unsigned)(seek % 9);
  if (limit == 8 || (whole_len / 1024 >> limit) + 2 * limit >= 128) limit = 63;
  if (whole_len > 0)
    want_n = blake3_hash_subtrees(p, msg, whole_len, key, counter, flags, limit, want_cvs);

  for (size_t i = 0; i < g_nkernels; i++) {
    const blake3_kernel *k = g_kernels[i];
    if (k != p) {
      memset(got, 0, out_len);
      blake3_hash_oneshot(k, msg, len, key, flags, seek, got, out_len);
      if (memcmp(got, want, out_len) != 0) fail("oneshot", k->name, len, seek, out_len);
      if (whole_len > 0) {
        size_t n = blake3_hash_subtrees(k, msg, whole_len, key, counter, flags, limit, got_cvs);
        if (n != want_n || memcmp(got_cvs, want_cvs, 32 * n) != 0)
          fail("hash_subtrees", k->name, whole_len, counter, n);
      }
    }
    memset(got, 0, out_len);
    streamed(k, msg, len, key, flags, splits, seek, got, out_len);
    if (memcmp(got, want, out_len) != 0) fail("streamed+root_output", k->name, len, seek, out_len);
    check_batch(k, p, msg, len, r.p, r.n, key, flags);
  }
  return 0;
}

#ifdef BLAKE3_FUZZ_REPLAY_MAIN
#include <dirent.h>
#include <sys/stat.h>

static int replay_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) {
    perror(path);
    return 0;
  }
  static uint8_t buf[1 << 20];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  LLVMFuzzerTestOneInput(buf, n);
  return 1;
}

int main(int argc, char **argv) {
  long files = 0;
  for (int i = 1; i < argc; i++) {
    struct stat sb;
    if (stat(argv[i], &sb) != 0) {
      perror(argv[i]);
      return 2;
    }
    if (S_ISDIR(sb.st_mode)) {
      DIR *d = opendir(argv[i]);
      struct dirent *e;
      while (d != NULL && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
        files += replay_file(path);
      }
      if (d != NULL) closedir(d);
    } else {
      files += replay_file(argv[i]);
    }
  }
  init_kernels();
  printf("blake3_fuzz_replay: %ld inputs OK over %zu kernels\n", files, g_nkernels);
  return 0;
}
#endif
