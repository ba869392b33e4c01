#!/usr/bin/env bash
# bench/native/java-engine.sh [ROUNDS [SIZE...]]: the Java engine (-Dblake3.native=false) against
# the official portable C, in one JVM per JDK and JIT setting, samples alternated
# (JavaEngineTiming): one-shot, 64-byte updates, and each of the engine's two paths forced.
# The settings approximate other CPUs on this one: -XX:UseAVX=2 (no 512-bit vectors, like an
# AVX2-only CPU), =1, =0, -XX:MaxVectorSize=16/32, -XX:-UseSuperWord (no auto-vectorization),
# the same without tiers (C2 alone), and C1 alone: the settings LaneRule tells apart.
# JDKS (default: java on PATH, and Temurin 25 where installed) and FLAGS (';'-separated sets)
# override. Needs java/target/classes and bench/target/classes (mvn -B -q -pl java,bench -am
# -DskipTests package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-41}
shift $(($# > 0 ? 1 : 0))
[ $# -gt 0 ] || set -- 16384 1048576
classes="$root/java/target/classes:$root/bench/target/classes"
if [ ! -f "$root/java/target/classes/io/github/blake3fast/JavaKernel.class" ] ||
  [ ! -f "$root/bench/target/classes/io/github/blake3fast/bench/OfficialBlake3.class" ]; then
  echo "java-engine.sh: build first: mvn -B -q -pl java,bench -am -DskipTests package" >&2
  exit 2
fi
if [ -z "${JDKS:-}" ]; then
  JDKS=$(command -v java)
  [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && JDKS+=" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
fi
FLAGS=${FLAGS:-";-XX:UseAVX=2;-XX:UseAVX=1;-XX:UseAVX=0;-XX:MaxVectorSize=16;-XX:MaxVectorSize=32;-XX:-UseSuperWord;-XX:-TieredCompilation -XX:-UseSuperWord;-XX:TieredStopAtLevel=1"}

work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-jengine.XXXXXX")
trap 'rm -rf "$work"' EXIT
jhome=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
OFFICIAL_JNI=1 JAVA_HOME=$jhome "$here/official.sh" "$work/official.so"
javac -d "$work/classes" -cp "$classes" "$root/bench/timing/JavaEngineTiming.java"

echo "CPU: $("$here/../cpu.sh"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=';' read -r -a sets <<<"$FLAGS"
for java in $JDKS; do
  for flags in "${sets[@]}"; do
    echo "== $("$java" -version 2>&1 | head -n 1) ${flags:-(defaults)}"
    access=()
    feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
    [ "${feature%%.*}" -ge 22 ] 2>/dev/null && access=(--enable-native-access=ALL-UNNAMED)
    # shellcheck disable=SC2086 # one set may hold several options
    "$java" "${access[@]}" $flags -Dblake3.native=false -Danchor.official="$work/official.so" \
      -cp "$work/classes:$classes" io.github.blake3fast.JavaEngineTiming "$rounds" "$@"
  done
done
