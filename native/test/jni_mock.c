/*
 * blake3-fast: the JNI glue run without a JVM, for valgrind (and any sanitizer).
 *
 *   jni_mock LIBBLAKE3FAST.so test-vectors/test_vectors.txt [--seed N]
 *
 * A JVM under valgrind drowns in reports about its own JIT code, so this program plays the
 * JVM instead: it dlopens the real libblake3fast.so, calls JNI_OnLoad with a mock JavaVM, and
 * calls the registered natives the way NativeBlake3.java does. The mock behaves like a JVM that
 * copies arrays (as JNI allows): every pinned array is handed out as an exact-size malloc copy,
 * copied back only on mode 0 / JNI_COMMIT, so memcheck flags any byte read or written outside
 * the range Java checked, and an output released with JNI_ABORT would be lost (a wrong hash).
 * It also enforces the JNI rules the glue relies on: no JNI call but Get/Release*Critical while
 * an array is pinned, none but the exception-safe ones while an exception is pending, every pin
 * released once, inputs never written; and it injects failures (a pin that fails, a short key
 * array, a heap buffer where a direct one is expected, a missing class) to run the error paths.
 *
 * Checks: the official vectors (hash, keyed, derive-key, 131 bytes, seeks, offsets) through
 * hashOneShot and hashOneShotDirect for every ISA this CPU (or valgrind's CPU) runs;
 * hashSubtrees{,Direct} and rootOutput of every ISA against ISA 0 (portable) on random cases;
 * the error paths; JNI_OnLoad's class-name property; hashMapped on a file of its own against
 * hashSubtrees, and on the same file truncated (its SIGBUS guard). Ends with "N passed, N failed".
 */
#include <fcntl.h>
#include <inttypes.h>
#include <jni.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(_WIN32)
/* The same program under wine: the DLL through LoadLibrary, as the Windows JVM loads it. */
#include <windows.h>
#define MOCK_DLOPEN(path) ((void *)LoadLibraryA(path))
#define MOCK_DLSYM(lib, name) ((void *)(intptr_t)GetProcAddress((HMODULE)(lib), (name)))
#define MOCK_DLCLOSE(lib) FreeLibrary((HMODULE)(lib))
static const char *mock_dlerror(void) {
  static char why[48];
  snprintf(why, sizeof why, "LoadLibrary error %lu", (unsigned long)GetLastError());
  return why;
}
#else
#include <dlfcn.h>
#define MOCK_DLOPEN(path) dlopen((path), RTLD_NOW | RTLD_LOCAL)
#define MOCK_DLSYM(lib, name) dlsym((lib), (name))
#define MOCK_DLCLOSE(lib) dlclose(lib)
#define mock_dlerror() dlerror()
#endif

/* Only the list of ISAs, the flags and the IV: the library itself is dlopened. */
#include "../src/blake3_impl.h"

#define VECTOR_OUT 131

static long g_pass, g_fail;

static void check(int ok, const char *fmt, ...) {
  if (ok) {
    g_pass++;
    return;
  }
  g_fail++;
  if (g_fail <= 40) {
    va_list ap;
    va_start(ap, fmt);
    printf("    FAIL ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
  }
}

static uint64_t g_rng = 0x4A4E494D4F434BULL;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (g_rng += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}
static uint64_t below(uint64_t n) { return n == 0 ? 0 : rnd() % n; }

/* ---- the mock objects ------------------------------------------------------------------- */

enum kind { K_BYTES = 1, K_INTS, K_DIRECT, K_HEAPBUF, K_CLASS, K_STRING, K_FD };

typedef struct {
  int kind;
  size_t len;         /* elements */
  void *data;         /* exactly len elements, malloc'd */
  void *pinned;       /* the copy handed out by GetPrimitiveArrayCritical, or NULL */
  void *pin_snapshot; /* what the copy held when handed out (to catch writes to inputs) */
  int input;          /* the glue must not write it */
  char name[600];     /* class or string */
  int fd;             /* K_FD: a java.io.FileDescriptor's field "fd" */
} mobj;

static mobj *new_obj(int kind, size_t len, size_t elem) {
  mobj *o = calloc(1, sizeof *o);
  o->kind = kind;
  o->len = len;
  o->data = malloc(len * elem + (len == 0)); /* malloc(0) may return NULL */
  return o;
}
static void free_obj(mobj *o) {
  if (o == NULL) return;
  free(o->data);
  free(o);
}
static mobj *ints_obj(const uint32_t *w, size_t n) {
  mobj *o = new_obj(K_INTS, n, 4);
  if (n && w) memcpy(o->data, w, 4 * n);
  return o;
}

/* ---- the mock JNIEnv ---------------------------------------------------------------------- */

static struct {
  int critical;       /* arrays pinned now */
  long pins, unpins;  /* over the run */
  long region_copies; /* GetByteArrayRegion calls over the run */
  int pending;        /* an exception is pending */
  char pending_class[128];
  int fail_next_pin;  /* the next GetPrimitiveArrayCritical returns NULL */
  int fail_find_class;
  const char *property; /* value of blake3fast.jni.class, or NULL */
  char found_class[600];
  const JNINativeMethod *methods;
  jint nmethods;
  long violations;
} M;

static void violation(const char *what) {
  M.violations++;
  check(0, "JNI rule broken: %s", what);
}

/* Every JNI function but the exception-safe ones: not while pinned, not with an exception pending. */
static void enter(const char *fn) {
  if (M.critical > 0) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s called while %d array(s) are pinned", fn, M.critical);
    violation(msg);
  }
  if (M.pending) {
    char msg[200];
    snprintf(msg, sizeof msg, "%s called with %s pending", fn, M.pending_class);
    violation(msg);
  }
}

static void raise(const char *cls) {
  M.pending = 1;
  snprintf(M.pending_class, sizeof M.pending_class, "%s", cls);
}

static void unexpected(void) {
  fprintf(stderr, "jni_mock: the glue called a JNI function the contract does not list\n");
  abort();
}

