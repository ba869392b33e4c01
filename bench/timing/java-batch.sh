#!/usr/bin/env bash
# bench/timing/java-batch.sh [ROUNDS [COUNT [SIZE...]]]: the Java engine's hashMany (one message
# per lane of JavaLanes) against the loop of one-shots it replaced and the JDK's SHA-256 in a
# loop (JavaBatchTiming), in one JVM per JDK and JIT setting, samples alternated, thread CPU
# time. -XX:UseAVX=2 and =1 imitate CPUs with narrower vectors on this one. A size of -1 means
# lengths uniform in 0..4096. JDKS (default: java on PATH, and Temurin 25 where installed) and
# FLAGS (';'-separated sets) override; VECTOR=1 times the Vector API kernel's batch too. Needs
# java/target/classes (mvn -B -q -pl java -DskipTests package).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${1:-21}
count=${2:-1000}
shift $(($# > 2 ? 2 : $#))
[ $# -gt 0 ] || set -- 32 64 256 1024 4096 -1
classes="$root/java/target/classes"
[ -f "$classes/io/github/blake3fast/JavaBatch.class" ] ||
  { echo "java-batch.sh: build first: mvn -B -q -pl java -DskipTests package" >&2; exit 2; }
if [ -z "${JDKS:-}" ]; then
  JDKS=$(command -v java)
  [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && JDKS+=" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
fi
FLAGS=${FLAGS:-";-XX:UseAVX=2;-XX:UseAVX=1"}
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-jbatch.XXXXXX")
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$classes" "$root/bench/timing/JavaBatchTiming.java"
# VECTOR=1 adds the Vector API module: the Vector API kernel's batch is then timed too.
vector=()
[ "${VECTOR:-0}" = 1 ] && vector=(--add-modules jdk.incubator.vector)
echo "CPU: $("$root/bench/cpu.sh"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=';' read -r -a sets <<<"$FLAGS"
for java in $JDKS; do
  for flags in "${sets[@]}"; do
    echo "== $("$java" -version 2>&1 | head -n 1) ${flags:-(defaults)}"
    # shellcheck disable=SC2086 # one set may hold several options
    "$java" $flags "${vector[@]}" -Dblake3.native=false -cp "$work:$classes" io.github.blake3fast.JavaBatchTiming \
      "$rounds" "$count" "$@"
  done
done
