# linux-riscv64 with clang-19 for every file (gcc 12 has no RVV intrinsics; one compiler keeps
# the flags uniform). clang finds Debian's gcc-riscv64-linux-gnu installation (crt files,
# libgcc, glibc in /usr/riscv64-linux-gnu) and links with its GNU ld.
# The baseline is rv64gc, spelled out so that nothing but the RVV file (which
# native/CMakeLists.txt compiles with -march=rv64gcv; the last -march wins) uses vectors.
set(BLAKE3_CROSS_ARCH riscv64)
set(CMAKE_C_COMPILER clang-19)
set(CMAKE_C_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_ASM_COMPILER clang-19)
set(CMAKE_ASM_COMPILER_TARGET riscv64-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-march=rv64gc -mabi=lp64d")
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu)
find_program(BLAKE3_RISCV_AR NAMES llvm-ar-19 riscv64-linux-gnu-ar)
if(BLAKE3_RISCV_AR)
  set(CMAKE_AR "${BLAKE3_RISCV_AR}" CACHE FILEPATH "archiver")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64-static -L /usr/riscv64-linux-gnu)
