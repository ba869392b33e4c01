/*
 * A memset without dcbz, preloaded (LD_PRELOAD) into the C harness's runs on the pre-POWER7
 * CPU models under qemu-user (platforms/ppc64.conf: the 970). Test environment only: never
 * linked into the library.
 *
 * Why: qemu-user (7.2 and 10.0 alike) tells a 970 or POWER5+ guest that its data cache block is
 * 128 bytes (AT_DCACHEBSIZE), and glibc's memset believes it and clears memory a block at a
 * time with dcbz; but qemu's dcbz on those models clears 32 bytes (the 970's HID5 dcbz32 mode,
 * which Linux switches off on real hardware). So under the emulator memset(p, 0, n) leaves
 * bytes of every 128 uncleared once n reaches a block: a 128-byte zero-initialised array on the
 * stack held garbage, and blake3_hash_batch's counting sort indexed with it faulted, on one
 * stack alignment in seven. A plain program shows it: memset(buf, 0, 128) clears 32 bytes under
 * -cpu 970 and all 128 under -cpu power7. Real 970s are not affected.
 *
 * Calls from the harness and the kernels go through the PLT and land here; glibc's internal
 * calls do not, which the harness does not need.
 */
#include <stddef.h>
#include <stdint.h>

void *memset(void *dest, int c, size_t n) {
  unsigned char *p = dest;
  const unsigned char byte = (unsigned char)c;
  /* Built with -fno-tree-loop-distribute-patterns: gcc would turn these loops into memset. */
  while (n > 0 && ((uintptr_t)p & 7) != 0) {
    *p++ = byte;
    n--;
  }
  const uint64_t word = byte * UINT64_C(0x0101010101010101);
  for (; n >= 8; n -= 8, p += 8) *(uint64_t *)(void *)p = word;
  while (n > 0) {
    *p++ = byte;
    n--;
  }
  return dest;
}
