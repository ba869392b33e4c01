/*
 * JavaEngineTiming's native half: the official portable C one-shot (official.sh's library,
 * dlopened from $OFFICIAL_SO) callable from Java, so that one JVM times it beside the Java
 * engine, samples alternated. Arrays are pinned for the call; lengths are checked first.
 */
#include <dlfcn.h>
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>

typedef int (*oneshot_fn)(const char *, const uint8_t *, size_t, uint8_t *);
static oneshot_fn official;

JNIEXPORT jint JNICALL Java_io_github_blake3fast_JavaEngineTiming_officialPortable(JNIEnv *env, jclass cls,
                                                                                    jbyteArray in, jint len,
                                                                                    jbyteArray out) {
  (void)cls;
  if (official == NULL) {
    const char *path = getenv("OFFICIAL_SO");
    void *lib = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    official = lib ? (oneshot_fn)dlsym(lib, "ab_oneshot") : NULL;
    if (official == NULL) return -2;
  }
  if (len < 0 || (*env)->GetArrayLength(env, in) < len || (*env)->GetArrayLength(env, out) < 32) return -3;
  uint8_t *i = (*env)->GetPrimitiveArrayCritical(env, in, NULL);
  uint8_t *o = i ? (*env)->GetPrimitiveArrayCritical(env, out, NULL) : NULL;
  int r = o ? official("portable", i, (size_t)len, o) : -4;
  if (o) (*env)->ReleasePrimitiveArrayCritical(env, out, o, 0);
  if (i) (*env)->ReleasePrimitiveArrayCritical(env, in, i, JNI_ABORT);
  return r;
}
