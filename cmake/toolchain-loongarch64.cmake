# linux-loongarch64 with clang-19 + lld-19 (bookworm has no LoongArch gcc) against trixie's
# loong64 cross glibc, which platforms/setup.sh unpacks to $BLAKE3_CACHE/sysroot/loong64-cross
# (override with -DBLAKE3_LOONG64_SYSROOT=...).
#
# clang-19 turns LSX on by default for this target: the baseline here is -mno-lsx -mno-lasx so
# that the portable path contains no vector instruction. native/CMakeLists.txt adds -mlsx
# (and -mlasx) to the LSX file only; clang honours the last of -mno-lsx/-mlsx.
set(BLAKE3_CROSS_ARCH loongarch64)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)

if(NOT BLAKE3_LOONG64_SYSROOT)
  set(BLAKE3_LOONG64_SYSROOT "${BLAKE3_CACHE_DIR}/sysroot/loong64-cross")
endif()
if(NOT EXISTS "${BLAKE3_LOONG64_SYSROOT}/usr/loongarch64-linux-gnu/include/stdio.h")
  message(FATAL_ERROR "No loong64 sysroot at ${BLAKE3_LOONG64_SYSROOT}: run platforms/setup.sh "
                      "(or pass -DBLAKE3_LOONG64_SYSROOT=...)")
endif()
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES BLAKE3_LOONG64_SYSROOT)

set(CMAKE_C_COMPILER clang-19)
set(CMAKE_C_COMPILER_TARGET loongarch64-linux-gnu)
set(CMAKE_ASM_COMPILER clang-19)
set(CMAKE_ASM_COMPILER_TARGET loongarch64-linux-gnu)
set(CMAKE_SYSROOT "${BLAKE3_LOONG64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH "${BLAKE3_LOONG64_SYSROOT}/usr/loongarch64-linux-gnu")
set(CMAKE_C_FLAGS_INIT "--gcc-toolchain=${BLAKE3_LOONG64_SYSROOT}/usr -mno-lsx -mno-lasx")
set(CMAKE_ASM_FLAGS_INIT "--gcc-toolchain=${BLAKE3_LOONG64_SYSROOT}/usr")
foreach(kind EXE SHARED MODULE)
  set(CMAKE_${kind}_LINKER_FLAGS_INIT "-fuse-ld=lld")
endforeach()
find_program(BLAKE3_LOONG_AR NAMES llvm-ar-19 llvm-ar)
if(BLAKE3_LOONG_AR)
  set(CMAKE_AR "${BLAKE3_LOONG_AR}" CACHE FILEPATH "archiver")
endif()
find_program(BLAKE3_LOONG_RANLIB NAMES llvm-ranlib-19 llvm-ranlib)
if(BLAKE3_LOONG_RANLIB)
  set(CMAKE_RANLIB "${BLAKE3_LOONG_RANLIB}" CACHE FILEPATH "ranlib")
endif()

# qemu 10 (LSX) from trixie, unpacked by platforms/setup.sh; glibc's ld.so itself needs LSX.
set(CMAKE_CROSSCOMPILING_EMULATOR "${BLAKE3_CACHE_DIR}/qemu10/qemu-loongarch64" -cpu la464
    -L "${BLAKE3_LOONG64_SYSROOT}/usr/loongarch64-linux-gnu")
