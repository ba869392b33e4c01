/*
 * blake3-fast: the JNI glue run without a JVM, for valgrind (and any sanitizer).
 *
 *   jni_mock LIBBLAKE3FAST.so test-vectors/test_vectors.txt [--seed N] [--quick]
 *
 * A JVM under valgrind drowns in reports about its own JIT code, so this program plays the
 * JVM instead: it dlopens the real libblake3fast.so, calls JNI_OnLoad with a mock JavaVM, and
 * calls the registered natives the way NativeBlake3.java does. Every array and direct buffer is
 * an exact-size malloc, and a pinned array is handed out as an exact-size malloc copy of its own
 * (as a JVM that copies may do), so memcheck and ASan flag any byte read or written outside it.
 * The mock enforces the rules of native/JNI.md: no JNI call but ReleasePrimitiveArrayCritical
 * while an array is pinned, none but the exception-safe ones while an exception is pending, every
 * pin released once with JNI_ABORT, outputs never pinned, inputs never written; a byte[] input
 * of up to 64 KiB read by one GetByteArrayRegion of exactly its range, a longer one pinned once.
 * It injects failures (a failed pin, short arrays, a heap buffer where a direct one is expected,
 * refused arguments, a missing class) to run the error paths.
 *
 * Checks: the official vectors through hashOneShot for every ISA this CPU (or valgrind's CPU)
 * runs, with seeks and outputs past 64 bytes and past a 64 KiB slice; hashSubtrees{,Direct} on
 * random cases on both sides of the copy line, with and without maxLog, against the portable ISA
 * on aligned pieces; rootOutput against hashOneShot and the portable ISA; hashMany against
 * hashOneShot; hashParents against hashSubtrees, out apart from in or over it; hashChunkAt of
 * every length 0..1024 in every mode against hashOneShot, in a slot of exactly max(len, 32) bytes
 * at the address address() gives, with no JNI call at all for a null key; the error paths;
 * JNI_OnLoad's class-name property and failures; hashMapped against hashSubtrees, on a truncated
 * file (its SIGBUS guard) and a closed descriptor. Ends with "N passed, N failed".
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

/* Only the list of ISAs, the flags, the IV and blake3_load32: the library itself is dlopened. */
#include "../src/blake3_impl.h"

#define VECTOR_OUT 131
/* The glue's limits (blake3_jni.c): */
#define COPY_LEN (64 * 1024)  /* B3J_COPY_LEN: byte[] inputs up to this are copied, longer pinned */
#define OUT_SLICE (64 * 1024) /* B3J_OUT_SLICE: longer outputs are computed a slice at a time */
#define MAX_VALUES 128        /* B3J_MAX_SUBTREES: the most CVs one hashSubtrees call returns */
#define MAX_BATCH 256         /* B3J_BATCH and B3J_PARENTS: messages or parents per call */

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

static int all_eq(const void *p, size_t n, uint8_t v) {
  for (size_t i = 0; i < n; i++)
    if (((const uint8_t *)p)[i] != v) return 0;
  return 1;
}

/* ---- the mock objects ------------------------------------------------------------------- */

enum kind { K_BYTES = 1, K_INTS, K_DIRECT, K_HEAPBUF, K_CLASS, K_STRING, K_FD };

/* The JVM's objects: jni.h leaves struct _jobject incomplete for C, and every reference type
 * (jobject, jclass, jstring, jbyteArray, jintArray, ...) is a pointer to it, so the mock completes
 * it and its objects pass to the natives as they are. */
typedef struct _jobject mobj;
struct _jobject {
  int kind;
  size_t len;         /* elements */
  void *data;         /* exactly len elements, malloc'd */
  void *pinned;       /* the copy handed out by GetPrimitiveArrayCritical, or NULL */
  void *pin_snapshot; /* what the copy held when handed out (to catch writes to inputs) */
  int input;          /* the glue must not write it */
  char name[600];     /* class or string */
  int fd;             /* K_FD: a java.io.FileDescriptor's field "fd" */
};

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
static void free_all(mobj **objs, size_t n) {
  for (size_t i = 0; i < n; i++) free_obj(objs[i]);
}
#define FREE(...) free_all((mobj *[]){__VA_ARGS__}, sizeof((mobj *[]){__VA_ARGS__}) / sizeof(mobj *))
static mobj *ints_obj(const uint32_t *w, size_t n) {
  mobj *o = new_obj(K_INTS, n, 4);
  if (n && w) memcpy(o->data, w, 4 * n);
  return o;
}
static mobj *bytes_obj(size_t n, uint8_t fill) {
  mobj *o = new_obj(K_BYTES, n, 1);
  memset(o->data, fill, n);
  return o;
}
/* A byte[] holding `n` bytes of `p` at index `pad`, and nothing after them. */
static mobj *input_at(const uint8_t *p, size_t n, size_t pad) {
  mobj *o = bytes_obj(pad + n, 0xA5);
  if (n) memcpy((uint8_t *)o->data + pad, p, n);
  o->input = 1;
  return o;
}
static mobj *direct_at(const uint8_t *p, size_t n, size_t pad) {
  mobj *o = input_at(p, n, pad);
  o->kind = K_DIRECT;
  return o;
}

/* ---- the mock JNIEnv ---------------------------------------------------------------------- */

