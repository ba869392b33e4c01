#!/usr/bin/env bash
# The benchmark anchor (issue 16): blake3-fast's Blake3.hash against the official BLAKE3 C code
# and assembly, the same ISA forced on both sides, in the same JMH run (AnchorBench), for every
# x86-64 ISA this CPU has, and writes bench/results/anchor.md: per ISA and size, ours MB/s,
# official MB/s and ours / official. The "portable" row is our Java engine
# (-Dblake3.native=false) against the official portable C, on JDK 17 and on Temurin 25.
# The official code is built by native/official.sh from the source Debian's librust-blake3-dev
# installs (installed there when missing). Timings are printed, never asserted.
#
#   bench/anchor.sh              full run: 2 forks, 2 x 1 s warmup, 3 x 1 s measurement (~12 min)
#   QUICK=1 bench/anchor.sh      short run for CI (~2 minutes): rough numbers
#   bench/anchor.sh -p size=1048576     extra arguments go to JMH as they are
#
# Environment:
#   QUICK=1        the short settings
#   NOBUILD=1      reuse bench/target/benchmarks.jar and bench/target/official-anchor.so
#   JAVA=/path     the java of the main rows (default: java on PATH, JDK 17 here)
#   JAVA25=/path   the second JDK of the portable row (default: Temurin 25; JAVA25=none skips it)
#   ISAS="a b"     only these of portable sse2 sse41 avx2 avx512 (default: all this CPU has)
#   PIN=true|false force how our native engine reaches arrays (-Dblake3.native.pin); default:
#                  the library's own choice, which anchor.md reports
#   RESULTS=dir    where anchor.md goes (default: bench/results)
#   WAIT_MAX=min   how long to wait for another JMH run's lock (default 30)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$root/bench/results}
java=${JAVA:-java}
java25=${JAVA25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
mkdir -p "$results"
results=$(cd "$results" && pwd)
[ "$(uname -m)" = x86_64 ] || { echo "anchor.sh: the official assembly is x86-64 only" >&2; exit 2; }

# The commit the jar is built from, taken now: the tree may move on during the runs.
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain -- java native bench/native bench/src 2>/dev/null)" ]; then
  commit="$commit (sources modified)"
fi
if [ -z "${NOBUILD:-}" ]; then
  echo "== building (mvn -B -q -pl java,bench -am -DskipTests package)"
  (cd "$root" && mvn -B -q -pl java,bench -am -DskipTests package)
  echo "== building the official C code with its JNI entry points"
  # jni.h from the JDK that runs the benchmarks.
  jhome=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.home = //p')
  OFFICIAL_JNI=1 JAVA_HOME=$jhome "$root/bench/native/official.sh" "$root/bench/target/official-anchor.so"
fi
official_src=$(printf '%s\n' /usr/share/cargo/registry/blake3-*/c | sort -V | tail -n 1)

# Private copies: a concurrent build elsewhere in the tree must not swap them mid-run.
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-anchor.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$root/bench/target/benchmarks.jar" "$work/benchmarks.jar"
cp "$root/bench/target/official-anchor.so" "$work/official.so"
cd "$work" # forks inherit the working directory: keep it where nobody else cleans up

if [ -n "${QUICK:-}" ]; then
  mode=quick
  jmh_opts=(-f 1 -wi 1 -w 400ms -i 2 -r 300ms)
else
  mode=full
  jmh_opts=(-f 2 -wi 2 -w 1s -i 3 -r 1s)
fi

if [ -n "${ISAS:-}" ]; then
  read -r -a isas <<< "$ISAS"
else
  isas=(portable)
  for isa in sse2 sse41 avx2 avx512; do
    case $isa in
      sse2) flag=sse2 ;; sse41) flag=sse4_1 ;; avx2) flag=avx2 ;; avx512) flag=avx512vl ;;
    esac
    if grep -qw "$flag" /proc/cpuinfo; then
      isas+=("$isa")
    fi
  done
fi

# One JMH run: ISA $1 on the java $2, results under the name $3.
anchor_run() {
  local isa=$1 jvm=$2 name=$3 feature
  local args="-Danchor.isa=$isa -Danchor.official=$work/official.so"
  if [ "$isa" = portable ]; then
    args+=" -Dblake3.native=false"
  else
    args+=" -Dblake3.isa=$isa"
  fi
  if [ -n "${PIN:-}" ]; then
    args+=" -Dblake3.native.pin=$PIN"
  fi
  feature=$("$jvm" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
  if [ "${feature%%.*}" -ge 22 ] 2>/dev/null; then
    args+=" --enable-native-access=ALL-UNNAMED"
  fi
  echo "== $name: $jvm, $args"
  export BLAKE3_BENCH_ENGINES="$work/$name.engines.tsv"
  local deadline=$(( $(date +%s) + 60 * ${WAIT_MAX:-30} ))
  local rc
  while true; do
    : > "$BLAKE3_BENCH_ENGINES"
    rc=0
    "$jvm" -jar "$work/benchmarks.jar" 'io\.github\.blake3fast\.bench\.AnchorBench\.' "${jmh_opts[@]}" -foe true \
      -jvmArgsAppend "$args" -rf json -rff "$work/$name.json" "${@:4}" > "$work/$name.log" 2>&1 || rc=$?
    # JMH refuses to start while another JMH run holds /tmp/jmh.lock: wait for it.
    if grep -q 'Unable to acquire the JMH lock' "$work/$name.log" && [ "$(date +%s)" -lt "$deadline" ]; then
      echo "== another JMH run holds /tmp/jmh.lock; waiting"
      sleep 30
      continue
    fi
    break
  done
  grep -E '^AnchorBench|<failure>|Exception' "$work/$name.log" || true
  # A setup that refused (wrong engine, digests that differ, an official ISA that would not load)
  # fails the whole run (-foe: JMH stops and exits non-zero).
  if [ "$rc" != 0 ] || grep -q '<failure>' "$work/$name.log" || [ ! -s "$work/$name.json" ]; then
    cp "$work/$name.log" "$results/anchor-$name.log"
    echo "anchor.sh: the $name run failed; its JMH log is in $results/anchor-$name.log" >&2
    exit 1
  fi
  printf '%s\t%s\t%s\n' "$name" "$isa" "$jvm" >> "$work/runs.tsv"
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
: > "$work/runs.tsv"
for isa in "${isas[@]}"; do
  anchor_run "$isa" "$java" "jdk-$isa" "$@"
done
if [ "$java25" != none ] && [[ " ${isas[*]} " == *" portable "* ]]; then
  [ -x "$java25" ] || { echo "anchor.sh: no $java25 (JAVA25=none skips the JDK 25 row)" >&2; exit 1; }
  anchor_run portable "$java25" jdk25-portable "$@"
fi

MODE=$mode JMH_OPTS="${jmh_opts[*]} $*" STARTED=$started FINISHED=$(date -u +%Y-%m-%dT%H:%M:%SZ) \
LOAD_BEFORE=$load_before LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg) COMMIT=$commit \
OFFICIAL=$(basename "$(dirname "$official_src")") PIN=${PIN:-} \
  python3 "$root/bench/anchor.py" "$work" "$results/anchor.md" "$results/anchor.json"
cat "$results/anchor.md"
