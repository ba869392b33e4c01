#!/usr/bin/env bash
# bench/native/many.sh [ROUNDS [ISAS]]: blake3_hash_batch (the working tree's kernels, built by
# ours.sh) against the official BLAKE3 C code hashing the same messages one hasher each (built by
# official.sh), the same ISA forced on both, alternated in one process (many_timing.c). Without
# a JVM: the C side of bench/many.sh's table, steadier on a shared machine.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-31}
isas=${2:-portable,sse2,sse41,avx2,avx512}
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-many.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$here/official.sh" "$work/official.so"
"$here/ours.sh" "$here/../../native/src" "$work/ours.so"
gcc -O2 -std=gnu11 "$here/many_timing.c" -ldl -o "$work/many_timing"
echo "CPU: $("$here/../cpu.sh"); $(gcc --version | head -n 1); $(date -u '+%F %H:%M') UTC"
"$work/many_timing" "$work/official.so" "$work/ours.so" "$isas" "$rounds"
