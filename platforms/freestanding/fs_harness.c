/*
 * blake3-fast: a C test harness that needs no C library, for CPU models on which the
 * distribution's libc cannot run.
 *
 * Why: Debian's loong64 glibc (ld.so and libc alike) is built for a baseline that includes
 * LSX, so under `qemu-loongarch64 -cpu la464,lsx=off,lasx=off` no glibc program starts, not
 * even a static one. This program brings its own _start, raw system calls, getauxval and mem*
 * functions, and links the kernel sources with -nostdlib, so the dispatcher's fallback to the
 * portable kernel can be tested on exactly such a CPU.
 *
 * What it checks, for every ISA that blake3_supported_isas() reports:
 *   - the official test vectors, as native/test/vector_check.h checks them for the C harness
 *     too (every mode; all 131 output bytes, the default 32, and windows from several seek
 *     positions), embedded at build time from test-vectors/test_vectors.json into fs_vectors.h
 *     by platforms/build-all.sh;
 *   - hash_many, compress_in_place and compress_xof against the portable kernel on
 *     pseudo-random data (any number of inputs, counters that carry into the high word);
 *   - one-shot hashes of pseudo-random inputs of many lengths against the portable kernel.
 * It prints "kernel=<name>" for the kernel the dispatcher picks with no cap, the list of
 * supported ISAs, and "N passed, N failed"; it exits 0 only when nothing failed.
 *
 * Build (see platforms/build-all.sh): every source with -ffreestanding -fno-stack-protector
 * -static -nostdlib, this file plus native/src/blake3_{portable,dispatch,tree}.c and the ISA
 * files with their flags, native/test on the include path. Architectures: loongarch64 (the one
 * that needs it), and aarch64/riscv64/x86_64 syscall stubs for trying it elsewhere.
 */
#include "blake3_impl.h"
#include "vector_check.h"
#include "fs_vectors.h"

/* ---- the bits of a C library the kernel sources use ---------------------------------- */

static unsigned long *fs_auxv;

unsigned long getauxval(unsigned long type) {
  if (fs_auxv == NULL) return 0;
  for (unsigned long *p = fs_auxv; p[0] != 0; p += 2)
    if (p[0] == type) return p[1];
  return 0;
}

void *memcpy(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

void *memmove(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s) {
    while (n--) *d++ = *s++;
  } else {
    while (n--) d[n] = s[n];
  }
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  while (n--) *d++ = (unsigned char)c;
  return dst;
}

int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

/* ---- system calls -------------------------------------------------------------------- */

#if defined(__loongarch64)
#define FS_SYS_WRITE 64
#define FS_SYS_EXIT_GROUP 94
static long fs_syscall3(long n, long a, long b, long c) {
  register long a7 __asm__("$a7") = n;
  register long a0 __asm__("$a0") = a;
  register long a1 __asm__("$a1") = b;
  register long a2 __asm__("$a2") = c;
  __asm__ __volatile__("syscall 0"
                       : "+r"(a0)
                       : "r"(a7), "r"(a1), "r"(a2)
                       : "$t0", "$t1", "$t2", "$t3", "$t4", "$t5", "$t6", "$t7", "$t8", "memory");
  return a0;
}
/* The kernel enters with sp -> argc; pass it to fs_start with sp aligned to 16. */
__asm__(".text\n"
        ".globl _start\n"
        ".type _start, @function\n"
        "_start:\n"
        "  move $a0, $sp\n"
        "  bstrins.d $sp, $zero, 3, 0\n"
        "  move $fp, $zero\n"
        "  move $ra, $zero\n"
        "  bl fs_start\n"
        "  break 0\n");
