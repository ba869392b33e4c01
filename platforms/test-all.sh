#!/usr/bin/env bash
# Runs the cross-platform suite: for every platform and every CPU model in its descriptor
#   (a) the C harness (build/cmake-<arch>/blake3_harness) under qemu with the official vectors,
#       checking that the dispatcher picked the kernel the descriptor expects (the portable
#       fallback where the CPU model turns the feature off);
#   (b) that architecture's own JVM under qemu on the built jar + test classes:
#       io.github.blake3fast.PlatformCheck (vectors, streaming, implementation() == expected);
#   (c) what a CPU entry adds with also=: under wine, blake3_win64_abi.exe (every kernel keeps
#       the Win64 callee-saved registers) and blake3_jni_mock.exe (the DLL's JNI entry points
#       driven by a mock JVM). Windows has no JVM here, ppc64 none either (jvm=no).
# Then prints a table and exits non-zero on any failure. The only failure tolerated is a
# JRE that setup.sh could not fetch for a platform whose descriptor says JRE_OPTIONAL=1
# (loong64 from sid): it is reported as SKIPPED, loudly.
#
# Needs: platforms/setup.sh and platforms/build-all.sh done; the jar built after build-all
# (java/target/blake3-fast-*.jar and java/target/test-classes). When the jar is missing or
# does not carry the libraries in build/native/, this script runs Maven to repackage it
# (BLAKE3_BUILD_JAR=0 turns that off).
#
# Environment: BLAKE3_PLATFORMS (subset), BLAKE3_TEST_JOBS (parallel runs, default 2),
# BLAKE3_HARNESS_ARGS (extra harness arguments, e.g. --quick), BLAKE3_NO_JVM=1,
# BLAKE3_NO_HARNESS=1, BLAKE3_TASK_TIMEOUT (seconds per run, default 900).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

t_all=$(b3_now)
parallel=${BLAKE3_TEST_JOBS:-2}
task_timeout=${BLAKE3_TASK_TIMEOUT:-900}
logs="$B3_BUILD/test-all"
rm -rf "$logs" && mkdir -p "$logs"

# ---- inputs -----------------------------------------------------------------------------

vectors_json=${BLAKE3_VECTORS:-$B3_ROOT/test-vectors/test_vectors.json}
vectors_txt="$B3_ROOT/test-vectors/test_vectors.txt"
extra_json="$B3_ROOT/test-vectors/extra_vectors.json"
[ -f "$vectors_json" ] || b3_die "no $vectors_json"
harness_args=()
[ -f "$vectors_txt" ] && harness_args+=(--vectors "$vectors_txt")
[ -f "$extra_json" ] && harness_args+=(--extra "$extra_json")
# shellcheck disable=SC2206
[ -n "${BLAKE3_HARNESS_ARGS:-}" ] && harness_args+=($BLAKE3_HARNESS_ARGS)

host_java_home=$(b3_host_java_home) || b3_die "no host JDK (set JAVA_HOME)"
b3_wine_env

find_jar() {
  local j
  for j in "$B3_ROOT"/java/target/blake3-fast-*.jar; do
    case "$j" in *-sources.jar | *-javadoc.jar | *-tests.jar) continue ;; esac
    [ -f "$j" ] && { echo "$j"; return 0; }
  done
  return 0
}

