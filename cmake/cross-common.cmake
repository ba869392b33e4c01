# Included by every cmake/toolchain-<arch>.cmake after it has set BLAKE3_CROSS_ARCH and its
# compiler. Linux target (Windows for the mingw-w64 one); the build's own programs (the C harness) run under qemu through
# CMAKE_CROSSCOMPILING_EMULATOR, so `ctest` works in a cross build tree.
#
# Hooks for native/CMakeLists.txt (all optional):
#   BLAKE3_TARGET_ARCH   x86_64 / aarch64 / ppc64le / riscv64 / loongarch64 / s390x
#   BLAKE3_JNI_INCLUDE_DIRS  the host JDK's include/ and include/linux/ (jni_md.h only picks
#                        jlong by _LP64, so the host's headers serve every 64-bit Linux target).
#                        JAVA_INCLUDE_PATH / JAVA_INCLUDE_PATH2 are preset too, so that
#                        find_path-based lookups (FindJNI) succeed in a cross build.
# cmake/toolchain-windows-x86_64.cmake sets BLAKE3_CROSS_SYSTEM to Windows first.
if(NOT BLAKE3_CROSS_SYSTEM)
  set(BLAKE3_CROSS_SYSTEM Linux)
endif()
set(CMAKE_SYSTEM_NAME ${BLAKE3_CROSS_SYSTEM})
set(CMAKE_SYSTEM_PROCESSOR ${BLAKE3_CROSS_ARCH})
set(BLAKE3_TARGET_ARCH ${BLAKE3_CROSS_ARCH} CACHE STRING "Target architecture of the native library")

# Never let find_* pick host libraries or headers for the target, but run host programs.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# The cache with downloaded sysroots and qemu 10 (platforms/setup.sh fills it).
if(DEFINED ENV{BLAKE3_CACHE} AND NOT "$ENV{BLAKE3_CACHE}" STREQUAL "")
  set(BLAKE3_CACHE_DIR "$ENV{BLAKE3_CACHE}")
else()
  set(BLAKE3_CACHE_DIR "/var/cache/blake3-fast")
endif()

# JNI headers from the host JDK: $JAVA_HOME, else the JDK that owns javac/java in PATH.
if(NOT BLAKE3_JNI_INCLUDE_DIRS)
  set(_b3_java_home "$ENV{JAVA_HOME}")
  if(NOT _b3_java_home OR NOT EXISTS "${_b3_java_home}/include/jni.h")
    find_program(_b3_javac NAMES javac java)
    if(_b3_javac)
      get_filename_component(_b3_javac "${_b3_javac}" REALPATH)
      get_filename_component(_b3_java_home "${_b3_javac}" DIRECTORY)
      get_filename_component(_b3_java_home "${_b3_java_home}" DIRECTORY)
    endif()
  endif()
  if(EXISTS "${_b3_java_home}/include/jni.h")
    # jni_md.h: the host JDK's for Linux targets; for Windows our own (native/include/win32).
    if(BLAKE3_CROSS_SYSTEM STREQUAL "Windows")
      get_filename_component(_b3_md "${CMAKE_CURRENT_LIST_DIR}/../native/include/win32" ABSOLUTE)
    else()
      set(_b3_md "${_b3_java_home}/include/linux")
    endif()
    set(BLAKE3_JNI_INCLUDE_DIRS "${_b3_java_home}/include;${_b3_md}" CACHE STRING "JNI headers (host JDK)")
    set(JAVA_INCLUDE_PATH "${_b3_java_home}/include" CACHE PATH "JNI headers")
    set(JAVA_INCLUDE_PATH2 "${_b3_md}" CACHE PATH "JNI machine headers")
    set(JAVA_AWT_INCLUDE_PATH "${_b3_java_home}/include" CACHE PATH "unused; keeps FindJNI quiet")
  endif()
endif()

# try_compile projects re-read this file: hand them the variables it depends on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BLAKE3_CROSS_ARCH BLAKE3_CROSS_SYSTEM BLAKE3_CACHE_DIR)
