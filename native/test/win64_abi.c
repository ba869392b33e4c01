/*
 * blake3-fast: the Win64 calling convention, checked under wine for every kernel this CPU runs.
 *
 *   blake3_win64_abi.exe      ends with "N passed, N failed"
 *
 * Win64 makes xmm6-xmm15 (their low 128 bits) callee-saved, where System V makes every vector
 * register scratch. The kernels' inline assembly names the registers it uses in its clobber
 * lists, so gcc saves them in the prologue; a register used but not named would be corrupted
 * silently in the JVM's frames, and no hash check would see it. So b3w_call loads known values
 * into xmm6-15 and the callee-saved general registers, calls a function that runs one kernel
 * through every entry point, and stores what those registers hold afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "blake3_impl.h"

#if !defined(_WIN32) || !defined(__x86_64__)
#error "win64_abi.c is for the Windows x86-64 build"
#endif

/* b3w_call(fn, arg, seed, after): rcx, rdx, r8, r9. seed and after hold xmm6-15 (160 bytes),
 * then rbx, rbp, rsi, rdi, r12-r15 (64 bytes). The frame: 8 pushes, then 216 bytes (shadow
 * space for the callee, `after`, our caller's xmm6-15), which leaves rsp 16-byte aligned at the
 * call as the convention wants. */
void b3w_call(void (*fn)(void *), void *arg, const unsigned char *seed, unsigned char *after);
#define B3W_XMM(op, n, off, base) op " %%xmm" #n ", " #off "(" base ")\n"
#define B3W_XMMS(op, base, at)                                                               \
  B3W_XMM(op, 6, at + 0, base) B3W_XMM(op, 7, at + 16, base) B3W_XMM(op, 8, at + 32, base)  \
  B3W_XMM(op, 9, at + 48, base) B3W_XMM(op, 10, at + 64, base)                             \
  B3W_XMM(op, 11, at + 80, base) B3W_XMM(op, 12, at + 96, base)                            \
  B3W_XMM(op, 13, at + 112, base) B3W_XMM(op, 14, at + 128, base)                          \
  B3W_XMM(op, 15, at + 144, base)
#define B3W_LDX(n, off, base) "movdqu " #off "(" base "), %xmm" #n "\n"
#define B3W_LOADS(base, at)                                                                  \
  B3W_LDX(6, at + 0, base) B3W_LDX(7, at + 16, base) B3W_LDX(8, at + 32, base)               \
  B3W_LDX(9, at + 48, base) B3W_LDX(10, at + 64, base) B3W_LDX(11, at + 80, base)            \
  B3W_LDX(12, at + 96, base) B3W_LDX(13, at + 112, base) B3W_LDX(14, at + 128, base)         \
  B3W_LDX(15, at + 144, base)
#define B3W_STX(n, off, base) "movdqu %xmm" #n ", " #off "(" base ")\n"
#define B3W_STORES(base, at)                                                                 \
  B3W_STX(6, at + 0, base) B3W_STX(7, at + 16, base) B3W_STX(8, at + 32, base)               \
  B3W_STX(9, at + 48, base) B3W_STX(10, at + 64, base) B3W_STX(11, at + 80, base)            \
  B3W_STX(12, at + 96, base) B3W_STX(13, at + 112, base) B3W_STX(14, at + 128, base)         \
  B3W_STX(15, at + 144, base)
__asm__(".text\n"
        ".globl b3w_call\n"
        "b3w_call:\n"
        "push %rbx\npush %rbp\npush %rsi\npush %rdi\npush %r12\npush %r13\npush %r14\npush %r15\n"
        "sub $216, %rsp\n"
        B3W_STORES("%rsp", 48)
        "mov %r9, 32(%rsp)\n"
        B3W_LOADS("%r8", 0)
        "mov 160(%r8), %rbx\nmov 168(%r8), %rbp\nmov 176(%r8), %rsi\nmov 184(%r8), %rdi\n"
        "mov 192(%r8), %r12\nmov 200(%r8), %r13\nmov 208(%r8), %r14\nmov 216(%r8), %r15\n"
        "mov %rcx, %rax\n"
        "mov %rdx, %rcx\n"
        "call *%rax\n"
        "mov 32(%rsp), %r9\n"
        B3W_STORES("%r9", 0)
        "mov %rbx, 160(%r9)\nmov %rbp, 168(%r9)\nmov %rsi, 176(%r9)\nmov %rdi, 184(%r9)\n"
        "mov %r12, 192(%r9)\nmov %r13, 200(%r9)\nmov %r14, 208(%r9)\nmov %r15, 216(%r9)\n"
        B3W_LOADS("%rsp", 48)
        "add $216, %rsp\n"
        "pop %r15\npop %r14\npop %r13\npop %r12\npop %rdi\npop %rsi\npop %rbp\npop %rbx\n"
        "ret\n");

enum { INPUT = 80 * 1024 + 77, OUT = 300 };
static uint8_t input[INPUT];

struct job {
  const blake3_kernel *k;
  uint8_t out[OUT];
};

