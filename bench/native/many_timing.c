/*
 * many_timing OFFICIAL.so OURS.so ISAS ROUNDS: a batch of messages hashed by the official BLAKE3
 * C code one hasher each (official_shim.c's ab_many: its API's only way) and by blake3-fast's
 * blake3_hash_batch (ab_shim.c's ab_many), the same ISA forced on both, the two alternated in
 * every round. Shapes: 32 B, 64 B, 256 B, 1 KiB, 4 KiB and lengths mixed over 0..4096 (the
 * formula of ManyBench.mixedLength), 16 and 1000 messages. Prints per ISA and shape the median
 * ns per message of each and the median of the per-round ratios official / ours (above 1: ours
 * faster). The hashes of the two must agree, or it stops.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

typedef int (*many_fn)(const char *, const uint8_t *, const int32_t *, const int32_t *, size_t,
                       uint8_t *);

static many_fn load(const char *path) {
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  many_fn f = h ? (many_fn)dlsym(h, "ab_many") : NULL;
  if (f == NULL) {
    fprintf(stderr, "many_timing: no ab_many in %s: %s\n", path, dlerror());
    exit(2);
  }
  return f;
}

static int32_t mixed_length(int32_t i) { return (int32_t)(((uint64_t)i * 0x9E3779B1u & 0xFFFFFFFFu) % 4097); }

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: many_timing OFFICIAL.so OURS.so ISA[,ISA...] ROUNDS\n");
    return 2;
  }
  many_fn official = load(argv[1]), ours = load(argv[2]);
  const int rounds = atoi(argv[4]);
  static const int sizes[] = {32, 64, 256, 1024, 4096, -1};
  static const int counts[] = {16, 1000};
  enum { MAXN = 1000 };
  static int32_t offs[MAXN], lens[MAXN];
  static uint8_t out_a[32 * MAXN], out_b[32 * MAXN];
  uint8_t *data = malloc((size_t)MAXN * 4096);
  for (size_t i = 0; i < (size_t)MAXN * 4096; i++) data[i] = (uint8_t)(i * 131 + (i >> 9));
  double *ta = malloc(sizeof(double) * rounds), *tb = malloc(sizeof(double) * rounds),
         *ratio = malloc(sizeof(double) * rounds);
  printf("| ISA | size | n | official ns/msg | ours ns/msg | official / ours | ours MB/s |\n");
  printf("|---|---|---:|---:|---:|---:|---:|\n");
  char isas[256];
  snprintf(isas, sizeof isas, "%s", argv[3]);
  for (char *isa = strtok(isas, ","); isa != NULL; isa = strtok(NULL, ",")) {
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
      for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
        const int n = counts[ci];
        long total = 0;
        for (int i = 0; i < n; i++) {
          lens[i] = sizes[si] >= 0 ? sizes[si] : mixed_length(i);
          offs[i] = (int32_t)total;
          total += lens[i];
        }
        if (official(isa, data, offs, lens, (size_t)n, out_a) != 0 ||
            ours(isa, data, offs, lens, (size_t)n, out_b) != 0) {
          printf("| %s | (not on this CPU) | | | | | |\n", isa);
          goto next_isa;
        }
        if (memcmp(out_a, out_b, 32 * (size_t)n) != 0) {
          fprintf(stderr, "many_timing: %s size %d n %d: the hashes differ\n", isa, sizes[si], n);
          return 1;
        }
        /* enough repetitions for a sample of about a millisecond */
        const int reps = (int)(1 + 2000000 / (total + 64L * n));
        for (int r = 0; r < rounds; r++) {
          double t0 = now_ns();
          for (int k = 0; k < reps; k++) official(isa, data, offs, lens, (size_t)n, out_a);
          double t1 = now_ns();
          for (int k = 0; k < reps; k++) ours(isa, data, offs, lens, (size_t)n, out_b);
          double t2 = now_ns();
          ta[r] = (t1 - t0) / reps / n;
          tb[r] = (t2 - t1) / reps / n;
          ratio[r] = ta[r] / tb[r];
        }
        qsort(ta, rounds, sizeof(double), by_value);
        qsort(tb, rounds, sizeof(double), by_value);
        qsort(ratio, rounds, sizeof(double), by_value);
        const double mb = (double)total / n / tb[rounds / 2] * 1e3;
        if (sizes[si] >= 0)
          printf("| %s | %d B | %d | %.1f | %.1f | %.2f | %.0f |\n", isa, sizes[si], n, ta[rounds / 2],
                 tb[rounds / 2], ratio[rounds / 2], mb);
        else
          printf("| %s | mixed 0..4096 | %d | %.1f | %.1f | %.2f | %.0f |\n", isa, n, ta[rounds / 2],
                 tb[rounds / 2], ratio[rounds / 2], mb);
        fflush(stdout);
      }
    }
  next_isa:;
  }
  return 0;
}
