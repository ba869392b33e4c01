/* The clock and the sort order of the side-by-side timing programs (ab.c, lanes_timing.c). */
#ifndef BENCH_TIMING_H
#define BENCH_TIMING_H

#include <time.h>

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* qsort's comparison of doubles, ascending: the samples, for their median and best. */
static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#endif
