/*
 * fake_jvm LIB CLASS EXPECTED_HEX
 *
 * Loads the JNI library with the C library's own dynamic loader (build this file with gcc for
 * glibc's, with musl-gcc for musl's), then plays the JVM: JNI_OnLoad gets a JavaVM whose
 * JNIEnv knows just enough (FindClass, System.getProperty answering CLASS for
 * blake3fast.jni.class, RegisterNatives, arrays, direct buffers) to bind and drive the
 * natives. For every ISA the library reports, it hashes 102400 bytes (byte i = i % 251) from an
 * array and from a "direct buffer", compares with EXPECTED_HEX (the official vector), and checks
 * hashSubtrees against the portable kernel. Prints one line per check; exit 0 only if all pass.
 *
 * Used by LoaderMuslTest. Written for this project; no JVM involved.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <jni.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct obj {
  const char *str; /* class name or string */
  void *data;      /* array elements or buffer address */
  size_t len;
};

static const char *wanted_class;
static struct obj the_class, system_class;
static JNINativeMethod *natives;
static int native_count;
static int failures;

static jclass JNICALL find_class(JNIEnv *env, const char *name) {
  (void)env;
  if (strcmp(name, "java/lang/System") == 0) return (jclass)&system_class;
  char want[512];
  size_t i = 0;
  for (; wanted_class[i] && i + 1 < sizeof want; i++) want[i] = wanted_class[i] == '.' ? '/' : wanted_class[i];
  want[i] = 0;
  if (strcmp(name, want) == 0) return (jclass)&the_class;
  printf("FindClass(%s): no such class (JNI_OnLoad wanted %s)\n", name, want);
  return NULL;
}

static jmethodID JNICALL get_static_method_id(JNIEnv *env, jclass c, const char *name, const char *sig) {
  (void)env;
  (void)c;
  (void)sig;
  return strcmp(name, "getProperty") == 0 ? (jmethodID)1 : NULL;
}

static jstring JNICALL new_string_utf(JNIEnv *env, const char *s) {
  (void)env;
  struct obj *o = calloc(1, sizeof *o);
  o->str = strdup(s);
  return (jstring)o;
}

static jobject JNICALL call_static_object_method(JNIEnv *env, jclass c, jmethodID m, ...) {
  (void)c;
  (void)m;
  va_list ap;
  va_start(ap, m);
  struct obj *key = va_arg(ap, struct obj *);
  va_end(ap);
  if (key != NULL && strcmp(key->str, "blake3fast.jni.class") == 0) return new_string_utf(env, wanted_class);
  return NULL;
}

static jboolean JNICALL exception_check(JNIEnv *env) {
  (void)env;
  return JNI_FALSE;
}

static void JNICALL exception_clear(JNIEnv *env) { (void)env; }

static const char *JNICALL get_string_utf_chars(JNIEnv *env, jstring s, jboolean *copy) {
  (void)env;
  if (copy) *copy = JNI_FALSE;
  return ((struct obj *)s)->str;
}

static void JNICALL release_string_utf_chars(JNIEnv *env, jstring s, const char *p) {
  (void)env;
  (void)s;
  (void)p;
}

static void JNICALL delete_local_ref(JNIEnv *env, jobject o) {
  (void)env;
  (void)o;
}

static jint JNICALL register_natives(JNIEnv *env, jclass c, const JNINativeMethod *m, jint n) {
  (void)env;
  if (c != (jclass)&the_class) return JNI_ERR;
  natives = malloc(sizeof *m * (size_t)n);
  memcpy(natives, m, sizeof *m * (size_t)n);
  native_count = n;
  return JNI_OK;
}

static void JNICALL get_int_array_region(JNIEnv *env, jintArray a, jsize start, jsize len, jint *buf) {
  (void)env;
  memcpy(buf, (jint *)((struct obj *)a)->data + start, sizeof(jint) * (size_t)len);
}

static void JNICALL set_int_array_region(JNIEnv *env, jintArray a, jsize start, jsize len, const jint *buf) {
  (void)env;
  memcpy((jint *)((struct obj *)a)->data + start, buf, sizeof(jint) * (size_t)len);
}

