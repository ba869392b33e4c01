# windows-x86_64 with Debian's mingw-w64 gcc (the win32 thread model: no winpthread DLL to
# ship). The DLL and the test programs run under wine64 (CMAKE_CROSSCOMPILING_EMULATOR), which
# executes them on this CPU: every x86 kernel it has, AVX-512 included, runs.
set(BLAKE3_CROSS_ARCH x86_64)
set(BLAKE3_CROSS_SYSTEM Windows)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-win32)
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
include(${CMAKE_CURRENT_LIST_DIR}/cross-common.cmake)
# Debian's wine64 package has no launcher in PATH (that is the "wine" package).
set(CMAKE_CROSSCOMPILING_EMULATOR /usr/lib/wine/wine64)
