/*
 * blake3-fast: the JNI glue (native/JNI.md is the contract).
 *
 * Java has checked every offset and length, and pointer arithmetic here trusts them. What the
 * glue does find wrong (a buffer that is not direct, a copying one-shot asked for more than
 * B3J_COPY_OUT bytes, an array the JVM refuses to pin or copy) it leaves as a pending exception,
 * thrown here or by the JNI call that failed, and returns at once. Methods are bound with
 * RegisterNatives in JNI_OnLoad under the class named by the system property
 * blake3fast.jni.class, so a shaded copy of the Java classes binds as well; JNI_OnLoad is the
 * only exported symbol. Small arrays (key, cv, block, CV results) are copied with
 * Get/Set<Int>ArrayRegion. Byte arrays are reached in one of two ways, which Java picks
 * (NativeKernel, CriticalArrays):
 *   - pinned with GetPrimitiveArrayCritical, inputs released with JNI_ABORT: only where the
 *     collector pins the array's region. While an array is pinned, the only JNI calls made are
 *     the ones JNI allows there: pinning a second array (b3j_oneshot_into pins an output longer
 *     than B3J_COPY_OUT while the input is pinned) and releasing, newest first. Every other call
 *     (copying the key in, the CVs or a short output out, throwing) happens before the first
 *     pin or after the last release;
 *   - copied in slices of at most B3J_COPY_LEN bytes with Get/SetByteArrayRegion through a
 *     bounded native buffer (the *Copy methods): where the JVM would implement the critical
 *     section with the GC locker, which makes allocating threads wait for every critical
 *     section to end and, in JDK 17-21 (G1) and 17-24 (Parallel, Serial), throw
 *     OutOfMemoryError after two retries (JDK-8192647). A copy holds no lock: the copying
 *     thread is in the VM only while it copies a slice, then hashes outside it.
 */
#include <jni.h>
#include <stdlib.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <time.h>
#endif

#include "blake3_impl.h"
#include "blake3_mapped.h"

#define B3J_ABI_VERSION 9
#define B3J_DEFAULT_CLASS "io.github.blake3fast.NativeBlake3"
#define B3J_PROPERTY "blake3fast.jni.class"
#define B3J_MAX_SUBTREES 128 /* blake3_hash_subtrees writes at most this many CVs */
/* The most bytes copied out of (or into) a Java array at a time: a power of two of whole
 * chunks, small enough to stay in the L2 cache between the copy and the hash. */
#define B3J_COPY_LEN (64 * 1024)
/* A stack buffer for inputs that fit, and the fallback when malloc fails: a power of two of
 * whole chunks as well. */
#define B3J_STACK_COPY (8 * 1024)
/* One-shot outputs up to this many bytes are computed on the stack and copied out, never pinned;
 * hashOneShotCopy writes no more (NativeKernel asks for longer ones through rootOutputCopy). */
#define B3J_COPY_OUT 64

/* An isa with this bit set (Java's NativeBlake3.FASTEST_BLOCK, which it sends for one-block
 * hashes and one-shots of at most one chunk): the kernel whose single-block compression measured
 * fastest on this CPU, instead of isa's own. A chunk is one chain of dependent compressions,
 * which wide row-wise SIMD cannot shorten: on a CPU with many scalar ALUs (AMD Zen 5) the
 * portable C runs it a fifth faster than the AVX-512 kernel; elsewhere another kernel may win
 * (bench/notes/short-hash.md). The bytes are the same whichever runs. */
#define B3J_FASTEST_BLOCK 0x100
/* The kernels are timed at the 2^10th, 2^14th, 2^18th and 2^22nd FASTEST_BLOCK call, each
 * kernel's best round over all timings kept, not once at the first call: a JVM's first call
 * comes while its compiler threads are busiest, and timed there alone the portable C lost its
 * lead now and then for the rest of the process (on Zen 5, 1.4x slower 1 KiB hashes in one fresh
 * JVM in three; bench/notes/short-hash.md). Until the first timing, isa's own kernel runs. */
#define B3J_BLOCK_TIMINGS ((1u << 10) | (1u << 14) | (1u << 18) | (1u << 22))
#define B3J_BLOCK_LAST_TIMING (1u << 22)
static int b3j_block_isa = -1; /* the pick, once timed */
/* FASTEST_BLOCK calls, counted up to the last timing and no further, so that threads stop
 * writing to it; a racy count (a load and a store) that may lose calls but never skips one of
 * the timings' counts, since every count stored is one more than a count read. */
static uint32_t b3j_block_calls;
static int b3j_block_timing;                      /* 1 while a thread times the kernels */
static uint64_t b3j_block_best[BLAKE3_ISA_COUNT]; /* best rounds so far, 0 if none: the timer's */

