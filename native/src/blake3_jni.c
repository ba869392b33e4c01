/*
 * blake3-fast: the JNI glue (native/JNI.md is the contract).
 *
 * Java has checked every offset and length, and pointer arithmetic here trusts them. What the
 * glue does find wrong (a buffer that is not direct, more values than a call may return, an
 * array the JVM cannot copy or pin) it leaves as a pending exception and returns at once.
 * Methods are bound with RegisterNatives in JNI_OnLoad under the class named by the system
 * property blake3fast.jni.class, so a shaded copy of the Java classes binds as well; JNI_OnLoad
 * is the only exported symbol.
 *
 * One rule for every byte[] input, by its length alone:
 *   - up to B3J_COPY_LEN bytes it is copied in (GetByteArrayRegion: onto the stack up to
 *     B3J_STACK_LEN, into a malloc'd buffer above), and no critical section is held at all;
 *   - longer, it is pinned with GetPrimitiveArrayCritical and released with JNI_ABORT.
 * Java sends longer inputs only where the collector pins an array's region (G1 from JDK 22,
 * Shenandoah): where the JVM would implement a critical section with the GC locker, it cuts
 * its calls at B3J_COPY_LEN instead (NativeKernel, CriticalArrays). While an array is pinned no
 * other JNI call is made: keys are copied in before, results copied out after the release.
 * Outputs are never pinned: they are computed on the stack (or a malloc'd buffer, a slice at a
 * time) and copied out with Set<Type>ArrayRegion.
 */
#include <jni.h>
#include <stdlib.h>

#include "blake3_impl.h"
#include "blake3_mapped.h"

#define B3J_ABI_VERSION 10
#define B3J_DEFAULT_CLASS "io.github.blake3fast.NativeBlake3"
#define B3J_PROPERTY "blake3fast.jni.class"
#define B3J_MAX_SUBTREES 128 /* blake3_hash_subtrees without a limit writes at most this many */
/* Array inputs up to this many bytes are copied in, longer ones pinned (NativeKernel.COPY_LEN):
 * 64 KiB stays in the L2 cache between the copy and the hash, and was the fastest size of
 * copy measured (bench/notes/gclocker.md). */
#define B3J_COPY_LEN (64 * 1024)
/* Copies up to this many bytes go on the stack, longer ones to malloc: short hashes, the most
 * frequent calls, cost no allocation, and the deepest call (hashMany: this, its 10 KiB of
 * offsets and hashes, the batch's 30 KiB) stays within the room HotSpot keeps free below a
 * native call on Linux (20 pages; gcc -fstack-usage, native/README.md). */
#define B3J_STACK_LEN (8 * 1024)
/* Outputs up to this many bytes are computed on the stack; longer ones a slice at a time. */
#define B3J_OUT_STACK 64
#define B3J_OUT_SLICE (64 * 1024)
/* The most messages one hashMany call takes: their offsets, lengths and hashes sit on the
 * stack (10 KiB). */
#define B3J_BATCH 256

static void b3j_throw_iae(JNIEnv *env, const char *msg) {
  if ((*env)->ExceptionCheck(env)) return;
  jclass c = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
  if (c != NULL) (*env)->ThrowNew(env, c, msg);
}

static void b3j_throw_oom(JNIEnv *env) {
  if ((*env)->ExceptionCheck(env)) return;
  jclass c = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
  if (c != NULL) (*env)->ThrowNew(env, c, "blake3fast: could not pin a Java array");
}

/* The kernel of an ISA selectIsa returned; the portable one for any other number. */
static const blake3_kernel *b3j_kernel(jint isa) {
  const blake3_kernel *k = blake3_kernel_of(isa);
  return k != NULL ? k : blake3_kernel_of(BLAKE3_ISA_PORTABLE);
}

/* The key words, or the IV for a null key. 0 with an exception pending on failure. */
static int b3j_key(JNIEnv *env, jintArray key, uint32_t out[8]) {
  if (key == NULL) {
    memcpy(out, blake3_iv, 32);
    return 1;
  }
  (*env)->GetIntArrayRegion(env, key, 0, 8, (jint *)out);
  return !(*env)->ExceptionCheck(env);
}

static uint8_t *b3j_direct(JNIEnv *env, jobject buf) {
  uint8_t *p = buf != NULL ? (uint8_t *)(*env)->GetDirectBufferAddress(env, buf) : NULL;
  if (p == NULL) b3j_throw_iae(env, "blake3fast: not a direct buffer");
  return p;
}

/* ---- byte[] inputs: copied or pinned, by length ---------------------------------------- */