static jboolean m_exception_check(JNIEnv *env) {
  (void)env;
  if (M.critical > 0) violation("ExceptionCheck while pinned");
  return M.pending ? JNI_TRUE : JNI_FALSE;
}
static void m_exception_clear(JNIEnv *env) {
  (void)env;
  M.pending = 0;
}
static jclass m_find_class(JNIEnv *env, const char *name) {
  (void)env;
  enter("FindClass");
  if (M.fail_find_class && strchr(name, '/') != NULL && strncmp(name, "java/", 5) != 0) {
    raise("java/lang/NoClassDefFoundError");
    return NULL;
  }
  mobj *c = new_obj(K_CLASS, 0, 1);
  snprintf(c->name, sizeof c->name, "%s", name);
  if (strncmp(name, "java/", 5) != 0) snprintf(M.found_class, sizeof M.found_class, "%s", name);
  return (jclass)c;
}
static jint m_throw_new(JNIEnv *env, jclass cls, const char *msg) {
  (void)env;
  (void)msg;
  enter("ThrowNew");
  raise(((mobj *)cls)->name);
  free_obj((mobj *)cls); /* the mock's classes are local refs nobody deletes after ThrowNew */
  return 0;
}
static void m_get_int_region(JNIEnv *env, jintArray a, jsize start, jsize len, jint *buf) {
  (void)env;
  enter("GetIntArrayRegion");
  mobj *o = (mobj *)a;
  if (o == NULL) {
    raise("java/lang/NullPointerException");
    return;
  }
  if (o->kind != K_INTS) violation("GetIntArrayRegion on something else than an int[]");
  if (start < 0 || len < 0 || (size_t)start + (size_t)len > o->len) {
    raise("java/lang/ArrayIndexOutOfBoundsException");
    return;
  }
  memcpy(buf, (uint32_t *)o->data + start, 4 * (size_t)len);
}
static void m_set_int_region(JNIEnv *env, jintArray a, jsize start, jsize len, const jint *buf) {
  (void)env;
  enter("SetIntArrayRegion");
  mobj *o = (mobj *)a;
  if (o == NULL || o->kind != K_INTS) {
    violation("SetIntArrayRegion on something else than an int[]");
    return;
  }
  if (start < 0 || len < 0 || (size_t)start + (size_t)len > o->len) {
    raise("java/lang/ArrayIndexOutOfBoundsException");
    return;
  }
  memcpy((uint32_t *)o->data + start, buf, 4 * (size_t)len);
}
static void m_get_byte_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, jbyte *buf) {
  (void)env;
  enter("GetByteArrayRegion");
  mobj *o = (mobj *)a;
  if (o == NULL || o->kind != K_BYTES) {
    violation("GetByteArrayRegion on something else than a byte[]");
    return;
  }
  if (start < 0 || len < 0 || (size_t)start + (size_t)len > o->len) {
    raise("java/lang/ArrayIndexOutOfBoundsException");
    return;
  }
  M.region_copies++;
  memcpy(buf, (uint8_t *)o->data + start, (size_t)len);
}
static void m_set_byte_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, const jbyte *buf) {
  (void)env;
  enter("SetByteArrayRegion");
  mobj *o = (mobj *)a;
  if (o == NULL || o->kind != K_BYTES) {
    violation("SetByteArrayRegion on something else than a byte[]");
    return;
  }
  if (o->input) violation("SetByteArrayRegion into an input array");
  if (start < 0 || len < 0 || (size_t)start + (size_t)len > o->len) {
    raise("java/lang/ArrayIndexOutOfBoundsException");
    return;
  }
  memcpy((uint8_t *)o->data + start, buf, (size_t)len);
}
static void *m_direct_address(JNIEnv *env, jobject buf) {
  (void)env;
  enter("GetDirectBufferAddress");
  mobj *o = (mobj *)buf;
  return o != NULL && o->kind == K_DIRECT ? o->data : NULL;
}
static void *m_get_critical(JNIEnv *env, jarray a, jboolean *is_copy) {
  (void)env;
  if (M.pending) violation("GetPrimitiveArrayCritical with an exception pending");
  mobj *o = (mobj *)a;
  if (o == NULL || o->kind != K_BYTES) {
    violation("GetPrimitiveArrayCritical on something else than a byte[]");
    return NULL;
  }
  if (o->pinned != NULL) violation("an array pinned twice");
  if (M.fail_next_pin) {
    M.fail_next_pin = 0;
    return NULL;
  }
  o->pinned = malloc(o->len + (o->len == 0));
  o->pin_snapshot = malloc(o->len + (o->len == 0));
  if (o->len) {
    memcpy(o->pinned, o->data, o->len);
    memcpy(o->pin_snapshot, o->data, o->len);
  }
  if (is_copy) *is_copy = JNI_TRUE;
  M.critical++;
  M.pins++;
  return o->pinned;
}
static void m_release_critical(JNIEnv *env, jarray a, void *p, jint mode) {
  (void)env;
  mobj *o = (mobj *)a;
  if (o == NULL || o->pinned == NULL || o->pinned != p) {
    violation("ReleasePrimitiveArrayCritical of an array not pinned (or with another pointer)");
    return;
  }
  if (o->input && o->len && memcmp(o->pinned, o->pin_snapshot, o->len) != 0)
    violation("the glue wrote into an input array");
  if (mode == 0 || mode == JNI_COMMIT) {
    if (o->len) memcpy(o->data, o->pinned, o->len);
  }
  if (mode != JNI_COMMIT) {
    free(o->pinned);
    free(o->pin_snapshot);
    o->pinned = o->pin_snapshot = NULL;
    M.critical--;
    M.unpins++;
  }
}
static jmethodID m_static_method(JNIEnv *env, jclass c, const char *name, const char *sig) {
  (void)env;
  (void)c;
  enter("GetStaticMethodID");
  if (strcmp(name, "getProperty") != 0 || strcmp(sig, "(Ljava/lang/String;)Ljava/lang/String;") != 0)
    violation("an unexpected static method");
  return (jmethodID)(uintptr_t)0x1234;
}
static jstring m_new_string(JNIEnv *env, const char *s) {
  (void)env;
  enter("NewStringUTF");
  mobj *o = new_obj(K_STRING, 0, 1);
  snprintf(o->name, sizeof o->name, "%s", s);
  return (jstring)o;
}
static jobject m_call_static_object(JNIEnv *env, jclass c, jmethodID m, ...) {
  (void)env;
  (void)c;
  (void)m;
  enter("CallStaticObjectMethod");
  va_list ap;
  va_start(ap, m);
  mobj *key = (mobj *)va_arg(ap, jobject);
  va_end(ap);
  if (key == NULL || strcmp(key->name, "blake3fast.jni.class") != 0) violation("an unexpected property");
  return M.property != NULL ? (jobject)m_new_string(env, M.property) : NULL;
}
static const char *m_string_chars(JNIEnv *env, jstring s, jboolean *is_copy) {
  (void)env;
  enter("GetStringUTFChars");
  if (is_copy) *is_copy = JNI_TRUE;
  return strdup(((mobj *)s)->name);
}
static void m_release_string_chars(JNIEnv *env, jstring s, const char *chars) {
  (void)env;
  (void)s;
  free((void *)chars);
}
/* FileDescriptor.fd, the one field the glue reads. */
#define MOCK_FD_FIELD ((jfieldID)(uintptr_t)0x5678)
static jfieldID m_field(JNIEnv *env, jclass c, const char *name, const char *sig) {
  (void)env;
  enter("GetFieldID");
  if (strcmp(((mobj *)c)->name, "java/io/FileDescriptor") != 0 || strcmp(name, "fd") != 0 || strcmp(sig, "I") != 0)
    violation("an unexpected field");
  return MOCK_FD_FIELD;
}
static jint m_int_field(JNIEnv *env, jobject o, jfieldID f) {
  (void)env;
  enter("GetIntField");
  if (f != MOCK_FD_FIELD || ((mobj *)o)->kind != K_FD) violation("GetIntField on something else than FileDescriptor.fd");
  return ((mobj *)o)->fd;
}
static void m_delete_local(JNIEnv *env, jobject o) {
  (void)env;
  free_obj((mobj *)o);
}
static jint m_register(JNIEnv *env, jclass c, const JNINativeMethod *methods, jint n) {
  (void)env;
  (void)c;
  enter("RegisterNatives");
  M.methods = methods;
  M.nmethods = n;
  return JNI_OK;
}

static struct JNINativeInterface_ g_fns;
static JNIEnv g_env = &g_fns;
static int g_getenv_fails;

static jint m_get_env(JavaVM *vm, void **penv, jint version) {
  (void)vm;
  if (g_getenv_fails || version > JNI_VERSION_1_8) return JNI_EVERSION;
  *penv = &g_env;
  return JNI_OK;
}
static struct JNIInvokeInterface_ g_vm_fns;
static JavaVM g_vm = &g_vm_fns;

static void init_env(void) {
  void **slots = (void **)&g_fns;
  for (size_t i = 4; i < sizeof g_fns / sizeof(void *); i++) slots[i] = (void *)unexpected;
  g_fns.ExceptionCheck = m_exception_check;
  g_fns.ExceptionClear = m_exception_clear;
  g_fns.FindClass = m_find_class;
  g_fns.ThrowNew = m_throw_new;
  g_fns.GetIntArrayRegion = m_get_int_region;
  g_fns.SetIntArrayRegion = m_set_int_region;
  g_fns.GetByteArrayRegion = m_get_byte_region;
  g_fns.SetByteArrayRegion = m_set_byte_region;
  g_fns.GetDirectBufferAddress = m_direct_address;
  g_fns.GetPrimitiveArrayCritical = m_get_critical;
  g_fns.ReleasePrimitiveArrayCritical = m_release_critical;
  g_fns.GetStaticMethodID = m_static_method;
  g_fns.NewStringUTF = m_new_string;
  g_fns.CallStaticObjectMethod = m_call_static_object;
  g_fns.GetStringUTFChars = m_string_chars;
  g_fns.ReleaseStringUTFChars = m_release_string_chars;
  g_fns.DeleteLocalRef = m_delete_local;
  g_fns.GetFieldID = m_field;
  g_fns.GetIntField = m_int_field;
  g_fns.RegisterNatives = m_register;
  void **vslots = (void **)&g_vm_fns;
  for (size_t i = 3; i < sizeof g_vm_fns / sizeof(void *); i++) vslots[i] = (void *)unexpected;
  g_vm_fns.GetEnv = m_get_env;
}

/* ---- the natives, typed as NativeBlake3.java declares them ---------------------------------- */

typedef jint (*fn_i)(JNIEnv *, jclass);
typedef jint (*fn_ii)(JNIEnv *, jclass, jint);
typedef jint (*fn_subtrees)(JNIEnv *, jclass, jint, jobject, jint, jint, jintArray, jlong, jint, jintArray,
                            jint);
typedef jint (*fn_oneshot)(JNIEnv *, jclass, jint, jobject, jint, jint, jintArray, jint, jlong, jbyteArray,
                           jint, jint);
typedef void (*fn_oneshot_copy)(JNIEnv *, jclass, jint, jobject, jint, jint, jintArray, jint, jlong,
                                jbyteArray, jint, jint);
typedef void (*fn_root)(JNIEnv *, jclass, jint, jintArray, jintArray, jint, jint, jlong, jbyteArray, jint,
                        jint);
typedef jlong (*fn_address)(JNIEnv *, jclass, jobject);
typedef jint (*fn_mapped)(JNIEnv *, jclass, jint, jobject, jlong, jint, jintArray, jlong, jint, jintArray, jint);
typedef void (*fn_many)(JNIEnv *, jclass, jint, jobject, jintArray, jintArray, jint, jint, jintArray, jint,
                        jbyteArray, jint);
