/*
 * blake3-fast: the machine-dependent JNI definitions for Windows x86-64, for cross builds with
 * mingw-w64 (cmake/toolchain-windows-x86_64.cmake puts this directory after the host JDK's
 * include/). The Linux JDK this is built with ships only include/linux/jni_md.h, whose
 * JNIEXPORT is an ELF visibility attribute: a PE DLL exports what is marked dllexport instead,
 * and once anything is, the linker exports nothing else, so JNI_OnLoad stays the only export.
 *
 * The types must have the sizes the JVM's own headers give them on Win64 (LLP64): jint 32
 * bits (Windows JDKs spell it long, which is 32 bits there; int keeps the glue's int/jint
 * conversions warning-free), jlong 64 bits, jbyte signed. JNICALL is __stdcall, which x86-64
 * compilers accept and ignore: there is one calling convention.
 */
#ifndef BLAKE3FAST_WIN32_JNI_MD_H
#define BLAKE3FAST_WIN32_JNI_MD_H

#ifndef JNIEXPORT
#define JNIEXPORT __declspec(dllexport)
#endif
#ifndef JNIIMPORT
#define JNIIMPORT __declspec(dllimport)
#endif
#define JNICALL __stdcall

typedef int jint;
typedef long long jlong;
typedef signed char jbyte;

_Static_assert(sizeof(jint) == 4 && sizeof(jlong) == 8, "JNI sizes of the Win64 JDK");

#endif
