/*
 * blake3-fast: SSE4.1 kernels (compiled with -msse4.1): the code of blake3_sse.h, whose
 * rotations by 16 and 8 are one pshufb each with these flags.
 */
#define B3_SSE(fn) fn##_sse41
#include "blake3_sse.h"