/* The glue copies a one-shot's short output out, and the copying methods their input in. */
static void JNICALL get_byte_array_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, jbyte *buf) {
  (void)env;
  memcpy(buf, (jbyte *)((struct obj *)a)->data + start, (size_t)len);
}

static void JNICALL set_byte_array_region(JNIEnv *env, jbyteArray a, jsize start, jsize len, const jbyte *buf) {
  (void)env;
  memcpy((jbyte *)((struct obj *)a)->data + start, buf, (size_t)len);
}

static void *JNICALL get_critical(JNIEnv *env, jarray a, jboolean *copy) {
  (void)env;
  if (copy) *copy = JNI_FALSE;
  return ((struct obj *)a)->data;
}

static void JNICALL release_critical(JNIEnv *env, jarray a, void *p, jint mode) {
  (void)env;
  (void)a;
  (void)p;
  (void)mode;
}

static void *JNICALL get_direct_buffer_address(JNIEnv *env, jobject b) {
  (void)env;
  return ((struct obj *)b)->data;
}

static jint JNICALL throw_new(JNIEnv *env, jclass c, const char *msg) {
  (void)env;
  (void)c;
  printf("exception thrown: %s\n", msg);
  failures++;
  return 0;
}

static struct JNINativeInterface_ functions;
static JNIEnv env_value = &functions;

static jint JNICALL get_env(JavaVM *vm, void **penv, jint version) {
  (void)vm;
  (void)version;
  *penv = &env_value;
  return JNI_OK;
}

static struct JNIInvokeInterface_ invoke;
static JavaVM vm_value = &invoke;

static void *native(const char *name, const char *sig) {
  for (int i = 0; i < native_count; i++)
    if (strcmp(natives[i].name, name) == 0 && strcmp(natives[i].signature, sig) == 0) return natives[i].fnPtr;
  printf("native %s%s not registered\n", name, sig);
  exit(1);
}

