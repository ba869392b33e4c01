#!/usr/bin/env bash
# The GC-locker matrix (issue 14, item 6): runs GcLockerMain (java/src/test) in child JVMs
# for every JDK x collector x heap x variant, RUNS times each, and prints one line per cell:
# runs, runs with an OutOfMemoryError, runs with "Retried waiting for GCLocker too often",
# other failures, and the longest single allocation. Every run's output is kept under $LOGS.
#
#   bench/gclocker.sh                        # the full matrix: about 50 minutes on 2 cores
#   RUNS=3 HEAPS=64m JVMS="17-g1" bench/gclocker.sh
#
# Environment (defaults in brackets):
#   JVMS     configurations, each JDK-COLLECTOR [17-g1 17-parallel 21-g1 21-parallel 25-parallel]
#   HEAPS    [64m 128m 256m]       VARIANTS  hashers:allocators [3:3 16:16]
#   RUNS     [10]                  RUN_SECONDS per run [10]
#   CP       classpath with the library and the test classes
#            [java/target/classes:java/target/test-classes]; build them with
#            mvn -B -q -pl java -DskipTests test-compile
#   JDK17 JDK21 JDK25  java launchers [/usr/lib/jvm/java-17-openjdk-amd64/bin/java,
#            platforms/jdk21.sh's, /usr/lib/jvm/temurin-25-jdk-amd64/bin/java]
#   EXTRA    more JVM options (e.g. -Dblake3.native=false)    LOGS  [/tmp/blake3-gclocker]
set -euo pipefail
cd "$(dirname "$0")/.."
JVMS=${JVMS:-"17-g1 17-parallel 21-g1 21-parallel 25-parallel"}
HEAPS=${HEAPS:-"64m 128m 256m"}
VARIANTS=${VARIANTS:-"3:3 16:16"}
RUNS=${RUNS:-10}
SECONDS_PER_RUN=${RUN_SECONDS:-10}
CP=${CP:-java/target/classes:java/target/test-classes}
LOGS=${LOGS:-/tmp/blake3-gclocker}
EXTRA=${EXTRA:-}
mkdir -p "$LOGS"

java_for() {
  case "$1" in
    17) echo "${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64/bin/java}" ;;
    21) echo "${JDK21:-$(platforms/jdk21.sh)}" ;;
    25) echo "${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}" ;;
    *) echo "unknown JDK $1" >&2; return 1 ;;
  esac
}

gc_flag() {
  case "$1" in
    g1) echo -XX:+UseG1GC ;; parallel) echo -XX:+UseParallelGC ;; serial) echo -XX:+UseSerialGC ;;
    z) echo -XX:+UseZGC ;; shenandoah) echo -XX:+UseShenandoahGC ;;
    *) echo "unknown collector $1" >&2; return 1 ;;
  esac
}

printf '%-14s %-5s %-6s %5s %5s %9s %6s %s\n' jvm heap thr runs OOM GCLocker other "longest alloc ms"
for jvm in $JVMS; do
  java=$(java_for "${jvm%%-*}")
  gc=$(gc_flag "${jvm#*-}")
  native=()
  [ "${jvm%%-*}" -ge 22 ] && native=(--enable-native-access=ALL-UNNAMED)
  for heap in $HEAPS; do
    for variant in $VARIANTS; do
      oom=0 locker=0 other=0 longest=0
      for run in $(seq 1 "$RUNS"); do
        log="$LOGS/$jvm-$heap-${variant/:/x}-$run.log"
        status=0
        # shellcheck disable=SC2086 # EXTRA: options, one word each
        timeout $((SECONDS_PER_RUN + 120)) "$java" "${native[@]}" "$gc" "-Xmx$heap" $EXTRA -cp "$CP" \
          io.github.blake3fast.GcLockerMain "$SECONDS_PER_RUN" "${variant%%:*}" "${variant##*:}" \
          >"$log" 2>&1 || status=$?
        if grep -q OutOfMemoryError "$log"; then oom=$((oom + 1));
        elif [ "$status" != 0 ]; then other=$((other + 1)); fi
        grep -q "Retried waiting for GCLocker too often" "$log" && locker=$((locker + 1))
        ms=$(sed -n 's/.*longest allocation \([0-9]*\) ms.*/\1/p' "$log")
        [ -n "$ms" ] && [ "$ms" -gt "$longest" ] && longest=$ms
      done
      printf '%-14s %-5s %-6s %5d %5d %9d %6d %d\n' "$jvm" "$heap" "$variant" "$RUNS" "$oom" "$locker" "$other" \
        "$longest"
    done
  done
done