static uint64_t b3j_now_ns(void) {
#if defined(_WIN32)
  LARGE_INTEGER t, f;
  QueryPerformanceCounter(&t);
  QueryPerformanceFrequency(&f);
  return (uint64_t)((double)t.QuadPart * 1e9 / (double)f.QuadPart);
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* One timing: 12 rounds of 16 chained compressions per supported kernel, interleaved, so that a
 * clock change or a neighbour's load hits all alike; then the pick from the best rounds of all
 * timings so far: the most capable kernel keeps its place unless another is 5% faster. About
 * 0.1 ms, on the calling thread; a thread that finds another timing goes on without. */
static void b3j_time_block_kernels(void) {
  if (__atomic_exchange_n(&b3j_block_timing, 1, __ATOMIC_ACQUIRE)) return;
  const uint32_t isas = blake3_supported_isas();
  uint8_t block[BLAKE3_BLOCK_LEN];
  uint32_t cv[8];
  for (size_t j = 0; j < sizeof block; j++) block[j] = (uint8_t)(j * 7 + 1);
  memcpy(cv, blake3_iv, sizeof cv);
  for (int round = 0; round < 12; round++) {
    for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
      if (!(isas & (1u << i))) continue;
      const blake3_kernel *k = blake3_kernel_for(i);
      const uint64_t t0 = b3j_now_ns();
      for (int n = 0; n < 16; n++) {
        k->compress_in_place(cv, block, BLAKE3_BLOCK_LEN, 0, CHUNK_START | CHUNK_END | ROOT);
      }
      uint64_t dt = b3j_now_ns() - t0;
      if (dt == 0) dt = 1; /* a coarse clock: 0 stands for "not timed" */
      if (b3j_block_best[i] == 0 || dt < b3j_block_best[i]) b3j_block_best[i] = dt;
    }
  }
  int top = BLAKE3_ISA_PORTABLE;
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    if (isas & (1u << i)) top = i;
  }
  int pick = top;
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++) {
    const uint64_t b = b3j_block_best[i];
    if ((isas & (1u << i)) && b < b3j_block_best[pick] && b * 20 < b3j_block_best[top] * 19) pick = i;
  }
  __atomic_store_n(&b3j_block_isa, pick, __ATOMIC_RELAXED);
  __atomic_store_n(&b3j_block_timing, 0, __ATOMIC_RELEASE);
}

static const blake3_kernel *b3j_kernel(jint isa) {
  if (isa & B3J_FASTEST_BLOCK) {
    isa &= ~B3J_FASTEST_BLOCK;
    uint32_t n = __atomic_load_n(&b3j_block_calls, __ATOMIC_RELAXED);
    if (n < B3J_BLOCK_LAST_TIMING) {
      n++;
      __atomic_store_n(&b3j_block_calls, n, __ATOMIC_RELAXED);
      if ((n & (n - 1)) == 0 && (n & B3J_BLOCK_TIMINGS) != 0) b3j_time_block_kernels();
    }
    const int pick = __atomic_load_n(&b3j_block_isa, __ATOMIC_RELAXED);
    if (pick >= 0) isa = pick;
  }
  const blake3_kernel *k = blake3_kernel_for(isa);
  return k != NULL ? k : blake3_kernel_for(BLAKE3_ISA_PORTABLE);
}

/* Added to the flags of hashBlock, hashOneShot and hashOneShotDirect (above the BLAKE3 flags;
 * NativeBlake3.UNLESS_QUESTION_MARK): hash nothing and return 1 if a byte of the input is '?',
 * which in a string's UTF-8 from Java may stand for an unpaired surrogate (Utf8.java). The
 * call reads the bytes anyway; Java would need a pass of its own over them, slower than this. */
#define B3J_UNLESS_QUESTION_MARK 0x100

/* The key words, or the IV for a null key. Returns 0 with an exception pending on failure. */
static int b3j_key(JNIEnv *env, jintArray key, uint32_t out[8]) {
  if (key == NULL) {
    memcpy(out, blake3_iv, 32);
    return 1;
  }
  (*env)->GetIntArrayRegion(env, key, 0, 8, (jint *)out);
  return !(*env)->ExceptionCheck(env);
}

static void b3j_throw_oom(JNIEnv *env) {
  if ((*env)->ExceptionCheck(env)) return;
  jclass c = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
  if (c != NULL) (*env)->ThrowNew(env, c, "blake3fast: could not pin a Java array");
}

static void b3j_throw_iae(JNIEnv *env, const char *msg) {
  if ((*env)->ExceptionCheck(env)) return;
  jclass c = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
  if (c != NULL) (*env)->ThrowNew(env, c, msg);
}

static uint8_t *b3j_direct(JNIEnv *env, jobject buf) {
  uint8_t *p = buf != NULL ? (uint8_t *)(*env)->GetDirectBufferAddress(env, buf) : NULL;
  if (p == NULL) b3j_throw_iae(env, "blake3fast: not a direct buffer");
  return p;
}

static jint JNICALL b3j_abi_version(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return B3J_ABI_VERSION;
}

static jint JNICALL b3j_supported_isas(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jint)blake3_supported_isas();
}

static jint JNICALL b3j_select_isa(JNIEnv *env, jclass cls, jint cap) {
  (void)env;
  (void)cls;
  const blake3_kernel *k = blake3_kernel_for(cap);
  return k != NULL ? (jint)k->isa : -1;
}

/* Shared tail of hashSubtrees{,Direct}: copies the CVs out. */
static jint b3j_store_cvs(JNIEnv *env, jintArray cvs, jint cvs_off, const uint32_t *words,
                          size_t n) {
  (*env)->SetIntArrayRegion(env, cvs, cvs_off, (jsize)(8 * n), (const jint *)words);
  return (jint)n;
}

