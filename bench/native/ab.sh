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

mkdir -p "$work/a"
git -C "$root" archive "$rev" native/src | tar -x -C "$work/a"
"$root/bench/native/ours.sh" "$work/a/native/src" "$work/a.so"
"$root/bench/native/ours.sh" "$root/native/src" "$work/b.so"
gcc -O2 -std=gnu11 "$root/bench/native/ab.c" -ldl -o "$work/ab"
"$work/ab" "$work/a.so" "$work/b.so" portable,sse2,sse41,avx2,avx512 "$rounds" "$@"
