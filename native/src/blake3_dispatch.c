/*
 * blake3-fast: CPU detection and the kernel table.
 *
 * The table, the names and the masks are generated from BLAKE3_ISAS (blake3_impl.h); the build
 * defines BLAKE3_HAVE_<ID>=1 for each ISA file it compiled, so this file only names kernels that
 * exist. What stays written out per architecture is how its CPUs say what they have.
 *
 * Detection runs once: the first caller claims the job with a compare-and-swap, fills the
 * table and publishes it with a release store; a caller that arrives meanwhile waits the few
 * microseconds until the table is ready. Nothing is allocated
 * and no library call is made except getauxval on the architectures that need it.
 *
 * Ranking: within an architecture the ISAs are ordered by their place in BLAKE3_ISAS (x86-64:
 * portable < sse2 < sse41 < avx2 < avx512; elsewhere portable < the architecture's SIMD ISA).
 */
#include "blake3_impl.h"

#if defined(__x86_64__) || defined(_M_X64)
#define B3D_ARCH_X86_64 1
#include <cpuid.h>
#elif defined(__aarch64__)
#define B3D_ARCH_AARCH64 1
#elif defined(__powerpc64__)
/* Big-endian ppc64 too: BLAKE3_ISAS names the VSX family by its first platform, PPC64LE. */
#define B3D_ARCH_PPC64LE 1
#elif defined(__riscv) && (__riscv_xlen == 64)
#define B3D_ARCH_RISCV64 1
#elif defined(__loongarch64) || defined(__loongarch__)
#define B3D_ARCH_LOONGARCH64 1
#elif defined(__s390x__)
#define B3D_ARCH_S390X 1
#endif

#if defined(__linux__) && (defined(B3D_ARCH_PPC64LE) || defined(B3D_ARCH_RISCV64) ||            \
                           defined(B3D_ARCH_LOONGARCH64) || defined(B3D_ARCH_S390X))
#define B3D_USE_AUXV 1
#include <sys/auxv.h>
#ifndef AT_HWCAP
#define AT_HWCAP 16
#endif
#endif

#define B3D_ARCH_ANY 1
#define BLAKE3_HAVE_PORTABLE 1
#define B3D_BIT(isa) (1u << (isa))