# Does the jar carry exactly the libraries build-all.sh left in build/native/?
jar_is_current() {
  local jar=$1 tmp so rel
  [ -n "$jar" ] && [ -f "$jar" ] || return 1
  [ -d "$B3_ROOT/java/target/test-classes/io/github/blake3fast" ] || return 1
  [ -f "$B3_ROOT/java/target/test-classes/io/github/blake3fast/PlatformCheck.class" ] || return 1
  tmp=$(mktemp -d)
  (cd "$tmp" && unzip -q -o "$jar" 'META-INF/native/*' 2>/dev/null) || true
  for so in "$B3_BUILD"/native/*/libblake3fast.so "$B3_BUILD"/native/*/blake3fast.dll; do
    [ -f "$so" ] || continue
    rel=${so#"$B3_BUILD"/native/}
    if ! cmp -s "$so" "$tmp/META-INF/native/$rel"; then
      echo "the jar's META-INF/native/$rel differs from $so" >&2
      rm -rf "$tmp"
      return 1
    fi
  done
  rm -rf "$tmp"
}

jar=$(find_jar)
if [ "${BLAKE3_NO_JVM:-}" != 1 ] && ! jar_is_current "$jar"; then
  if [ "${BLAKE3_BUILD_JAR:-1}" = 0 ]; then
    b3_die "the jar is missing or stale (BLAKE3_BUILD_JAR=0): run 'mvn -B -pl java package -DskipTests'"
  fi
  b3_log "packaging the jar with the libraries from build/native (mvn -pl java package -DskipTests)"
  t=$(b3_now)
  (cd "$B3_ROOT" && mvn -B -q -pl java package -DskipTests -Dblake3.isaRuns.skip=true) \
    >"$logs/mvn-package.log" 2>&1 || { tail -30 "$logs/mvn-package.log" >&2; b3_die "mvn package failed"; }
  jar=$(find_jar)
  jar_is_current "$jar" || b3_die "the jar still does not carry build/native/ (see $logs/mvn-package.log)"
  b3_log "jar packaged in $(b3_elapsed "$t") s"
fi
# A private copy, so that a Maven run in the same tree (another shell, an IDE) cannot swap the
# classes out from under the emulated JVMs halfway through.
classpath=""
if [ "${BLAKE3_NO_JVM:-}" != 1 ]; then
  mkdir -p "$logs/classpath"
  cp "$jar" "$logs/classpath/blake3-fast.jar"
  cp -r "$B3_ROOT/java/target/test-classes" "$logs/classpath/test-classes"
  classpath="$logs/classpath/blake3-fast.jar:$logs/classpath/test-classes"
  b3_log "testing $(basename "$jar") with: $(unzip -Z1 "$jar" 'META-INF/native/*' 2>/dev/null |
    sed -n 's|^META-INF/native/\([^/]*\)/\(lib\)\{0,1\}blake3fast\.[a-z]*$|\1|p' | tr '\n' ' ')"
fi

# ---- the task list ------------------------------------------------------------------------

