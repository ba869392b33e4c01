# linux-s390x (big-endian) with Debian's gcc-s390x-linux-gnu. Only the vector file gets
# -march=z13 -mzvector (native/CMakeLists.txt); everything else stays at the distribution's
# baseline so the portable path runs on machines without the vector facility.
set(BLAKE3_CROSS_ARCH s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_FIND_ROOT_PATH /usr/s390x-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x-static -L /usr/s390x-linux-gnu)
