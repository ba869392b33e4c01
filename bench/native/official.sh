#!/usr/bin/env bash
# bench/native/official.sh OUT.so: the official BLAKE3 C code, with its x86-64 assembly and
# runtime dispatch, built from the source Debian's librust-blake3-dev package installs (installed
# here when missing; nothing of it is kept in this repository), plus official_shim.c. With
# OFFICIAL_JNI=1 the library also carries official_jni.c, for the JMH anchor.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: bench/native/official.sh OUT.so}

src=$(printf '%s\n' /usr/share/cargo/registry/blake3-*/c | sort -V | tail -n 1)
if [ ! -d "$src" ]; then
  echo "official.sh: installing librust-blake3-dev for the official C source" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "official.sh: not root: install librust-blake3-dev first" >&2
    exit 2
  fi
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -q \
    librust-blake3-dev >&2
  src=$(printf '%s\n' /usr/share/cargo/registry/blake3-*/c | sort -V | tail -n 1)
fi
[ "$(uname -m)" = x86_64 ] || { echo "official.sh: the anchor is built for x86-64 only" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-official.XXXXXX")
trap 'rm -rf "$work"' EXIT
files=("$src/blake3.c" "$src/blake3_portable.c" "$here/official_shim.c"
  "$src"/blake3_{sse2,sse41,avx2,avx512}_x86-64_unix.S)
flags=(-O3 -std=gnu11 -fPIC -fvisibility=hidden -I"$src")
if [ "${OFFICIAL_JNI:-0}" = 1 ]; then
  jhome=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
  files+=("$here/official_jni.c")
  flags+=(-I"$jhome/include" -I"$jhome/include/linux")
fi
objs=()
for f in "${files[@]}"; do
  o="$work/$(basename "$f").o"
  gcc "${flags[@]}" -c "$f" -o "$o"
  objs+=("$o")
done
gcc -shared "${objs[@]}" -o "$out"
echo "official.sh: $out from $src" >&2
