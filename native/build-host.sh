#!/usr/bin/env bash
# Builds the native library for the machine running Maven into build/native/linux-<arch>/, then
# checks every library the jar will carry (build/native/linux-*/libblake3fast.so, including the
# ones platforms/build-all.sh cross-built) with check-glibc-symbols.sh: a GLIBC_ symbol version
# newer than the platform's floor (2.17; RISC-V 2.27, LoongArch 2.36), a dependency other than
# libc, an export other than JNI_OnLoad or an executable stack fails the build. Maven runs this
# in generate-resources, so `mvn verify` fails too.
#
# Without a working C toolchain (cmake or the C compiler missing, or a compiler that cannot link
# a shared object, as gcc without libc6-dev) the jar is still built: it then carries no library
# for this platform and the Java engine runs there; this script says so once and succeeds (it
# still checks the libraries already in build/native when readelf is there). Without musl's
# libc the musl half of the check is skipped, with a note.
#
#   native/build-host.sh            build, then check build/native
#   native/build-host.sh --check [DIR]   only check DIR/linux-*/libblake3fast.so (default build/native)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dist="$root/build/native"
# shellcheck source=../platforms/arch.sh
source "$root/platforms/arch.sh"

# musl's libc.so, when Debian's musl package is installed (only its symbol names are read);
# fails when there is none.
musl_libc() {
  local f
  for f in /lib/x86_64-linux-musl/libc.so /usr/lib/x86_64-linux-musl/libc.so /usr/lib/musl/lib/libc.so; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  return 1
}

# Checks every DIR/linux-*/libblake3fast.so (and windows-*/blake3fast.dll); returns non-zero if any fails. Quiet when all pass
# but for one summary line; prints the checker's findings when one fails.
check_all() {
  local dir=$1 status=0 n=0 lib report musl have missing
  if ! command -v "${READELF:-readelf}" >/dev/null; then
    echo "blake3-fast: WARNING: readelf is missing; the libraries in $dir are NOT checked for GLIBC_ versions"
    return 0
  fi
  have=""
  if ! musl=$(musl_libc); then
    musl=""
  else
    have=$(LC_ALL=C "${READELF:-readelf}" --dyn-syms -W "$musl" | awk '$7 != "UND" && $8 != "" { sub(/@.*/, "", $8); print $8 }' | sort -u)
  fi
  for lib in "$dir"/linux-*/libblake3fast.so; do
    [ -f "$lib" ] || continue
    n=$((n + 1))
    if ! report=$(sh "$root/native/check-glibc-symbols.sh" "$lib" 2>&1); then
      echo "$report" >&2
      status=1
    fi
    # What the library takes from libc (strong imports) must exist in musl too: the same .so
    # is what an Alpine JVM loads, through musl's loader, which answers for libc.so.6 itself.
    if [ -n "$have" ]; then
      missing=$(LC_ALL=C "${READELF:-readelf}" --dyn-syms -W "$lib" | sed 's/ \[[^]]*\]//g' \
        | awk '$7 == "UND" && $5 == "GLOBAL" && $8 != "" { sub(/@.*/, "", $8); print $8 }' | sort -u \
        | comm -23 - <(echo "$have"))
      if [ -n "$missing" ]; then
        echo "$lib: imports what musl's libc ($musl) lacks: ${missing//$'\n'/ }" >&2
        status=1
      fi
    fi
  done
  for lib in "$dir"/windows-*/blake3fast.dll; do
    [ -f "$lib" ] || continue
    n=$((n + 1))
    if ! report=$(sh "$root/native/check-pe-imports.sh" "$lib" 2>&1); then
      echo "$report" >&2
      status=1
    fi
  done
  if [ "$status" -ne 0 ]; then
    echo "blake3-fast: ERROR: a native library above would not load on every system the jar promises" \
      "(glibc 2.17+, musl); fix the code or the build flags rather than the floor" >&2
  elif [ "$n" -eq 0 ]; then
    echo "blake3-fast: no native libraries in $dir to check"
  else
    echo "blake3-fast: checked $n native libraries: GLIBC_ floors, libc only, JNI_OnLoad only${have:+, imports all in musl}"
    [ -n "$have" ] || echo "blake3-fast: note: musl's libc is not installed (Debian: apt-get install musl), so whether the libraries import only what musl has was NOT checked"
  fi
  return "$status"
}

if [ "${1:-}" = --check ]; then
  check_all "${2:-$dist}"
  exit $?
fi

# Why this machine cannot build the native library (nothing when it can): cmake or the C
# compiler missing, or a compiler that cannot link a shared object (gcc without libc6-dev).
toolchain_problem() {
  local cc=${CC:-cc} probe err
  command -v cmake >/dev/null || { echo "cmake is missing"; return 0; }
  command -v "${cc%% *}" >/dev/null || { echo "no C compiler (${cc%% *} is missing)"; return 0; }
  probe=$(mktemp -d)
  printf 'int blake3_fast_probe(int x) { return x + 1; }\n' >"$probe/probe.c"
  # shellcheck disable=SC2086
  if ! err=$($cc -shared -fPIC -o "$probe/probe.so" "$probe/probe.c" 2>&1); then
    echo "the C compiler ($cc) cannot link a shared object: $(printf '%s\n' "$err" | grep -m1 -i -E 'error|cannot|not found' || printf '%s\n' "$err" | head -1)"
  fi
  rm -rf "$probe"
}

build() {
  local platform arch problem
  if ! platform=$(b3_platform_of "$(uname -m)"); then
    echo "blake3-fast: no native kernels for $(uname -m); the jar will use the Java engine here"
    return 0
  fi
  arch=${platform#linux-}
  problem=$(toolchain_problem)
  if [ -n "$problem" ] && [ -f "$dist/$platform/libblake3fast.so" ]; then
    echo "blake3-fast: WARNING: $problem; the jar gets the $platform library of an earlier build ($dist/$platform)"
    return 0
  elif [ -n "$problem" ]; then
    echo "blake3-fast: WARNING: $problem; building without the $platform library (the Java engine runs here)"
    return 0
  fi
  local build="$root/build/cmake-host" out="$dist/$platform"
  # No copy by CMake itself (BLAKE3_DIST_DIR empty): the library is copied below, once checked.
  cmake -S "$root/native" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBLAKE3_TARGET_ARCH="$arch" -DBLAKE3_DIST_DIR= >/dev/null
  cmake --build "$build" -j 2 --target blake3fast >/dev/null
  # Check before it lands where the jar picks it up.
  if command -v "${READELF:-readelf}" >/dev/null; then
    sh "$root/native/check-glibc-symbols.sh" "$build/libblake3fast.so" >/dev/null || {
      sh "$root/native/check-glibc-symbols.sh" "$build/libblake3fast.so" || true
      echo "blake3-fast: ERROR: $build/libblake3fast.so failed the check above; not copied into $out" >&2
      return 1
    }
  fi
  mkdir -p "$out"
  cp "$build/libblake3fast.so" "$out/libblake3fast.so.tmp"
  mv "$out/libblake3fast.so.tmp" "$out/libblake3fast.so"
  echo "blake3-fast: built $out/libblake3fast.so"
}

build
check_all "$dist"