# One line per run: KIND|ARCH|CPU|EXPECTED|QEMU[|PRELOAD]   (KIND: harness, freestanding, jvm;
# QEMU: the descriptor's, or the CPU entry's qemu= option; PRELOAD: a harness run's preload=)
tasks=()
for arch in $(b3_selected_platforms); do
  b3_load_conf "$arch"
  for entry in "${CPUS[@]}"; do
    read -r cpu expected options <<<"$entry"
    [ "$expected" = auto ] && expected=$(b3_host_x86_isa)
    harness=normal
    jvm=yes
    vector=no
    qemu=$QEMU
    also=""
    hkind=harness
    preload=""
    for opt in $options; do
      case "$opt" in
        extra=no) hkind=harness_noextra ;;
        preload=*) preload=${opt#preload=} ;;
        also=*) also=${opt#also=} ;;
        harness=*) harness=${opt#harness=} ;;
        jvm=*) jvm=${opt#jvm=} ;;
        vector=*) vector=${opt#vector=} ;;
        qemu=*) qemu=${opt#qemu=} ;;
        *) b3_die "platforms/$arch.conf: unknown option '$opt' in CPU entry '$entry'" ;;
      esac
    done
    if [ "${BLAKE3_NO_HARNESS:-}" != 1 ]; then
      if [ "$harness" = freestanding ]; then tasks+=("freestanding|$arch|$cpu|$expected|$qemu")
      else tasks+=("$hkind|$arch|$cpu|$expected|$qemu|$preload"); fi
    fi
    if [ "$jvm" = yes ] && [ "${BLAKE3_NO_JVM:-}" != 1 ]; then tasks+=("jvm|$arch|$cpu|$expected|$qemu"); fi
    if [ "${BLAKE3_NO_HARNESS:-}" != 1 ]; then
      for extra in ${also//,/ }; do tasks+=("$extra|$arch|$cpu|$expected|$qemu"); done
    fi
    # The Vector API engine (issue 28), forced, in the same JVM: expected java-vector-<bits>.
    if [ "$vector" = yes ] && [ "${BLAKE3_NO_JVM:-}" != 1 ]; then tasks+=("jvmvector|$arch|$cpu|$expected|$qemu"); fi
  done
done

# qemu command (array, printed one word per line) for ARCH's descriptor and a CPU model.
emulator() {
  local cpu=$1 root=$2 q
  if [ "$cpu" = host ]; then return 0; fi
  q=$(b3_qemu_path "$QEMU")
  [ -n "$q" ] || { echo "MISSING:$QEMU"; return 0; }
  echo "$q"
  if [ "$cpu" = wine ]; then return 0; fi # wine runs on this CPU, with its own C runtime
  if [ "$cpu" != default ]; then echo -cpu; echo "$cpu"; fi
  if [ -n "$root" ]; then echo -L; echo "$root"; fi
}

# run_task INDEX SPEC: runs one task, writes $logs/INDEX.log and $logs/INDEX.result
# (STATUS|KERNEL|SUMMARY|SECONDS; STATUS = PASS, FAIL or SKIP).
run_task() {
  local idx=$1 kind arch cpu expected qemu preload noextra=0
  IFS='|' read -r kind arch cpu expected qemu preload <<<"$2"
  if [ "$kind" = harness_noextra ]; then kind=harness; noextra=1; fi
  b3_load_conf "$arch"
  QEMU=$qemu
  local log="$logs/$idx.log" t0 status=FAIL kernel="?" summary="" rc=0
  local -a cmd=() emu=()
  t0=$(b3_now)
  case "$kind" in
    harness | freestanding | win64_abi | jni_mock)
      local exe="$B3_BUILD/cmake-$arch/blake3_harness" root
      root=$(b3_resolve "$C_RUNTIME_ROOT")
      if [ "$kind" = freestanding ]; then exe="$B3_BUILD/freestanding-$arch/fs_harness"; root=""; fi
      [ "$kind" = win64_abi ] && exe="$B3_BUILD/cmake-$arch/blake3_win64_abi"
      [ "$kind" = jni_mock ] && exe="$B3_BUILD/cmake-$arch/blake3_jni_mock"
      [ "${LIB_FORMAT:-elf}" = pe ] && exe="$exe.exe"
      [ "$arch" = x86_64 ] && root=""
      mapfile -t emu < <(emulator "$cpu" "$root")
      local so="$B3_BUILD/cmake-$arch/lib$preload.so"
      if [ ! -x "$exe" ]; then
        summary="not built ($exe): run platforms/build-all.sh"
      elif [ -n "$preload" ] && [ ! -f "$so" ]; then
        summary="not built ($so): run platforms/build-all.sh"
      elif [[ "${emu[0]:-}" == MISSING:* ]]; then
        summary="no ${emu[0]#MISSING:}: run platforms/setup.sh"
      else
        case "$kind" in
          harness)
            cmd=("${emu[@]}")
            [ -n "$preload" ] && cmd+=(-E "LD_PRELOAD=$so") # qemu's option: the guest's environment
            cmd+=("$exe")
            for a in "${harness_args[@]}"; do
              if [ $noextra = 1 ] && [ "${cmd[-1]}" = --extra ]; then unset 'cmd[-1]'; continue; fi
              cmd+=("$a")
            done
            ;;
          jni_mock) cmd=("${emu[@]}" "$exe" "$B3_BUILD/native/$PLATFORM/$(b3_lib_name)" "$vectors_txt") ;;
          *) cmd=("${emu[@]}" "$exe") ;;
        esac
        echo "\$ ${cmd[*]}" >"$log"
        env -u BLAKE3_ISA timeout "$task_timeout" "${cmd[@]}" >>"$log" 2>&1 || rc=$?
        # msvcrt writes text mode: drop the CRs of wine runs before the log is read.
        [ "${LIB_FORMAT:-elf}" = pe ] && sed -i 's/\r$//' "$log"
        if [ "$kind" = harness ]; then
          kernel=$(sed -n 's/^cap: .* -> testing up to \([a-z0-9]*\).*/\1/p' "$log" | head -1)
        elif [ "$kind" = win64_abi ]; then # the last kernel it ran
          kernel=$(sed -n 's/^  \[\([a-z0-9]*\) *\].*/\1/p' "$log" | tail -1)
        elif [ "$kind" = jni_mock ]; then
          kernel=$(sed -n 's/^ISAs:.* \([a-z0-9]*\)$/\1/p' "$log" | head -1)
        else
          kernel=$(sed -n 's/^kernel=//p' "$log" | head -1)
        fi
        summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
        [ -n "$summary" ] || summary="no result line (exit $rc): $(tail -1 "$log" | cut -c1-80)"
        if [ $rc = 0 ] && [ "$kernel" = "$expected" ] && [[ "$summary" == *" 0 failed" ]]; then
          status=PASS
        elif [ $rc = 0 ] && [ "$kernel" != "$expected" ]; then
          summary="$summary; picked $kernel, expected $expected"
        elif [ $rc != 0 ]; then
          summary="$summary (exit $rc)"
        fi
      fi
      ;;
    jvm | jvmvector)
      local java root expect_impl="native-$expected"
      [ "$kind" = jvmvector ] && expect_impl="java-vector"
      if [ "$JRE" = host ]; then
        java="$host_java_home/bin/java"
        root=""
      else
        root="$B3_CACHE/jre/$DEBIAN_ARCH"
        java=""
        [ -f "$root.ok" ] && java=$(b3_jre_java "$root")
      fi
      mapfile -t emu < <(emulator "$cpu" "$root")
      if [ -z "$java" ]; then
        if [ "${JRE_OPTIONAL:-0}" = 1 ] && [ -f "$root.SKIPPED" ]; then
          status=SKIP
          summary="SKIPPED, tolerated: $(head -1 "$root.SKIPPED")"
        else
          summary="no $DEBIAN_ARCH JRE in $root ($(sed -n 2p "$root.SKIPPED" 2>/dev/null || echo "run platforms/setup.sh"))"
        fi
      elif [[ "${emu[0]:-}" == MISSING:* ]]; then
        summary="no ${emu[0]#MISSING:}: run platforms/setup.sh"
      else
        local -a jvm_opts=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -Xshare:auto)
        # Vector API code under C1 alone runs as objects: this run gets C2.
        [ "$kind" = jvmvector ] && jvm_opts=(-XX:+UseSerialGC -XX:-UsePerfData -Xshare:auto
          --add-modules jdk.incubator.vector -Dblake3.native=false -Dblake3.vector=true)
        cmd=("${emu[@]}" "$java" "${jvm_opts[@]}" -cp "$classpath" -Dexpect.impl="$expect_impl"
          io.github.blake3fast.PlatformCheck "$vectors_json")
        echo "\$ ${cmd[*]}" >"$log"
        env -u JAVA_TOOL_OPTIONS -u JDK_JAVA_OPTIONS -u _JAVA_OPTIONS \
          timeout "$task_timeout" "${cmd[@]}" >>"$log" 2>&1 || rc=$?
        kernel=$(sed -n 's/^implementation: //p' "$log" | head -1)
        summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1 || true)
        [ -n "$summary" ] || summary="no result line (exit $rc): $(tail -1 "$log" | cut -c1-80)"
        local impl_ok=no
        [ "$kernel" = "$expect_impl" ] && impl_ok=yes
        [ "$kind" = jvmvector ] && [[ "$kernel" == java-vector-* ]] && impl_ok=yes
        if [ $rc = 0 ] && [ $impl_ok = yes ] && [[ "$summary" == *" 0 failed" ]]; then
          status=PASS
        elif [ $impl_ok = no ]; then
          summary="$summary; implementation() = '$kernel', expected $expect_impl"
        else
          summary="$summary (exit $rc)"
        fi
        kernel=${kernel#native-}
      fi
      ;;
  esac
  printf '%s|%s|%s|%s\n' "$status" "$kernel" "$summary" "$(b3_elapsed "$t0")" >"$logs/$idx.result"
}