typedef jint (*fn_block)(JNIEnv *, jclass, jint, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jint,
                         jlong, jlong, jlong, jlong, jint, jlong);
typedef jint (*fn_two_blocks)(JNIEnv *, jclass, jint, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jlong,
                              jlong, jlong, jlong, jlong, jlong, jlong, jlong, jint, jlong, jlong, jlong, jlong, jint,
                              jlong);
typedef jint (*fn_chunk_at)(JNIEnv *, jclass, jint, jint, jlong, jlong, jlong, jlong, jint, jlong);

static struct {
  fn_i abi_version, supported_isas;
  fn_ii select_isa;
  fn_subtrees subtrees, subtrees_direct;
  fn_oneshot oneshot, oneshot_direct;
  fn_root root_output;
  fn_address direct_address;
  fn_block hash_block;
  fn_subtrees subtrees_copy;
  fn_oneshot_copy oneshot_copy;
  fn_root root_output_copy;
  fn_mapped mapped;
  fn_many many, many_direct;
  fn_two_blocks hash_two_blocks;
  fn_chunk_at hash_chunk_at;
} N;

static const struct {
  const char *name, *sig;
} WANT[] = {
    {"abiVersion", "()I"},
    {"supportedIsas", "()I"},
    {"selectIsa", "(I)I"},
    {"hashSubtrees", "(I[BII[IJI[II)I"},
    {"hashSubtreesDirect", "(ILjava/nio/ByteBuffer;II[IJI[II)I"},
    {"hashOneShot", "(I[BII[IIJ[BII)I"},
    {"hashOneShotDirect", "(ILjava/nio/ByteBuffer;II[IIJ[BII)I"},
    {"rootOutput", "(I[I[IIIJ[BII)V"},
    {"directAddress", "(Ljava/nio/ByteBuffer;)J"},
    {"hashBlock", "(IJJJJJJJJIJJJJIJ)I"},
    {"hashSubtreesCopy", "(I[BII[IJI[II)I"},
    {"hashOneShotCopy", "(I[BII[IIJ[BII)V"},
    {"rootOutputCopy", "(I[I[IIIJ[BII)V"},
    {"hashMapped", "(ILjava/io/FileDescriptor;JI[IJI[II)I"},
    {"hashMany", "(I[B[I[III[II[BI)V"},
    {"hashManyDirect", "(ILjava/nio/ByteBuffer;[I[III[II[BI)V"},
    {"hashGroupCvs", "(I[BIII[IJI[BI)V"},
    {"hashGroupCvsDirect", "(ILjava/nio/ByteBuffer;III[IJILjava/nio/ByteBuffer;I)V"},
    {"hashParentCvs", "(I[BII[II[BI)V"},
    {"hashParentCvsDirect", "(ILjava/nio/ByteBuffer;II[IILjava/nio/ByteBuffer;I)V"},
    {"hashTwoBlocks", "(IJJJJJJJJJJJJJJJJIJJJJIJ)I"},
    {"hashChunkAt", "(IIJJJJIJ)I"},
};

static void *native_fn(const char *name, const char *sig) {
  for (jint i = 0; i < M.nmethods; i++)
    if (strcmp(M.methods[i].name, name) == 0) {
      check(strcmp(M.methods[i].signature, sig) == 0, "%s registered as %s, NativeBlake3 declares %s", name,
            M.methods[i].signature, sig);
      return M.methods[i].fnPtr;
    }
  check(0, "%s%s not registered", name, sig);
  return NULL;
}

/* ---- helpers ----------------------------------------------------------------------------- */

static void key_words(const uint8_t k[32], uint32_t w[8]) {
  for (int i = 0; i < 8; i++)
    w[i] = (uint32_t)k[4 * i] | (uint32_t)k[4 * i + 1] << 8 | (uint32_t)k[4 * i + 2] << 16 |
           (uint32_t)k[4 * i + 3] << 24;
}

static int unhex(const char *h, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(h + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (uint8_t)v;
  }
  return 1;
}

/* A byte[] holding `n` bytes of `p` at index `pad`, and nothing after them. */
static mobj *input_at(const uint8_t *p, size_t n, size_t pad) {
  mobj *o = new_obj(K_BYTES, pad + n, 1);
  memset(o->data, 0xA5, pad);
  if (n) memcpy((uint8_t *)o->data + pad, p, n);
  o->input = 1;
  return o;
}

static mobj *direct_at(const uint8_t *p, size_t n, size_t pad) {
  mobj *o = input_at(p, n, pad);
  o->kind = K_DIRECT;
  return o;
}

/* Runs a one-shot through the glue (direct: 0 hashOneShot, 1 hashOneShotDirect, 2
 * hashOneShotCopy): `out_len` bytes at `seek`, into an output array with `opad` bytes before the
 * result (which must stay as they were) and none after. */
static int oneshot(int isa, int direct, const uint8_t *in, size_t n, size_t pad, const uint32_t *key,
                   int flags, uint64_t seek, size_t out_len, size_t opad, uint8_t *result) {
  mobj *i = direct == 1 ? direct_at(in, n, pad) : input_at(in, n, pad);
  mobj *k = key ? ints_obj(key, 8) : NULL;
  mobj *o = new_obj(K_BYTES, opad + out_len, 1);
  memset(o->data, 0x5A, opad + out_len);
  int ok = 1;
  if (direct == 2) {
    N.oneshot_copy(&g_env, NULL, isa, (jobject)i, (jint)pad, (jint)n, (jintArray)k, flags, (jlong)seek,
                   (jbyteArray)o, (jint)opad, (jint)out_len);
  } else {
    fn_oneshot f = direct == 1 ? N.oneshot_direct : N.oneshot;
    ok &= f(&g_env, NULL, isa, (jobject)i, (jint)pad, (jint)n, (jintArray)k, flags, (jlong)seek, (jbyteArray)o,
            (jint)opad, (jint)out_len) == 0;
  }
  ok &= !M.pending;
  for (size_t j = 0; j < opad; j++) ok &= ((uint8_t *)o->data)[j] == 0x5A;
  memcpy(result, (uint8_t *)o->data + opad, out_len);
  free_obj(i);
  free_obj(k);
  free_obj(o);
  return ok;
}

/* ---- the checks -------------------------------------------------------------------------- */

static int g_isas[BLAKE3_ISA_COUNT], g_nisas;
static const char *const ISA_NAMES[BLAKE3_ISA_COUNT] = {BLAKE3_ISA_NAMES};

static void test_vectors(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    check(0, "cannot open %s", path);
    return;
  }
  static char line[4096];
  uint8_t key_bytes[32];
  memcpy(key_bytes, "whats the Elvish word for friend", 32);
  uint32_t key[8], ctx_key[8];
  key_words(key_bytes, key);
  const char *context = "BLAKE3 2019-12-27 16:29:52 test vectors context";
  long cases = 0;
  uint8_t *input = malloc(200000);
  for (int t = 0; t < g_nisas; t++) {
    const int isa = g_isas[t];
    long before = g_fail;
    uint8_t ck[32];
    check(oneshot(isa, 0, (const uint8_t *)context, strlen(context), 0, NULL, DERIVE_KEY_CONTEXT, 0, 32, 0, ck),
          "context key");
    key_words(ck, ctx_key);
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
      if (line[0] == '#' || line[0] == '\n') continue;
      char hh[300], kh[300], dh[300];
      size_t n;
      if (sscanf(line, "%zu %299s %299s %299s", &n, hh, kh, dh) != 4 || n > 200000) {
        check(0, "bad vector line: %.40s", line);
        continue;
      }
      uint8_t want[3][VECTOR_OUT], got[VECTOR_OUT];
      if (!unhex(hh, want[0], VECTOR_OUT) || !unhex(kh, want[1], VECTOR_OUT) || !unhex(dh, want[2], VECTOR_OUT)) {
        check(0, "bad hex in vector %zu", n);
        continue;
      }
      for (size_t i = 0; i < n; i++) input[i] = (uint8_t)(i % 251);
      const uint32_t *keys[3] = {NULL, key, ctx_key};
      const int flags[3] = {0, KEYED_HASH, DERIVE_KEY_MATERIAL};
      for (int m = 0; m < 3; m++) {
        for (int direct = 0; direct < 2; direct++) {
          size_t pad = (n + (size_t)m + (size_t)direct) % 9;
          int ok = oneshot(isa, direct, input, n, pad, keys[m], flags[m], 0, VECTOR_OUT, pad, got);
          check(ok && memcmp(got, want[m], VECTOR_OUT) == 0, "%s vector len=%zu mode=%d direct=%d",
                ISA_NAMES[isa], n, m, direct);
        }
        /* a window of the output: seek 37, 60 bytes, into a shorter output array */
        int ok = oneshot(isa, 0, input, n, 3, keys[m], flags[m], 37, 60, 1, got);
        check(ok && memcmp(got, want[m] + 37, 60) == 0, "%s vector len=%zu mode=%d seek=37", ISA_NAMES[isa], n, m);
        /* without pinning: at most 64 bytes, at seek 0 and 37 */
        size_t pad = (n + (size_t)m) % 7;
        ok = oneshot(isa, 2, input, n, pad, keys[m], flags[m], 0, 64, pad, got);
        check(ok && memcmp(got, want[m], 64) == 0, "%s vector len=%zu mode=%d hashOneShotCopy", ISA_NAMES[isa], n, m);
        ok = oneshot(isa, 2, input, n, 5, keys[m], flags[m], 37, 60, 2, got);
        check(ok && memcmp(got, want[m] + 37, 60) == 0, "%s vector len=%zu mode=%d hashOneShotCopy seek=37",
              ISA_NAMES[isa], n, m);
      }
      cases++;
    }
    printf("  [%-8s] vectors through hashOneShot{,Direct,Copy}: %s\n", ISA_NAMES[isa], g_fail == before ? "ok" : "FAILED");
  }
  free(input);
  fclose(f);
  (void)cases;
}