typedef struct {
  jbyteArray pinned_array; /* to release, or NULL */
  uint8_t *pinned;
  uint8_t *heap; /* to free, or NULL */
  uint8_t stack[B3J_STACK_LEN];
} b3j_input;

/* The bytes of array[off, off + len), copied or pinned as the file comment says; NULL with an
 * exception pending when the JVM refused. Pair with b3j_input_close, after which no pointer into
 * the input may be used. A malloc that fails pins instead: the input is short then. */
static const uint8_t *b3j_input_open(JNIEnv *env, jbyteArray array, jint off, jint len,
                                     b3j_input *in) {
  in->pinned_array = NULL;
  in->heap = NULL;
  uint8_t *copy = in->stack;
  if (len > B3J_STACK_LEN && len <= B3J_COPY_LEN) copy = (uint8_t *)malloc((size_t)len);
  if (len <= B3J_COPY_LEN && copy != NULL) {
    if (copy != in->stack) in->heap = copy;
    if (len > 0) (*env)->GetByteArrayRegion(env, array, off, len, (jbyte *)copy);
    if ((*env)->ExceptionCheck(env)) {
      free(in->heap);
      in->heap = NULL;
      return NULL;
    }
    return copy;
  }
  in->pinned = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, array, NULL);
  if (in->pinned == NULL) {
    b3j_throw_oom(env);
    return NULL;
  }
  in->pinned_array = array;
  return in->pinned + off;
}

static void b3j_input_close(JNIEnv *env, b3j_input *in) {
  if (in->pinned_array != NULL)
    (*env)->ReleasePrimitiveArrayCritical(env, in->pinned_array, in->pinned, JNI_ABORT);
  in->pinned_array = NULL;
  free(in->heap);
  in->heap = NULL;
}

/* ---- outputs ----------------------------------------------------------------------------- */

/* out_len bytes of the root output from `position` into out[out_off..], through the stack or
 * a buffer a slice at a time; stops at the first exception. */
static void b3j_output(JNIEnv *env, const blake3_kernel *k, const blake3_node *root,
                       uint64_t position, jbyteArray out, jint out_off, jint out_len) {
  uint8_t small[B3J_OUT_STACK];
  uint8_t *buf = small;
  size_t cap = sizeof small;
  if (out_len > B3J_OUT_STACK) {
    cap = out_len < B3J_OUT_SLICE ? (size_t)out_len : B3J_OUT_SLICE;
    buf = (uint8_t *)malloc(cap);
    if (buf == NULL) { /* the stack buffer, a slice at a time */
      buf = small;
      cap = sizeof small;
    }
  }
  for (jint done = 0; done < out_len;) {
    const jint n = out_len - done < (jint)cap ? out_len - done : (jint)cap;
    blake3_node_output(k, root, position + (uint64_t)done, buf, (size_t)n);
    (*env)->SetByteArrayRegion(env, out, out_off + done, n, (const jbyte *)buf);
    done += n;
    if (done < out_len && (*env)->ExceptionCheck(env)) break; /* no JNI call past a failed copy */
  }
  if (buf != small) free(buf);
}

/* CV words out to cvs[cvs_off..]; returns n. */
static jint b3j_store_cvs(JNIEnv *env, jintArray cvs, jint cvs_off, const uint32_t *words,
                          size_t n) {
  (*env)->SetIntArrayRegion(env, cvs, cvs_off, (jsize)(8 * n), (const jint *)words);
  return (jint)n;
}

/* ---- the natives --------------------------------------------------------------------------- */

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

/* Whether the subtrees of len bytes with at most 2^max_log chunks each fit in B3J_MAX_SUBTREES
 * values (blake3_impl.h gives the bound); else an IllegalArgumentException. */
static int b3j_subtrees_fit(JNIEnv *env, jint len, jint max_log) {
  if (max_log < 0 || max_log > 63) {
    b3j_throw_iae(env, "blake3fast: max_log outside 0..63");
    return 0;
  }
  if (max_log < 32 && ((uint64_t)len / BLAKE3_CHUNK_LEN >> max_log) + 2 * (uint64_t)max_log >
                          B3J_MAX_SUBTREES) {
    b3j_throw_iae(env, "blake3fast: more subtrees than one call returns");
    return 0;
  }
  return 1;
}

