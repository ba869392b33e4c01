#!/usr/bin/env bash
# Builds the library and the C harness for every platform whose toolchain is present:
#   build/native/linux-<arch>/libblake3fast.so   (packed into the jar by the Maven build)
#   build/native/windows-x86_64/blake3fast.dll   (mingw-w64; with blake3_win64_abi.exe and
#                                                blake3_jni_mock.exe beside the harness)
#   build/cmake-<arch>/blake3_harness            (the C harness, run by test-all.sh)
#   build/freestanding-loongarch64/fs_harness    (no libc: for CPU models glibc cannot run on)
# then checks each library: native/check-glibc-symbols.sh, and readelf's ELF class, byte order
# and machine against the platform's descriptor (a DLL: native/check-pe-imports.sh). Prints what it built, what it left out and
# why. Exits non-zero if a build or a check failed (a platform left out for lack of a
# toolchain is not a failure unless BLAKE3_REQUIRE_ALL=1); a platform whose build failed keeps
# none of its programs or its library, so that test-all.sh says "not built" instead of running
# an earlier build's.
#
# Environment: BLAKE3_PLATFORMS (subset), BLAKE3_CACHE, BLAKE3_BUILD_TYPE (Release),
# BLAKE3_REQUIRE_ALL=1, BLAKE3_JOBS (parallel compile jobs, default 2).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

t_all=$(b3_now)
jobs=${BLAKE3_JOBS:-2}
build_type=${BLAKE3_BUILD_TYPE:-Release}
mkdir -p "$B3_BUILD/logs"
vectors_json="$B3_ROOT/test-vectors/test_vectors.json"

declare -A result=() detail=() took=()
status=0

# Why this platform cannot be built here (empty: it can).
missing_toolchain() {
  local arch=$1
  command -v cmake >/dev/null || { echo "cmake not installed"; return; }
  command -v readelf >/dev/null || { echo "readelf (binutils) not installed"; return; }
  command -v "$C_COMPILER" >/dev/null || { echo "$C_COMPILER not installed (run platforms/setup.sh)"; return; }
  case "$arch" in
    riscv64)
      [ -e /usr/riscv64-linux-gnu/include/stdio.h ] ||
        { echo "libc6-dev-riscv64-cross not installed (run platforms/setup.sh)"; return; }
      command -v riscv64-linux-gnu-ld >/dev/null ||
        { echo "binutils-riscv64-linux-gnu not installed (run platforms/setup.sh)"; return; }
      ;;
    loongarch64)
      [ -e "$B3_LOONG_SYSROOT/usr/loongarch64-linux-gnu/include/stdio.h" ] ||
        { echo "no loong64 sysroot in $B3_LOONG_SYSROOT (run platforms/setup.sh)"; return; }
      command -v ld.lld-19 >/dev/null || { echo "lld-19 not installed (run platforms/setup.sh)"; return; }
      ;;
  esac
  echo ""
}

# check_elf FILE: class, byte order and machine as the descriptor says.
check_elf() {
  local f=$1 h
  h=$(readelf -h "$f") || return 1
  grep -q 'Class:[[:space:]]*ELF64' <<<"$h" || { echo "not ELF64"; return 1; }
  grep -q "Data:.*$ELF_DATA endian" <<<"$h" || { echo "not $ELF_DATA-endian"; return 1; }
  grep -q "Machine:[[:space:]]*$ELF_MACHINE" <<<"$h" ||
    { echo "machine is '$(sed -n 's/.*Machine:[[:space:]]*//p' <<<"$h")', expected '$ELF_MACHINE'"; return 1; }
  echo "ELF64 $ELF_DATA-endian $ELF_MACHINE"
}