/* Every entry point of one kernel, as the tree and the JNI glue call them. */
static void run_kernel(void *arg) {
  struct job *j = arg;
  const blake3_kernel *k = j->k;
  uint32_t cv[8];
  memcpy(cv, blake3_iv, sizeof cv);
  uint8_t block[64], xof[64 * 8], cvs[32 * BLAKE3_MAX_DEGREE];
  memcpy(block, input, 64);
  k->compress_in_place(cv, block, 64, 7, CHUNK_START);
  k->compress_xof(cv, block, 33, 0, ROOT, xof);
  k->xof_many(cv, block, 64, 1, ROOT, xof, 8);
  const uint8_t *inputs[BLAKE3_MAX_DEGREE];
  for (int i = 0; i < BLAKE3_MAX_DEGREE; i++) inputs[i] = input + (size_t)i * BLAKE3_CHUNK_LEN;
  k->hash_many(inputs, BLAKE3_MAX_DEGREE, 16, blake3_iv, 0, 1, 0, CHUNK_START,
               CHUNK_END, cvs);
  if (k->subtree != NULL) k->subtree(input, 16, blake3_iv, 16, 0, 2, cvs);
  /* hash_lanes: a full group of the widest kernel and, below, the padded and row-wise rest */
  const uint8_t *lasts[BLAKE3_MAX_DEGREE];
  uint32_t lo[BLAKE3_MAX_DEGREE] = {0}, hi[BLAKE3_MAX_DEGREE] = {0}, len[BLAKE3_MAX_DEGREE],
           lf[BLAKE3_MAX_DEGREE];
  for (int i = 0; i < BLAKE3_MAX_DEGREE; i++) {
    lasts[i] = inputs[i] + 64 * 3;
    len[i] = 64;
    lf[i] = CHUNK_END | ROOT;
  }
  uint32_t first[BLAKE3_MAX_DEGREE], lane_cv[8][BLAKE3_MAX_DEGREE];
  for (int i = 0; i < BLAKE3_MAX_DEGREE; i++) {
    first[i] = i & 1 ? CHUNK_START : 0;
    for (int w = 0; w < 8; w++) lane_cv[w][i] = blake3_iv[w] + (uint32_t)i;
  }
  const uint32_t *const cv_words[8] = {lane_cv[0], lane_cv[1], lane_cv[2], lane_cv[3],
                                       lane_cv[4], lane_cv[5], lane_cv[6], lane_cv[7]};
  const blake3_lanes lanes = {inputs, lasts, lo, hi, len, lf, NULL, NULL};
  const blake3_lanes own_cvs = {inputs, lasts, lo, hi, len, lf, cv_words, first};
  for (size_t n = 1; n <= BLAKE3_MAX_DEGREE; n++) {
    k->hash_lanes(&lanes, n, 4, blake3_iv, 0, CHUNK_START, cvs);
    for (size_t blocks = 1; blocks <= 3; blocks++) /* the three shapes of the own-CV passes */
      k->hash_lanes(&own_cvs, n, blocks, blake3_iv, 0, CHUNK_START, cvs);
  }
  /* the batch: one-chunk and several-chunk messages, through hash_lanes and hash_many */
  const int32_t offs[4] = {0, 100, 5000, 9000}, lens[4] = {33, 1024, 3000, 64};
  uint8_t hashes[4 * 32];
  blake3_hash_batch(k, input, offs, lens, 4, blake3_iv, 0, hashes);
  blake3_hash_oneshot(k, input, INPUT, blake3_iv, 0, 0, j->out, OUT);
}

int main(void) {
  long pass = 0, fail = 0;
  for (size_t i = 0; i < INPUT; i++) input[i] = (uint8_t)(i * 7 + (i >> 9));
  unsigned char seed[224], after[224];
  for (size_t i = 0; i < sizeof seed; i++) seed[i] = (unsigned char)(0xA5 ^ (i * 29));
  uint8_t want[OUT];
  blake3_hash_oneshot(blake3_kernel_for(BLAKE3_ISA_PORTABLE), input, INPUT, blake3_iv, 0, 0, want, OUT);
  uint32_t isas = blake3_supported_isas();
  for (int isa = 0; isa < BLAKE3_ISA_COUNT; isa++) {
    if (!(isas & (1u << isa))) continue;
    struct job j = {blake3_kernel_for(isa), {0}};
    memset(after, 0, sizeof after);
    b3w_call(run_kernel, &j, seed, after);
    int xmm_ok = memcmp(seed, after, 160) == 0, gpr_ok = memcmp(seed + 160, after + 160, 64) == 0;
    int hash_ok = memcmp(j.out, want, OUT) == 0;
    pass += xmm_ok + gpr_ok + hash_ok;
    fail += !xmm_ok + !gpr_ok + !hash_ok;
    printf("  [%-8s] xmm6-15 %s, rbx rbp rsi rdi r12-r15 %s, hash %s\n", j.k->name,
           xmm_ok ? "preserved" : "CLOBBERED", gpr_ok ? "preserved" : "CLOBBERED",
           hash_ok ? "ok" : "WRONG");
  }
  printf("%ld passed, %ld failed\n", pass, fail);
  return fail == 0 ? 0 : 1;
}