static jint JNICALL b3j_hash_subtrees(JNIEnv *env, jclass cls, jint isa, jbyteArray array,
                                      jint off, jint len, jintArray key, jlong counter,
                                      jint flags, jint max_log, jintArray cvs, jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  b3j_input in;
  if (!b3j_subtrees_fit(env, len, max_log) || !b3j_key(env, key, kw)) return 0;
  const uint8_t *p = b3j_input_open(env, array, off, len, &in);
  if (p == NULL) return 0;
  size_t n = blake3_hash_subtrees(b3j_kernel(isa), p, (size_t)len, kw, (uint64_t)counter,
                                  (uint8_t)flags, (unsigned)max_log, words);
  b3j_input_close(env, &in);
  return b3j_store_cvs(env, cvs, cvs_off, words, n);
}

static jint JNICALL b3j_hash_subtrees_direct(JNIEnv *env, jclass cls, jint isa, jobject buf,
                                             jint off, jint len, jintArray key, jlong counter,
                                             jint flags, jint max_log, jintArray cvs,
                                             jint cvs_off) {
  (void)cls;
  uint32_t kw[8], words[8 * B3J_MAX_SUBTREES];
  if (!b3j_subtrees_fit(env, len, max_log) || !b3j_key(env, key, kw)) return 0;
  uint8_t *p = b3j_direct(env, buf);
  if (p == NULL) return 0;
  size_t n = blake3_hash_subtrees(b3j_kernel(isa), p + off, (size_t)len, kw, (uint64_t)counter,
                                  (uint8_t)flags, (unsigned)max_log, words);
  return b3j_store_cvs(env, cvs, cvs_off, words, n);
}

static void JNICALL b3j_hash_oneshot(JNIEnv *env, jclass cls, jint isa, jbyteArray array,
                                     jint off, jint len, jintArray key, jint flags, jlong seek,
                                     jbyteArray out, jint out_off, jint out_len) {
  (void)cls;
  uint32_t kw[8];
  b3j_input in;
  blake3_node root;
  if (out_len <= 0 || !b3j_key(env, key, kw)) return;
  const blake3_kernel *k = b3j_kernel(isa);
  const uint8_t *p = b3j_input_open(env, array, off, len, &in);
  if (p == NULL) return;
  blake3_root_node(k, p, (size_t)len, kw, (uint8_t)flags, &root);
  b3j_input_close(env, &in);
  b3j_output(env, k, &root, (uint64_t)seek, out, out_off, out_len);
}

/* The 32-byte hash of one chunk (len 0..1024) that Java copied to native memory at `at` (a
 * slot of a direct buffer it owns, ChunkSlots), written over the slot's first 32 bytes. Numbers
 * only: for the plain hash (a null key) no call back into the JVM at all, where the general
 * one-shot copies the array in and the hash out through two (bench/notes/simple-core.md). */
static void JNICALL b3j_hash_chunk_at(JNIEnv *env, jclass cls, jint isa, jlong at, jint len,
                                      jintArray key, jint flags) {
  (void)cls;
  uint32_t kw[8];
  blake3_node root;
  if (at == 0 || len < 0 || len > BLAKE3_CHUNK_LEN) {
    b3j_throw_iae(env, "blake3fast: hashChunkAt takes 0..1024 bytes at a non-null address");
    return;
  }
  if (!b3j_key(env, key, kw)) return;
  uint8_t *p = (uint8_t *)(uintptr_t)at;
  const blake3_kernel *k = b3j_kernel(isa);
  blake3_root_node(k, p, (size_t)len, kw, (uint8_t)flags, &root);
  blake3_node_output(k, &root, 0, p, BLAKE3_OUT_LEN);
}

/* The address of a direct buffer's first byte (0 and an IllegalArgumentException otherwise). */
static jlong JNICALL b3j_address(JNIEnv *env, jclass cls, jobject buf) {
  (void)cls;
  return (jlong)(uintptr_t)b3j_direct(env, buf);
}

