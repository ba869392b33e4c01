# linux-ppc64 (big-endian, ELFv1) with Debian's gcc-powerpc64-linux-gnu. Its default CPU has no
# VSX, so the portable path runs on any 64-bit POWER; only the VSX file gets -mcpu=power7 -mvsx
# (native/CMakeLists.txt) and runs where AT_HWCAP says VSX.
set(BLAKE3_CROSS_ARCH ppc64)
set(CMAKE_C_COMPILER powerpc64-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64-static -cpu power8 -L /usr/powerpc64-linux-gnu)