static uint64_t rnd_counter(void) {
  switch (rnd() % 4) {
    case 0: return below(5000);
    case 1: return (1ULL << 32) - 1 - below(300);
    case 2: return rnd() >> 20;
    default: return 0;
  }
}

static void test_subtrees(int rounds) {
  static uint8_t pool[600 * 1024 + 64];
  for (size_t i = 0; i < sizeof pool; i++) pool[i] = (uint8_t)rnd();
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    const size_t chunks = r % 4 == 0 ? 1 + below(600) : 1 + below(70);
    const size_t len = chunks * 1024;
    const size_t start = below(64), pad = below(40);
    const uint64_t counter = rnd_counter();
    const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL}[rnd() % 4];
    uint32_t kw[8];
    for (int i = 0; i < 8; i++) kw[i] = (uint32_t)rnd();
    const int null_key = flags == 0 && (rnd() & 1);
    uint32_t want[8 * 128];
    size_t want_n = 0;
    for (int t = 0; t < g_nisas; t++) {
      const int isa = g_isas[t];
      for (int direct = 0; direct < 3; direct++) { /* hashSubtrees, hashSubtreesDirect, hashSubtreesCopy */
        mobj *in = direct == 1 ? direct_at(pool + start, len, pad) : input_at(pool + start, len, pad);
        mobj *key = null_key ? NULL : ints_obj(kw, 8);
        /* the CV array: room for exactly the values the portable kernel returned, after cvs_off */
        const size_t cvs_off = below(17);
        const size_t room = t == 0 && direct == 0 ? 8 * 128 : 8 * want_n;
        mobj *cvs = ints_obj(NULL, cvs_off + room);
        memset(cvs->data, 0x77, 4 * (cvs_off + room));
        fn_subtrees f = direct == 2 ? N.subtrees_copy : direct == 1 ? N.subtrees_direct : N.subtrees;
        jint n = f(&g_env, NULL, isa, (jobject)in, (jint)pad, (jint)len, (jintArray)key, (jlong)counter, flags,
                   (jintArray)cvs, (jint)cvs_off);
        const uint32_t *got = (const uint32_t *)cvs->data + cvs_off;
        int ok = !M.pending && n > 0 && n <= 128;
        for (size_t j = 0; j < cvs_off; j++) ok &= ((uint32_t *)cvs->data)[j] == 0x77777777u;
        if (t == 0 && direct == 0) {
          want_n = ok ? (size_t)n : 0;
          if (ok) memcpy(want, got, 32 * want_n);
        } else {
          ok &= (size_t)n == want_n && memcmp(got, want, 32 * want_n) == 0;
        }
        check(ok, "%s hashSubtrees%s chunks=%zu counter=%" PRIu64 " flags=%d", ISA_NAMES[isa],
              (const char *[]){"", "Direct", "Copy"}[direct], chunks, counter, flags);
        M.pending = 0;
        free_obj(in);
        free_obj(key);
        free_obj(cvs);
      }
    }
  }
  printf("  hashSubtrees{,Direct,Copy}, %d random cases x %d ISAs: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

static void test_root_output(int rounds) {
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    uint32_t cv[8], block[16];
    for (int i = 0; i < 8; i++) cv[i] = (uint32_t)rnd();
    for (int i = 0; i < 16; i++) block[i] = (uint32_t)rnd();
    const int block_len = (int)below(65);
    const int flags = (int)(rnd() & 0x7B); /* any flags but ROOT, which the glue adds */
    uint64_t pos;
    switch (rnd() % 3) {
      case 0: pos = below(5000); break;
      case 1: pos = ((1ULL << 32) - below(40)) * 64 + below(64); break;
      default: pos = rnd() >> 2; break;
    }
    const size_t out_len = r % 5 == 0 ? 1 + below(9000) : 1 + below(600);
    uint8_t *want = malloc(out_len), *got = malloc(out_len);
    for (int t = 0; t < g_nisas; t++) {
      const int isa = g_isas[t];
      mobj *c = ints_obj(cv, 8), *b = ints_obj(block, 16);
      const size_t opad = below(33);
      mobj *o = new_obj(K_BYTES, opad + out_len, 1);
      memset(o->data, 0x3C, opad + out_len);
      N.root_output(&g_env, NULL, isa, (jintArray)c, (jintArray)b, block_len, flags, (jlong)pos, (jbyteArray)o,
                    (jint)opad, (jint)out_len);
      int ok = !M.pending;
      for (size_t j = 0; j < opad; j++) ok &= ((uint8_t *)o->data)[j] == 0x3C;
      memcpy(t == 0 ? want : got, (uint8_t *)o->data + opad, out_len);
      if (t > 0) ok &= memcmp(got, want, out_len) == 0;
      check(ok, "%s rootOutput pos=%" PRIu64 " len=%zu", ISA_NAMES[isa], pos, out_len);
      memset(o->data, 0x3C, opad + out_len);
      N.root_output_copy(&g_env, NULL, isa, (jintArray)c, (jintArray)b, block_len, flags, (jlong)pos, (jbyteArray)o,
                         (jint)opad, (jint)out_len);
      ok = !M.pending && memcmp((uint8_t *)o->data + opad, want, out_len) == 0;
      for (size_t j = 0; j < opad; j++) ok &= ((uint8_t *)o->data)[j] == 0x3C;
      check(ok, "%s rootOutputCopy pos=%" PRIu64 " len=%zu", ISA_NAMES[isa], pos, out_len);
      free_obj(c);
      free_obj(b);
      free_obj(o);
    }
    free(want);
    free(got);
  }
  printf("  rootOutput{,Copy}, %d random cases x %d ISAs: %s\n", rounds, g_nisas, g_fail == before ? "ok" : "FAILED");
}

static void expect_exception(const char *what, const char *cls);

/* Little-endian word i (bytes 8i..8i+7) of a block of len bytes, zero past the end: what Java's
 * ShortHashSlots passes. */
static uint64_t block_word(const uint8_t *in, size_t len, size_t i) {
  uint64_t w = 0;
  for (size_t k = 8 * i + 8; k-- > 8 * i;) w = (w << 8) | (k < len ? in[k] : 0);
  return w;
}

/* hashBlock (one block, words and key as numbers, 32 bytes to native memory) against hashOneShot,
 * every length 0..64 and mode, on every ISA and on the fastest one-block compression, with and
 * without the flag that refuses a block holding a '?' (nothing written then); the output is a 32-byte allocation of its own, so a write past it
 * is seen by valgrind and ASan. directAddress on a direct and on a heap buffer. */
