#!/usr/bin/env bash
# bench/native/vs-official.sh [ROUNDS [SIZE...]]: the working tree's x86-64 kernels (B) against
# the official BLAKE3 C code with its assembly (A, built by official.sh), each ISA forced on both
# sides, timed side by side in one process by ab.c (alternating samples). B/A = ours / official.
# Default sizes: 1 KiB, 16 KiB, 1 MiB. For kernel work, without a JVM; the JMH anchor
# (bench/anchor.sh) gives the same ratios through the Java API.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-41}
shift $(($# > 0 ? 1 : 0))
[ $# -gt 0 ] || set -- 1024 16384 1048576
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-vs.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$here/official.sh" "$work/official.so"
"$here/ours.sh" "$here/../../native/src" "$work/ours.so"
gcc -O2 -std=gnu11 "$here/ab.c" -ldl -o "$work/ab"
isas=portable
for isa in sse2 sse41 avx2 avx512; do
  case $isa in
    sse2) has=sse2 ;; sse41) has=sse4_1 ;; avx2) has=avx2 ;; avx512) has=avx512vl ;;
  esac
  grep -qw "$has" /proc/cpuinfo && isas+=",$isa"
done
echo "A = official $(basename "$(dirname "$(printf '%s\n' /usr/share/cargo/registry/blake3-*/c | sort -V | tail -n 1)")"), B = blake3-fast; CPU: $("$here/../cpu.sh")"
"$work/ab" "$work/official.so" "$work/ours.so" "$isas" "$rounds" "$@"
