#!/usr/bin/env bash
# bench/native/ours.sh SRC OUT.so: the x86-64 kernels in SRC (a native/src tree) built as
# native/CMakeLists.txt builds them (-O3, the same per-ISA flags), plus ab_shim.c, into one
# library for ab.c. Used by ab.sh (two revisions) and vs-official.sh (ours against the official).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=${1:?usage: bench/native/ours.sh SRC OUT.so}
out=${2:?usage: bench/native/ours.sh SRC OUT.so}
defs=()
for isa in sse2 sse41 avx2 avx512; do
  [ -f "$src/blake3_$isa.c" ] && defs+=("-DBLAKE3_HAVE_${isa^^}=1")
done
# the revisions before BLAKE3_ISAS learned about the wide XOF from this define
defs+=(-DBLAKE3_HAVE_XOF_MANY_AVX512=1)
objs=$(mktemp -d "${TMPDIR:-/tmp}/blake3-ours.XXXXXX")
trap 'rm -rf "$objs"' EXIT
for f in "$src"/blake3_*.c "$here/ab_shim.c"; do
  b=$(basename "$f" .c)
  case $b in
    blake3_jni | blake3_neon | blake3_vsx | blake3_vx | blake3_lsx | blake3_rvv) continue ;;
    blake3_sse41) flags=(-msse4.1) ;;
    blake3_avx2) flags=(-mavx2) ;;
    blake3_avx512) flags=(-mavx512f -mavx512vl) ;;
    *) flags=() ;;
  esac
  gcc -O3 -std=gnu11 -fPIC -fvisibility=hidden -I"$src" "${defs[@]}" "${flags[@]}" \
    -c "$f" -o "$objs/$b.o"
done
gcc -shared "$objs"/*.o -o "$out"
