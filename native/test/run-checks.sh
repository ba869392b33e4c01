#!/usr/bin/env bash
# The native checks CI runs (.ci/run): sanitizers, valgrind, the JNI glue, fuzzing.
#
#   native/test/run-checks.sh
#
#  1. the C harness built with AddressSanitizer + UndefinedBehaviorSanitizer (gcc), run once per
#     kernel this CPU has (BLAKE3_ISA=portable, sse2, ... each cap tests the kernels up to it)
#     with the official vectors and the extra vectors, and once more uncapped with a random seed;
#  2. valgrind memcheck over the harness capped to the portable kernel, and over every kernel
#     valgrind's CPU offers (it hides AVX-512) in --quick mode;
#  3. valgrind memcheck over the real libblake3fast.so driven through its JNI entry points by
#     native/test/jni_mock.c (a mock JVM that copies pinned arrays, checks the JNI rules and
#     injects failures), then the same without valgrind for the kernels valgrind hides;
#  4. the libFuzzer differential target (clang-19, ASan + UBSan) for BLAKE3_FUZZ_SECONDS (60) on a
#     copy of native/test/corpus (the checkout is never written), printing the executions.
#
# Builds go to native/build/checks (git-ignored; BLAKE3_CHECKS_BUILD to move it), scratch files to
# a temporary directory. Any finding fails the run. Ends with "N passed, N failed".
# Environment: BLAKE3_CHECKS_SEED (the random harness seed, printed), BLAKE3_FUZZ_SECONDS,
# BLAKE3_CHECKS_ALLOW_MISSING=1 (skip, instead of failing, the checks whose tools are missing).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 1
build=${BLAKE3_CHECKS_BUILD:-$root/native/build/checks}
fuzz_seconds=${BLAKE3_FUZZ_SECONDS:-60}
seed=${BLAKE3_CHECKS_SEED:-$(od -An -N6 -tu8 /dev/urandom | tr -d ' ')}
vectors=$root/test-vectors/test_vectors.txt
extra=$root/test-vectors/extra_vectors.json
scratch=$(mktemp -d "${TMPDIR:-/tmp}/blake3-checks.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build"
logs=$build/logs
rm -rf "$logs" && mkdir -p "$logs"
start=$(date +%s)
passed=0
failed=0
failures=()

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_string_checks=1:detect_invalid_pointer_pairs=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
valgrind_opts=(-q --error-exitcode=99 --leak-check=full "--show-leak-kinds=definite,indirect"
               "--errors-for-leak-kinds=definite,indirect" --track-origins=yes)
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)

