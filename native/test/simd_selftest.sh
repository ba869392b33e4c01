#!/usr/bin/env bash
# Builds native/test/simd_selftest.c against each of the VSX, VX, RVV and LSX kernel files and
# runs it under qemu-user on every CPU model those kernels must work on. Needs the toolchains
# platforms/setup.sh installs (cross gccs, clang-19 + lld-19, qemu-user-static, and trixie's
# qemu 10 + the loong64 sysroot in $BLAKE3_CACHE). Usage: native/test/simd_selftest.sh [OPT]
# where OPT is the optimisation flag (default -O3, as the CMake release build uses).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${BLAKE3_CACHE:-/var/cache/blake3-fast}
opt=${1:--O3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
src=$root/native/src
st=$root/native/test/simd_selftest.c
# The optimisation and warning flags every compile gets.
cflags=("$opt" -Wall -Wextra -Werror)
fails=0

run() { # label, command...
  local label=$1; shift
  if res=$("$@" 2>&1 | tail -n 1) && [[ $res == *": OK "* ]]; then
    printf '  ok    %-34s %s\n' "$label" "$res"
  else
    printf '  FAIL  %-34s %s\n' "$label" "$res"
    fails=$((fails + 1))
  fi
}

echo "== ppc64le VSX ($opt)"
powerpc64le-linux-gnu-gcc "${cflags[@]}" -mcpu=power8 -mvsx -I"$src" -c "$src/blake3_vsx.c" -o "$out/vsx.o"
powerpc64le-linux-gnu-gcc "${cflags[@]}" -DST_ISA=vsx -I"$src" "$st" "$out/vsx.o" -static -o "$out/st_vsx"
for cpu in power8 power9 power10; do run "qemu-ppc64le -cpu $cpu" qemu-ppc64le-static -cpu "$cpu" "$out/st_vsx"; done

echo "== s390x z13 VX ($opt)"
s390x-linux-gnu-gcc "${cflags[@]}" -march=z13 -mzvector -I"$src" -c "$src/blake3_vx.c" -o "$out/vx.o"
s390x-linux-gnu-gcc "${cflags[@]}" -DST_ISA=vx -I"$src" "$st" "$out/vx.o" -static -o "$out/st_vx"
run "qemu-s390x (default, VX)" qemu-s390x-static "$out/st_vx"
run "qemu-s390x -cpu max" qemu-s390x-static -cpu max "$out/st_vx"

echo "== riscv64 RVV ($opt)"
clang-19 --target=riscv64-linux-gnu -march=rv64gcv "${cflags[@]}" -I"$src" -c "$src/blake3_rvv.c" -o "$out/rvv.o"
riscv64-linux-gnu-gcc "${cflags[@]}" -DST_ISA=rvv -DST_RVV -I"$src" "$st" "$out/rvv.o" -static -o "$out/st_rvv"
for vlen in 128 256 512 1024; do
  run "qemu-riscv64 vlen=$vlen" qemu-riscv64-static -cpu "rv64,v=true,vlen=$vlen,vext_spec=v1.0" "$out/st_rvv"
done
if [[ -x $cache/qemu10/qemu-riscv64 ]]; then
  run "qemu10-riscv64 vlen=256" "$cache/qemu10/qemu-riscv64" -cpu rv64,v=true,vlen=256 "$out/st_rvv"
fi

echo "== loongarch64 LSX ($opt)"
sys=$cache/sysroot/loong64-cross
las=(clang-19 --target=loongarch64-linux-gnu --sysroot="$sys" --gcc-toolchain="$sys/usr" "${cflags[@]}" -I"$src")
"${las[@]}" -mlsx -c "$src/blake3_lsx.c" -o "$out/lsx.o"
"${las[@]}" -mno-lsx -fuse-ld=lld -DST_ISA=lsx "$st" "$out/lsx.o" -o "$out/st_lsx"
for cpu in la464 la464,lasx=off max; do # la464 and max have LASX (8-lane hash_many)
  run "qemu10-loongarch64 $cpu" "$cache/qemu10/qemu-loongarch64" -cpu "$cpu" -L "$sys/usr/loongarch64-linux-gnu" "$out/st_lsx"
done

if ((fails)); then echo "simd_selftest: $fails FAILED"; exit 1; fi
echo "simd_selftest: all passed"
