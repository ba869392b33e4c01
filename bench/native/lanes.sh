#!/usr/bin/env bash
# bench/native/lanes.sh [ROUNDS [ISAS]]: each x86-64 kernel's hash_lanes against its hash_many
# on the same messages (lanes_timing.c), the working tree's kernels built by ours.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-31}
isas=${2:-sse2,sse41,avx2,avx512}
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-lanes.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$here/ours.sh" "$here/../../native/src" "$work/ours.so"
gcc -O2 -std=gnu11 -I"$here/../../native/src" "$here/lanes_timing.c" -ldl -o "$work/lanes_timing"
echo "CPU: $("$here/../cpu.sh"); $(gcc --version | head -n 1); $(date -u +%F)"
"$work/lanes_timing" "$work/ours.so" "$isas" "$rounds"
