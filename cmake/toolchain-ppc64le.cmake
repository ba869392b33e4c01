# linux-ppc64le with Debian's gcc-powerpc64le-linux-gnu (default -mcpu=power8, Debian's
# baseline; the VSX file's own flags come from native/CMakeLists.txt).
set(BLAKE3_CROSS_ARCH ppc64le)
set(CMAKE_C_COMPILER powerpc64le-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/powerpc64le-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-ppc64le-static -cpu power8 -L /usr/powerpc64le-linux-gnu)
