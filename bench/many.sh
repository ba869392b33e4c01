#!/usr/bin/env bash
# Many small messages (issue 26): ManyBench per x86-64 ISA, Blake3.hashMany against a loop of
# Blake3.hash, the official BLAKE3 C code one hasher per message (same ISA forced) and the JDK's
# SHA-256 in a loop, in one JMH run per ISA; writes bench/results/many.md (MB/s and ratios).
#
#   bench/many.sh                 every ISA this CPU has; the full grid for the best one, 64 B,
#                                 1 KiB and mixed at 1,000 messages for the others
#   QUICK=1 bench/many.sh         a short run (CI): 1 KiB, 64 B and mixed at 1,000 messages
#   ISAS="avx2 avx512" ...        only these ISAs
# Environment: NOBUILD=1 (reuse the jar and official-anchor.so), JAVA=/path, RESULTS=dir.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$root/bench/results}
java=${JAVA:-java}
mkdir -p "$results"
results=$(cd "$results" && pwd)
[ "$(uname -m)" = x86_64 ] || { echo "many.sh: the official assembly is x86-64 only" >&2; exit 2; }
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -z "${NOBUILD:-}" ]; then
  (cd "$root" && mvn -B -q -pl java,bench -am -DskipTests package)
  jhome=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.home = //p')
  OFFICIAL_JNI=1 JAVA_HOME=$jhome "$root/bench/native/official.sh" "$root/bench/target/official-anchor.so"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-many.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$root/bench/target/benchmarks.jar" "$work/benchmarks.jar"
cp "$root/bench/target/official-anchor.so" "$work/official.so"
cd "$work"
if [ -n "${ISAS:-}" ]; then
  read -r -a isas <<< "$ISAS"
else
  isas=()
  for isa in sse2 sse41 avx2 avx512; do
    case $isa in sse2) f=sse2 ;; sse41) f=sse4_1 ;; avx2) f=avx2 ;; avx512) f=avx512vl ;; esac
    grep -qw "$f" /proc/cpuinfo && isas+=("$isa")
  done
fi
best=${isas[${#isas[@]}-1]}
if [ -n "${QUICK:-}" ]; then
  timing=(-f 1 -wi 2 -w 300ms -i 3 -r 300ms)
else
  timing=(-f 1 -wi 2 -w 1s -i 5 -r 1s)
fi
feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
: > "$work/runs.tsv"
for isa in "${isas[@]}"; do
  args="-Danchor.isa=$isa -Danchor.official=$work/official.so -Dblake3.isa=$isa"
  [ "${feature%%.*}" -ge 22 ] 2>/dev/null && args+=" --enable-native-access=ALL-UNNAMED"
  if [ "$isa" = "$best" ] && [ -z "${QUICK:-}" ]; then
    grid=()
  else
    grid=(-p "size=64,1024,-1" -p count=1000)
  fi
  echo "== $isa: $args ${grid[*]}"
  "$java" -jar benchmarks.jar 'ManyBench\.(hashMany|hashLoop|officialLoop|sha256Loop)$' "${timing[@]}" -foe true \
    -jvmArgsAppend "$args" "${grid[@]}" -rf json -rff "$work/$isa.json" > "$work/$isa.log" 2>&1 ||
    { tail -30 "$work/$isa.log"; exit 1; }
  "$java" -jar benchmarks.jar 'ManyBench\.oneMiB$' "${timing[@]}" -foe true -jvmArgsAppend "$args" \
    -p size=1024 -p count=16 -rf json -rff "$work/$isa-mib.json" > "$work/$isa-mib.log" 2>&1 ||
    { tail -30 "$work/$isa-mib.log"; exit 1; }
  printf '%s\n' "$isa" >> "$work/runs.tsv"
done
COMMIT=$commit JAVA_VERSION=$("$java" -version 2>&1 | head -1) python3 "$root/bench/many.py" "$work" "$results/many.md"
cat "$results/many.md"