elapsed() { echo "$(( $(date +%s) - start ))s"; }
pass() { passed=$((passed + 1)); printf '  PASS  %-52s %s\n' "$1" "$2"; }
fail() {
  failed=$((failed + 1)); failures+=("$1")
  printf '  FAIL  %-52s %s\n' "$1" "$2"
  if [[ -n ${3:-} && -f $3 ]]; then
    echo "  ---- last lines of $3"; tail -n 60 "$3" | sed 's/^/  | /'; echo "  ----"
  fi
}
missing() { # check name, tool
  if [[ ${BLAKE3_CHECKS_ALLOW_MISSING:-0} == 1 ]]; then
    printf '  SKIP  %-52s %s is missing (BLAKE3_CHECKS_ALLOW_MISSING=1)\n' "$1" "$2"
  else
    fail "$1" "$2 is missing (install it, or BLAKE3_CHECKS_ALLOW_MISSING=1)"
  fi
}
# run NAME LOG CMD...: runs CMD (10 minutes at most) into LOG; passes when it exits 0 and its
# last "N passed, N failed" line (if it prints one) says 0 failed.
run() {
  local name=$1 log=$2; shift 2
  timeout 600 "$@" >"$log" 2>&1
  local rc=$?
  local summary
  summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1)
  if [[ $rc -eq 0 && ( -z $summary || $summary == *" 0 failed" ) ]]; then
    pass "$name" "${summary:-ok}"
    return 0
  fi
  fail "$name" "exit $rc${summary:+, $summary}" "$log"
  return 1
}
# configure NAME DIR JOBS CMAKE-ARGS... -- TARGETS...: configures and builds into DIR, logging to
# $logs/build-NAME.log; the exit status also goes to $scratch/build-NAME.rc.
configure() {
  local name=$1 dir=$2 jobs=$3; shift 3
  local args=()
  while [[ $# -gt 0 && $1 != -- ]]; do args+=("$1"); shift; done
  shift
  local log=$logs/build-$name.log rc=0
  { cmake -S native -B "$dir" "${generator[@]}" "${args[@]}" &&
    cmake --build "$dir" -j "$jobs" --target "$@"; } >"$log" 2>&1 || rc=$?
  echo "$rc" >"$scratch/build-$name.rc"
  return "$rc"
}
# built NAME: waits for configure NAME (maybe running in the background) and reports it.
built() {
  local rc_file=$scratch/build-$1.rc
  while [[ ! -f $rc_file ]]; do
    if ! kill -0 "$background" 2>/dev/null; then
      sleep 1
      [[ -f $rc_file ]] || echo "the background build ended without a status" >"$rc_file"
    fi
    sleep 1
  done
  if [[ $(cat "$rc_file") == 0 ]]; then
    pass "build $1" "(done at $(elapsed))"
    return 0
  fi
  fail "build $1" "cmake failed" "$logs/build-$1.log"
  return 1
}

echo "blake3-fast native checks: $(uname -m), $(nproc) cores; logs in $logs"

# ---- 1. ASan + UBSan harness, every kernel ------------------------------------------------------
echo "== 1. C harness with AddressSanitizer + UndefinedBehaviorSanitizer"
configure asan "$build/asan" 2 -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBLAKE3_SANITIZE=ON -DBLAKE3_JNI=OFF \
  -- blake3_harness
# The harness runs use one core: the other builds the valgrind and fuzz trees meanwhile.
have_valgrind=0 have_clang=0
command -v valgrind >/dev/null && have_valgrind=1
command -v clang-19 >/dev/null && have_clang=1
(
  [[ $have_valgrind == 1 ]] && configure plain "$build/plain" 1 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBLAKE3_DIST_DIR= -- blake3_harness blake3fast
  [[ $have_clang == 1 ]] && configure fuzz "$build/fuzz" 1 -DCMAKE_C_COMPILER=clang-19 -DBLAKE3_FUZZ=ON \
    -DBLAKE3_JNI=OFF -- blake3_fuzz
) &
background=$!
trap 'kill "$background" 2>/dev/null; rm -rf "$scratch"' EXIT
if built asan; then
  h=$build/asan/blake3_harness
  run "asan harness BLAKE3_ISA=portable" "$logs/asan-portable.log" \
    env BLAKE3_ISA=portable "$h" --vectors "$vectors" --extra "$extra"
  # the kernels this CPU has, from the harness's own report
  isas=$(sed -n 's/^supported here://p' "$logs/asan-portable.log" | tr ' ' '\n' | sed 's/(.*//' | grep -v '^$')
  echo "  kernels here: ${isas//$'\n'/ }"
  for isa in $isas; do
    [[ $isa == portable ]] && continue
    log=$logs/asan-$isa.log
    if run "asan harness BLAKE3_ISA=$isa" "$log" env BLAKE3_ISA="$isa" "$h" --vectors "$vectors" --extra "$extra"; then
      grep -q "testing up to $isa\$" "$log" ||
        fail "asan harness BLAKE3_ISA=$isa" "the cap did not select $isa" "$log"
    fi
  done
  run "asan harness, all kernels, random seed $seed" "$logs/asan-seed.log" \
    "$h" --vectors "$vectors" --extra "$extra" --seed "$seed"
fi

# The x86 kernels' inline asm asks for registers, and how many the compiler has to give depends on
# the optimisation level and the sanitizers (a frame pointer, instrumentation): every kernel file
# must compile at -O0 as at -O2, with gcc and clang, with and without ASan + UBSan.
if [[ $(uname -m) == x86_64 ]]; then
  compilers=(gcc)
  [[ $have_clang == 1 ]] && compilers+=(clang-19)
  log=$logs/asm-levels.log
  : >"$log"
  ok=1
  for cc in "${compilers[@]}"; do
    for opts in "-O0" "-O2" "-O0 -fno-omit-frame-pointer -fsanitize=address,undefined" \
      "-O2 -fno-omit-frame-pointer -fsanitize=address,undefined"; do
      for f in sse2:"" sse41:-msse4.1 avx2:-mavx2 avx512:"-mavx512f -mavx512vl"; do
        # shellcheck disable=SC2086 # opts and the ISA flags are word lists
        "$cc" $opts ${f#*:} -std=gnu11 -Inative/src -c "native/src/blake3_${f%%:*}.c" \
          -o "$scratch/asm-level.o" >>"$log" 2>&1 || { ok=0; echo "^ $cc $opts ${f%%:*}" >>"$log"; }
      done
    done
  done
  if [[ $ok == 1 ]]; then pass "x86 kernels compile at -O0/-O2, sanitizers or not" "${compilers[*]}"
  else fail "x86 kernels compile at -O0/-O2, sanitizers or not" "a compile failed" "$log"; fi
fi

# ---- 2./3. valgrind: harness and JNI glue ---------------------------------------------------------
echo "== 2. valgrind memcheck: harness (portable; valgrind's CPU) and the JNI glue"
if [[ $have_valgrind == 0 ]]; then
  missing "valgrind memcheck" valgrind
elif built plain; then
  h=$build/plain/blake3_harness
  run "valgrind harness BLAKE3_ISA=portable" "$logs/vg-portable.log" \
    env BLAKE3_ISA=portable valgrind "${valgrind_opts[@]}" "$h" --vectors "$vectors" --extra "$extra"
  run "valgrind harness, valgrind's CPU, --quick" "$logs/vg-all.log" \
    valgrind "${valgrind_opts[@]}" "$h" --quick --vectors "$vectors"
  jni_flags=()
  for d in $(sed -n 's/^-- blake3fast: JNI headers from //p' "$logs/build-plain.log" | tr ';' ' '); do
    jni_flags+=("-I$d")
  done
  mock=$scratch/jni_mock
  if gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror "${jni_flags[@]}" native/test/jni_mock.c -ldl \
       -o "$mock" >"$logs/build-jni_mock.log" 2>&1; then
    run "valgrind JNI glue (jni_mock), valgrind's CPU" "$logs/vg-jni.log" \
      valgrind "${valgrind_opts[@]}" "$mock" "$build/plain/libblake3fast.so" "$vectors"
    run "JNI glue (jni_mock), every kernel" "$logs/jni.log" \
      "$mock" "$build/plain/libblake3fast.so" "$vectors" --seed "$seed"
  else
    fail "build jni_mock" "gcc failed" "$logs/build-jni_mock.log"
  fi
fi

# ---- 4. libFuzzer ---------------------------------------------------------------------------------
echo "== 3. libFuzzer differential target, ${fuzz_seconds}s"
if [[ $have_clang == 0 ]]; then
  missing "fuzz" clang-19
elif built fuzz; then
  work=$scratch/fuzz
  mkdir -p "$work/corpus" "$work/artifacts"
  cp native/test/corpus/* "$work/corpus/"
  seeds=$(find "$work/corpus" -type f | wc -l)
  log=$logs/fuzz.log
  (cd "$work" && timeout $((fuzz_seconds + 300)) "$build/fuzz/blake3_fuzz" -max_total_time="$fuzz_seconds" \
     -max_len=4096 -timeout=60 -print_final_stats=1 -artifact_prefix="$work/artifacts/" corpus) >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  grown=$(find "$work/corpus" -type f | wc -l)
  if [[ $rc -eq 0 && -n $execs && -z $(find "$work/artifacts" -mindepth 1 -print -quit) ]]; then
    pass "fuzz ${fuzz_seconds}s" "$execs executions, corpus $seeds -> $grown inputs, no finding"
  else
    fail "fuzz ${fuzz_seconds}s" "exit $rc, ${execs:-?} executions" "$log"
    for a in "$work"/artifacts/*; do
      [[ -f $a ]] || continue
      keep=$build/fuzz-artifacts
      mkdir -p "$keep" && cp "$a" "$keep/"
      echo "  artifact $keep/$(basename "$a") ($(stat -c %s "$a") bytes); replay:"
      echo "    $build/fuzz/blake3_fuzz $keep/$(basename "$a")"
      od -An -tx1 -v "$a" | head -n 8 | sed 's/^/  | /'
    done
  fi
fi

wait "$background" 2>/dev/null
echo "== native checks done in $(elapsed)"
for f in "${failures[@]}"; do echo "  failed: $f"; done
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