# ---- run them, $parallel at a time ------------------------------------------------------------

b3_log "running ${#tasks[@]} checks, $parallel at a time (logs: $logs)"
declare -A running=()
next=0
done_count=0
report_done() {
  local idx=$1 spec=${tasks[$1]} r
  r=$(cat "$logs/$idx.result" 2>/dev/null || echo "FAIL|?|the run died|0")
  IFS='|' read -r kind arch cpu expected qemu _ <<<"$spec"
  IFS='|' read -r st kern summ secs <<<"$r"
  done_count=$((done_count + 1))
  b3_log "[$done_count/${#tasks[@]}] $st $kind $(b3_platform_of "$arch") cpu=$cpu kernel=$kern ($summ) ${secs}s"
}
while [ $next -lt ${#tasks[@]} ] || [ ${#running[@]} -gt 0 ]; do
  while [ $next -lt ${#tasks[@]} ] && [ ${#running[@]} -lt "$parallel" ]; do
    run_task "$next" "${tasks[$next]}" &
    running[$!]=$next
    next=$((next + 1))
  done
  # wait for one of ours to finish (each pid is waited on explicitly)
  finished=""
  while [ -z "$finished" ]; do
    for pid in "${!running[@]}"; do
      if ! kill -0 "$pid" 2>/dev/null; then finished=$pid; break; fi
    done
    [ -z "$finished" ] && sleep 0.2
  done
  wait "$finished" || true
  report_done "${running[$finished]}"
  unset "running[$finished]"
done

# ---- summary --------------------------------------------------------------------------------

declare -A c_res=() j_res=() kern=() secs_sum=() row_seen=()
rows=()
failures=0
skips=0
for idx in "${!tasks[@]}"; do
  IFS='|' read -r kind arch cpu expected qemu preload <<<"${tasks[$idx]}"
  IFS='|' read -r st k summ secs <<<"$(cat "$logs/$idx.result" 2>/dev/null || echo "FAIL|?|the run died|0")"
  label=$cpu
  b3_load_conf "$arch"
  if [ "$qemu" != "$QEMU" ]; then
    case "$qemu" in @qemu10/*) label="$label [qemu 10]" ;; *) label="$label [$qemu]" ;; esac
  fi
  [ "$kind" = freestanding ] && label="$cpu (freestanding)"
  [ "$kind" = harness_noextra ] && label="$cpu (no --extra)"
  [ -n "$preload" ] && label="$label, $preload preloaded"
  [ "$kind" = win64_abi ] && label="$cpu: Win64 registers"
  [ "$kind" = jni_mock ] && label="$cpu: JNI via mock JVM"
  [ "$kind" = jvmvector ] && label="$cpu (Vector API)"
  key="$arch|$label"
  if [ -z "${row_seen[$key]:-}" ]; then row_seen[$key]=1; rows+=("$key"); fi
  case "$st" in
    PASS) cell="ok: $summ" ;;
    SKIP) cell="SKIPPED (tolerated)"; skips=$((skips + 1)) ;;
    *) cell="FAIL: $summ [log $logs/$idx.log]"; failures=$((failures + 1)) ;;
  esac
  if [ "$kind" = jvm ] || [ "$kind" = jvmvector ]; then j_res[$key]=$cell; else c_res[$key]=$cell; fi
  if [ "$k" != "?" ] && [ -n "$k" ]; then
    if [ -z "${kern[$key]:-}" ]; then kern[$key]="$k (want $expected)"
    elif [[ "${kern[$key]}" != "$k "* ]]; then kern[$key]="${kern[$key]} / jvm: $k"; fi
  fi
  secs_sum[$key]=$(awk -v a="${secs_sum[$key]:-0}" -v b="$secs" 'BEGIN { printf "%.1f", a + b }')
done

echo
echo "==== cross-platform suite: $((${#tasks[@]} - failures - skips)) of ${#tasks[@]} runs passed, $failures failed, $skips skipped ($(b3_elapsed "$t_all") s wall) ===="
printf '%-18s %-40s %-24s %-28s %-28s %7s\n' platform "CPU model" kernel "C harness" JVM "time s"
for key in "${rows[@]}"; do
  IFS='|' read -r arch label <<<"$key"
  printf '%-18s %-40s %-24s %-28s %-28s %7s\n' "$(b3_platform_of "$arch")" "$label" "${kern[$key]:-?}" \
    "${c_res[$key]:--}" "${j_res[$key]:--}" "${secs_sum[$key]}"
done
if [ $skips -gt 0 ]; then
  echo
  echo "################################################################################"
  echo "### $skips JVM run(s) SKIPPED: a JRE marked optional could not be fetched (see above)."
  echo "################################################################################"
fi
echo "$(( ${#tasks[@]} - failures - skips )) passed, $failures failed, $skips skipped"
[ $failures = 0 ]