# The freestanding harness (loongarch64): no libc at all, so it runs with LSX off.
build_freestanding() {
  local arch=$1 out="$B3_BUILD/freestanding-$1" src="$B3_ROOT/native/src"
  local fs="$B3_PLATFORMS_DIR/freestanding"
  [ -f "$vectors_json" ] || { echo "no $vectors_json"; return 1; }
  rm -rf "$out" && mkdir -p "$out"
  "$fs/gen-vectors.sh" "$vectors_json" >"$out/fs_vectors.h"
  local cc=(clang-19 --target=loongarch64-linux-gnu "--sysroot=$B3_LOONG_SYSROOT"
    -O2 -ffreestanding -fno-stack-protector -fno-pic -fno-asynchronous-unwind-tables
    -Wall -Wextra -I"$src" -I"$B3_ROOT/native/test" -I"$out")
  local defs=() objs=() libgcc
  if [ -f "$src/blake3_lsx.c" ]; then
    "${cc[@]}" -mlsx -c "$src/blake3_lsx.c" -o "$out/lsx.o"
    defs+=(-DBLAKE3_HAVE_LSX=1)
    objs+=("$out/lsx.o")
  else
    echo "note: native/src/blake3_lsx.c not present: portable only" >&2
  fi
  local f libgcc=()
  for f in "$B3_LOONG_SYSROOT"/usr/lib/gcc-cross/loongarch64-linux-gnu/*/libgcc.a; do
    [ -f "$f" ] && { libgcc=("$f"); break; }
  done
  "${cc[@]}" -mno-lsx -mno-lasx "${defs[@]}" -static -nostdlib -fuse-ld=lld -Wl,--build-id=none \
    "$fs/fs_harness.c" "$src"/blake3_{portable,dispatch,tree}.c "${objs[@]}" "${libgcc[@]}" \
    -o "$out/fs_harness"
  check_elf "$out/fs_harness" >/dev/null
}

for arch in $(b3_selected_platforms); do
  [ -f "$B3_PLATFORMS_DIR/$arch.conf" ] || b3_die "no platforms/$arch.conf"
  b3_load_conf "$arch"
  why=$(missing_toolchain "$arch")
  if [ -n "$why" ]; then
    result[$arch]="LEFT OUT"
    detail[$arch]=$why
    [ -n "${BLAKE3_REQUIRE_ALL:-}" ] && status=1
    continue
  fi
  t=$(b3_now)
  bdir="$B3_BUILD/cmake-$arch"
  dist="$B3_BUILD/native/$PLATFORM"
  log="$B3_BUILD/logs/build-$arch.log"
  cmake_args=(-S "$B3_ROOT/native" -B "$bdir" -DCMAKE_BUILD_TYPE="$build_type" -DBLAKE3_DIST_DIR="$dist")
  [ -n "$TOOLCHAIN_FILE" ] && cmake_args+=(-DCMAKE_TOOLCHAIN_FILE="$B3_ROOT/$TOOLCHAIN_FILE")
  targets=(blake3fast blake3_harness)
  [ "${LIB_FORMAT:-elf}" = pe ] && targets+=(blake3_win64_abi blake3_jni_mock)
  for entry in "${CPUS[@]}"; do # a CPU entry's preload=TARGET: a library its harness runs preload
    for opt in $entry; do case "$opt" in preload=*) targets+=("${opt#preload=}") ;; esac; done
  done
  b3_log "$PLATFORM: building"
  if ! { cmake "${cmake_args[@]}" && cmake --build "$bdir" -j "$jobs" --target "${targets[@]}"; } >"$log" 2>&1; then
    tail -25 "$log" >&2
    # An earlier build's programs and library would otherwise pass for this one's in test-all.sh.
    for target in "${targets[@]}"; do rm -f "$bdir/$target" "$bdir/$target.exe" "$bdir/lib$target.so"; done
    rm -f "$bdir/$(b3_lib_name)" "$dist/$(b3_lib_name)" # the next build relinks it, and copies it
    result[$arch]="BUILD FAILED"
    detail[$arch]="see $log"
    took[$arch]=$(b3_elapsed "$t")
    status=1
    continue
  fi
  so="$dist/$(b3_lib_name)"
  kernels=$(sed -n 's/.*blake3fast: kernels: //p' "$log" | tail -1)
  checks=()
  ok=1
  if [ ! -f "$so" ]; then
    ok=0
    checks+=("no $so")
  elif [ "${LIB_FORMAT:-elf}" = pe ]; then
    if out=$(sh "$B3_ROOT/native/check-pe-imports.sh" "$so" 2>&1); then
      checks+=("PE32+ x86-64 DLL, imports KERNEL32+msvcrt only, exports JNI_OnLoad only")
    else
      ok=0
      checks+=("PE check: $(tail -3 <<<"$out" | tr '\n' ' ')")
    fi
  else
    if elf=$(check_elf "$so"); then checks+=("$elf"); else ok=0; checks+=("ELF: $elf"); fi
    glibc_check="$B3_ROOT/native/check-glibc-symbols.sh"
    if [ -x "$glibc_check" ] || [ -f "$glibc_check" ]; then
      if out=$(bash "$glibc_check" "$so" 2>&1); then
        checks+=("glibc symbols ok")
      else
        ok=0
        checks+=("glibc symbols: $(tail -3 <<<"$out" | tr '\n' ' ')")
      fi
    else
      checks+=("glibc check NOT RUN (native/check-glibc-symbols.sh missing)")
    fi
  fi
  if [ "$arch" = loongarch64 ]; then
    if out=$(build_freestanding "$arch" 2>&1); then
      checks+=("freestanding harness built")
    else
      ok=0
      checks+=("freestanding harness FAILED: $(tail -3 <<<"$out" | tr '\n' ' ')")
      echo "$out" >"$B3_BUILD/logs/build-freestanding-$arch.log"
    fi
  fi
  took[$arch]=$(b3_elapsed "$t")
  if [ $ok = 1 ]; then result[$arch]=built; else result[$arch]="CHECK FAILED"; status=1; fi
  joined=$(IFS=';'; echo "${checks[*]}")
  detail[$arch]="kernels: $kernels; ${joined//;/; }"
done

echo
echo "---- build summary ($(b3_elapsed "$t_all") s) ----"
printf '%-18s %-13s %7s  %s\n' platform result time details
for arch in $(b3_selected_platforms); do
  b3_load_conf "$arch"
  printf '%-18s %-13s %7s  %s\n' "$PLATFORM" "${result[$arch]}" "${took[$arch]:--}" "${detail[$arch]}"
done
exit $status