static void JNICALL b3j_root_output(JNIEnv *env, jclass cls, jint isa, jintArray cv,
                                    jintArray block, jint block_len, jint flags, jlong position,
                                    jbyteArray out, jint out_off, jint out_len) {
  (void)cls;
  uint32_t bw[16];
  blake3_node root;
  if (out_len <= 0) return;
  (*env)->GetIntArrayRegion(env, cv, 0, 8, (jint *)root.cv);
  if ((*env)->ExceptionCheck(env)) return;
  (*env)->GetIntArrayRegion(env, block, 0, 16, (jint *)bw);
  if ((*env)->ExceptionCheck(env)) return;
  for (int i = 0; i < 16; i++) blake3_store32(root.block + 4 * i, bw[i]);
  root.block_len = (uint8_t)block_len;
  root.flags = (uint8_t)flags;
  b3j_output(env, b3j_kernel(isa), &root, (uint64_t)position, out, out_off, out_len);
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

/* Offsets and lengths [from, from + count) copied in and the key read; 0 with an exception
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
  if ((*env)->ExceptionCheck(env)) return 0;
  (*env)->GetIntArrayRegion(env, lengths, from, count, (jint *)lens);
  return !(*env)->ExceptionCheck(env);
}

/* The messages are read from the span of data they lie in, [lo, hi): copied in or pinned by
 * its length like any array input, their offsets made relative to lo. The hashes are copied
 * out after the span is released. */
static void JNICALL b3j_hash_many(JNIEnv *env, jclass cls, jint isa, jbyteArray data,
                                  jintArray offsets, jintArray lengths, jint from, jint count,
                                  jintArray key, jint flags, jbyteArray out, jint out_off) {
  (void)cls;
  int32_t offs[B3J_BATCH], lens[B3J_BATCH];
  uint8_t hashes[B3J_BATCH * BLAKE3_OUT_LEN];
  uint32_t kw[8];
  b3j_input in;
  if (!b3j_batch_in(env, offsets, lengths, from, count, key, offs, lens, kw) || count == 0)
    return;
  int64_t lo = offs[0], hi = (int64_t)offs[0] + lens[0];
  for (jint i = 1; i < count; i++) {
    if (offs[i] < lo) lo = offs[i];
    if ((int64_t)offs[i] + lens[i] > hi) hi = (int64_t)offs[i] + lens[i];
  }
  for (jint i = 0; i < count; i++) offs[i] -= (int32_t)lo;
  const uint8_t *p = b3j_input_open(env, data, (jint)lo, (jint)(hi - lo), &in);
  if (p == NULL) return;
  blake3_hash_batch(b3j_kernel(isa), p, offs, lens, (size_t)count, kw, (uint8_t)flags, hashes);
  b3j_input_close(env, &in);
  (*env)->SetByteArrayRegion(env, out, out_off, count * BLAKE3_OUT_LEN, (const jbyte *)hashes);
}

/* The most parents one hashParents call takes (NativeBlake3.PARENTS_MAX): 16 KiB of blocks,
 * copied onto the stack. */
#define B3J_PARENTS 256

/* The parents of count 64-byte blocks, hashed in the stack copy of their blocks and copied out
 * from there: every input byte is read before any output byte is written, so out may overlap
 * in. */
static void JNICALL b3j_hash_parents(JNIEnv *env, jclass cls, jint isa, jbyteArray array,
                                     jint off, jint count, jintArray key, jint flags,
                                     jbyteArray out, jint out_off) {
  (void)cls;
  uint32_t kw[8];
  uint8_t blocks[B3J_PARENTS * BLAKE3_BLOCK_LEN];
  if (count < 0 || count > B3J_PARENTS) {
    b3j_throw_iae(env, "blake3fast: more parents in one call than B3J_PARENTS");
    return;
  }
  if (count == 0 || !b3j_key(env, key, kw)) return;
  (*env)->GetByteArrayRegion(env, array, off, count * BLAKE3_BLOCK_LEN, (jbyte *)blocks);
  if ((*env)->ExceptionCheck(env)) return;
  blake3_hash_parent_cvs(b3j_kernel(isa), blocks, (size_t)count, kw, (uint8_t)flags, blocks);
  (*env)->SetByteArrayRegion(env, out, out_off, count * BLAKE3_OUT_LEN, (const jbyte *)blocks);
}

static JNINativeMethod b3j_methods[] = {
    {"abiVersion", "()I", (void *)b3j_abi_version},
    {"supportedIsas", "()I", (void *)b3j_supported_isas},
    {"selectIsa", "(I)I", (void *)b3j_select_isa},
    {"hashSubtrees", "(I[BII[IJII[II)I", (void *)b3j_hash_subtrees},
    {"hashSubtreesDirect", "(ILjava/nio/ByteBuffer;II[IJII[II)I", (void *)b3j_hash_subtrees_direct},
    {"hashOneShot", "(I[BII[IIJ[BII)V", (void *)b3j_hash_oneshot},
    {"rootOutput", "(I[I[IIIJ[BII)V", (void *)b3j_root_output},
    {"hashMapped", "(ILjava/io/FileDescriptor;JI[IJI[II)I", (void *)b3j_hash_mapped},
    {"hashMany", "(I[B[I[III[II[BI)V", (void *)b3j_hash_many},
    {"hashParents", "(I[BII[II[BI)V", (void *)b3j_hash_parents},
    {"hashChunkAt", "(IJI[II)V", (void *)b3j_hash_chunk_at},
    {"address", "(Ljava/nio/ByteBuffer;)J", (void *)b3j_address},
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