/* The ISAs of this architecture (whether or not this build compiled them). */
#define B3D_FAMILY_BIT(ID, name, arch, degree, rows, xof, subtree, lanes)                       \
  | (BLAKE3_IS_SET(B3D_ARCH_##arch) ? B3D_BIT(BLAKE3_ISA_##ID) : 0u)
#define B3D_FAMILY (0u BLAKE3_ISAS(B3D_FAMILY_BIT))

/* The ISAs compiled into this build. */
#define B3D_COMPILED_BIT(ID, name, arch, degree, rows, xof, subtree, lanes)                     \
  | (BLAKE3_IS_SET(BLAKE3_HAVE_##ID) ? B3D_BIT(BLAKE3_ISA_##ID) : 0u)
static const uint32_t b3d_compiled = 0u BLAKE3_ISAS(B3D_COMPILED_BIT);

/* Stand-in xof_many for ISAs without one: consecutive output blocks, one compression each. */
#define B3D_XOF_DEF_WIDE(ID, name, rows)
#define B3D_XOF_DEF_LOOP(ID, name, rows)                                                        \
  BLAKE3_IF(BLAKE3_IS_SET(BLAKE3_HAVE_##ID))(                                                   \
  static void b3d_xof_loop_##name(const uint32_t cv[8], const uint8_t block[BLAKE3_BLOCK_LEN],  \
                                  uint8_t block_len, uint64_t counter, uint8_t flags,           \
                                  uint8_t *out, size_t n) {                                     \
    for (size_t j = 0; j < n; j++)                                                              \
      blake3_compress_xof_##rows(cv, block, block_len, counter + j, flags,                      \
                                 out + (size_t)BLAKE3_BLOCK_LEN * j);                           \
  })
#define B3D_XOF_LOOP(ID, name, arch, degree, rows, xof, subtree, lanes) B3D_XOF_DEF_##xof(ID, name, rows)
BLAKE3_ISAS(B3D_XOF_LOOP)

/* Stand-in hash_lanes for ISAs without one: each lane through the rows' compression. */
#define B3D_LANES_DEF_OWN(ID, name, rows)
#define B3D_LANES_DEF_LOOP(ID, name, rows)                                                      \
  BLAKE3_IF(BLAKE3_IS_SET(BLAKE3_HAVE_##ID))(                                                   \
  static void b3d_lanes_loop_##name(const blake3_lanes *lanes, size_t num_inputs,               \
                                    size_t blocks, const uint32_t key[8], uint8_t flags,        \
                                    uint8_t flags_start, uint8_t *out) {                        \
    for (size_t i = 0; i < num_inputs; i++)                                                     \
      blake3_lane_one(blake3_compress_in_place_##rows, lanes, i, blocks, key, flags,            \
                      flags_start, out + (size_t)BLAKE3_OUT_LEN * i);                           \
  })
#define B3D_LANES_LOOP(ID, name, arch, degree, rows, xof, subtree, lanes)                       \
  B3D_LANES_DEF_##lanes(ID, name, rows)
BLAKE3_ISAS(B3D_LANES_LOOP)

#define B3D_LANES_FN_LOOP(name) b3d_lanes_loop_##name
#define B3D_LANES_FN_OWN(name) blake3_hash_lanes_##name
#define B3D_XOF_FN_LOOP(name) b3d_xof_loop_##name
#define B3D_XOF_FN_WIDE(name) blake3_xof_many_##name
#define B3D_SUBTREE_FN_NONE(name) NULL
#define B3D_SUBTREE_FN_OWN(name) blake3_subtree_##name
#define B3D_ENTRY(ID, name, arch, degree, rows, xof, subtree, lanes)                            \
  BLAKE3_IF(BLAKE3_IS_SET(BLAKE3_HAVE_##ID))(                                                   \
  [BLAKE3_ISA_##ID] = {BLAKE3_ISA_##ID, #name, degree, blake3_compress_in_place_##rows,         \
                       blake3_compress_xof_##rows, blake3_hash_many_##name,                     \
                       B3D_XOF_FN_##xof(name), B3D_SUBTREE_FN_##subtree(name),                  \
                       B3D_LANES_FN_##lanes(name)},)

/* Written only by the thread that wins the init race (the RVV degree), read after it publishes. */
static blake3_kernel b3d_kernels[BLAKE3_ISA_COUNT] = {BLAKE3_ISAS(B3D_ENTRY)};

/* Every ISA name, compiled or not, for blake3_isa_from_name. */
static const char *const b3d_names[BLAKE3_ISA_COUNT] = {BLAKE3_ISA_NAMES};

/* ---- what the CPU and OS can run ------------------------------------------------------- */

#if defined(B3D_ARCH_X86_64)
static uint64_t b3d_xgetbv0(void) {
  uint32_t lo, hi;
  __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return ((uint64_t)hi << 32) | lo;
}

static uint32_t b3d_cpu_isas(void) {
  uint32_t isas = B3D_BIT(BLAKE3_ISA_PORTABLE);
  unsigned a, b, c, d;
  unsigned max_leaf = __get_cpuid_max(0, NULL);
  if (max_leaf < 1) return isas;
  __cpuid(1, a, b, c, d);
  const int sse2 = (d >> 26) & 1, sse41 = (c >> 19) & 1;
  const int osxsave = (c >> 27) & 1, avx = (c >> 28) & 1;
  if (sse2) isas |= B3D_BIT(BLAKE3_ISA_SSE2);
  if (sse2 && sse41) isas |= B3D_BIT(BLAKE3_ISA_SSE41);
  if (!(osxsave && avx && sse41) || max_leaf < 7) return isas;
  const uint64_t xcr0 = b3d_xgetbv0();
  if ((xcr0 & 0x6) != 0x6) return isas; /* the OS saves XMM and YMM state */
  __cpuid_count(7, 0, a, b, c, d);
  const int avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1, avx512vl = (b >> 31) & 1;
  if (!avx2) return isas;
  isas |= B3D_BIT(BLAKE3_ISA_AVX2);
  /* opmask (bit 5), upper halves of ZMM0-15 (bit 6) and ZMM16-31 (bit 7) saved too */
  if ((xcr0 & 0xE6) == 0xE6 && avx512f && avx512vl) isas |= B3D_BIT(BLAKE3_ISA_AVX512);
  return isas;
}
#elif defined(B3D_ARCH_AARCH64)
static uint32_t b3d_cpu_isas(void) {
  return B3D_BIT(BLAKE3_ISA_PORTABLE) | B3D_BIT(BLAKE3_ISA_NEON); /* ASIMD is baseline */
}
#elif defined(B3D_USE_AUXV)
#if defined(B3D_ARCH_PPC64LE)
#define B3D_HWCAP_BIT 0x00000080ul /* PPC_FEATURE_HAS_VSX */
#define B3D_HWCAP_ISA BLAKE3_ISA_VSX
#elif defined(B3D_ARCH_RISCV64)
#define B3D_HWCAP_BIT (1ul << ('V' - 'A')) /* the single-letter extension bits */
#define B3D_HWCAP_ISA BLAKE3_ISA_RVV
#elif defined(B3D_ARCH_LOONGARCH64)
#define B3D_HWCAP_BIT (1ul << 4) /* HWCAP_LOONGARCH_LSX */
#define B3D_HWCAP_ISA BLAKE3_ISA_LSX
#elif defined(B3D_ARCH_S390X)
#define B3D_HWCAP_BIT 2048ul /* HWCAP_S390_VX */
#define B3D_HWCAP_ISA BLAKE3_ISA_VX
#endif
static uint32_t b3d_cpu_isas(void) {
  uint32_t isas = B3D_BIT(BLAKE3_ISA_PORTABLE);
  if (getauxval(AT_HWCAP) & B3D_HWCAP_BIT) isas |= B3D_BIT(B3D_HWCAP_ISA);
  return isas;
}
#else
static uint32_t b3d_cpu_isas(void) { return B3D_BIT(BLAKE3_ISA_PORTABLE); }
#endif

/* ---- one-time initialisation ------------------------------------------------------------ */

enum { B3D_UNSET = 0, B3D_BUSY = 1, B3D_READY = 2 };
static int b3d_state = B3D_UNSET;
static uint32_t b3d_supported; /* valid once b3d_state == B3D_READY */

static void b3d_init(void) {
  if (__atomic_load_n(&b3d_state, __ATOMIC_ACQUIRE) == B3D_READY) return;
  int expected = B3D_UNSET;
  if (__atomic_compare_exchange_n(&b3d_state, &expected, B3D_BUSY, 0, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE)) {
    uint32_t isas = b3d_cpu_isas() & b3d_compiled & B3D_FAMILY;
#ifdef BLAKE3_HAVE_RVV
    if (isas & B3D_BIT(BLAKE3_ISA_RVV)) {
      size_t deg = blake3_rvv_degree(); /* reads vlenb: only with V present */
      if (deg < 1) deg = 1;
      if (deg > BLAKE3_MAX_DEGREE) deg = BLAKE3_MAX_DEGREE;
      b3d_kernels[BLAKE3_ISA_RVV].degree = deg;
    }
#endif
    b3d_supported = isas;
    __atomic_store_n(&b3d_state, B3D_READY, __ATOMIC_RELEASE);
    return;
  }
  while (__atomic_load_n(&b3d_state, __ATOMIC_ACQUIRE) != B3D_READY) {
#if defined(B3D_ARCH_X86_64)
    __asm__ __volatile__("pause");
#endif
  }
}

uint32_t blake3_supported_isas(void) {
  b3d_init();
  return b3d_supported;
}

const blake3_kernel *blake3_kernel_for(int cap) {
  b3d_init();
  uint32_t allowed = b3d_supported;
  if (cap >= 0) {
    if (cap >= BLAKE3_ISA_COUNT || !(B3D_FAMILY & B3D_BIT(cap))) return NULL;
    allowed &= (B3D_BIT(cap) << 1) - 1u; /* same family, so enum order is rank order */
  }
  int best = BLAKE3_ISA_PORTABLE;
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++)
    if (allowed & B3D_BIT(i)) best = i;
  return &b3d_kernels[best];
}

const blake3_kernel *blake3_kernel_of(int isa) {
  b3d_init();
  if (isa < 0 || isa >= BLAKE3_ISA_COUNT || !(b3d_supported & B3D_BIT(isa))) return NULL;
  return &b3d_kernels[isa];
}

int blake3_isa_from_name(const char *name) {
  if (name == NULL) return -1;
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    const char *a = name, *b = b3d_names[i];
    for (;;) {
      char ca = *a, cb = *b;
      if (ca >= 'A' && ca <= 'Z') ca = (char)(ca - 'A' + 'a');
      if (ca != cb) break;
      if (ca == '\0') return i;
      a++;
      b++;
    }
  }
  return -1;
}