static void test_hash_block(int rounds) {
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    for (size_t len = 0; len <= 64; len++) {
      uint8_t in[64];
      for (size_t i = 0; i < len; i++) in[i] = (uint8_t)rnd();
      /* A '?' at a random place in half the blocks; random bytes alone rarely hold one. */
      if (len > 0 && (rnd() & 1)) in[rnd() % len] = '?';
      const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_MATERIAL}[(r + len) % 3];
      uint32_t kw[8];
      for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
      uint64_t m[8], k[4];
      for (size_t i = 0; i < 8; i++) m[i] = block_word(in, len, i);
      for (int i = 0; i < 4; i++) k[i] = (uint64_t)kw[2 * i] | (uint64_t)kw[2 * i + 1] << 32;
      for (int t = 0; t <= g_nisas; t++) {
        /* t == g_nisas: the fastest one-block compression (isa | 0x100; test_fastest_block_timings) */
        const int isa = t < g_nisas ? g_isas[t] : g_isas[0] | 0x100;
        uint8_t want[32];
        int ok = oneshot(g_isas[t < g_nisas ? t : 0], 0, in, len, 0, kw, flags, 0, 32, 0, want);
        /* With UNLESS_QUESTION_MARK (0x100) too: hashed as without it unless a byte is '?'. */
        const int unless = (r & 1) ? 0x100 : 0;
        int has_q = 0;
        for (size_t i = 0; i < len; i++) has_q |= in[i] == '?';
        uint8_t *out = malloc(32);
        memset(out, 0xA5, 32);
        jint got = N.hash_block(&g_env, NULL, isa, (jlong)m[0], (jlong)m[1], (jlong)m[2], (jlong)m[3], (jlong)m[4],
                                (jlong)m[5], (jlong)m[6], (jlong)m[7], (jint)len, (jlong)k[0], (jlong)k[1],
                                (jlong)k[2], (jlong)k[3], flags | unless, (jlong)(uintptr_t)out);
        ok &= !M.pending && M.critical == 0;
        if (unless && has_q) {
          uint8_t untouched[32];
          memset(untouched, 0xA5, 32);
          ok &= got == 1 && memcmp(out, untouched, 32) == 0;
        } else {
          ok &= got == 0 && memcmp(out, want, 32) == 0;
        }
        check(ok, "%s hashBlock len=%zu flags=%d%s", t < g_nisas ? ISA_NAMES[isa] : "fastest-block", len, flags,
              unless ? " unless '?'" : "");
        free(out);
      }
    }
  }
  uint8_t data[16] = {0};
  mobj *d = direct_at(data, sizeof data, 3), *h = input_at(data, sizeof data, 0);
  h->kind = K_HEAPBUF;
  check(N.direct_address(&g_env, NULL, (jobject)d) == (jlong)(uintptr_t)d->data && !M.pending,
        "directAddress of a direct buffer");
  check(N.direct_address(&g_env, NULL, (jobject)h) == 0, "directAddress of a heap buffer is 0");
  expect_exception("directAddress, heap buffer", "java/lang/IllegalArgumentException");
  free_obj(d);
  free_obj(h);
  printf("  hashBlock, %d x 65 lengths x %d ISAs; directAddress: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* The fastest one-block compression is timed at the 2^10th, 2^14th, ... call that asks for it
 * (isa | 0x100), and the kernel may change there: `calls` more such calls, each against the
 * portable kernel, so that the ones before and after the first timings all run. */
static void test_fastest_block_timings(long calls) {
  long before = g_fail;
  const int top = g_isas[g_nisas - 1];
  for (long c = 0; c < calls; c++) {
    uint8_t in[64];
    const size_t len = (size_t)(c % 65);
    for (size_t i = 0; i < len; i++) in[i] = (uint8_t)rnd();
    uint8_t want[32], got[32];
    int ok = oneshot(BLAKE3_ISA_PORTABLE, 0, in, len, 0, blake3_iv, 0, 0, 32, 0, want);
    uint64_t m[8];
    for (size_t i = 0; i < 8; i++) m[i] = block_word(in, len, i);
    const uint64_t k0 = (uint64_t)blake3_iv[0] | (uint64_t)blake3_iv[1] << 32;
    const uint64_t k1 = (uint64_t)blake3_iv[2] | (uint64_t)blake3_iv[3] << 32;
    const uint64_t k2 = (uint64_t)blake3_iv[4] | (uint64_t)blake3_iv[5] << 32;
    const uint64_t k3 = (uint64_t)blake3_iv[6] | (uint64_t)blake3_iv[7] << 32;
    jint r = N.hash_block(&g_env, NULL, top | 0x100, (jlong)m[0], (jlong)m[1], (jlong)m[2], (jlong)m[3],
                          (jlong)m[4], (jlong)m[5], (jlong)m[6], (jlong)m[7], (jint)len, (jlong)k0, (jlong)k1,
                          (jlong)k2, (jlong)k3, 0, (jlong)(uintptr_t)got);
    ok &= r == 0 && !M.pending && memcmp(got, want, 32) == 0;
    if (!ok) {
      check(0, "fastest-block hashBlock, call %ld, len=%zu", c, len);
      break;
    }
  }
  printf("  fastest-block hashBlock across its timings, %ld calls: %s\n", calls,
         g_fail == before ? "ok" : "FAILED");
}

/* hashTwoBlocks (two blocks' words and the key as numbers, 32 bytes to native memory) against
 * hashOneShot, every length 65..128 and mode, on every ISA and on the fastest one-block
 * compression; the output is a 32-byte allocation of its own (valgrind, ASan). A length outside
 * 65..128 or a flag above 0xFF throws IllegalArgumentException and writes nothing. */
static void test_hash_two_blocks(int rounds) {
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    for (size_t len = 65; len <= 128; len++) {
      uint8_t in[128];
      for (size_t i = 0; i < len; i++) in[i] = (uint8_t)rnd();
      const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_MATERIAL}[(r + len) % 3];
      uint32_t kw[8];
      for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
      uint64_t a[8], b[8], k[4];
      for (size_t i = 0; i < 8; i++) a[i] = block_word(in, 64, i);
      for (size_t i = 0; i < 8; i++) b[i] = block_word(in + 64, len - 64, i);
      for (int i = 0; i < 4; i++) k[i] = (uint64_t)kw[2 * i] | (uint64_t)kw[2 * i + 1] << 32;
      for (int t = 0; t <= g_nisas; t++) {
        const int isa = t < g_nisas ? g_isas[t] : g_isas[g_nisas - 1] | 0x100;
        uint8_t want[32];
        int ok = oneshot(BLAKE3_ISA_PORTABLE, 0, in, len, 0, kw, flags, 0, 32, 0, want);
        uint8_t *out = malloc(32);
        jint got = N.hash_two_blocks(&g_env, NULL, isa, (jlong)a[0], (jlong)a[1], (jlong)a[2], (jlong)a[3],
                                     (jlong)a[4], (jlong)a[5], (jlong)a[6], (jlong)a[7], (jlong)b[0], (jlong)b[1],
                                     (jlong)b[2], (jlong)b[3], (jlong)b[4], (jlong)b[5], (jlong)b[6], (jlong)b[7],
                                     (jint)len, (jlong)k[0], (jlong)k[1], (jlong)k[2], (jlong)k[3], flags,
                                     (jlong)(uintptr_t)out);
        ok &= got == 0 && !M.pending && M.critical == 0 && memcmp(out, want, 32) == 0;
        check(ok, "%s hashTwoBlocks len=%zu flags=%d", t < g_nisas ? ISA_NAMES[isa] : "fastest-block", len, flags);
        free(out);
      }
    }
  }
  const struct {
    jint len, flags;
  } bad[] = {{64, 0}, {129, 0}, {0, 0}, {-1, 0}, {100, 0x100}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t out[32];
    memset(out, 0xA5, sizeof out);
    N.hash_two_blocks(&g_env, NULL, g_isas[0], 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, bad[i].len, 0, 0,
                      0, 0, bad[i].flags, (jlong)(uintptr_t)out);
    int untouched = 1;
    for (size_t j = 0; j < sizeof out; j++) untouched &= out[j] == 0xA5;
    check(untouched, "hashTwoBlocks len=%d flags=%#x wrote nothing", (int)bad[i].len, (unsigned)bad[i].flags);
    expect_exception("hashTwoBlocks, bad length or flags", "java/lang/IllegalArgumentException");
  }
  printf("  hashTwoBlocks, %d x 64 lengths x %d ISAs and the fastest; refusals: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* hashChunkAt (a chunk of 0..1024 bytes in native memory, hashed in place) against hashOneShot,
 * every length 0..1024 and mode, on every ISA and on the fastest one-block compression. The
 * input is an allocation of exactly max(len, 32) bytes (valgrind, ASan: no read past len); the
 * hash replaces its first 32 bytes and nothing else. A length outside 0..1024, a flag above 0xFF
 * or a null address throws IllegalArgumentException and writes nothing. */
static void test_hash_chunk_at(int rounds) {
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    for (size_t len = 0; len <= 1024; len += (r == 0 ? 1 : 1 + rnd() % 61)) {
      uint8_t in[1024];
      for (size_t i = 0; i < len; i++) in[i] = (uint8_t)rnd();
      const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_MATERIAL}[(r + len) % 3];
      uint32_t kw[8];
      for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
      uint64_t k[4];
      for (int i = 0; i < 4; i++) k[i] = (uint64_t)kw[2 * i] | (uint64_t)kw[2 * i + 1] << 32;
      uint8_t want[32];
      int ok = oneshot(BLAKE3_ISA_PORTABLE, 0, in, len, 0, kw, flags, 0, 32, 0, want);
      for (int t = 0; t <= g_nisas; t++) {
        const int isa = t < g_nisas ? g_isas[t] : g_isas[g_nisas - 1] | 0x100;
        const size_t cap = len < 32 ? 32 : len;
        uint8_t *slot = malloc(cap);
        memcpy(slot, in, len);
        memset(slot + len, 0x5A, cap - len);
        jint got = N.hash_chunk_at(&g_env, NULL, isa, (jint)len, (jlong)k[0], (jlong)k[1], (jlong)k[2],
                                   (jlong)k[3], flags, (jlong)(uintptr_t)slot);
        int rest = memcmp(slot + 32, in + 32, len > 32 ? len - 32 : 0) == 0;
        ok &= got == 0 && !M.pending && M.critical == 0 && memcmp(slot, want, 32) == 0 && rest;
        check(ok, "%s hashChunkAt len=%zu flags=%d", t < g_nisas ? ISA_NAMES[isa] : "fastest-block", len, flags);
        free(slot);
      }
    }
  }
  const struct {
    jint len, flags;
    int null_at;
  } bad[] = {{1025, 0, 0}, {-1, 0, 0}, {INT32_MIN, 0, 0}, {100, 0x100, 0}, {100, 0x1000, 0}, {100, 0, 1}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    uint8_t slot[1024];
    memset(slot, 0xA5, sizeof slot);
    N.hash_chunk_at(&g_env, NULL, g_isas[0], bad[i].len, 0, 0, 0, 0, bad[i].flags,
                    bad[i].null_at ? 0 : (jlong)(uintptr_t)slot);
    int untouched = 1;
    for (size_t j = 0; j < sizeof slot; j++) untouched &= slot[j] == 0xA5;
    check(untouched, "hashChunkAt len=%d flags=%#x null=%d wrote nothing", (int)bad[i].len, (unsigned)bad[i].flags,
          bad[i].null_at);
    expect_exception("hashChunkAt, bad length, flags or address", "java/lang/IllegalArgumentException");
  }
  printf("  hashChunkAt, %d rounds of lengths 0..1024 x %d ISAs and the fastest; refusals: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* hashOneShot and hashOneShotDirect with UNLESS_QUESTION_MARK (0x100) added to the flags: a
 * '?' anywhere in the input (and only in it: one is left just outside the range) returns 1 with
 * the output untouched and the input released; otherwise 0 and the hash without the flag.
 * hashOneShotCopy refuses the flag. */
static void test_unless_question_mark(int rounds) {
  long before = g_fail;
  static uint8_t in[1100];
  const size_t pad = 3;
  for (int r = 0; r < rounds; r++) {
    const size_t lens[] = {0, 1, 63, 64, 65, 127, 200, 1023, 1024, 1025, 1099};
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
      const size_t n = lens[li];
      for (size_t i = 0; i < n; i++) {
        in[i] = (uint8_t)rnd();
        if (in[i] == '?') in[i] = '!';
      }
      const int q = n > 0 && (r & 1);
      if (q) in[rnd() % n] = '?';
      for (int t = 0; t < g_nisas; t++) {
        for (int direct = 0; direct < 2; direct++) {
          uint8_t want[32];
          int ok = q || oneshot(g_isas[t], direct, in, n, pad, NULL, 0, 0, 32, 0, want);
          /* '?' in the bytes just before and after the range, which must not count */
          mobj *i = new_obj(K_BYTES, pad + n + 2, 1);
          memset(i->data, '?', pad + n + 2);
          if (n) memcpy((uint8_t *)i->data + pad, in, n);
          i->input = 1;
          if (direct) i->kind = K_DIRECT;
          mobj *o = new_obj(K_BYTES, 32, 1);
          memset(o->data, 0x5A, 32);
          fn_oneshot f = direct ? N.oneshot_direct : N.oneshot;
          jint rc = f(&g_env, NULL, g_isas[t], (jobject)i, (jint)pad, (jint)n, NULL, 0x100, 0, (jbyteArray)o, 0, 32);
          ok &= !M.pending && M.critical == 0;
          if (q) {
            int untouched = 1;
            for (int j = 0; j < 32; j++) untouched &= ((uint8_t *)o->data)[j] == 0x5A;
            ok &= rc == 1 && untouched;
          } else {
            ok &= rc == 0 && memcmp(o->data, want, 32) == 0;
          }
          check(ok, "%s %s len=%zu unless '?' (%s)", ISA_NAMES[g_isas[t]], direct ? "hashOneShotDirect" : "hashOneShot",
                n, q ? "one there" : "none");
          free_obj(i);
          free_obj(o);
        }
      }
    }
  }
  uint8_t a[32];
  memset(in, 'a', 64);
  oneshot(g_isas[0], 2, in, 64, 0, NULL, 0x100, 0, 32, 0, a);
  expect_exception("hashOneShotCopy with UNLESS_QUESTION_MARK", "java/lang/IllegalArgumentException");
  printf("  hashOneShot, hashOneShotDirect unless '?': %d x 11 lengths x %d ISAs: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* hashMany and hashManyDirect: a window [from, from + count) of packed messages, each hash as
 * hashOneShot gives it, nothing written outside out[opad, opad + 32 count); more than
 * B3J_BATCH messages in one call is refused with nothing pinned. */
static void test_hash_many(int rounds) {
  long before = g_fail;
  enum { MAXN = 256, DATA = 12000 };
  static uint8_t data[DATA];
  static int32_t offs[MAXN + 4], lens[MAXN + 4];
  for (size_t i = 0; i < DATA; i++) data[i] = (uint8_t)rnd();
  for (int r = 0; r < rounds; r++) {
    const size_t total = 1 + rnd() % (r % 4 == 0 ? MAXN : 20), from = rnd() % 3;
    const size_t count = total, opad = rnd() % 5;
    for (size_t i = 0; i < from + count; i++) {
      lens[i] = (int32_t)(r % 2 ? rnd() % 2100 : rnd() % 130);
      offs[i] = (int32_t)(rnd() % (DATA - (size_t)lens[i] + 1));
    }
    const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_MATERIAL}[r % 3];
    uint32_t kw[8];
    for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
    for (int t = 0; t < g_nisas; t++) {
      const int isa = g_isas[t];
      for (int direct = 0; direct < 2; direct++) {
        mobj *d = direct ? direct_at(data, DATA, 0) : input_at(data, DATA, 0);
        mobj *o = ints_obj((const uint32_t *)offs, from + count), *l = ints_obj((const uint32_t *)lens, from + count);
        mobj *k = ints_obj(kw, 8), *out = new_obj(K_BYTES, opad + 32 * count + 3, 1);
        memset(out->data, 0x5A, opad + 32 * count + 3);
        (direct ? N.many_direct : N.many)(&g_env, NULL, isa, (jobject)d, (jintArray)o, (jintArray)l, (jint)from,
                                          (jint)count, (jintArray)k, flags, (jbyteArray)out, (jint)opad);
        int ok = !M.pending && M.critical == 0;
        const uint8_t *res = (const uint8_t *)out->data;
        for (size_t j = 0; j < opad; j++) ok &= res[j] == 0x5A;
        for (size_t j = 0; j < 3; j++) ok &= res[opad + 32 * count + j] == 0x5A;
        for (size_t i = 0; i < count && ok; i++) {
          uint8_t want[32];
          ok &= oneshot(isa, 0, data + offs[from + i], (size_t)lens[from + i], 0, kw, flags, 0, 32, 0, want);
          ok &= memcmp(res + opad + 32 * i, want, 32) == 0;
        }
        check(ok, "%s hashMany%s round %d: %zu messages from %zu", ISA_NAMES[isa], direct ? "Direct" : "", r, count,
              from);
        free_obj(d);
        free_obj(o);
        free_obj(l);
        free_obj(k);
        free_obj(out);
      }
    }
  }
  mobj *d = input_at(data, 64, 0), *o = ints_obj(NULL, 300), *l = ints_obj(NULL, 300), *out = new_obj(K_BYTES, 32 * 300, 1);
  memset(o->data, 0, 4 * 300);
  memset(l->data, 0, 4 * 300);
  N.many(&g_env, NULL, 0, (jobject)d, (jintArray)o, (jintArray)l, 0, 257, NULL, 0, (jbyteArray)out, 0);
  expect_exception("hashMany, 257 messages", "java/lang/IllegalArgumentException");
  free_obj(d);
  free_obj(o);
  free_obj(l);
  free_obj(out);
  printf("  hashMany, hashManyDirect, %d rounds x %d ISAs: %s\n", rounds, g_nisas, g_fail == before ? "ok" : "FAILED");
}

/* Each failure the glue can meet: it must leave exactly the expected exception, nothing pinned. */
static void expect_exception(const char *what, const char *cls) {
  check(M.pending && strcmp(M.pending_class, cls) == 0, "%s: expected %s pending, got %s", what, cls,
        M.pending ? M.pending_class : "none");
  check(M.critical == 0, "%s: %d array(s) still pinned", what, M.critical);
  M.pending = 0;
}

static void test_error_paths(void) {
  long before = g_fail;
  uint8_t data[4096];
  for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
  uint32_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  mobj *in = input_at(data, sizeof data, 0), *out = new_obj(K_BYTES, 64, 1);
  mobj *key = ints_obj(w, 8), *short_key = ints_obj(w, 7), *cvs = ints_obj(NULL, 8 * 128);
  mobj *heap = input_at(data, sizeof data, 0);
  heap->kind = K_HEAPBUF;
  mobj *cv = ints_obj(w, 8), *block = ints_obj(NULL, 16), *short_block = ints_obj(NULL, 15);
  memset(block->data, 0, 64);

  /* the input pin fails */
  M.fail_next_pin = 1;
  N.oneshot(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)key, 0, 0, (jbyteArray)out, 0, 64);
  expect_exception("hashOneShot, input pin fails", "java/lang/OutOfMemoryError");
  M.fail_next_pin = 0;
  N.subtrees(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)key, 0, 0, (jintArray)cvs, 0);
  check(!M.pending && M.critical == 0, "hashSubtrees after the failures");
  M.fail_next_pin = 1;
  check(N.subtrees(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)key, 0, 0, (jintArray)cvs, 0) == 0,
        "hashSubtrees, pin fails: returns 0");
  expect_exception("hashSubtrees, pin fails", "java/lang/OutOfMemoryError");
  M.fail_next_pin = 1;
  N.root_output(&g_env, NULL, 0, (jintArray)cv, (jintArray)block, 64, 0, 0, (jbyteArray)out, 0, 64);
  expect_exception("rootOutput, pin fails", "java/lang/OutOfMemoryError");
  /* a key array shorter than 8 ints: GetIntArrayRegion throws, nothing is pinned */
  N.oneshot(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)short_key, 0, 0, (jbyteArray)out, 0, 64);
  expect_exception("hashOneShot, 7-int key", "java/lang/ArrayIndexOutOfBoundsException");
  N.subtrees(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)short_key, 0, 0, (jintArray)cvs, 0);
  expect_exception("hashSubtrees, 7-int key", "java/lang/ArrayIndexOutOfBoundsException");
  N.subtrees_direct(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)short_key, 0, 0, (jintArray)cvs, 0);
  expect_exception("hashSubtreesDirect, 7-int key", "java/lang/ArrayIndexOutOfBoundsException");
  N.root_output(&g_env, NULL, 0, (jintArray)cv, (jintArray)short_block, 64, 0, 0, (jbyteArray)out, 0, 64);
  expect_exception("rootOutput, 15-int block", "java/lang/ArrayIndexOutOfBoundsException");
  /* a heap buffer where a direct one is expected */
  N.subtrees_direct(&g_env, NULL, 0, (jobject)heap, 0, 4096, (jintArray)key, 0, 0, (jintArray)cvs, 0);
  expect_exception("hashSubtreesDirect, heap buffer", "java/lang/IllegalArgumentException");
  N.oneshot_direct(&g_env, NULL, 0, (jobject)heap, 0, 4096, (jintArray)key, 0, 0, (jbyteArray)out, 0, 64);
  expect_exception("hashOneShotDirect, heap buffer", "java/lang/IllegalArgumentException");
  /* a CV array too short for the values: SetIntArrayRegion throws */
  mobj *tiny = ints_obj(NULL, 7);
  N.subtrees(&g_env, NULL, 0, (jobject)in, 0, 4096, NULL, 0, 0, (jintArray)tiny, 0);
  expect_exception("hashSubtrees, 7-int CV array", "java/lang/ArrayIndexOutOfBoundsException");
  /* the copying entry points: an output too long for hashOneShotCopy, a range past the array */
  mobj *long_out = new_obj(K_BYTES, 65, 1);
  N.oneshot_copy(&g_env, NULL, 0, (jobject)in, 0, 4096, NULL, 0, 0, (jbyteArray)long_out, 0, 65);
  expect_exception("hashOneShotCopy, 65 output bytes", "java/lang/IllegalArgumentException");
  free_obj(long_out);
  N.subtrees_copy(&g_env, NULL, 0, (jobject)in, 1024, 4096, NULL, 0, 0, (jintArray)cvs, 0);
  expect_exception("hashSubtreesCopy, range past the array", "java/lang/ArrayIndexOutOfBoundsException");
  N.oneshot_copy(&g_env, NULL, 0, (jobject)in, 1, 100000, NULL, 0, 0, (jbyteArray)out, 0, 32);
  expect_exception("hashOneShotCopy, range past the array", "java/lang/ArrayIndexOutOfBoundsException");
  N.subtrees_copy(&g_env, NULL, 0, (jobject)in, 0, 4096, (jintArray)short_key, 0, 0, (jintArray)cvs, 0);
  expect_exception("hashSubtreesCopy, 7-int key", "java/lang/ArrayIndexOutOfBoundsException");
  /* output length 0 or less: nothing is touched, not even the (null) arrays */
  N.oneshot(&g_env, NULL, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0);
  N.oneshot_direct(&g_env, NULL, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, -1);
  N.root_output(&g_env, NULL, 0, NULL, NULL, 0, 0, 0, NULL, 0, 0);
  N.oneshot_copy(&g_env, NULL, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0);
  N.root_output_copy(&g_env, NULL, 0, NULL, NULL, 0, 0, 0, NULL, 0, 0);
  check(!M.pending && M.critical == 0, "out_len <= 0 calls return at once");
  /* an ISA number selectIsa never returns: the glue falls back to portable, no crash */
  uint8_t a[32], b[32];
  check(oneshot(0, 0, data, 3000, 0, NULL, 0, 0, 32, 0, a) && oneshot(999, 0, data, 3000, 0, NULL, 0, 0, 32, 0, b) &&
            oneshot(-5, 0, data, 3000, 0, NULL, 0, 0, 32, 0, b) && memcmp(a, b, 32) == 0,
        "an unknown ISA number runs the portable kernel");
  check(N.select_isa(&g_env, NULL, 999) == -1 && N.select_isa(&g_env, NULL, -1) >= 0, "selectIsa range");
  free_obj(in);
  free_obj(out);
  free_obj(key);
  free_obj(short_key);
  free_obj(cvs);
  free_obj(heap);
  free_obj(cv);
  free_obj(block);
  free_obj(short_block);
  free_obj(tiny);
  printf("  error paths (failed pins, short arrays, heap buffers, bad ISA): %s\n", g_fail == before ? "ok" : "FAILED");
}