#elif defined(__aarch64__)
#define FS_SYS_WRITE 64
#define FS_SYS_EXIT_GROUP 94
static long fs_syscall3(long n, long a, long b, long c) {
  register long x8 __asm__("x8") = n;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  __asm__ __volatile__("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2) : "memory");
  return x0;
}
__asm__(".text\n.globl _start\n.type _start, %function\n_start:\n"
        "  mov x0, sp\n  mov x29, #0\n  mov x30, #0\n  bl fs_start\n  brk #0\n");
#elif defined(__riscv) && __riscv_xlen == 64
#define FS_SYS_WRITE 64
#define FS_SYS_EXIT_GROUP 94
static long fs_syscall3(long n, long a, long b, long c) {
  register long a7 __asm__("a7") = n;
  register long a0 __asm__("a0") = a;
  register long a1 __asm__("a1") = b;
  register long a2 __asm__("a2") = c;
  __asm__ __volatile__("ecall" : "+r"(a0) : "r"(a7), "r"(a1), "r"(a2) : "memory");
  return a0;
}
__asm__(".text\n.globl _start\n.type _start, @function\n_start:\n"
        "  .option push\n  .option norelax\n  lla gp, __global_pointer$\n  .option pop\n"
        "  mv a0, sp\n  andi sp, sp, -16\n  call fs_start\n  ebreak\n");
#elif defined(__x86_64__)
#define FS_SYS_WRITE 1
#define FS_SYS_EXIT_GROUP 231
static long fs_syscall3(long n, long a, long b, long c) {
  long ret;
  __asm__ __volatile__("syscall"
                       : "=a"(ret)
                       : "a"(n), "D"(a), "S"(b), "d"(c)
                       : "rcx", "r11", "memory");
  return ret;
}
__asm__(".text\n.globl _start\n.type _start, @function\n_start:\n"
        "  xor %ebp, %ebp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call fs_start\n  hlt\n");
#else
#error "fs_harness.c: no system-call stubs for this architecture"
#endif

static void fs_write(const char *s, size_t n) {
  while (n > 0) {
    long w = fs_syscall3(FS_SYS_WRITE, 1, (long)s, (long)n);
    if (w <= 0) return;
    s += w;
    n -= (size_t)w;
  }
}

static void fs_puts(const char *s) { fs_write(s, vec_strlen(s)); }

static void fs_putu(unsigned long v) {
  char buf[24];
  int i = (int)sizeof(buf);
  do {
    buf[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  fs_write(buf + i, sizeof(buf) - (size_t)i);
}

static __attribute__((noreturn)) void fs_exit(int code) {
  for (;;) fs_syscall3(FS_SYS_EXIT_GROUP, code, 0, 0);
}

/* ---- test helpers -------------------------------------------------------------------- */

static unsigned long fs_passed, fs_failed;
static const char *fs_kernel = "?";

/* A failure prints the kernel, what failed and the numbers that what names. */
static void fs_check(int ok, const char *what, unsigned long a, unsigned long b, unsigned long c) {
  if (ok) {
    fs_passed++;
    return;
  }
  fs_failed++;
  if (fs_failed <= 20) {
    const unsigned long n[3] = {a, b, c};
    fs_puts("FAIL ");
    fs_puts(fs_kernel);
    fs_puts(": ");
    fs_puts(what);
    for (int i = 0; i < 3; i++) {
      fs_puts(" ");
      fs_putu(n[i]);
    }
    fs_puts("\n");
  }
}

static uint64_t fs_rng = 0x9E3779B97F4A7C15ull;
static uint64_t fs_next(void) { /* xorshift64* */
  fs_rng ^= fs_rng >> 12;
  fs_rng ^= fs_rng << 25;
  fs_rng ^= fs_rng >> 27;
  return fs_rng * 0x2545F4914F6CDD1Dull;
}

static void fs_fill_random(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(fs_next() >> 56);
}

static uint8_t fs_random[64 * 1024 + 17];

static void fs_vector_report(int ok, const char *what, size_t len, uint64_t seek, size_t out_len) {
  fs_check(ok, what, len, (unsigned long)seek, out_len); /* "<mode> <input len> <seek> <out len>" */
}

/* Kernel k against the portable kernel p, on pseudo-random data. */
static void fs_check_against(const blake3_kernel *k, const blake3_kernel *p) {
  static uint8_t out_k[BLAKE3_MAX_DEGREE * 3 * 32], out_p[BLAKE3_MAX_DEGREE * 3 * 32];
  const uint8_t *inputs[BLAKE3_MAX_DEGREE * 3];
  for (int round = 0; round < 60; round++) {
    fs_fill_random(fs_random, sizeof(fs_random));
    uint32_t key[8];
    for (int i = 0; i < 8; i++) key[i] = (uint32_t)fs_next();
    size_t num = (size_t)(fs_next() % (BLAKE3_MAX_DEGREE * 3 + 1));
    size_t blocks = 1 + (size_t)(fs_next() % 16);
    for (size_t i = 0; i < num; i++) {
      size_t span = sizeof(fs_random) - blocks * BLAKE3_BLOCK_LEN;
      inputs[i] = fs_random + (size_t)(fs_next() % span); /* unaligned on purpose */
    }
    uint64_t counter = (round % 3 == 0) ? 0xFFFFFFFFull - (fs_next() % 8) : fs_next() % 4096;
    int inc = (int)(fs_next() & 1);
    uint8_t flags = (uint8_t)(fs_next() & 0x70), fs = CHUNK_START, fe = CHUNK_END;
    if (round % 4 == 1) {
      blocks = 1;
      flags |= PARENT;
      fs = fe = 0;
    }
    memset(out_k, 0, sizeof(out_k));
    memset(out_p, 0, sizeof(out_p));
    k->hash_many(inputs, num, blocks, key, counter, inc, flags, fs, fe, out_k);
    p->hash_many(inputs, num, blocks, key, counter, inc, flags, fs, fe, out_p);
    fs_check(memcmp(out_k, out_p, 32 * num) == 0, "hash_many (inputs, blocks, counter)", num, blocks,
             (unsigned long)counter);

    uint32_t cv_k[8], cv_p[8];
    uint8_t xof_k[64], xof_p[64];
    uint8_t block_len = (uint8_t)(fs_next() % 65);
    uint8_t f = (uint8_t)(fs_next() & 0x7F);
    memcpy(cv_k, key, 32);
    memcpy(cv_p, key, 32);
    k->compress_in_place(cv_k, fs_random + round, block_len, counter, f);
    p->compress_in_place(cv_p, fs_random + round, block_len, counter, f);
    fs_check(memcmp(cv_k, cv_p, 32) == 0, "compress_in_place (len, flags, counter)", block_len, f,
             (unsigned long)counter);
    k->compress_xof(key, fs_random + round, block_len, counter, f, xof_k);
    p->compress_xof(key, fs_random + round, block_len, counter, f, xof_p);
    fs_check(memcmp(xof_k, xof_p, 64) == 0, "compress_xof (len, flags, counter)", block_len, f,
             (unsigned long)counter);

    size_t len = (size_t)(fs_next() % (sizeof(fs_random) - 17));
    if (round < 8) len = (size_t)round * 1024 + (size_t)(fs_next() % 3); /* near chunk edges */
    uint8_t h_k[48], h_p[48];
    blake3_hash_oneshot(k, fs_random + 17, len, key, KEYED_HASH, 0, h_k, sizeof(h_k));
    blake3_hash_oneshot(p, fs_random + 17, len, key, KEYED_HASH, 0, h_p, sizeof(h_p));
    fs_check(memcmp(h_k, h_p, sizeof(h_k)) == 0, "one-shot keyed, 48 bytes (len, -, -)", len, 0, 0);
  }
}

__attribute__((used)) void fs_start(unsigned long *sp) {
  unsigned long argc = sp[0];
  char **argv = (char **)(sp + 1);
  char **envp = argv + argc + 1;
  while (*envp) envp++;
  fs_auxv = (unsigned long *)(envp + 1);

  const blake3_kernel *best = blake3_kernel_for(-1);
  const blake3_kernel *portable = blake3_kernel_for(BLAKE3_ISA_PORTABLE);
  uint32_t isas = blake3_supported_isas();
  fs_puts("freestanding harness: AT_HWCAP=");
  fs_putu(getauxval(16));
  fs_puts(" supported:");
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    if (!(isas & (1u << i))) continue;
    const blake3_kernel *k = blake3_kernel_for(i);
    fs_puts(" ");
    fs_puts(k ? k->name : "?");
  }
  fs_puts("\nkernel=");
  fs_puts(best->name);
  fs_puts("\n");

  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    if (!(isas & (1u << i))) continue;
    const blake3_kernel *k = blake3_kernel_for(i);
    fs_kernel = k ? k->name : "dispatch";
    if (k == NULL || (int)k->isa != i) {
      fs_check(0, "kernel_for(isa) did not return that isa (isa, -, -)", (unsigned long)i, 0, 0);
      continue;
    }
    unsigned long before = fs_failed;
    for (size_t c = 0; c < sizeof fs_vec_cases / sizeof fs_vec_cases[0]; c++)
      vec_check_case(k, vec_oneshot, &fs_vec_cases[c], fs_vector_report);
    if (k != portable) fs_check_against(k, portable);
    fs_puts(k->name);
    fs_puts(fs_failed == before ? ": ok\n" : ": FAILED\n");
  }
  fs_putu(fs_passed);
  fs_puts(" passed, ");
  fs_putu(fs_failed);
  fs_puts(" failed\n");
  fs_exit(fs_failed == 0 && fs_passed > 0 ? 0 : 1);
}
