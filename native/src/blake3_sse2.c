/*
 * blake3-fast: SSE2 kernels (x86-64 baseline; compiled without extra -m flags): the code of
 * blake3_sse.h, which without SSSE3's byte shuffle rotates by 16 with pshuflw/pshufhw and by
 * 8 with two shifts and an OR.
 */
#define B3_SSE(fn) fn##_sse2
#include "blake3_sse.h"