/* The second pin of a one-shot fails: the pinned input must be released before the throw. */
static int g_pin_calls, g_fail_on_call;
static void *m_get_critical_counting(JNIEnv *env, jarray a, jboolean *is_copy) {
  if (++g_pin_calls == g_fail_on_call) return NULL;
  return m_get_critical(env, a, is_copy);
}

static void test_second_pin_fails(void) {
  long before = g_fail;
  uint8_t data[2048] = {0};
  /* outputs up to 64 bytes are copied out, never pinned: 65 bytes make the second pin */
  mobj *in = input_at(data, sizeof data, 0), *out = new_obj(K_BYTES, 65, 1);
  g_fns.GetPrimitiveArrayCritical = m_get_critical_counting;
  g_pin_calls = 0;
  g_fail_on_call = 2;
  N.oneshot(&g_env, NULL, 0, (jobject)in, 0, 2048, NULL, 0, 0, (jbyteArray)out, 0, 65);
  g_fns.GetPrimitiveArrayCritical = m_get_critical;
  expect_exception("hashOneShot, output pin fails", "java/lang/OutOfMemoryError");
  check(in->pinned == NULL, "the input was released");
  free_obj(in);
  free_obj(out);
  printf("  second pin fails: %s\n", g_fail == before ? "ok" : "FAILED");
}

