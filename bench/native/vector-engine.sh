#!/usr/bin/env bash
# bench/native/vector-engine.sh [ROUNDS [SIZE...]]: the Vector API engine against the scalar Java
# engine and the official C (portable, and the asm of the same vector width), in one JVM per JDK
# and -XX:UseAVX setting, samples alternated (VectorEngineTiming). Default sizes 1 KiB, 16 KiB,
# 1 MiB, 16 MiB. JDKS (default: java on PATH, and Temurin 25 where installed) and FLAGS
# (';'-separated sets, default: the defaults, -XX:UseAVX=2, -XX:UseAVX=1) override. Needs
# java/target/classes and bench/target/classes (mvn -B -q -pl java,bench -am -DskipTests package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rounds=${1:-15}
shift $(($# > 0 ? 1 : 0))
[ $# -gt 0 ] || set -- 1024 16384 1048576 16777216
classes="$root/java/target/classes:$root/bench/target/classes"
if [ ! -f "$root/java/target/classes/io/github/blake3fast/VectorKernel.class" ] ||
  [ ! -f "$root/bench/target/classes/io/github/blake3fast/bench/OfficialBlake3.class" ]; then
  echo "vector-engine.sh: build first: mvn -B -q -pl java,bench -am -DskipTests package" >&2
  exit 2
fi
if [ -z "${JDKS:-}" ]; then
  JDKS=$(command -v java)
  [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && JDKS+=" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
fi
FLAGS=${FLAGS:-";-XX:UseAVX=2;-XX:UseAVX=1"}

work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-vengine.XXXXXX")
trap 'rm -rf "$work"' EXIT
jhome=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
OFFICIAL_JNI=1 JAVA_HOME=$jhome "$here/official.sh" "$work/official.so"
javac --add-modules jdk.incubator.vector -d "$work/classes" -cp "$classes" "$here/../timing/VectorEngineTiming.java" 2>&1 |
  grep -v 'incubat' || true

echo "CPU: $("$here/../cpu.sh") ($(grep -o -m1 "avx512f" /proc/cpuinfo || echo no AVX-512)), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "MB/s, median of $rounds alternated rounds (ratio to C portable); last columns: vector/scalar, vector/asm"
IFS=';' read -r -a sets <<<"$FLAGS"
for java in $JDKS; do
  for flags in "${sets[@]}"; do
    echo "== $("$java" -version 2>&1 | head -n 1) ${flags:-(defaults)}"
    echo "| size | C portable | C asm | java scalar | java vector | vector/scalar | vector/asm |"
    access=()
    feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
    [ "${feature%%.*}" -ge 22 ] 2>/dev/null && access=(--enable-native-access=ALL-UNNAMED)
    # shellcheck disable=SC2086 # one set may hold several options
    "$java" "${access[@]}" $flags --add-modules jdk.incubator.vector -Dblake3.native=false \
      -Danchor.official="$work/official.so" -cp "$work/classes:$classes" io.github.blake3fast.VectorEngineTiming \
      "$rounds" "$@" 2>&1 | grep -v '^WARNING: Using incubator'
  done
done
