#!/usr/bin/env bash
# bench/native/ab.sh REV [ROUNDS [SIZE...]]: the x86-64 kernels of git revision REV (A) against
# those of the working tree (B), both built as native/CMakeLists.txt builds them (-O3, the same
# per-ISA flags), timed side by side by ab.c (alternating samples; medians and bests).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:?usage: bench/native/ab.sh REV [ROUNDS [SIZE...]]}
rounds=${2:-41}
shift $(($# > 2 ? 2 : $#))
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-ab.XXXXXX")
trap 'rm -rf "$work"' EXIT

# build SRC OUT.so: every file of SRC this architecture compiles, plus ab_shim.c
build() {
  local src=$1 out=$2 f b flags defs=()
  local isa
  for isa in sse2 sse41 avx2 avx512; do
    [ -f "$src/blake3_$isa.c" ] && defs+=("-DBLAKE3_HAVE_${isa^^}=1")
  done
  # the revisions before BLAKE3_ISAS learned about the wide XOF from this define
  defs+=(-DBLAKE3_HAVE_XOF_MANY_AVX512=1)
  mkdir -p "$out.o"
  for f in "$src"/blake3_*.c "$root/bench/native/ab_shim.c"; do
    b=$(basename "$f" .c)
    case $b in
      blake3_jni | blake3_neon | blake3_vsx | blake3_vx | blake3_lsx | blake3_rvv) continue ;;
      blake3_sse41) flags=(-msse4.1) ;;
      blake3_avx2) flags=(-mavx2) ;;
      blake3_avx512) flags=(-mavx512f -mavx512vl) ;;
      *) flags=() ;;
    esac
    gcc -O3 -std=gnu11 -fPIC -fvisibility=hidden -I"$src" "${defs[@]}" "${flags[@]}" \
      -c "$f" -o "$out.o/$b.o"
  done
  gcc -shared "$out.o"/*.o -o "$out"
}

mkdir -p "$work/a"
git -C "$root" archive "$rev" native/src | tar -x -C "$work/a"
build "$work/a/native/src" "$work/a.so"
build "$root/native/src" "$work/b.so"
gcc -O2 -std=gnu11 "$root/bench/native/ab.c" -ldl -o "$work/ab"
"$work/ab" "$work/a.so" "$work/b.so" portable,sse2,sse41,avx2,avx512 "$rounds" "$@"