typedef jint (*onload_fn)(JavaVM *, void *);

static void test_onload(onload_fn onload) {
  long before = g_fail;
  M.property = "com.example.shaded.b3.NativeBlake3";
  check(onload(&g_vm, NULL) == JNI_VERSION_1_6 && strcmp(M.found_class, "com/example/shaded/b3/NativeBlake3") == 0,
        "JNI_OnLoad binds the class named by blake3fast.jni.class (got %s)", M.found_class);
  static char longname[700];
  memset(longname, 'a', sizeof longname - 1);
  M.property = longname;
  check(onload(&g_vm, NULL) == JNI_ERR && !M.pending, "JNI_OnLoad refuses a class name longer than its buffer");
  M.property = "";
  check(onload(&g_vm, NULL) == JNI_ERR && !M.pending, "JNI_OnLoad refuses an empty class name");
  M.property = NULL;
  M.fail_find_class = 1;
  check(onload(&g_vm, NULL) == JNI_ERR && !M.pending, "JNI_OnLoad returns JNI_ERR, exception cleared, when the class is missing");
  M.fail_find_class = 0;
  g_getenv_fails = 1;
  check(onload(&g_vm, NULL) == JNI_ERR, "JNI_OnLoad returns JNI_ERR when GetEnv fails");
  g_getenv_fails = 0;
  /* last: the default name, whose registration the rest of the run uses */
  M.property = NULL;
  check(onload(&g_vm, NULL) == JNI_VERSION_1_6 && strcmp(M.found_class, "io/github/blake3fast/NativeBlake3") == 0,
        "JNI_OnLoad binds io.github.blake3fast.NativeBlake3 by default (got %s)", M.found_class);
  printf("  JNI_OnLoad (default, shaded, too long, empty, missing class, no env): %s\n",
         g_fail == before ? "ok" : "FAILED");
}

