/*
 * ab A.so B.so ISAS ROUNDS [SIZE...]: one-shot throughput of two builds of the kernels side by
 * side. Each sample times a few hashes with one library, then the same with the other (the
 * order flips every round), so that the load of a shared machine falls on both alike. Prints,
 * per ISA and size, the median and the best MB/s of each and B/A. The outputs must agree.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "timing.h"

typedef int (*oneshot_fn)(const char *, const uint8_t *, size_t, uint8_t *);

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: ab A.so B.so ISA[,ISA...] ROUNDS [SIZE...]\n");
    return 2;
  }
  oneshot_fn fn[2];
  for (int i = 0; i < 2; i++) {
    void *lib = dlopen(argv[1 + i], RTLD_NOW | RTLD_LOCAL);
    fn[i] = lib ? (oneshot_fn)dlsym(lib, "ab_oneshot") : NULL;
    if (fn[i] == NULL) {
      fprintf(stderr, "ab: %s: %s\n", argv[1 + i], dlerror());
      return 2;
    }
  }
  const int rounds = atoi(argv[4]);
  if (rounds < 1) return 2;
  size_t sizes[16] = {1u << 20, 16u << 10};
  int nsizes = 2;
  if (argc > 5) {
    nsizes = 0;
    for (int i = 5; i < argc && nsizes < 16; i++) sizes[nsizes++] = strtoul(argv[i], NULL, 0);
  }
  size_t max = 0;
  for (int s = 0; s < nsizes; s++)
    if (sizes[s] > max) max = sizes[s];
  /* AB_OFFSET=k puts the input k bytes past a 64-byte boundary (default 0): a Java byte[]'s
   * data is only 8-byte aligned, so where it starts in a cache line varies from array to array. */
  const char *offset_env = getenv("AB_OFFSET");
  const size_t offset = offset_env ? strtoul(offset_env, NULL, 0) % 64 : 0;
  uint8_t *base = aligned_alloc(64, (max + 64 + 63) / 64 * 64);
  double *ns[2] = {malloc(sizeof(double) * rounds), malloc(sizeof(double) * rounds)};
  if (base == NULL || ns[0] == NULL || ns[1] == NULL) return 2;
  uint8_t *in = base + offset;
  for (size_t i = 0; i < max; i++) in[i] = (uint8_t)(i * 7 + i / 251);
  char *isas = strdup(argv[3]);
  for (char *isa = strtok(isas, ","); isa != NULL; isa = strtok(NULL, ",")) {
    for (int s = 0; s < nsizes; s++) {
      const size_t n = sizes[s];
      const int reps = n >= (1u << 20) ? 2 : (int)((4u << 20) / (n + 1) / 64 + 1);
      uint8_t out[2][32];
      for (int r = 0; r < rounds; r++)
        for (int w = 0; w < 2; w++) {
          const int which = (r & 1) ? 1 - w : w;
          const double t0 = now_ns();
          for (int i = 0; i < reps; i++)
            if (fn[which](isa, in, n, out[which]) != 0) {
              fprintf(stderr, "ab: no %s kernel in %s\n", isa, argv[1 + which]);
              return 2;
            }
          ns[which][r] = (now_ns() - t0) / reps;
        }
      if (memcmp(out[0], out[1], 32) != 0) {
        printf("%s %zu: the two libraries disagree\n", isa, n);
        return 1;
      }
      double median[2], best[2];
      for (int w = 0; w < 2; w++) {
        qsort(ns[w], rounds, sizeof(double), by_value);
        median[w] = (double)n / ns[w][rounds / 2] * 1e3;
        best[w] = (double)n / ns[w][0] * 1e3;
      }
      printf("%-8s %8zu  median A %6.0f B %6.0f MB/s  B/A %.3f | best A %6.0f B %6.0f  B/A %.3f\n",
             isa, n, median[0], median[1], median[1] / median[0], best[0], best[1],
             best[1] / best[0]);
      fflush(stdout);
    }
  }
  return 0;
}
