#!/usr/bin/env bash
# Builds the native library for the machine running Maven into build/native/linux-<arch>/.
# Without cmake or a C compiler the jar is still built: it then carries no library for this
# platform and the Java engine runs there; this script says so and succeeds.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
case "$(uname -m)" in
  x86_64|amd64) arch=x86_64 ;;
  aarch64|arm64) arch=aarch64 ;;
  ppc64le) arch=ppc64le ;;
  riscv64) arch=riscv64 ;;
  loongarch64) arch=loongarch64 ;;
  s390x) arch=s390x ;;
  *) echo "blake3-fast: no native kernels for $(uname -m); the jar will use the Java engine here"; exit 0 ;;
esac
if ! command -v cmake >/dev/null || ! command -v "${CC:-cc}" >/dev/null; then
  echo "blake3-fast: WARNING: cmake or a C compiler is missing; building without the linux-$arch library"
  exit 0
fi
build="$root/build/cmake-host"
out="$root/build/native/linux-$arch"
cmake -S "$root/native" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j 2 --target blake3fast >/dev/null
mkdir -p "$out"
cp "$build/libblake3fast.so" "$out/libblake3fast.so.tmp"
mv "$out/libblake3fast.so.tmp" "$out/libblake3fast.so"
echo "blake3-fast: built $out/libblake3fast.so"