/* hashMapped: a file range hashes as the same bytes through hashSubtrees, and a range the file
 * no longer covers (truncated after the caller took its size) returns -2 instead of a SIGBUS
 * that ends the process; a closed descriptor returns -1. */
#if defined(_WIN32)
/* Windows: the library maps nothing (blake3_mapped.c) and says so, -1 with no exception, for an
 * open file as for a closed one; Java then reads the range. */
static void test_mapped(void) {
  long before = g_fail;
  FILE *f = tmpfile();
  check(f != NULL && fwrite("0123456789abcdef", 1, 16, f) == 16 && fflush(f) == 0, "a file for hashMapped");
  mobj *fdo = new_obj(K_FD, 0, 1), *out = ints_obj(NULL, 8 * 128);
  fdo->fd = f != NULL ? _fileno(f) : 3;
  for (int t = 0; t < g_nisas; t++)
    check(N.mapped(&g_env, NULL, g_isas[t], (jobject)fdo, 0, 1024, NULL, 0, 0, (jintArray)out, 0) == -1 && !M.pending,
          "hashMapped on Windows (%s): -1, unavailable", ISA_NAMES[g_isas[t]]);
  if (f != NULL) fclose(f);
  free_obj(fdo);
  free_obj(out);
  printf("  hashMapped (every kernel: unavailable on Windows): %s\n", g_fail == before ? "ok" : "FAILED");
}
#else
static void test_mapped(void) {
  enum { LEN = 3 * 1024 * 1024 + 5120 };
  long before = g_fail;
  char path[] = "/tmp/jni_mock_mapped.XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    check(0, "mkstemp for the mapped test");
    return;
  }
  unlink(path);
  uint8_t *data = malloc(LEN);
  for (size_t i = 0; i < LEN; i++) data[i] = (uint8_t)rnd();
  check(write(fd, data, LEN) == LEN, "the mapped test's file is written");
  mobj *fdo = new_obj(K_FD, 0, 1), *all = input_at(data, LEN, 0);
  fdo->fd = fd;
  mobj *mapped = ints_obj(NULL, 8 * 128), *copied = ints_obj(NULL, 8 * 128);
  static const int64_t cases[][3] = {{0, 1 << 20, 0}, {4096, 1 << 20, 1024}, {1024, 2 << 20, 3}, {3 << 20, 5120, 77}};
  for (int t = 0; t < g_nisas; t++) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      jint n = N.mapped(&g_env, NULL, g_isas[t], (jobject)fdo, cases[c][0], (jint)cases[c][1], NULL, cases[c][2], 0,
                        (jintArray)mapped, 0);
      jint m = N.subtrees(&g_env, NULL, g_isas[t], (jobject)all, (jint)cases[c][0], (jint)cases[c][1], NULL,
                          cases[c][2], 0, (jintArray)copied, 0);
      check(n == m && n > 0 && memcmp(mapped->data, copied->data, 32 * (size_t)n) == 0,
            "hashMapped %s case %zu: %d subtrees, as hashSubtrees (%d)", ISA_NAMES[g_isas[t]], c, (int)n, (int)m);
    }
  }
  check(ftruncate(fd, (1 << 20) + 100) == 0, "the mapped test's file is truncated");
  for (int i = 0; i < 3; i++) {
    jint n = N.mapped(&g_env, NULL, g_isas[g_nisas - 1], (jobject)fdo, 0, 2 << 20, NULL, 0, 0, (jintArray)mapped, 0);
    check(n == -2 && !M.pending, "hashMapped past the end of a truncated file: -2 (got %d)", (int)n);
  }
  close(fd);
  fdo->fd = -1;
  check(N.mapped(&g_env, NULL, 0, (jobject)fdo, 0, 1024, NULL, 0, 0, (jintArray)mapped, 0) == -1 && !M.pending,
        "hashMapped on a closed descriptor: -1");
  free_obj(fdo);
  free_obj(all);
  free_obj(mapped);
  free_obj(copied);
  free(data);
  printf("  hashMapped (every kernel, a truncated file, a closed descriptor): %s\n", g_fail == before ? "ok" : "FAILED");
}
#endif

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: jni_mock LIBBLAKE3FAST.so test_vectors.txt [--seed N] [--quick]\n");
    return 2;
  }
  int quick = 0;
  for (int i = 3; i < argc; i++) {
    if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) g_rng = strtoull(argv[++i], NULL, 0);
    else if (strcmp(argv[i], "--quick") == 0) quick = 1;
  }
  printf("jni_mock: %s, seed 0x%" PRIx64 "\n", argv[1], g_rng);
  init_env();
  void *lib = MOCK_DLOPEN(argv[1]);
  if (lib == NULL) {
    printf("cannot load %s: %s\n0 passed, 1 failed\n", argv[1], mock_dlerror());
    return 1;
  }
  onload_fn onload = (onload_fn)MOCK_DLSYM(lib, "JNI_OnLoad");
  if (onload == NULL) {
    printf("no JNI_OnLoad in %s\n0 passed, 1 failed\n", argv[1]);
    return 1;
  }
  test_onload(onload);
  check(M.nmethods == (jint)(sizeof WANT / sizeof WANT[0]), "%d natives registered", (int)M.nmethods);
  printf("JNI_OnLoad registered %d natives\n", (int)M.nmethods); /* LoaderMuslTest: NativeBlake3's count */
  enum { NWANT = sizeof WANT / sizeof WANT[0] };
  void *f[NWANT];
  for (size_t i = 0; i < NWANT; i++) f[i] = native_fn(WANT[i].name, WANT[i].sig);
  for (size_t i = 0; i < NWANT; i++)
    if (f[i] == NULL) {
      printf("%ld passed, %ld failed\n", g_pass, g_fail);
      return 1;
    }
  N.abi_version = (fn_i)f[0];
  N.supported_isas = (fn_i)f[1];
  N.select_isa = (fn_ii)f[2];
  N.subtrees = (fn_subtrees)f[3];
  N.subtrees_direct = (fn_subtrees)f[4];
  N.oneshot = (fn_oneshot)f[5];
  N.oneshot_direct = (fn_oneshot)f[6];
  N.root_output = (fn_root)f[7];
  N.direct_address = (fn_address)f[8];
  N.hash_block = (fn_block)f[9];
  N.subtrees_copy = (fn_subtrees)f[10];
  N.oneshot_copy = (fn_oneshot_copy)f[11];
  N.root_output_copy = (fn_root)f[12];
  N.mapped = (fn_mapped)f[13];
  N.many = (fn_many)f[14];
  N.many_direct = (fn_many)f[15];
  N.hash_two_blocks = (fn_two_blocks)f[20];
  N.hash_chunk_at = (fn_chunk_at)f[21];

  check(N.abi_version(&g_env, NULL) == 9, "abiVersion is 9");
  const jint supported = N.supported_isas(&g_env, NULL);
  check(supported & 1, "portable is supported");
  const char *cap_env = getenv("BLAKE3_ISA");
  int cap = 99;
  for (int i = 0; cap_env && i < BLAKE3_ISA_COUNT; i++)
    if (strcmp(cap_env, ISA_NAMES[i]) == 0) cap = i;
  printf("ISAs:");
  for (int i = 0; i < BLAKE3_ISA_COUNT; i++)
    if ((supported & (1 << i)) && i <= cap && (i == 0 || N.select_isa(&g_env, NULL, i) == i)) {
      g_isas[g_nisas++] = i;
      printf(" %s", ISA_NAMES[i]);
    }
  printf("\n");

  test_vectors(argv[2]);
  test_subtrees(quick ? 12 : 60);
  test_root_output(quick ? 40 : 200);
  test_hash_block(quick ? 3 : 12);
  test_fastest_block_timings(quick ? 1200 : 20000);
  test_hash_two_blocks(quick ? 2 : 8);
  test_hash_chunk_at(quick ? 2 : 6);
  test_unless_question_mark(quick ? 2 : 8);
  test_hash_many(quick ? 8 : 40);
  test_error_paths();
  test_second_pin_fails();
  test_mapped();

  check(M.critical == 0 && M.pins == M.unpins, "every pin released once (%ld pins, %ld releases)", M.pins, M.unpins);
  check(M.violations == 0, "no JNI rule broken (%ld)", M.violations);
  check(M.region_copies > 0, "the copying entry points read through GetByteArrayRegion");
  printf("  %ld arrays pinned and released, %ld region copies, %ld JNI rule violations\n", M.pins, M.region_copies,
         M.violations);
  MOCK_DLCLOSE(lib);
  printf("%ld passed, %ld failed\n", g_pass, g_fail);
  return g_fail == 0 ? 0 : 1;
}