/* Its functions take every argument JNI passes, whether they need it or not. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"

static struct {
  int critical;                  /* arrays pinned now */
  long pins, unpins;             /* over the run */
  long region_copies;            /* GetByteArrayRegion calls over the run */
  size_t region_off, region_len; /* the last one's range */
  int pending;                   /* an exception is pending */
  char pending_class[128];
  int fail_next_pin;                 /* the next GetPrimitiveArrayCritical returns NULL */
  int fail_find_class, fail_register; /* FindClass of the bound class, RegisterNatives fail */
  const char *property;              /* value of blake3fast.jni.class, or NULL */
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
  char msg[200];
  if (M.critical > 0) {
    snprintf(msg, sizeof msg, "%s called while %d array(s) are pinned", fn, M.critical);
    violation(msg);
  }
  if (M.pending) {
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

/* An array region call's checks; returns the object, or NULL with an exception pending. */
static mobj *region(const char *fn, jarray o, int kind, jsize start, jsize len) {
  enter(fn);
  if (o == NULL) {
    raise("java/lang/NullPointerException");
    return NULL;
  }
  if (o->kind != kind) {
    char msg[160];
    snprintf(msg, sizeof msg, "%s on an object of another type", fn);
    violation(msg);
    return NULL;
  }
  if (start < 0 || len < 0 || (size_t)start + (size_t)len > o->len) {
    raise("java/lang/ArrayIndexOutOfBoundsException");
    return NULL;
  }
  return o;
}

static jboolean m_exception_check(JNIEnv *env) {
  if (M.critical > 0) violation("ExceptionCheck while pinned");
  return M.pending ? JNI_TRUE : JNI_FALSE;
}
static void m_exception_clear(JNIEnv *env) {
  M.pending = 0;
}
static jclass m_find_class(JNIEnv *env, const char *name) {
  enter("FindClass");
  if (M.fail_find_class && strncmp(name, "java/", 5) != 0) {
    raise("java/lang/NoClassDefFoundError");
    return NULL;
  }
  mobj *c = new_obj(K_CLASS, 0, 1);
  snprintf(c->name, sizeof c->name, "%s", name);
  if (strncmp(name, "java/", 5) != 0) snprintf(M.found_class, sizeof M.found_class, "%s", name);
  return c;
}
static jint m_throw_new(JNIEnv *env, jclass cls, const char *msg) {
  enter("ThrowNew");
  raise(cls->name);
  free_obj(cls); /* the mock's classes are local refs nobody deletes after ThrowNew */
  return 0;
}
static void m_get_int_region(JNIEnv *env, jintArray a, jsize start, jsize len, jint *buf) {
  mobj *o = region("GetIntArrayRegion", a, K_INTS, start, len);
  if (o) memcpy(buf, (uint32_t *)o->data + start, 4 * (size_t)len);
}
static void m_set_int_region(JNIEnv *env, jintArray a, jsize start, jsize len, const jint *buf) {
  mobj *o = region("SetIntArrayRegion", a, K_INTS, start, len);
  if (o) memcpy((uint32_t *)o->data + start, buf, 4 * (size_t)len);
}
static void m_get_byte_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, jbyte *buf) {
  mobj *o = region("GetByteArrayRegion", a, K_BYTES, start, len);
  if (o == NULL) return;
  M.region_copies++;
  M.region_off = (size_t)start;
  M.region_len = (size_t)len;
  memcpy(buf, (uint8_t *)o->data + start, (size_t)len);
}
static void m_set_byte_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, const jbyte *buf) {
  mobj *o = region("SetByteArrayRegion", a, K_BYTES, start, len);
  if (o == NULL) return;
  if (o->input) violation("SetByteArrayRegion into an input array");
  memcpy((uint8_t *)o->data + start, buf, (size_t)len);
}
static void *m_direct_address(JNIEnv *env, jobject o) {
  enter("GetDirectBufferAddress");
  return o != NULL && o->kind == K_DIRECT ? o->data : NULL;
}
static void *m_get_critical(JNIEnv *env, jarray o, jboolean *is_copy) {
  enter("GetPrimitiveArrayCritical"); /* the glue pins one array at a time */
  if (o == NULL || o->kind != K_BYTES || !o->input) {
    violation("GetPrimitiveArrayCritical on something else than a byte[] input (outputs are copied)");
    return NULL;
  }
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
static void m_release_critical(JNIEnv *env, jarray o, void *p, jint mode) {
  if (o == NULL || o->pinned == NULL || o->pinned != p) {
    violation("ReleasePrimitiveArrayCritical of an array not pinned (or with another pointer)");
    return;
  }
  if (o->len && memcmp(o->pinned, o->pin_snapshot, o->len) != 0) violation("the glue wrote into an input array");
  if (mode != JNI_ABORT) violation("an input released without JNI_ABORT");
  free(o->pinned);
  free(o->pin_snapshot);
  o->pinned = o->pin_snapshot = NULL;
  M.critical--;
  M.unpins++;
}
static jmethodID m_static_method(JNIEnv *env, jclass c, const char *name, const char *sig) {
  enter("GetStaticMethodID");
  if (strcmp(name, "getProperty") != 0 || strcmp(sig, "(Ljava/lang/String;)Ljava/lang/String;") != 0)
    violation("an unexpected static method");
  return (jmethodID)(uintptr_t)0x1234;
}
static jstring m_new_string(JNIEnv *env, const char *s) {
  enter("NewStringUTF");
  mobj *o = new_obj(K_STRING, 0, 1);
  snprintf(o->name, sizeof o->name, "%s", s);
  return o;
}
static jobject m_call_static_object(JNIEnv *env, jclass c, jmethodID m, ...) {
  enter("CallStaticObjectMethod");
  va_list ap;
  va_start(ap, m);
  mobj *key = va_arg(ap, jobject);
  va_end(ap);
  if (key == NULL || strcmp(key->name, "blake3fast.jni.class") != 0) violation("an unexpected property");
  return M.property != NULL ? m_new_string(env, M.property) : NULL;
}
static const char *m_string_chars(JNIEnv *env, jstring s, jboolean *is_copy) {
  enter("GetStringUTFChars");
  if (is_copy) *is_copy = JNI_TRUE;
  return strdup(s->name);
}
static void m_release_string_chars(JNIEnv *env, jstring s, const char *chars) {
  free((void *)chars);
}
/* FileDescriptor.fd, the one field the glue reads. */
#define MOCK_FD_FIELD ((jfieldID)(uintptr_t)0x5678)
static jfieldID m_field(JNIEnv *env, jclass c, const char *name, const char *sig) {
  enter("GetFieldID");
  if (strcmp(c->name, "java/io/FileDescriptor") != 0 || strcmp(name, "fd") != 0 || strcmp(sig, "I") != 0)
    violation("an unexpected field");
  return MOCK_FD_FIELD;
}
static jint m_int_field(JNIEnv *env, jobject o, jfieldID f) {
  enter("GetIntField");
  if (f != MOCK_FD_FIELD || o->kind != K_FD) violation("GetIntField on something else than FileDescriptor.fd");
  return o->fd;
}
static void m_delete_local(JNIEnv *env, jobject o) {
  free_obj(o);
}
static jint m_register(JNIEnv *env, jclass c, const JNINativeMethod *methods, jint n) {
  enter("RegisterNatives");
  if (M.fail_register) { /* what a JVM does when the class lacks one of the methods */
    raise("java/lang/NoSuchMethodError");
    return JNI_ERR;
  }
  M.methods = methods;
  M.nmethods = n;
  return JNI_OK;
}

static struct JNINativeInterface_ g_fns, g_bare_fns;
static JNIEnv g_env = &g_fns;
/* An env whose every function only counts its calls: hashChunkAt with a null key must make none. */
static JNIEnv g_bare = &g_bare_fns;
static long g_stray;
static void stray(void) { g_stray++; }
static int g_getenv_fails;

static jint m_get_env(JavaVM *vm, void **penv, jint version) {
  if (g_getenv_fails || version > JNI_VERSION_1_8) return JNI_EVERSION;
  *penv = &g_env;
  return JNI_OK;
}
static struct JNIInvokeInterface_ g_vm_fns;
static JavaVM g_vm = &g_vm_fns;

static void init_env(void) {
  void **slots = (void **)&g_fns, **bare = (void **)&g_bare_fns;
  for (size_t i = 4; i < sizeof g_fns / sizeof(void *); i++) {
    slots[i] = (void *)unexpected;
    bare[i] = (void *)stray;
  }
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
#pragma GCC diagnostic pop

/* Whether a call read its byte[] input [off, off + len) by the copy/pin rule: up to COPY_LEN
 * bytes one GetByteArrayRegion of exactly that range (none for 0 bytes) and no pin, longer one
 * pin and no copy. len 0 also stands for a call that must read no array at all (a direct buffer,
 * a refusal). */
typedef struct {
  long pins, copies;
} counts;
static counts snap(void) { return (counts){M.pins, M.region_copies}; }
static int read_by_rule(counts b, size_t off, size_t len) {
  if (len > COPY_LEN) return M.pins == b.pins + 1 && M.region_copies == b.copies;
  return M.pins == b.pins && M.region_copies == b.copies + (len > 0) &&
         (len == 0 || (M.region_off == off && M.region_len == len));
}

/* Each failure the glue can meet: it must leave exactly the expected exception, nothing pinned. */
static void expect_exception(const char *what, const char *cls) {
  check(M.pending && strcmp(M.pending_class, cls) == 0, "%s: expected %s pending, got %s", what, cls,
        M.pending ? M.pending_class : "none");
  check(M.critical == 0, "%s: %d array(s) still pinned", what, M.critical);
  M.pending = 0;
}
#define IAE "java/lang/IllegalArgumentException"
#define AIOOBE "java/lang/ArrayIndexOutOfBoundsException"
#define OOME "java/lang/OutOfMemoryError"

/* ---- the natives, typed as NativeBlake3.java declares them ---------------------------------- */

typedef jint (*fn_subtrees)(JNIEnv *, jclass, jint, jobject, jint, jint, jintArray, jlong, jint, jint, jintArray,
                            jint);

static struct { /* in WANT's order: main fills it one pointer at a time */
  jint (*abi_version)(JNIEnv *, jclass), (*supported_isas)(JNIEnv *, jclass), (*select_isa)(JNIEnv *, jclass, jint);
  fn_subtrees subtrees, subtrees_direct;
  void (*oneshot)(JNIEnv *, jclass, jint, jbyteArray, jint, jint, jintArray, jint, jlong, jbyteArray, jint, jint);
  void (*root_output)(JNIEnv *, jclass, jint, jintArray, jintArray, jint, jint, jlong, jbyteArray, jint, jint);
  jint (*mapped)(JNIEnv *, jclass, jint, jobject, jlong, jint, jintArray, jlong, jint, jintArray, jint);
  void (*many)(JNIEnv *, jclass, jint, jbyteArray, jintArray, jintArray, jint, jint, jintArray, jint, jbyteArray, jint);
  void (*parents)(JNIEnv *, jclass, jint, jbyteArray, jint, jint, jintArray, jint, jbyteArray, jint);
  void (*chunk_at)(JNIEnv *, jclass, jint, jlong, jint, jintArray, jint);
  jlong (*address)(JNIEnv *, jclass, jobject);
} N;

static const struct {
  const char *name, *sig;
} WANT[] = {
    {"abiVersion", "()I"},
    {"supportedIsas", "()I"},
    {"selectIsa", "(I)I"},
    {"hashSubtrees", "(I[BII[IJII[II)I"},
    {"hashSubtreesDirect", "(ILjava/nio/ByteBuffer;II[IJII[II)I"},
    {"hashOneShot", "(I[BII[IIJ[BII)V"},
    {"rootOutput", "(I[I[IIIJ[BII)V"},
    {"hashMapped", "(ILjava/io/FileDescriptor;JI[IJI[II)I"},
    {"hashMany", "(I[B[I[III[II[BI)V"},
    {"hashParents", "(I[BII[II[BI)V"},
    {"hashChunkAt", "(IJI[II)V"},
    {"address", "(Ljava/nio/ByteBuffer;)J"},
};
enum { NWANT = sizeof WANT / sizeof WANT[0] };
_Static_assert(sizeof N == NWANT * sizeof(void *), "N has one member per native, in WANT's order");

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

/* ---- one call of each native on exact-size arrays, checked for what every call must do ---- */

static int g_isas[BLAKE3_ISA_COUNT], g_nisas;
static const char *const ISA_NAMES[BLAKE3_ISA_COUNT] = {BLAKE3_ISA_NAMES};

static const int MODES[3] = {0, KEYED_HASH, DERIVE_KEY_MATERIAL};

/* hashOneShot: `out_len` bytes at `seek` to result, through an output array with `opad` bytes
 * before them (which must stay as they were) and none after; 1 when no exception is left, the
 * input was read by the rule and the bytes before the output are untouched. */
static int oneshot(int isa, const uint8_t *in, size_t n, size_t pad, const uint32_t *key, int flags, uint64_t seek,
                   size_t out_len, size_t opad, uint8_t *result) {
  mobj *i = input_at(in, n, pad), *k = key ? ints_obj(key, 8) : NULL, *o = bytes_obj(opad + out_len, 0x5A);
  const counts b = snap();
  N.oneshot(&g_env, NULL, isa, i, (jint)pad, (jint)n, k, flags, (jlong)seek, o, (jint)opad, (jint)out_len);
  const int ok = !M.pending && read_by_rule(b, pad, n) && all_eq(o->data, opad, 0x5A);
  memcpy(result, (uint8_t *)o->data + opad, out_len);
  M.pending = 0;
  FREE(i, k, o);
  return ok;
}

/* hashSubtrees{,Direct} of `len` bytes at p into a CV array with room for exactly `room` values
 * after a random offset: the number of values (to got), or -1 when the call left an exception,
 * read against the rule or wrote before the offset. With `refusal`, the call must instead leave
 * that exception, return 0, read nothing and write nothing. */
static long subtrees(int isa, int direct, const uint8_t *p, size_t len, const uint32_t *key, uint64_t counter,
                     int flags, int max_log, size_t room, uint32_t *got, const char *refusal) {
  const size_t pad = below(40), cvs_off = below(17);
  mobj *in = (direct ? direct_at : input_at)(p, len, pad), *k = key ? ints_obj(key, 8) : NULL;
  mobj *cvs = ints_obj(NULL, cvs_off + 8 * room);
  memset(cvs->data, 0x77, 4 * (cvs_off + 8 * room));
  const counts b = snap();
  fn_subtrees f = direct ? N.subtrees_direct : N.subtrees;
  jint n = f(&g_env, NULL, isa, in, (jint)pad, (jint)len, k, (jlong)counter, flags, max_log, cvs, (jint)cvs_off);
  int ok;
  if (refusal != NULL) {
    ok = n == 0 && M.pending && strcmp(M.pending_class, refusal) == 0 && read_by_rule(b, 0, 0) &&
         all_eq(cvs->data, 4 * (cvs_off + 8 * room), 0x77);
  } else {
    ok = !M.pending && n >= 0 && (size_t)n <= room && read_by_rule(b, pad, direct ? 0 : len) &&
         all_eq(cvs->data, 4 * cvs_off, 0x77);
    if (ok) memcpy(got, (uint32_t *)cvs->data + cvs_off, 32 * (size_t)n);
  }
  M.pending = 0;
  FREE(in, k, cvs);
  return ok ? n : -1;
}

/* rootOutput of the node into an output array with a random number of bytes before the result;
 * 1 when no exception is left, no byte[] was read and the bytes before the output are untouched. */
static int root_output(int isa, const uint32_t cv[8], const uint32_t block[16], int block_len, int flags,
                       uint64_t pos, size_t out_len, uint8_t *result) {
  const size_t opad = below(33);
  mobj *c = ints_obj(cv, 8), *b = ints_obj(block, 16), *o = bytes_obj(opad + out_len, 0x3C);
  const counts before = snap();
  N.root_output(&g_env, NULL, isa, c, b, block_len, flags, (jlong)pos, o, (jint)opad, (jint)out_len);
  const int ok = !M.pending && read_by_rule(before, 0, 0) && all_eq(o->data, opad, 0x3C);
  memcpy(result, (uint8_t *)o->data + opad, out_len);
  M.pending = 0;
  FREE(c, b, o);
  return ok;
}

/* hashChunkAt of `len` bytes in a direct buffer of exactly max(len, 32) bytes (any past the input
 * a pattern that must not reach the hash) at the address address() gives, the hash to result; 1
 * when address() gave the buffer's, no exception is left, no byte[] was read, no byte past the
 * first 32 was written and, for a null key, no JNI call was made at all (the counting env). */
static int chunk_at(int isa, const uint8_t *in, size_t len, const uint32_t *key, int flags, uint8_t *result) {
  mobj *slot = bytes_obj(len < 32 ? 32 : len, 0xA5), *k = key ? ints_obj(key, 8) : NULL;
  memcpy(slot->data, in, len);
  slot->kind = K_DIRECT;
  const jlong at = N.address(&g_env, NULL, slot);
  const counts b = snap();
  const long stray = g_stray;
  N.chunk_at(key ? &g_env : &g_bare, NULL, isa, at, (jint)len, k, flags);
  const int ok = at == (jlong)(uintptr_t)slot->data && !M.pending && read_by_rule(b, 0, 0) && g_stray == stray &&
                 (len <= 32 || memcmp((uint8_t *)slot->data + 32, in + 32, len - 32) == 0);
  memcpy(result, slot->data, 32);
  M.pending = 0;
  FREE(slot, k);
  return ok;
}

/* hashParents of `count` blocks to got. variant 0: out is another array; 1: out is in, at the
 * same offset (one level reduced in place); 2: out is in, at a random offset before, over or
 * after the blocks. Every byte of the arrays outside the output range must stay as it was, and
 * the blocks are read by one copy of exactly their range. */
static int parents(int isa, int variant, const uint8_t *blocks, size_t count, const uint32_t *key, int flags,
                   uint8_t *got) {
  const size_t pad = below(40);
  mobj *in = input_at(blocks, 64 * count, pad), *k = key ? ints_obj(key, 8) : NULL, *out = in;
  size_t out_off;
  if (variant == 0) {
    out_off = below(33);
    out = bytes_obj(out_off + 32 * count + 3, 0x5A);
  } else { /* one array, written: 32 spare bytes after the blocks for an output shifted past them */
    in->input = 0;
    in->len = pad + 64 * count + 32;
    in->data = realloc(in->data, in->len);
    memset((uint8_t *)in->data + pad + 64 * count, 0xA5, 32);
    out_off = variant == 1 ? pad : below(pad + 32 * count + 33);
  }
  uint8_t *was = malloc(out->len);
  memcpy(was, out->data, out->len);
  const counts b = snap();
  N.parents(&g_env, NULL, isa, in, (jint)pad, (jint)count, k, flags, out, (jint)out_off);
  int ok = !M.pending && read_by_rule(b, pad, 64 * count);
  const uint8_t *o = (const uint8_t *)out->data;
  memcpy(got, o + out_off, 32 * count);
  ok &= memcmp(o, was, out_off) == 0 &&
        memcmp(o + out_off + 32 * count, was + out_off + 32 * count, out->len - out_off - 32 * count) == 0;
  M.pending = 0;
  if (in != out) free_obj(in);
  FREE(out, k);
  free(was);
  return ok;
}

/* ---- the checks -------------------------------------------------------------------------- */

static void key_words(const uint8_t k[32], uint32_t w[8]) {
  for (int i = 0; i < 8; i++) w[i] = blake3_load32(k + 4 * i);
}

static int unhex(const char *h, uint8_t *out, size_t n) {
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    if (sscanf(h + 2 * i, "%2x", &v) != 1) return 0;
    out[i] = (uint8_t)v;
  }
  return 1;
}

/* The official vectors, every mode, through hashOneShot: the whole 131 bytes (more than the 64
 * kept on the stack), 60 bytes at seek 37 and the first 32 (the stack buffer, and the root
 * compression's own CV); those of up to a chunk also through hashChunkAt. Every fourth vector
 * also once from seek 37 for 64 KiB + 100 bytes: the first bytes are the vector's, and the bytes
 * around the end of the first 64 KiB slice those of a short call there. */
static void test_vectors(const char *path) {
  FILE *f = fopen(path, "r");
  if (f == NULL) {
    check(0, "cannot open %s", path);
    return;
  }
  static char line[4096];
  uint32_t key[8], ctx_key[8];
  key_words((const uint8_t *)"whats the Elvish word for friend", key);
  const char *context = "BLAKE3 2019-12-27 16:29:52 test vectors context";
  uint8_t *input = malloc(200000), *longer = malloc(OUT_SLICE + 100);
  for (int t = 0; t < g_nisas; t++) {
    const int isa = g_isas[t];
    long before = g_fail, index = 0;
    uint8_t ck[32];
    check(oneshot(isa, (const uint8_t *)context, strlen(context), 0, NULL, DERIVE_KEY_CONTEXT, 0, 32, 0, ck),
          "context key");
    key_words(ck, ctx_key);
    rewind(f);
    while (fgets(line, sizeof line, f) != NULL) {
      if (line[0] == '#' || line[0] == '\n') continue;
      char hh[300], kh[300], dh[300];
      size_t n;
      uint8_t want[3][VECTOR_OUT], got[VECTOR_OUT];
      if (sscanf(line, "%zu %299s %299s %299s", &n, hh, kh, dh) != 4 || n > 200000 || !unhex(hh, want[0], VECTOR_OUT) ||
          !unhex(kh, want[1], VECTOR_OUT) || !unhex(dh, want[2], VECTOR_OUT)) {
        check(0, "bad vector line: %.40s", line);
        continue;
      }
      for (size_t i = 0; i < n; i++) input[i] = (uint8_t)(i % 251);
      const uint32_t *keys[3] = {NULL, key, ctx_key};
      for (int m = 0; m < 3; m++) {
        const size_t pad = (n + (size_t)m) % 9;
        int ok = oneshot(isa, input, n, pad, keys[m], MODES[m], 0, VECTOR_OUT, pad, got);
        check(ok && memcmp(got, want[m], VECTOR_OUT) == 0, "%s vector len=%zu mode=%d", ISA_NAMES[isa], n, m);
        ok = oneshot(isa, input, n, 3, keys[m], MODES[m], 37, 60, 1, got);
        check(ok && memcmp(got, want[m] + 37, 60) == 0, "%s vector len=%zu mode=%d seek=37", ISA_NAMES[isa], n, m);
        ok = oneshot(isa, input, n, 1, keys[m], MODES[m], 0, 32, 2, got);
        check(ok && memcmp(got, want[m], 32) == 0, "%s vector len=%zu mode=%d 32 bytes", ISA_NAMES[isa], n, m);
        if (n <= 1024) {
          ok = chunk_at(isa, input, n, keys[m], MODES[m], got);
          check(ok && memcmp(got, want[m], 32) == 0, "%s vector len=%zu mode=%d hashChunkAt", ISA_NAMES[isa], n, m);
        }
      }
      if (index++ % 4 == 0) {
        const int m = (int)(n % 3);
        int ok = oneshot(isa, input, n, 2, keys[m], MODES[m], 37, OUT_SLICE + 100, 5, longer);
        ok &= oneshot(isa, input, n, 0, keys[m], MODES[m], 37 + OUT_SLICE - 30, 130, 0, got);
        ok &= memcmp(longer, want[m] + 37, VECTOR_OUT - 37) == 0 && memcmp(longer + OUT_SLICE - 30, got, 130) == 0;
        check(ok, "%s vector len=%zu mode=%d: 64 KiB + 100 bytes from seek 37", ISA_NAMES[isa], n, m);
      }
    }
    printf("  [%-8s] vectors through hashOneShot and hashChunkAt: %s\n", ISA_NAMES[isa],
           g_fail == before ? "ok" : "FAILED");
  }
  free(input);
  free(longer);
  fclose(f);
}

static uint8_t g_pool[600 * 1024 + 64]; /* random input for the random cases */

static uint64_t rnd_counter(void) {
  switch (rnd() % 4) {
    case 0: return below(5000);
    case 1: return (1ULL << 32) - 1 - below(300);
    case 2: return rnd() >> 20;
    default: return 0;
  }
}

/* Whether the subtrees of `chunks` chunks of at most 2^max_log each fit in one call's values, as
 * JNI.md states the bound (else IllegalArgumentException). */
static int subtrees_fit(uint64_t chunks, int max_log) {
  return max_log >= 32 || (chunks >> max_log) + 2 * (uint64_t)max_log < MAX_VALUES;
}

/* hashSubtrees and hashSubtreesDirect of every ISA on random cases against the portable ISA:
 * inputs copied onto the stack (up to 16 chunks), into a malloc'd buffer (17..64 chunks, 64 the
 * last copied) and pinned (65 chunks and more). With a maxLog limit, the reference is the
 * portable ISA without one on the aligned pieces of 2^maxLog chunks (the same subtrees by another
 * road); a case whose values could pass MAX_VALUES must be refused. */
static void test_subtrees(int rounds) {
  static uint32_t want[8 * MAX_VALUES], got[8 * MAX_VALUES];
  long before = g_fail, refused = 0;
  for (int r = 0; r < rounds; r++) {
    uint64_t chunks;
    switch (r % 4) {
      case 0: chunks = 1 + below(16); break;
      case 1: chunks = r % 8 == 1 ? 64 : 17 + below(48); break;
      case 2: chunks = r % 8 == 2 ? 65 : 65 + below(200); break;
      default: chunks = 1 + below(600); break;
    }
    const size_t len = (size_t)chunks * 1024;
    const uint8_t *p = g_pool + below(64);
    const uint64_t counter = rnd_counter();
    const int flags = (int[]){0, KEYED_HASH, DERIVE_KEY_CONTEXT, DERIVE_KEY_MATERIAL}[rnd() % 4];
    const int max_log = r % 3 == 0 ? 63 : (int)below(11);
    uint32_t kw[8];
    for (int i = 0; i < 8; i++) kw[i] = (uint32_t)rnd();
    const uint32_t *key = flags == 0 && (rnd() & 1) ? NULL : kw;
    if (!subtrees_fit(chunks, max_log)) {
      for (int direct = 0; direct < 2; direct++)
        check(subtrees(g_isas[g_nisas - 1], direct, p, len, key, counter, flags, max_log, MAX_VALUES, got, IAE) == 0,
              "hashSubtrees%s refuses chunks=%" PRIu64 " maxLog=%d", direct ? "Direct" : "", chunks, max_log);
      refused++;
      continue;
    }
    long want_n = 0;
    if (max_log == 63) {
      want_n = subtrees(0, 0, p, len, key, counter, flags, 63, MAX_VALUES, want, NULL);
    } else {
      const uint64_t cap = 1ULL << max_log;
      for (uint64_t done = 0; done < chunks && want_n >= 0;) {
        uint64_t piece = cap - (counter + done) % cap;
        if (piece > chunks - done) piece = chunks - done;
        long n = subtrees(0, 0, p + done * 1024, (size_t)piece * 1024, key, counter + done, flags, 63,
                          MAX_VALUES - (size_t)want_n, want + 8 * want_n, NULL);
        want_n = n < 0 ? -1 : want_n + n;
        done += piece;
      }
    }
    check(want_n > 0, "portable hashSubtrees chunks=%" PRIu64 " counter=%" PRIu64 " maxLog=%d", chunks, counter,
          max_log);
    if (want_n <= 0) continue;
    for (int t = 0; t < g_nisas; t++) {
      for (int direct = 0; direct < 2; direct++) {
        long n = subtrees(g_isas[t], direct, p, len, key, counter, flags, max_log, (size_t)want_n, got, NULL);
        check(n == want_n && memcmp(got, want, 32 * (size_t)n) == 0,
              "%s hashSubtrees%s chunks=%" PRIu64 " counter=%" PRIu64 " flags=%d maxLog=%d: %ld values, want %ld",
              ISA_NAMES[g_isas[t]], direct ? "Direct" : "", chunks, counter, flags, max_log, n, want_n);
      }
    }
  }
  printf("  hashSubtrees{,Direct}, %d random cases (%ld refused) x %d ISAs: %s\n", rounds, refused, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* rootOutput of every ISA: half the cases the node of a message of one block (key as CV, its
 * bytes as the block, CHUNK_START | CHUNK_END), against hashOneShot of the message at the same
 * seek; half any node (flags without ROOT, which the glue adds), against the portable ISA.
 * Outputs on the stack (up to 64 bytes), in one buffer, and in two 64 KiB slices. */
static void test_root_output(int rounds) {
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    uint8_t msg[64];
    uint32_t cv[8], block[16];
    int block_len, flags;
    for (int i = 0; i < 8; i++) cv[i] = (uint32_t)rnd();
    for (int i = 0; i < 64; i++) msg[i] = (uint8_t)rnd();
    if (r % 2 == 0) {
      block_len = (int)below(65);
      memset(msg + block_len, 0, (size_t)(64 - block_len));
      flags = MODES[r / 2 % 3];
      if (flags == 0) memcpy(cv, blake3_iv, 32);
    } else {
      block_len = (int)below(65);
      flags = (int)(rnd() & 0x77);
    }
    for (int i = 0; i < 16; i++) block[i] = blake3_load32(msg + 4 * i);
    uint64_t pos;
    switch (rnd() % 3) {
      case 0: pos = below(5000); break;
      case 1: pos = ((1ULL << 32) - below(40)) * 64 + below(64); break;
      default: pos = rnd() >> 2; break;
    }
    const size_t out_len = r % 7 == 0 ? OUT_SLICE + 1 + below(3000) : 1 + below(600);
    uint8_t *want = malloc(out_len), *got = malloc(out_len);
    int ok = r % 2 == 0 ? oneshot(0, msg, (size_t)block_len, 0, flags ? cv : NULL, flags, pos, out_len, 0, want)
                        : root_output(0, cv, block, block_len, flags, pos, out_len, want);
    check(ok, "reference for rootOutput case %d", r);
    if (r % 2 == 0) flags |= CHUNK_START | CHUNK_END;
    for (int t = 0; t < g_nisas; t++) {
      ok = root_output(g_isas[t], cv, block, block_len, flags, pos, out_len, got);
      check(ok && memcmp(got, want, out_len) == 0, "%s rootOutput pos=%" PRIu64 " len=%zu%s", ISA_NAMES[g_isas[t]],
            pos, out_len, r % 2 == 0 ? " (as hashOneShot)" : "");
    }
    free(want);
    free(got);
  }
  printf("  rootOutput, %d random cases x %d ISAs: %s\n", rounds, g_nisas, g_fail == before ? "ok" : "FAILED");
}

/* hashMany of every ISA: a window [from, from + count) of messages in any
 * order, overlapping or not, each hash as hashOneShot gives it, nothing written outside
 * out[opad, opad + 32 count). Half the rounds keep the messages inside 64 KiB of the array (its
 * span copied in, exactly), half spread them over all of it (pinned). count 0 touches nothing. */
static void test_hash_many(int rounds) {
  enum { DATA = 160 * 1024 };
  static uint8_t data[DATA], want[32 * MAX_BATCH];
  static int32_t offs[MAX_BATCH + 2], lens[MAX_BATCH + 2];
  for (size_t i = 0; i < DATA; i++) data[i] = (uint8_t)rnd();
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    const size_t count = r % 4 == 0 ? MAX_BATCH - below(2) : 1 + below(40), from = below(3);
    const int spread = r % 2;
    const size_t base = spread ? 0 : below(DATA - COPY_LEN), span = spread ? DATA : COPY_LEN;
    const size_t max_len = (size_t[]){130, 2100, 8200}[r / 2 % 3];
    for (size_t i = 0; i < from + count; i++) {
      lens[i] = (int32_t)below(max_len + 1);
      offs[i] = (int32_t)(base + below(span - (size_t)lens[i] + 1));
    }
    if (spread && count > 1) { /* two messages near the ends of the array, at random places in the window */
      const size_t a = from + below(count), z = from + (a - from + 1 + below(count - 1)) % count;
      offs[a] = (int32_t)below(100);
      offs[z] = (int32_t)(DATA - (size_t)lens[z] - below(100));
    }
    int64_t lo = INT64_MAX, hi = 0;
    for (size_t i = from; i < from + count; i++) {
      if (offs[i] < lo) lo = offs[i];
      if (offs[i] + lens[i] > hi) hi = offs[i] + lens[i];
    }
    const int flags = MODES[r % 3];
    uint32_t kw[8];
    for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
    const int null_key = flags == 0 && (r & 4);
    int ok = 1;
    for (size_t i = 0; i < count; i++)
      ok &= oneshot(0, data + offs[from + i], (size_t)lens[from + i], 0, kw, flags, 0, 32, 0, want + 32 * i);
    check(ok, "hashMany reference, round %d", r);
    for (int t = 0; t < g_nisas; t++) {
      const size_t opad = below(5);
      mobj *d = input_at(data, DATA, 0), *k = null_key ? NULL : ints_obj(kw, 8);
      mobj *o = ints_obj((const uint32_t *)offs, from + count), *l = ints_obj((const uint32_t *)lens, from + count);
      mobj *out = bytes_obj(opad + 32 * count + 3, 0x5A);
      const counts b = snap();
      N.many(&g_env, NULL, g_isas[t], d, o, l, (jint)from, (jint)count, k, flags, out, (jint)opad);
      const uint8_t *res = (const uint8_t *)out->data;
      ok = !M.pending && read_by_rule(b, (size_t)lo, (size_t)(hi - lo)) && all_eq(res, opad, 0x5A) &&
           all_eq(res + opad + 32 * count, 3, 0x5A) && memcmp(res + opad, want, 32 * count) == 0;
      check(ok, "%s hashMany round %d: %zu messages from %zu over [%" PRId64 ", %" PRId64 ")", ISA_NAMES[g_isas[t]], r,
            count, from, lo, hi);
      if (t == 0) { /* no messages: nothing read, nothing written */
        N.many(&g_env, NULL, g_isas[t], d, o, l, (jint)from, 0, k, flags, out, (jint)opad);
        check(!M.pending && read_by_rule(b, (size_t)lo, (size_t)(hi - lo)) && memcmp(res + opad, want, 32 * count) == 0,
              "hashMany of 0 messages touches nothing");
      }
      M.pending = 0;
      FREE(d, k, o, l, out);
    }
  }
  printf("  hashMany, %d rounds x %d ISAs: %s\n", rounds, g_nisas, g_fail == before ? "ok" : "FAILED");
}

/* hashParents of every ISA: in half the rounds the blocks are pairs of chunk CVs (hashSubtrees
 * with maxLog 0), whose parents must be the subtrees of two chunks (maxLog 1); in the others any
 * bytes, against the portable ISA on separate arrays. Each time out on another array, out == in
 * at the same offset, and out at a random offset in in. */
static void test_hash_parents(int rounds) {
  static uint8_t blocks[64 * MAX_BATCH], want[32 * MAX_BATCH], got[32 * MAX_BATCH];
  static uint32_t words[8 * MAX_VALUES];
  long before = g_fail;
  for (int r = 0; r < rounds; r++) {
    const int as_chunks = r % 2 == 1;
    const size_t count = as_chunks ? 1 + below(63) : r % 4 == 0 ? MAX_BATCH : 1 + below(100);
    const int flags = MODES[r % 3];
    uint32_t kw[8];
    for (int i = 0; i < 8; i++) kw[i] = flags == 0 ? blake3_iv[i] : (uint32_t)rnd();
    const uint32_t *key = flags == 0 && (r & 4) ? NULL : kw;
    int ok = 1;
    if (as_chunks) {
      const uint64_t counter = 2 * below(1u << 20) + (r & 2 ? 1ULL << 32 : 0);
      ok &= subtrees(0, 0, g_pool, 2048 * count, key, counter, flags, 0, 2 * count, words, NULL) == (long)(2 * count);
      for (size_t i = 0; i < 16 * count; i++) blake3_store32(blocks + 4 * i, words[i]);
      ok &= subtrees(0, 0, g_pool, 2048 * count, key, counter, flags, 1, count, words, NULL) == (long)count;
      for (size_t i = 0; i < 8 * count; i++) blake3_store32(want + 4 * i, words[i]);
    } else {
      for (size_t i = 0; i < 64 * count; i++) blocks[i] = (uint8_t)rnd();
      ok &= parents(0, 0, blocks, count, key, flags, want);
    }
    check(ok, "hashParents reference, round %d", r);
    for (int t = 0; t < g_nisas; t++) {
      for (int variant = 0; variant < 3; variant++) {
        ok = parents(g_isas[t], variant, blocks, count, key, flags, got);
        check(ok && memcmp(got, want, 32 * count) == 0, "%s hashParents of %zu%s, out %s", ISA_NAMES[g_isas[t]],
              count, as_chunks ? " chunk pairs" : "", (const char *[]){"apart", "== in", "over in"}[variant]);
      }
    }
  }
  printf("  hashParents, %d rounds x %d ISAs, out apart and over in: %s\n", rounds, g_nisas,
         g_fail == before ? "ok" : "FAILED");
}

/* hashChunkAt of every ISA, every length 0..1024 and every mode (the plain hash with a null key,
 * keyed, derive-key material), each the hash hashOneShot gives on the same ISA and on portable. */
static void test_chunk_at(void) {
  long before = g_fail;
  uint32_t kw[8];
  for (size_t len = 0; len <= 1024; len++) {
    const uint8_t *p = g_pool + below(64);
    for (int m = 0; m < 3; m++) {
      for (int i = 0; i < 8; i++) kw[i] = (uint32_t)rnd();
      uint8_t want[32], one[32], got[32];
      check(oneshot(0, p, len, 0, m ? kw : NULL, MODES[m], 0, 32, 0, want), "hashChunkAt reference len=%zu", len);
      for (int t = 0; t < g_nisas; t++) {
        int ok = oneshot(g_isas[t], p, len, 0, m ? kw : NULL, MODES[m], 0, 32, 0, one) && memcmp(one, want, 32) == 0;
        ok &= chunk_at(g_isas[t], p, len, m ? kw : NULL, MODES[m], got) && memcmp(got, want, 32) == 0;
        check(ok, "%s hashChunkAt len=%zu mode=%d", ISA_NAMES[g_isas[t]], len, m);
      }
    }
  }
  printf("  hashChunkAt, lengths 0..1024 x 3 modes x %d ISAs: %s\n", g_nisas, g_fail == before ? "ok" : "FAILED");
}

/* A call that must leave exactly the exception cls and nothing pinned; named by its own text. */
#define EXPECT(cls, call)         \
  do {                            \
    call;                         \
    expect_exception(#call, cls); \
  } while (0)

static void test_error_paths(void) {
  long before = g_fail;
  enum { BIG = COPY_LEN + 1024 }; /* an input that is pinned */
  uint8_t *data = malloc(BIG), a[32], b[32];
  for (size_t i = 0; i < BIG; i++) data[i] = (uint8_t)i;
  uint32_t w[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8 * MAX_VALUES];
  mobj *big = input_at(data, BIG, 0), *small = input_at(data, 4096, 0), *out = bytes_obj(64, 0);
  mobj *key = ints_obj(w, 8), *short_key = ints_obj(w, 7), *cvs = ints_obj(NULL, 8 * MAX_VALUES);
  mobj *heap = input_at(data, 4096, 0), *direct = direct_at(data, 4096, 0), *tiny = ints_obj(w, 1);
  heap->kind = K_HEAPBUF;
  mobj *block = ints_obj(NULL, 16), *short_block = ints_obj(NULL, 15);
  mobj *lens = ints_obj(NULL, 300), *offs = ints_obj(NULL, 300), *many = bytes_obj(32 * 300, 0);
  memset(block->data, 0, 64);
  memset(lens->data, 0, 4 * 300);
  memset(offs->data, 0, 4 * 300);
  ((int32_t *)lens->data)[1] = BIG - 10; /* messages 0 and 1 span more than 64 KiB */

  /* the pin of an input over 64 KiB fails; one of 64 KiB is copied, so the failure waits */
  M.fail_next_pin = 1;
  check(oneshot(0, data, COPY_LEN, 0, NULL, 0, 0, 32, 0, a) && M.fail_next_pin, "64 KiB copied, not pinned");
  EXPECT(OOME, N.oneshot(&g_env, NULL, 0, big, 0, BIG, key, 0, 0, out, 0, 64));
  M.fail_next_pin = 1;
  EXPECT(OOME, check(N.subtrees(&g_env, NULL, 0, big, 0, BIG, key, 0, 0, 63, cvs, 0) == 0, "returns 0"));
  M.fail_next_pin = 1;
  EXPECT(OOME, N.many(&g_env, NULL, 0, big, offs, lens, 0, 2, NULL, 0, many, 0));
  M.fail_next_pin = 0;
  /* a copy past the end of the array (Java checks, but the JVM would throw): stack and malloc'd buffers */
  EXPECT(AIOOBE, N.subtrees(&g_env, NULL, 0, small, 1024, 4096, NULL, 0, 0, 63, cvs, 0));
  EXPECT(AIOOBE, N.oneshot(&g_env, NULL, 0, big, 1025, COPY_LEN, NULL, 0, 0, out, 0, 32));
  /* int[] arguments too short: GetIntArrayRegion throws, and no JNI call follows but the
   * exception-safe ones (the lengths are not read after the offsets threw) */
  EXPECT(AIOOBE, N.oneshot(&g_env, NULL, 0, big, 0, BIG, short_key, 0, 0, out, 0, 64));
  EXPECT(AIOOBE, N.subtrees(&g_env, NULL, 0, big, 0, BIG, short_key, 0, 0, 63, cvs, 0));
  EXPECT(AIOOBE, N.subtrees_direct(&g_env, NULL, 0, direct, 0, 4096, short_key, 0, 0, 63, cvs, 0));
  EXPECT(AIOOBE, N.many(&g_env, NULL, 0, big, offs, lens, 0, 2, short_key, 16, many, 0));
  EXPECT(AIOOBE, N.many(&g_env, NULL, 0, small, tiny, lens, 0, 2, NULL, 0, many, 0));
  EXPECT(AIOOBE, N.parents(&g_env, NULL, 0, small, 0, 4, short_key, 0, out, 0));
  EXPECT(AIOOBE, N.root_output(&g_env, NULL, 0, short_key, block, 64, 0, 0, out, 0, 64));
  EXPECT(AIOOBE, N.root_output(&g_env, NULL, 0, key, short_block, 64, 0, 0, out, 0, 64));
  /* a heap buffer where a direct one is expected */
  EXPECT(IAE, N.subtrees_direct(&g_env, NULL, 0, heap, 0, 4096, key, 0, 0, 63, cvs, 0));
  EXPECT(IAE, check(N.address(&g_env, NULL, heap) == 0, "address of a heap buffer: 0"));
  EXPECT(IAE, check(N.address(&g_env, NULL, NULL) == 0, "address of null: 0"));
  /* hashChunkAt: a length outside 0..1024 or address 0 refused before the key is read, a short
   * key throwing: nothing written */
  const jlong at = N.address(&g_env, NULL, direct);
  EXPECT(IAE, N.chunk_at(&g_env, NULL, 0, at, -1, NULL, 0));
  EXPECT(IAE, N.chunk_at(&g_env, NULL, 0, at, 1025, short_key, KEYED_HASH));
  EXPECT(IAE, N.chunk_at(&g_env, NULL, 0, 0, 32, NULL, 0));
  EXPECT(AIOOBE, N.chunk_at(&g_env, NULL, 0, at, 64, short_key, KEYED_HASH));
  check(memcmp(direct->data, data, 4096) == 0, "refused hashChunkAt calls write nothing");
  /* more than 256 messages or parents, or fewer than 0: nothing read, nothing written */
  EXPECT(IAE, N.many(&g_env, NULL, 0, small, offs, lens, 0, MAX_BATCH + 1, NULL, 0, many, 0));
  EXPECT(IAE, N.many(&g_env, NULL, 0, small, offs, lens, 0, -1, NULL, 0, many, 0));
  EXPECT(IAE, N.parents(&g_env, NULL, 0, big, 0, MAX_BATCH + 1, NULL, 0, many, 0));
  EXPECT(IAE, N.parents(&g_env, NULL, 0, big, 0, -1, NULL, 0, many, 0));
  check(all_eq(many->data, 32 * 300, 0), "failed hashMany and hashParents calls write nothing");
  /* maxLog outside 0..63, or more values than one call returns (JNI.md's bound): refused before
   * anything is read; just inside the bound, accepted */
  static const struct {
    uint64_t chunks;
    int max_log, ok;
  } limits[] = {{1, -1, 0},   {1, 64, 0},   {4, INT32_MIN, 0}, {128, 0, 1}, {129, 0, 0},
                {1920, 4, 1}, {1936, 4, 0}, {2, 63, 1},        {64, 32, 1}, {64, 31, 1}};
  uint8_t *chunks = calloc(1936, 1024);
  for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
    for (int d = 0; d < 2; d++) {
      const long n = subtrees(0, d, chunks, (size_t)limits[i].chunks * 1024, NULL, 0, 0, limits[i].max_log,
                              MAX_VALUES, got, limits[i].ok ? NULL : IAE);
      check(limits[i].ok ? n > 0 : n == 0, "hashSubtrees%s of %" PRIu64 " chunks, maxLog %d: %s (%ld)",
            d ? "Direct" : "", limits[i].chunks, limits[i].max_log, limits[i].ok ? "accepted" : "refused", n);
    }
  }
  free(chunks);
  /* an output array too short: the first copy out throws, and no JNI call follows it (the mock
   * counts any as a broken rule), however many slices are left */
  EXPECT(AIOOBE, N.oneshot(&g_env, NULL, 0, small, 0, 4096, NULL, 0, 0, out, 0, 3 * OUT_SLICE));
  EXPECT(AIOOBE, N.root_output(&g_env, NULL, 0, key, block, 64, 0, 0, out, 0, 3 * OUT_SLICE));
  EXPECT(AIOOBE, N.subtrees(&g_env, NULL, 0, small, 0, 4096, NULL, 0, 0, 63, tiny, 0));
  /* output length 0 or less: nothing is touched, not even the (null) arrays */
  N.oneshot(&g_env, NULL, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0);
  N.oneshot(&g_env, NULL, 0, NULL, 0, 0, NULL, 0, 0, NULL, 0, -1);
  N.root_output(&g_env, NULL, 0, NULL, NULL, 0, 0, 0, NULL, 0, 0);
  check(!M.pending && M.critical == 0, "out_len <= 0 calls return at once");
  /* an ISA number selectIsa never returns: the glue falls back to portable, no crash */
  check(oneshot(0, data, 3000, 0, NULL, 0, 0, 32, 0, a) && oneshot(999, data, 3000, 0, NULL, 0, 0, 32, 0, b) &&
            memcmp(a, b, 32) == 0 && oneshot(0, data, 1000, 0, NULL, 0, 0, 32, 0, a) &&
            chunk_at(-5, data, 1000, NULL, 0, b) && memcmp(a, b, 32) == 0,
        "an unknown ISA number runs the portable kernel");
  check(N.select_isa(&g_env, NULL, 999) == -1 && N.select_isa(&g_env, NULL, -1) >= 0, "selectIsa range");
  FREE(big, small, out, key, short_key, cvs, heap, direct, tiny, block, short_block, lens, offs, many);
  free(data);
  printf("  error paths (failed pins, short arrays, heap buffers, refused arguments, bad ISA): %s\n",
         g_fail == before ? "ok" : "FAILED");
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
  check(onload(&g_vm, NULL) == JNI_ERR && !M.pending, "JNI_OnLoad: JNI_ERR, nothing pending, for a missing class");
  M.fail_find_class = 0;
  M.fail_register = 1;
  check(onload(&g_vm, NULL) == JNI_ERR && !M.pending, "JNI_OnLoad: JNI_ERR, nothing pending, RegisterNatives failed");
  M.fail_register = 0;
  g_getenv_fails = 1;
  check(onload(&g_vm, NULL) == JNI_ERR, "JNI_OnLoad returns JNI_ERR when GetEnv fails");
  g_getenv_fails = 0;
  /* last: the default name, whose registration the rest of the run uses */
  check(onload(&g_vm, NULL) == JNI_VERSION_1_6 && strcmp(M.found_class, "io/github/blake3fast/NativeBlake3") == 0,
        "JNI_OnLoad binds io.github.blake3fast.NativeBlake3 by default (got %s)", M.found_class);
  printf("  JNI_OnLoad (default, shaded, too long, empty, missing class, RegisterNatives fails, no env): %s\n",
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
  mobj *fdo = new_obj(K_FD, 0, 1), *out = ints_obj(NULL, 8 * MAX_VALUES);
  fdo->fd = f != NULL ? _fileno(f) : 3;
  for (int t = 0; t < g_nisas; t++)
    check(N.mapped(&g_env, NULL, g_isas[t], fdo, 0, 1024, NULL, 0, 0, out, 0) == -1 && !M.pending,
          "hashMapped on Windows (%s): -1, unavailable", ISA_NAMES[g_isas[t]]);
  if (f != NULL) fclose(f);
  FREE(fdo, out);
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
  mobj *mapped = ints_obj(NULL, 8 * MAX_VALUES), *copied = ints_obj(NULL, 8 * MAX_VALUES);
  static const int64_t cases[][3] = {{0, 1 << 20, 0}, {4096, 1 << 20, 1024}, {1024, 2 << 20, 3}, {3 << 20, 5120, 77}};
  for (int t = 0; t < g_nisas; t++) {
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      const jlong pos = cases[c][0], counter = cases[c][2];
      const jint len = (jint)cases[c][1];
      jint n = N.mapped(&g_env, NULL, g_isas[t], fdo, pos, len, NULL, counter, 0, mapped, 0);
      jint m = N.subtrees(&g_env, NULL, g_isas[t], all, (jint)pos, len, NULL, counter, 0, 63, copied, 0);
      check(n == m && n > 0 && memcmp(mapped->data, copied->data, 32 * (size_t)n) == 0,
            "hashMapped %s case %zu: %d subtrees, as hashSubtrees (%d)", ISA_NAMES[g_isas[t]], c, (int)n, (int)m);
    }
  }
  check(ftruncate(fd, (1 << 20) + 100) == 0, "the mapped test's file is truncated");
  for (int i = 0; i < 3; i++) {
    jint n = N.mapped(&g_env, NULL, g_isas[g_nisas - 1], fdo, 0, 2 << 20, NULL, 0, 0, mapped, 0);
    check(n == -2 && !M.pending, "hashMapped past the end of a truncated file: -2 (got %d)", (int)n);
  }
  close(fd);
  fdo->fd = -1;
  check(N.mapped(&g_env, NULL, 0, fdo, 0, 1024, NULL, 0, 0, mapped, 0) == -1 && !M.pending,
        "hashMapped on a closed descriptor: -1");
  FREE(fdo, all, mapped, copied);
  free(data);
  printf("  hashMapped (every kernel, a truncated file, a closed descriptor): %s\n",
         g_fail == before ? "ok" : "FAILED");
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
  check(M.nmethods == NWANT, "%d natives registered", (int)M.nmethods);
  printf("JNI_OnLoad registered %d natives\n", (int)M.nmethods); /* LoaderMuslTest: NativeBlake3's count */
  for (size_t i = 0; i < NWANT; i++) { /* N's members, one pointer each, in WANT's order */
    void *fn = native_fn(WANT[i].name, WANT[i].sig);
    if (fn == NULL) {
      printf("%ld passed, %ld failed\n", g_pass, g_fail);
      return 1;
    }
    memcpy((char *)&N + i * sizeof fn, &fn, sizeof fn);
  }

  check(N.abi_version(&g_env, NULL) == 10, "abiVersion is 10");
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
  for (size_t i = 0; i < sizeof g_pool; i++) g_pool[i] = (uint8_t)rnd();

  test_vectors(argv[2]);
  test_subtrees(quick ? 16 : 80);
  test_root_output(quick ? 30 : 150);
  test_hash_many(quick ? 8 : 32);
  test_hash_parents(quick ? 8 : 40);
  test_chunk_at();
  test_error_paths();
  test_mapped();

  check(M.critical == 0 && M.pins == M.unpins, "every pin released once (%ld pins, %ld releases)", M.pins, M.unpins);
  check(M.violations == 0, "no JNI rule broken (%ld)", M.violations);
  printf("  %ld arrays pinned and released, %ld region copies, %ld JNI rule violations\n", M.pins, M.region_copies,
         M.violations);
  MOCK_DLCLOSE(lib);
  printf("%ld passed, %ld failed\n", g_pass, g_fail);
  return g_fail == 0 ? 0 : 1;
}
