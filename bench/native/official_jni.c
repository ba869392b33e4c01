/*
 * The official BLAKE3 C code (through official_shim.c's ab_oneshot, one ISA forced) for the JMH
 * anchor: the natives of io.github.blake3fast.bench.OfficialBlake3, which has checked every
 * offset and length before calling here.
 *
 * The input array is pinned with GetPrimitiveArrayCritical and released with JNI_ABORT, and the
 * 32-byte digest is written on the stack and copied out after the release: the same JNI calls as
 * blake3-fast's own pinning path for a one-shot with a short output (native/src/blake3_jni.c), so
 * that the two sides of the anchor pay the same way into and out of C. No other JNI call is made
 * while the array is pinned.
 */
#include <jni.h>
#include <stdint.h>

int ab_oneshot(const char *isa, const uint8_t *in, size_t len, uint8_t out[32]);

/* OfficialBlake3.ISAS, in the same order: the Java side passes an index into this table. */
static const char *const official_isas[] = {"portable", "sse2", "sse41", "avx2", "avx512"};
#define OFFICIAL_ISA_COUNT ((jint)(sizeof(official_isas) / sizeof(official_isas[0])))

/* 0, or -1 when the ISA index is unknown, this CPU lacks the ISA, or the array cannot be pinned
 * (the caller throws). */
JNIEXPORT jint JNICALL Java_io_github_blake3fast_bench_OfficialBlake3_hash0(
    JNIEnv *env, jclass cls, jint isa, jbyteArray in, jint off, jint len, jbyteArray out) {
  (void)cls;
  if (isa < 0 || isa >= OFFICIAL_ISA_COUNT) return -1;
  uint8_t digest[32];
  int rc;
  if (len == 0) {
    rc = ab_oneshot(official_isas[isa], NULL, 0, digest);
  } else {
    uint8_t *p = (uint8_t *)(*env)->GetPrimitiveArrayCritical(env, in, NULL);
    if (p == NULL) return -1;
    rc = ab_oneshot(official_isas[isa], p + off, (size_t)len, digest);
    (*env)->ReleasePrimitiveArrayCritical(env, in, p, JNI_ABORT);
  }
  if (rc != 0) return -1;
  (*env)->SetByteArrayRegion(env, out, 0, 32, (const jbyte *)digest);
  return 0;
}

int ab_many(const char *isa, const uint8_t *data, const int32_t *offsets, const int32_t *lengths,
            size_t n, uint8_t *out);

/* Messages [0, n) of the packed arrays, one official hasher each, hashes to out[32 i]: all four
 * arrays pinned for the call (Java checked every range). 0, or -1 as hash0. */
JNIEXPORT jint JNICALL Java_io_github_blake3fast_bench_OfficialBlake3_hashMany0(
    JNIEnv *env, jclass cls, jint isa, jbyteArray data, jintArray offsets, jintArray lengths,
    jint n, jbyteArray out) {
  (void)cls;
  if (isa < 0 || isa >= OFFICIAL_ISA_COUNT) return -1;
  uint8_t *d = (*env)->GetPrimitiveArrayCritical(env, data, NULL);
  int32_t *o = d ? (*env)->GetPrimitiveArrayCritical(env, offsets, NULL) : NULL;
  int32_t *l = o ? (*env)->GetPrimitiveArrayCritical(env, lengths, NULL) : NULL;
  uint8_t *h = l ? (*env)->GetPrimitiveArrayCritical(env, out, NULL) : NULL;
  int rc = h ? ab_many(official_isas[isa], d, o, l, (size_t)n, h) : -1;
  if (h) (*env)->ReleasePrimitiveArrayCritical(env, out, h, 0);
  if (l) (*env)->ReleasePrimitiveArrayCritical(env, lengths, l, JNI_ABORT);
  if (o) (*env)->ReleasePrimitiveArrayCritical(env, offsets, o, JNI_ABORT);
  if (d) (*env)->ReleasePrimitiveArrayCritical(env, data, d, JNI_ABORT);
  return rc;
}