static void hex(const unsigned char *b, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", b[i]);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s LIB CLASS EXPECTED_HEX\n", argv[0]);
    return 2;
  }
  wanted_class = argv[2];
  functions.FindClass = find_class;
  functions.GetStaticMethodID = get_static_method_id;
  functions.NewStringUTF = new_string_utf;
  functions.CallStaticObjectMethod = call_static_object_method;
  functions.ExceptionCheck = exception_check;
  functions.ExceptionClear = exception_clear;
  functions.GetStringUTFChars = get_string_utf_chars;
  functions.ReleaseStringUTFChars = release_string_utf_chars;
  functions.DeleteLocalRef = delete_local_ref;
  functions.RegisterNatives = register_natives;
  functions.GetIntArrayRegion = get_int_array_region;
  functions.SetIntArrayRegion = set_int_array_region;
  functions.GetByteArrayRegion = get_byte_array_region;
  functions.SetByteArrayRegion = set_byte_array_region;
  functions.GetPrimitiveArrayCritical = get_critical;
  functions.ReleasePrimitiveArrayCritical = release_critical;
  functions.GetDirectBufferAddress = get_direct_buffer_address;
  functions.ThrowNew = throw_new;
  invoke.GetEnv = get_env;

  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (h == NULL) {
    printf("dlopen failed: %s\n", dlerror());
    return 1;
  }
  printf("dlopen ok\n");
  jint (*on_load)(JavaVM *, void *) = (jint(*)(JavaVM *, void *))dlsym(h, "JNI_OnLoad");
  if (on_load == NULL) {
    printf("dlsym JNI_OnLoad failed: %s\n", dlerror());
    return 1;
  }
  jint v = on_load(&vm_value, NULL);
  if (v != JNI_VERSION_1_6 || native_count == 0) {
    printf("JNI_OnLoad returned 0x%x, %d natives registered\n", (unsigned)v, native_count);
    return 1;
  }
  printf("JNI_OnLoad ok: %d natives registered on %s\n", native_count, wanted_class);

  JNIEnv *env = &env_value;
  jclass cls = (jclass)&the_class;
  jint abi = ((jint(*)(JNIEnv *, jclass))native("abiVersion", "()I"))(env, cls);
  jint isas = ((jint(*)(JNIEnv *, jclass))native("supportedIsas", "()I"))(env, cls);
  jint best = ((jint(*)(JNIEnv *, jclass, jint))native("selectIsa", "(I)I"))(env, cls, -1);
  printf("abi %d, isa bits 0x%x, best %d\n", (int)abi, (unsigned)isas, (int)best);

  typedef void (*oneshot_fn)(JNIEnv *, jclass, jint, jobject, jint, jint, jintArray, jint, jlong, jbyteArray, jint, jint);
  typedef jint (*subtrees_fn)(JNIEnv *, jclass, jint, jbyteArray, jint, jint, jintArray, jlong, jint, jintArray, jint);
  oneshot_fn oneshot = (oneshot_fn)native("hashOneShot", "(I[BII[IIJ[BII)V");
  oneshot_fn oneshot_direct = (oneshot_fn)native("hashOneShotDirect", "(ILjava/nio/ByteBuffer;II[IIJ[BII)V");
  subtrees_fn subtrees = (subtrees_fn)native("hashSubtrees", "(I[BII[IJI[II)I");
  typedef void (*block_fn)(JNIEnv *, jclass, jint, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jlong, jint, jlong,
                           jlong, jlong, jlong, jint, jlong);
  block_fn block = (block_fn)native("hashBlock", "(IJJJJJJJJIJJJJIJ)V");

  enum { N = 102400 };
  static unsigned char input[N], digest[32];
  static jint cvs[8 * 128], cvs0[8 * 128];
  for (int i = 0; i < N; i++) input[i] = (unsigned char)(i % 251);
  struct obj in = {0, input, N}, out = {0, digest, 32}, cv = {0, cvs, 8 * 128};
  char text[65];
  int count0 = -1;
  for (jint isa = 0; isa < 32; isa++) {
    if (!(isas & (1 << isa))) continue;
    memset(digest, 0, sizeof digest);
    oneshot(env, cls, isa, (jobject)&in, 0, N, NULL, 0, 0, (jbyteArray)&out, 0, 32);
    hex(digest, 32, text);
    int ok = strcmp(text, argv[3]) == 0;
    memset(digest, 0, sizeof digest);
    oneshot_direct(env, cls, isa, (jobject)&in, 0, N, NULL, 0, 0, (jbyteArray)&out, 0, 32);
    hex(digest, 32, text);
    ok &= strcmp(text, argv[3]) == 0;
    memset(cvs, 0, sizeof cvs);
    jint count = subtrees(env, cls, isa, (jbyteArray)&in, 0, 64 * 1024, NULL, 3, 0, (jintArray)&cv, 0);
    if (count0 < 0) {
      count0 = count;
      memcpy(cvs0, cvs, sizeof cvs);
    }
    ok &= count == count0 && memcmp(cvs, cvs0, sizeof cvs) == 0;
    /* the short-hash entry: 64 bytes as eight little-endian words, the IV as the key, into
     * plain memory; against the one-shot of the same 64 bytes */
    unsigned char want[32], got[32];
    struct obj out32 = {0, want, 32};
    oneshot(env, cls, isa, (jobject)&in, 0, 64, NULL, 0, 0, (jbyteArray)&out32, 0, 32);
    jlong m[8];
    for (int w = 0; w < 8; w++) {
      unsigned long long x = 0;
      for (int b = 7; b >= 0; b--) x = (x << 8) | input[8 * w + b];
      m[w] = (jlong)x;
    }
    static const unsigned long long iv[4] = {0xBB67AE856A09E667ULL, 0xA54FF53A3C6EF372ULL,
                                             0x9B05688C510E527FULL, 0x5BE0CD191F83D9ABULL};
    block(env, cls, isa, m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], 64, (jlong)iv[0], (jlong)iv[1],
          (jlong)iv[2], (jlong)iv[3], 0, (jlong)(uintptr_t)got);
    ok &= memcmp(got, want, 32) == 0;
    printf("isa %d: %s\n", (int)isa, ok ? "ok" : "WRONG");
    failures += !ok;
  }
  printf(failures ? "FAILED\n" : "all ok\n");
  return failures ? 1 : 0;
}