static jint JNICALL b3j_hash_subtrees(JNIEnv *env, jclass cls, jint isa, jbyteArray in, jint off,
                                      jint len, jintArray key, jlong counter, jint flags,
                                      jintArray cvs, jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  if (!b3j_key(env, key, kw)) return 0;
  const blake3_kernel *k = b3j_kernel(isa);
  uint8_t *p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
  if (p == NULL) {
    b3j_throw_oom(env);
    return 0;
  }
  size_t n = blake3_hash_subtrees(k, p + off, (size_t)len, kw, (uint64_t)counter, (uint8_t)flags,
                                  words);
  (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
  return b3j_store_cvs(env, cvs, cvs_off, words, n);
}

static jint JNICALL b3j_hash_subtrees_direct(JNIEnv *env, jclass cls, jint isa, jobject in,
                                             jint off, jint len, jintArray key, jlong counter,
                                             jint flags, jintArray cvs, jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  if (!b3j_key(env, key, kw)) return 0;
  uint8_t *p = b3j_direct(env, in);
  if (p == NULL) return 0;
  size_t n = blake3_hash_subtrees(b3j_kernel(isa), p + off, (size_t)len, kw, (uint64_t)counter,
                                  (uint8_t)flags, words);
  return b3j_store_cvs(env, cvs, cvs_off, words, n);
}

/* blake3_hash_mapped on the descriptor inside a java.io.FileDescriptor (JNI reads the private
 * field "fd", which no Java API exposes; a JVM without it gets B3M_UNAVAILABLE). Returns the
 * number of subtrees, or B3M_UNAVAILABLE / B3M_FAULT with nothing stored. */
static jint JNICALL b3j_hash_mapped(JNIEnv *env, jclass cls, jint isa, jobject fd_object,
                                    jlong pos, jint len, jintArray key, jlong counter, jint flags,
                                    jintArray cvs, jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  if (!b3j_key(env, key, kw)) return 0;
  jclass fd_class = (*env)->FindClass(env, "java/io/FileDescriptor");
  jfieldID field = fd_class != NULL ? (*env)->GetFieldID(env, fd_class, "fd", "I") : NULL;
  if (fd_class != NULL) (*env)->DeleteLocalRef(env, fd_class);
  if (field == NULL) {
    (*env)->ExceptionClear(env); /* NoSuchFieldError: not a JVM this knows */
    return B3M_UNAVAILABLE;
  }
  jint fd = (*env)->GetIntField(env, fd_object, field);
  if (fd < 0) return B3M_UNAVAILABLE; /* closed meanwhile */
  int n = blake3_hash_mapped(b3j_kernel(isa), fd, (uint64_t)pos, (size_t)len, kw,
                             (uint64_t)counter, (uint8_t)flags, words);
  return n > 0 ? b3j_store_cvs(env, cvs, cvs_off, words, (size_t)n) : n;
}

/* One-shot hash of `input` (already resolved, pinned or direct) into `out`, then releases the
 * pinned input. An output of up to B3J_COPY_OUT bytes is computed on the stack and copied out
 * after the release, so that the output array is never pinned (and a direct input holds no
 * critical section at all); a longer one is written into the pinned output array. */
static jint b3j_oneshot_into(JNIEnv *env, const blake3_kernel *k, const uint8_t *input, jint len,
                             const uint32_t kw[8], jint flags, jlong seek, jbyteArray out,
                             jint out_off, jint out_len, jbyteArray in_to_release,
                             uint8_t *in_pinned) {
  if ((flags & B3J_UNLESS_QUESTION_MARK) && len > 0 && memchr(input, '?', (size_t)len) != NULL) {
    if (in_pinned != NULL)
      (*env)->ReleasePrimitiveArrayCritical(env, in_to_release, in_pinned, JNI_ABORT);
    return 1;
  }
  const uint8_t mode = (uint8_t)(flags & ~B3J_UNLESS_QUESTION_MARK);
  if (out_len <= B3J_COPY_OUT) {
    uint8_t small[B3J_COPY_OUT];
    blake3_hash_oneshot(k, input, (size_t)len, kw, mode, (uint64_t)seek, small, (size_t)out_len);
    if (in_pinned != NULL)
      (*env)->ReleasePrimitiveArrayCritical(env, in_to_release, in_pinned, JNI_ABORT);
    (*env)->SetByteArrayRegion(env, out, out_off, out_len, (const jbyte *)small);
    return 0;
  }
  uint8_t *o = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (o == NULL) {
    if (in_pinned != NULL)
      (*env)->ReleasePrimitiveArrayCritical(env, in_to_release, in_pinned, JNI_ABORT);
    b3j_throw_oom(env);
    return 0;
  }
  blake3_hash_oneshot(k, input, (size_t)len, kw, mode, (uint64_t)seek, o + out_off,
                      (size_t)out_len);
  (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
  if (in_pinned != NULL)
    (*env)->ReleasePrimitiveArrayCritical(env, in_to_release, in_pinned, JNI_ABORT);
  return 0;
}

static jint JNICALL b3j_hash_oneshot(JNIEnv *env, jclass cls, jint isa, jbyteArray in, jint off,
                                     jint len, jintArray key, jint flags, jlong seek,
                                     jbyteArray out, jint out_off, jint out_len) {
  (void)cls;
  uint32_t kw[8];
  if (out_len <= 0) return 0;
  if (!b3j_key(env, key, kw)) return 0;
  const blake3_kernel *k = b3j_kernel(isa);
  uint8_t *p = NULL;
  if (len > 0) {
    p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (p == NULL) {
      b3j_throw_oom(env);
      return 0;
    }
  }
  return b3j_oneshot_into(env, k, p != NULL ? p + off : NULL, len, kw, flags, seek, out, out_off,
                          out_len, in, p);
}

static jint JNICALL b3j_hash_oneshot_direct(JNIEnv *env, jclass cls, jint isa, jobject in,
                                            jint off, jint len, jintArray key, jint flags,
                                            jlong seek, jbyteArray out, jint out_off,
                                            jint out_len) {
  (void)cls;
  uint32_t kw[8];
  if (out_len <= 0) return 0;
  if (!b3j_key(env, key, kw)) return 0;
  const uint8_t *p = NULL;
  if (len > 0) {
    uint8_t *base = b3j_direct(env, in);
    if (base == NULL) return 0;
    p = base + off;
  }
  return b3j_oneshot_into(env, b3j_kernel(isa), p, len, kw, flags, seek, out, out_off, out_len,
                          NULL, NULL);
}

/* The root node's chaining value (8 words) and last block (16 words), copied in; 0 when the
 * JVM threw (arrays shorter than Java promised). */
static int b3j_node_words(JNIEnv *env, jintArray cv, jintArray block, uint32_t cvw[8],
                          uint32_t bw[16]) {
  (*env)->GetIntArrayRegion(env, cv, 0, 8, (jint *)cvw);
  if ((*env)->ExceptionCheck(env)) return 0;
  (*env)->GetIntArrayRegion(env, block, 0, 16, (jint *)bw);
  return !(*env)->ExceptionCheck(env);
}

static void JNICALL b3j_root_output(JNIEnv *env, jclass cls, jint isa, jintArray cv,
                                    jintArray block, jint block_len, jint flags, jlong position,
                                    jbyteArray out, jint out_off, jint out_len) {
  (void)cls;
  uint32_t cvw[8], bw[16];
  if (out_len <= 0) return;
  if (!b3j_node_words(env, cv, block, cvw, bw)) return;
  const blake3_kernel *k = b3j_kernel(isa);
  uint8_t *o = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (o == NULL) {
    b3j_throw_oom(env);
    return;
  }
  blake3_root_output(k, cvw, bw, (uint8_t)block_len, (uint8_t)flags, (uint64_t)position,
                     o + out_off, (size_t)out_len);
  (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
}

static jlong JNICALL b3j_direct_address(JNIEnv *env, jclass cls, jobject buf) {
  (void)cls;
  uint8_t *p = b3j_direct(env, buf);
  return p != NULL ? (jlong)(uintptr_t)p : 0;
}

/* Pairs of 64-bit words, stored and loaded as one 16-byte unit (GCC/clang vector extension;
 * a plain pair of words where the target has no such registers). */
typedef uint64_t b3j_u64x2 __attribute__((vector_size(16)));

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define B3J_BIG_ENDIAN 1
/* A word read little-endian from bytes, as those bytes lie in memory. */
#define B3J_BYTES64(x) __builtin_bswap64((uint64_t)(x))
/* Two key words packed low/high, as two uint32_t lie in memory. */
#define B3J_PAIR64(x) (((uint64_t)(x) << 32) | ((uint64_t)(x) >> 32))
#else
#define B3J_BIG_ENDIAN 0
#define B3J_BYTES64(x) ((uint64_t)(x))
#define B3J_PAIR64(x) ((uint64_t)(x))
#endif

typedef uint8_t b3j_u8x16 __attribute__((vector_size(16)));

/* Whether a byte of the block is '?' (bytes past len are zero, never '?'): four 16-byte compares
 * of the block the call builds anyway. */
static int b3j_has_question_mark(const b3j_u64x2 block[4]) {
  const b3j_u8x16 q = {'?', '?', '?', '?', '?', '?', '?', '?',
                       '?', '?', '?', '?', '?', '?', '?', '?'};
  const b3j_u8x16 hits = (b3j_u8x16)(((b3j_u8x16)block[0] == q) | ((b3j_u8x16)block[1] == q) |
                                     ((b3j_u8x16)block[2] == q) | ((b3j_u8x16)block[3] == q));
  const b3j_u64x2 any = (b3j_u64x2)hits;
  return (any[0] | any[1]) != 0;
}

/* A short hash's result, the chaining value as 32 little-endian bytes, to the slot at `out`. */
static void b3j_slot_out(jlong out, const uint32_t cv[8]) {
  uint8_t *o = (uint8_t *)(uintptr_t)out;
  if (B3J_BIG_ENDIAN) {
    for (int i = 0; i < 8; i++) blake3_store32(o + 4 * i, cv[i]);
  } else {
    memcpy(o, cv, 32); /* Java reads it back as four 8-byte words */
  }
}

/* The root hash of one block of len (0..64) bytes, given as eight little-endian words m0..m7
 * (zero past len), under the key k0..k3 (two key words each, the lower one in the low half);
 * the 32-byte result goes to native memory at `out` (ShortHashSlots in Java). Numbers only:
 * nothing is pinned or copied through the JVM, each of which would be one more call back into
 * it, a large share of the whole hash's cost (bench/notes/decisions.md).
 *
 * Block, key and result are moved in 16-byte units on purpose: the kernel reads with wide
 * loads, and a load that spans several narrower stores still in the store buffer cannot be
 * forwarded from them and waits for them to drain (measured slower per call with 8-byte or
 * byte stores: bench/notes/decisions.md). */
static jint JNICALL b3j_hash_block(JNIEnv *env, jclass cls, jint isa, jlong m0, jlong m1,
                                   jlong m2, jlong m3, jlong m4, jlong m5, jlong m6, jlong m7,
                                   jint len, jlong k0, jlong k1, jlong k2, jlong k3, jint flags,
                                   jlong out) {
  (void)env;
  (void)cls;
  const b3j_u64x2 block[4] = {{B3J_BYTES64(m0), B3J_BYTES64(m1)},
                              {B3J_BYTES64(m2), B3J_BYTES64(m3)},
                              {B3J_BYTES64(m4), B3J_BYTES64(m5)},
                              {B3J_BYTES64(m6), B3J_BYTES64(m7)}};
  if ((flags & B3J_UNLESS_QUESTION_MARK) && b3j_has_question_mark(block)) return 1;
  const b3j_u64x2 key[2] = {{B3J_PAIR64(k0), B3J_PAIR64(k1)}, {B3J_PAIR64(k2), B3J_PAIR64(k3)}};
  uint32_t cv[8];
  memcpy(cv, key, sizeof cv);
  b3j_kernel(isa)->compress_in_place(
      cv, (const uint8_t *)block, (uint8_t)len, 0,
      (uint8_t)((flags & ~B3J_UNLESS_QUESTION_MARK) | CHUNK_START | CHUNK_END | ROOT));
  b3j_slot_out(out, cv);
  return 0;
}

/* hashBlock for a chunk of two blocks, 65..128 bytes: the first block's words in a0..a7, the
 * second's (len - 64 bytes, zero past them) in b0..b7. No '?' test: strings take hashBlock up to
 * one block, the general one-shot after. */
static jint JNICALL b3j_hash_two_blocks(JNIEnv *env, jclass cls, jint isa, jlong a0, jlong a1,
                                        jlong a2, jlong a3, jlong a4, jlong a5, jlong a6,
                                        jlong a7, jlong b0, jlong b1, jlong b2, jlong b3,
                                        jlong b4, jlong b5, jlong b6, jlong b7, jint len,
                                        jlong k0, jlong k1, jlong k2, jlong k3, jint flags,
                                        jlong out) {
  (void)cls;
  if (len <= BLAKE3_BLOCK_LEN || len > 2 * BLAKE3_BLOCK_LEN || (flags & ~0xFF) != 0) {
    b3j_throw_iae(env, "blake3fast: hashTwoBlocks takes 65..128 bytes and BLAKE3 flags only");
    return 0;
  }
  const b3j_u64x2 first[4] = {{B3J_BYTES64(a0), B3J_BYTES64(a1)},
                              {B3J_BYTES64(a2), B3J_BYTES64(a3)},
                              {B3J_BYTES64(a4), B3J_BYTES64(a5)},
                              {B3J_BYTES64(a6), B3J_BYTES64(a7)}};
  const b3j_u64x2 second[4] = {{B3J_BYTES64(b0), B3J_BYTES64(b1)},
                               {B3J_BYTES64(b2), B3J_BYTES64(b3)},
                               {B3J_BYTES64(b4), B3J_BYTES64(b5)},
                               {B3J_BYTES64(b6), B3J_BYTES64(b7)}};
  const b3j_u64x2 key[2] = {{B3J_PAIR64(k0), B3J_PAIR64(k1)}, {B3J_PAIR64(k2), B3J_PAIR64(k3)}};
  uint32_t cv[8];
  memcpy(cv, key, sizeof cv);
  const blake3_kernel *k = b3j_kernel(isa);
  k->compress_in_place(cv, (const uint8_t *)first, BLAKE3_BLOCK_LEN, 0,
                       (uint8_t)(flags | CHUNK_START));
  k->compress_in_place(cv, (const uint8_t *)second, (uint8_t)(len - BLAKE3_BLOCK_LEN), 0,
                       (uint8_t)(flags | CHUNK_END | ROOT));
  b3j_slot_out(out, cv);
  return 0;
}

/* The root hash of one chunk of len (0..1024) bytes that Java copied into its slot of native
 * memory at `at` (ShortHashSlots, inputs of 129..1024 bytes), written over the slot's first 32
 * bytes; key and flags as hashBlock takes them. Numbers only, like hashBlock: against the general
 * one-shot on a copy buffer, no call back into the JVM for the buffer's address or for the hash
 * copied out, and no output node (blake3_hash_chunk_root; bench/notes/short-hash.md, "One chunk
 * through the slots"). No
 * '?' test: a len outside 0..1024, flags above 0xFF or a null address throw
 * IllegalArgumentException. */
static jint JNICALL b3j_hash_chunk_at(JNIEnv *env, jclass cls, jint isa, jint len, jlong k0,
                                      jlong k1, jlong k2, jlong k3, jint flags, jlong at) {
  (void)cls;
  if (len < 0 || len > BLAKE3_CHUNK_LEN || (flags & ~0xFF) != 0 || at == 0) {
    b3j_throw_iae(env, "blake3fast: hashChunkAt takes 0..1024 bytes, BLAKE3 flags only");
    return 0;
  }
  const b3j_u64x2 key[2] = {{B3J_PAIR64(k0), B3J_PAIR64(k1)}, {B3J_PAIR64(k2), B3J_PAIR64(k3)}};
  uint32_t kw[8];
  memcpy(kw, key, sizeof kw);
  uint8_t hash[BLAKE3_OUT_LEN];
  blake3_hash_chunk_root(b3j_kernel(isa), (const uint8_t *)(uintptr_t)at, (size_t)len, kw,
                         (uint8_t)flags, hash);
  memcpy((uint8_t *)(uintptr_t)at, hash, sizeof hash);
  return 0;
}

/* ---- the copying entry points (no critical section) ----------------------------------------- */

/* A copy buffer for `want` bytes: the stack buffer when they fit or malloc fails (then *cap may
 * be less than asked), else a malloc'd one of the smallest power of two from want up to
 * B3J_COPY_LEN. *cap is always a power of two of whole chunks, as blake3_hash_*_filled need. */
static uint8_t *b3j_buffer(size_t want, uint8_t stack_buf[B3J_STACK_COPY], size_t *cap) {
  if (want > B3J_STACK_COPY) {
    size_t n = B3J_COPY_LEN;
    while (n / 2 >= want) n /= 2;
    uint8_t *p = (uint8_t *)malloc(n);
    if (p != NULL) {
      *cap = n;
      return p;
    }
  }
  *cap = B3J_STACK_COPY;
  return stack_buf;
}

static void b3j_unbuffer(uint8_t *p, const uint8_t stack_buf[B3J_STACK_COPY]) {
  if (p != stack_buf) free(p);
}

/* The source of blake3_hash_*_filled: a Java array read with GetByteArrayRegion from off. */
typedef struct {
  JNIEnv *env;
  jbyteArray in;
  jint off;
} b3j_region;

static int b3j_fill(void *ctx, uint64_t from, size_t len, uint8_t *dst) {
  const b3j_region *r = (const b3j_region *)ctx;
  (*r->env)->GetByteArrayRegion(r->env, r->in, r->off + (jint)from, (jsize)len, (jbyte *)dst);
  return !(*r->env)->ExceptionCheck(r->env);
}

/* A BLAKE3_* code of blake3_hash_*_filled as the exception it stands for (a failed fill has
 * one pending already). */
static void b3j_filled_failed(JNIEnv *env, long rc) {
  if (rc == BLAKE3_TOO_MANY_SUBTREES) b3j_throw_iae(env, "blake3fast: too many subtrees");
}

/* hashSubtrees without a critical section: same CVs. */
static jint JNICALL b3j_hash_subtrees_copy(JNIEnv *env, jclass cls, jint isa, jbyteArray in,
                                           jint off, jint len, jintArray key, jlong counter,
                                           jint flags, jintArray cvs, jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  uint8_t stack_buf[B3J_STACK_COPY];
  if (!b3j_key(env, key, kw)) return 0;
  size_t cap;
  uint8_t *buf = b3j_buffer((size_t)len, stack_buf, &cap);
  b3j_region region = {env, in, off};
  long n = blake3_hash_subtrees_filled(b3j_kernel(isa), b3j_fill, &region,
                                       (uint64_t)len / BLAKE3_CHUNK_LEN, buf, cap, kw,
                                       (uint64_t)counter, (uint8_t)flags, words, B3J_MAX_SUBTREES);
  b3j_unbuffer(buf, stack_buf);
  if (n < 0) {
    b3j_filled_failed(env, n);
    return 0;
  }
  return b3j_store_cvs(env, cvs, cvs_off, words, (size_t)n);
}

/* hashOneShot without a critical section, for out_len <= B3J_COPY_OUT (else an
 * IllegalArgumentException): the input read through a buffer (blake3_hash_oneshot_filled). */
static void JNICALL b3j_hash_oneshot_copy(JNIEnv *env, jclass cls, jint isa, jbyteArray in,
                                          jint off, jint len, jintArray key, jint flags,
                                          jlong seek, jbyteArray out, jint out_off,
                                          jint out_len) {
  (void)cls;
  uint32_t kw[8];
  uint8_t stack_buf[B3J_STACK_COPY], o[B3J_COPY_OUT];
  if (out_len > B3J_COPY_OUT) {
    b3j_throw_iae(env, "blake3fast: hashOneShotCopy writes at most 64 bytes");
    return;
  }
  if (flags & B3J_UNLESS_QUESTION_MARK) {
    b3j_throw_iae(env, "blake3fast: hashOneShotCopy does not test for '?'");
    return;
  }
  if (out_len <= 0 || !b3j_key(env, key, kw)) return;
  size_t cap;
  uint8_t *buf = b3j_buffer((size_t)len, stack_buf, &cap);
  b3j_region region = {env, in, off};
  int rc = blake3_hash_oneshot_filled(b3j_kernel(isa), b3j_fill, &region, (size_t)len, buf, cap,
                                      kw, (uint8_t)flags, (uint64_t)seek, o, (size_t)out_len);
  b3j_unbuffer(buf, stack_buf);
  if (rc != 0) {
    b3j_filled_failed(env, rc);
    return;
  }
  (*env)->SetByteArrayRegion(env, out, out_off, out_len, (const jbyte *)o);
}

/* rootOutput without a critical section: computed a buffer at a time, each copied out. */
static void JNICALL b3j_root_output_copy(JNIEnv *env, jclass cls, jint isa, jintArray cv,
                                         jintArray block, jint block_len, jint flags,
                                         jlong position, jbyteArray out, jint out_off,
                                         jint out_len) {
  (void)cls;
  uint32_t cvw[8], bw[16];
  uint8_t stack_buf[B3J_STACK_COPY];
  if (out_len <= 0) return;
  if (!b3j_node_words(env, cv, block, cvw, bw)) return;
  const blake3_kernel *k = b3j_kernel(isa);
  size_t cap;
  uint8_t *buf = b3j_buffer((size_t)out_len, stack_buf, &cap);
  for (jint done = 0; done < out_len && !(*env)->ExceptionCheck(env);) {
    jint n = out_len - done < (jint)cap ? out_len - done : (jint)cap;
    blake3_root_output(k, cvw, bw, (uint8_t)block_len, (uint8_t)flags,
                       (uint64_t)position + (uint64_t)done, buf, (size_t)n);
    (*env)->SetByteArrayRegion(env, out, out_off + done, n, (const jbyte *)buf);
    done += n;
  }
  b3j_unbuffer(buf, stack_buf);
}

/* ---- many messages at once ------------------------------------------------------------ */

/* The most messages one hashMany call takes: their offsets, lengths and hashes sit on the
 * stack (10 KiB), copied in before the input is pinned and out after it is released. */
#define B3J_BATCH 256

/* Offsets and lengths [from, from + count) copied in, the key words read; 0 with an exception
 * pending on failure. */
static int b3j_batch_in(JNIEnv *env, jintArray offsets, jintArray lengths, jint from, jint count,
                        jintArray key, int32_t offs[B3J_BATCH], int32_t lens[B3J_BATCH],
                        uint32_t kw[8]) {
  if (count < 0 || count > B3J_BATCH) {
    b3j_throw_iae(env, "blake3fast: more messages in one call than B3J_BATCH");
    return 0;
  }
  if (!b3j_key(env, key, kw)) return 0;
  (*env)->GetIntArrayRegion(env, offsets, from, count, (jint *)offs);
  (*env)->GetIntArrayRegion(env, lengths, from, count, (jint *)lens);
  return !(*env)->ExceptionCheck(env);
}

static void JNICALL b3j_hash_many(JNIEnv *env, jclass cls, jint isa, jbyteArray data,
                                  jintArray offsets, jintArray lengths, jint from, jint count,
                                  jintArray key, jint flags, jbyteArray out, jint out_off) {
  (void)cls;
  int32_t offs[B3J_BATCH], lens[B3J_BATCH];
  uint8_t hashes[B3J_BATCH * BLAKE3_OUT_LEN];
  uint32_t kw[8];
  if (!b3j_batch_in(env, offsets, lengths, from, count, key, offs, lens, kw) || count == 0)
    return;
  uint8_t *p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, data, NULL);
  if (p == NULL) {
    b3j_throw_oom(env);
    return;
  }
  blake3_hash_batch(b3j_kernel(isa), p, offs, lens, (size_t)count, kw, (uint8_t)flags, hashes);
  (*env)->ReleasePrimitiveArrayCritical(env, data, p, JNI_ABORT);
  (*env)->SetByteArrayRegion(env, out, out_off, count * BLAKE3_OUT_LEN, (const jbyte *)hashes);
}

/* As hashMany, the messages in a direct buffer (Java copied them there: no pin at all). */
static void JNICALL b3j_hash_many_direct(JNIEnv *env, jclass cls, jint isa, jobject data,
                                         jintArray offsets, jintArray lengths, jint from,
                                         jint count, jintArray key, jint flags, jbyteArray out,
                                         jint out_off) {
  (void)cls;
  int32_t offs[B3J_BATCH], lens[B3J_BATCH];
  uint8_t hashes[B3J_BATCH * BLAKE3_OUT_LEN];
  uint32_t kw[8];
  if (!b3j_batch_in(env, offsets, lengths, from, count, key, offs, lens, kw) || count == 0)
    return;
  const uint8_t *p = b3j_direct(env, data);
  if (p == NULL) return;
  blake3_hash_batch(b3j_kernel(isa), p, offs, lens, (size_t)count, kw, (uint8_t)flags, hashes);
  (*env)->SetByteArrayRegion(env, out, out_off, count * BLAKE3_OUT_LEN, (const jbyte *)hashes);
}

/* Bao trees: group CVs from a pinned array, as bytes into a pinned output array. */
static void JNICALL b3j_hash_group_cvs(JNIEnv *env, jclass cls, jint isa, jbyteArray in, jint off,
                                       jint groups, jint group_log, jintArray key, jlong counter,
                                       jint flags, jbyteArray out, jint out_off) {
  (void)cls;
  uint32_t kw[8];
  if (!b3j_key(env, key, kw)) return;
  const blake3_kernel *k = b3j_kernel(isa);
  uint8_t *p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
  if (p == NULL) {
    b3j_throw_oom(env);
    return;
  }
  uint8_t *o = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (o == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
    b3j_throw_oom(env);
    return;
  }
  blake3_hash_group_cvs(k, p + off, (size_t)groups, (unsigned)group_log, kw, (uint64_t)counter,
                        (uint8_t)flags, o + out_off);
  (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
}

/* Direct buffers in and out: no critical section at all (NativeKernel's path where arrays are
 * copied rather than pinned, and for content read into direct buffers). */
static void JNICALL b3j_hash_group_cvs_direct(JNIEnv *env, jclass cls, jint isa, jobject in,
                                              jint off, jint groups, jint group_log,
                                              jintArray key, jlong counter, jint flags, jobject out,
                                              jint out_off) {
  (void)cls;
  uint32_t kw[8];
  if (!b3j_key(env, key, kw)) return;
  uint8_t *p = b3j_direct(env, in);
  if (p == NULL) return;
  uint8_t *o = b3j_direct(env, out);
  if (o == NULL) return;
  blake3_hash_group_cvs(b3j_kernel(isa), p + off, (size_t)groups, (unsigned)group_log, kw,
                        (uint64_t)counter, (uint8_t)flags, o + out_off);
}

static void JNICALL b3j_hash_parent_cvs_direct(JNIEnv *env, jclass cls, jint isa, jobject in,
                                               jint off, jint count, jintArray key, jint flags,
                                               jobject out, jint out_off) {
  (void)cls;
  uint32_t kw[8];
  if (!b3j_key(env, key, kw)) return;
  uint8_t *p = b3j_direct(env, in);
  if (p == NULL) return;
  uint8_t *o = b3j_direct(env, out);
  if (o == NULL) return;
  blake3_hash_parent_cvs(b3j_kernel(isa), p + off, (size_t)count, kw, (uint8_t)flags, o + out_off);
}

static void JNICALL b3j_hash_parent_cvs(JNIEnv *env, jclass cls, jint isa, jbyteArray in,
                                        jint off, jint count, jintArray key, jint flags,
                                        jbyteArray out, jint out_off) {
  (void)cls;
  uint32_t kw[8];
  if (!b3j_key(env, key, kw)) return;
  const blake3_kernel *k = b3j_kernel(isa);
  const int same = (*env)->IsSameObject(env, in, out); /* asked before any critical section */
  uint8_t *p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
  if (p == NULL) {
    b3j_throw_oom(env);
    return;
  }
  uint8_t *o = same ? p : (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, out, NULL);
  if (o == NULL) {
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
    b3j_throw_oom(env);
    return;
  }
  blake3_hash_parent_cvs(k, p + off, (size_t)count, kw, (uint8_t)flags, o + out_off);
  if (!same) (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
  (*env)->ReleasePrimitiveArrayCritical(env, in, p, same ? 0 : JNI_ABORT);
}

static JNINativeMethod b3j_methods[] = {
    {"abiVersion", "()I", (void *)b3j_abi_version},
    {"supportedIsas", "()I", (void *)b3j_supported_isas},
    {"selectIsa", "(I)I", (void *)b3j_select_isa},
    {"hashSubtrees", "(I[BII[IJI[II)I", (void *)b3j_hash_subtrees},
    {"hashSubtreesDirect", "(ILjava/nio/ByteBuffer;II[IJI[II)I", (void *)b3j_hash_subtrees_direct},
    {"hashOneShot", "(I[BII[IIJ[BII)I", (void *)b3j_hash_oneshot},
    {"hashOneShotDirect", "(ILjava/nio/ByteBuffer;II[IIJ[BII)I", (void *)b3j_hash_oneshot_direct},
    {"rootOutput", "(I[I[IIIJ[BII)V", (void *)b3j_root_output},
    {"directAddress", "(Ljava/nio/ByteBuffer;)J", (void *)b3j_direct_address},
    {"hashBlock", "(IJJJJJJJJIJJJJIJ)I", (void *)b3j_hash_block},
    {"hashTwoBlocks", "(IJJJJJJJJJJJJJJJJIJJJJIJ)I", (void *)b3j_hash_two_blocks},
    {"hashChunkAt", "(IIJJJJIJ)I", (void *)b3j_hash_chunk_at},
    {"hashSubtreesCopy", "(I[BII[IJI[II)I", (void *)b3j_hash_subtrees_copy},
    {"hashOneShotCopy", "(I[BII[IIJ[BII)V", (void *)b3j_hash_oneshot_copy},
    {"rootOutputCopy", "(I[I[IIIJ[BII)V", (void *)b3j_root_output_copy},
    {"hashMapped", "(ILjava/io/FileDescriptor;JI[IJI[II)I", (void *)b3j_hash_mapped},
    {"hashMany", "(I[B[I[III[II[BI)V", (void *)b3j_hash_many},
    {"hashManyDirect", "(ILjava/nio/ByteBuffer;[I[III[II[BI)V", (void *)b3j_hash_many_direct},
    {"hashGroupCvs", "(I[BIII[IJI[BI)V", (void *)b3j_hash_group_cvs},
    {"hashGroupCvsDirect", "(ILjava/nio/ByteBuffer;III[IJILjava/nio/ByteBuffer;I)V",
     (void *)b3j_hash_group_cvs_direct},
    {"hashParentCvs", "(I[BII[II[BI)V", (void *)b3j_hash_parent_cvs},
    {"hashParentCvsDirect", "(ILjava/nio/ByteBuffer;II[IILjava/nio/ByteBuffer;I)V",
     (void *)b3j_hash_parent_cvs_direct},
};

/* The binary name from the system property (or the default), dots turned into slashes. */
static int b3j_class_name(JNIEnv *env, char *buf, size_t cap) {
  const char *src = B3J_DEFAULT_CLASS;
  const char *utf = NULL;
  jstring value = NULL;
  jclass sys = (*env)->FindClass(env, "java/lang/System");
  if (sys == NULL) return 0;
  jmethodID get = (*env)->GetStaticMethodID(env, sys, "getProperty",
                                            "(Ljava/lang/String;)Ljava/lang/String;");
  jstring key = get != NULL ? (*env)->NewStringUTF(env, B3J_PROPERTY) : NULL;
  if (key != NULL) value = (jstring)(*env)->CallStaticObjectMethod(env, sys, get, key);
  if ((*env)->ExceptionCheck(env)) return 0;
  if (value != NULL) {
    utf = (*env)->GetStringUTFChars(env, value, NULL);
    if (utf == NULL) return 0;
    src = utf;
  }
  size_t n = 0;
  int ok = 1;
  for (; src[n] != '\0'; n++) {
    if (n + 1 >= cap) {
      ok = 0;
      break;
    }
    buf[n] = src[n] == '.' ? '/' : src[n];
  }
  buf[n] = '\0';
  if (utf != NULL) (*env)->ReleaseStringUTFChars(env, value, utf);
  if (n == 0) ok = 0;
  (*env)->DeleteLocalRef(env, sys);
  if (key != NULL) (*env)->DeleteLocalRef(env, key);
  if (value != NULL) (*env)->DeleteLocalRef(env, value);
  return ok;
}

JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, void *reserved) {
  (void)reserved;
  JNIEnv *env = NULL;
  if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_6) != JNI_OK || env == NULL) return JNI_ERR;
  char name[512];
  jclass cls = NULL;
  if (!b3j_class_name(env, name, sizeof name)) goto fail;
  cls = (*env)->FindClass(env, name);
  if (cls == NULL) goto fail;
  if ((*env)->RegisterNatives(env, cls, b3j_methods,
                              (jint)(sizeof b3j_methods / sizeof b3j_methods[0])) != JNI_OK)
    goto fail;
  (*env)->DeleteLocalRef(env, cls);
  (void)blake3_supported_isas(); /* detect the CPU now rather than on the first hash */
  return JNI_VERSION_1_6;
fail:
  if ((*env)->ExceptionCheck(env)) (*env)->ExceptionClear(env);
  if (cls != NULL) (*env)->DeleteLocalRef(env, cls);
  return JNI_ERR;
}
