/*
 * lanes_timing LIB.so ISAS ROUNDS: a kernel's hash_lanes against its hash_many on the same
 * work, n messages of `blocks` full blocks each (1, 4, 16; n = 16 and 1000), packed one after
 * the other: hash_many with incrementing counters, hash_lanes with the same counters from its
 * arrays and each last block read in place. Each sample times a few calls of one, then of the
 * other (the order flips every round), so that the load of a shared machine falls on both
 * alike. Prints per ISA, block count and n the median ns per message of each, the median over
 * the rounds of many's time / lanes' time (a throughput ratio; taken in pairs, it moves less
 * with the load than the ratio of the medians) and the difference of the medians in ns per
 * message. LIB.so is built by ours.sh.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake3_impl.h"
#include "timing.h"

typedef const blake3_kernel *(*kernel_fn)(const char *);

enum { MAXN = 1000, MAXBLOCKS = 16 };

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: lanes_timing LIB.so ISA[,ISA...] ROUNDS\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  kernel_fn kernel = lib ? (kernel_fn)dlsym(lib, "ab_kernel") : NULL;
  if (kernel == NULL) {
    fprintf(stderr, "lanes_timing: %s: %s\n", argv[1], dlerror());
    return 2;
  }
  const int rounds = atoi(argv[3]);
  if (rounds < 1) return 2;
  uint8_t *data = aligned_alloc(64, (size_t)MAXN * MAXBLOCKS * BLAKE3_BLOCK_LEN);
  uint8_t *out[2] = {malloc(MAXN * BLAKE3_OUT_LEN), malloc(MAXN * BLAKE3_OUT_LEN)};
  double *ns[2] = {malloc(sizeof(double) * rounds), malloc(sizeof(double) * rounds)};
  double *ratio = malloc(sizeof(double) * rounds);
  static const uint8_t *inputs[MAXN], *lasts[MAXN];
  static uint32_t lo[MAXN], hi[MAXN], len[MAXN], last_flags[MAXN];
  if (data == NULL || out[0] == NULL || out[1] == NULL || ns[0] == NULL || ns[1] == NULL ||
      ratio == NULL)
    return 2;
  for (size_t i = 0; i < (size_t)MAXN * MAXBLOCKS * BLAKE3_BLOCK_LEN; i++)
    data[i] = (uint8_t)(i * 7 + i / 251);
  const blake3_lanes lanes = {inputs, lasts, lo, hi, len, last_flags, NULL, NULL};
  static const size_t block_counts[] = {1, 4, 16}, ns_[] = {16, MAXN};
  printf("%-7s %6s %5s  %10s %10s  %6s  %s\n", "isa", "blocks", "n", "many ns/msg", "lanes",
         "ratio", "lanes-many ns/msg");
  char *isas = strdup(argv[2]);
  for (char *isa = strtok(isas, ","); isa != NULL; isa = strtok(NULL, ",")) {
    const blake3_kernel *k = kernel(isa);
    if (k == NULL) {
      fprintf(stderr, "lanes_timing: no %s kernel\n", isa);
      return 2;
    }
    for (size_t b = 0; b < sizeof block_counts / sizeof block_counts[0]; b++) {
      const size_t blocks = block_counts[b];
      for (size_t s = 0; s < sizeof ns_ / sizeof ns_[0]; s++) {
        const size_t n = ns_[s];
        for (size_t i = 0; i < n; i++) {
          inputs[i] = data + i * blocks * BLAKE3_BLOCK_LEN;
          lasts[i] = inputs[i] + (blocks - 1) * BLAKE3_BLOCK_LEN;
          lo[i] = (uint32_t)i;
          hi[i] = 0;
          len[i] = BLAKE3_BLOCK_LEN;
          last_flags[i] = CHUNK_END;
        }
        const int reps = (int)(((size_t)2 << 20) / (n * blocks * BLAKE3_BLOCK_LEN)) + 1;
        for (int r = 0; r < rounds; r++)
          for (int w = 0; w < 2; w++) {
            const int which = (r & 1) ? 1 - w : w;
            const double t0 = now_ns();
            for (int j = 0; j < reps; j++) {
              if (which == 0)
                k->hash_many(inputs, n, blocks, blake3_iv, 0, 1, 0, CHUNK_START, CHUNK_END,
                             out[0]);
              else
                k->hash_lanes(&lanes, n, blocks, blake3_iv, 0, CHUNK_START, out[1]);
            }
            ns[which][r] = (now_ns() - t0) / reps / (double)n;
          }
        if (memcmp(out[0], out[1], n * BLAKE3_OUT_LEN) != 0) {
          printf("%s blocks=%zu n=%zu: hash_many and hash_lanes disagree\n", isa, blocks, n);
          return 1;
        }
        for (int r = 0; r < rounds; r++) ratio[r] = ns[0][r] / ns[1][r];
        qsort(ratio, rounds, sizeof(double), by_value);
        qsort(ns[0], rounds, sizeof(double), by_value);
        qsort(ns[1], rounds, sizeof(double), by_value);
        const double many = ns[0][rounds / 2], lanes_ns = ns[1][rounds / 2];
        printf("%-7s %6zu %5zu  %10.1f %10.1f  %6.3f  %+.1f\n", isa, blocks, n, many, lanes_ns,
               ratio[rounds / 2], lanes_ns - many);
        fflush(stdout);
      }
    }
  }
  return 0;
}
