#!/usr/bin/env bash
# Runs the blake3-fast benchmark suite and writes bench/results/: the JMH JSON of the run,
# meta.json (machine, JDK, commit, load averages, which engine each benchmark really ran),
# footprint-*.json (what one hasher keeps alive), allocation-*.json (exact bytes allocated per
# operation, this thread only), then results.md and chart.svg via chart.py.
#
#   bench/run.sh                 full run: 2 forks, 3 x 1 s warmup, 4 x 1 s measurement (~12 min)
#   QUICK=1 bench/run.sh         smoke run: 1 fork, 1 x 0.5 s warmup, 2 x 0.5 s (~2-3 min)
#   bench/run.sh -p size=64      extra arguments go to JMH as they are
#
# Environment:
#   QUICK=1        the smoke settings above
#   NATIVE=0       build with -Dblake3.skipNative=true (no native library: the Java engine only)
#   NOBUILD=1      reuse bench/target/benchmarks.jar as it is
#   JAVA=/path     the java that runs JMH and its forks (default: java on PATH)
#   BENCH=regex    which benchmarks (default: the HashBench, StreamBench and EngineBench suites)
#   RESULTS=dir    where results go (default: bench/results)
#   WAIT_LOAD=x    before measuring, wait until the 1-minute load average is below x
#                  (checked every 30 s, for WAIT_MAX minutes at most, default 30)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
results=${RESULTS:-$root/bench/results}
java=${JAVA:-java}
bench=${BENCH:-'io\.github\.blake3fast\.bench\.(HashBench|StreamBench|EngineBench)\.'}
mkdir -p "$results"
results=$(cd "$results" && pwd)

if [ -z "${NOBUILD:-}" ]; then
  skip=()
  if [ "${NATIVE:-1}" = 0 ]; then
    skip=(-Dblake3.skipNative=true)
  fi
  echo "== building (mvn -B -q -pl java,bench -am -DskipTests ${skip[*]:-} package)"
  (cd "$root" && mvn -B -q -pl java,bench -am -DskipTests "${skip[@]}" package)
fi

# A private copy of the jar: a concurrent build elsewhere in the tree must not swap it mid-run.
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-bench.XXXXXX")
sampler=
cleanup() {
  if [ -n "$sampler" ]; then
    kill "$sampler" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
cp "$root/bench/target/benchmarks.jar" "$work/benchmarks.jar"
jar="$work/benchmarks.jar"
cd "$work" # forks inherit the working directory: keep it where nobody else cleans up

if [ -n "${QUICK:-}" ]; then
  mode=quick
  jmh_opts=(-f 1 -wi 1 -w 500ms -i 2 -r 500ms)
else
  mode=full
  jmh_opts=(-f 2 -wi 3 -w 1s -i 4 -r 1s)
fi

# JDK 22+ warns when a library loads native code without this; JDK 17 needs nothing.
feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p')
jvm_args=()
if [ "${feature%%.*}" -ge 22 ] 2>/dev/null; then
  jvm_args=(-jvmArgs --enable-native-access=ALL-UNNAMED)
fi

if [ -n "${WAIT_LOAD:-}" ]; then
  deadline=$(( $(date +%s) + 60 * ${WAIT_MAX:-30} ))
  while awk -v max="$WAIT_LOAD" '{ exit !($1 >= max) }' /proc/loadavg && [ "$(date +%s)" -lt "$deadline" ]; do
    echo "== waiting for load average < $WAIT_LOAD (now $(cut -d' ' -f1 /proc/loadavg))"
    sleep 30
  done
fi

# Load average: before, every 15 s during the run, after. The machine is shared: quote it.
: > "$work/load.txt"
(while true; do echo "$(date +%s) $(cut -d' ' -f1-3 /proc/loadavg)" >> "$work/load.txt"; sleep 15; done) &
sampler=$!

echo "== JMH ($mode: ${jmh_opts[*]} -prof gc), load average $(cut -d' ' -f1-3 /proc/loadavg)"
export BLAKE3_BENCH_ENGINES="$work/engines.tsv"
# JMH refuses to start while another JMH run holds /tmp/jmh.lock (two at once on a small
# machine would both measure garbage): wait for it, for WAIT_MAX minutes at most.
lock_deadline=$(( $(date +%s) + 60 * ${WAIT_MAX:-30} ))
while true; do
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  : > "$work/load.txt"
  "$java" -jar "$jar" "$bench" "${jmh_opts[@]}" "${jvm_args[@]}" -prof gc \
    -rf json -rff "$work/jmh.json" "$@" 2>&1 | tee "$work/jmh.log" \
    | grep -E --line-buffered '^# (Benchmark|Parameters|VM options):|^Iteration|^Result|^blake3-engine|^Benchmark|ERROR|Exception' || true
  if grep -q 'Unable to acquire the JMH lock' "$work/jmh.log" && [ "$(date +%s)" -lt "$lock_deadline" ]; then
    echo "== another JMH run holds /tmp/jmh.lock; waiting"
    sleep 30
    : > "$BLAKE3_BENCH_ENGINES"
    continue
  fi
  break
done
if [ ! -s "$work/jmh.json" ]; then
  cp "$work/jmh.log" "$results/jmh.log"
  echo "JMH wrote no results; its log is in $results/jmh.log" >&2
  exit 1
fi

echo "== hasher footprint"
footprint=(-Xms4g -Xmx4g --add-opens java.base/java.security=ALL-UNNAMED
  --add-opens java.base/sun.security.provider=ALL-UNNAMED --add-opens java.base/java.util=ALL-UNNAMED)
"$java" "${footprint[@]}" -cp "$jar" io.github.blake3fast.bench.HasherFootprint "$work/footprint-default.json"
if [ "$mode" = full ]; then
  "$java" "${footprint[@]}" -Dblake3.native=false -cp "$jar" io.github.blake3fast.bench.HasherFootprint \
    "$work/footprint-java.json" 2>/dev/null
fi

echo "== exact allocation per operation"
"$java" -cp "$jar" io.github.blake3fast.bench.AllocationCheck "$work/allocation-default.json"
if [ "$mode" = full ]; then
  "$java" -Dblake3.native=false -cp "$jar" io.github.blake3fast.bench.AllocationCheck \
    "$work/allocation-java.json" 2>/dev/null
fi

load_after=$(cut -d' ' -f1-3 /proc/loadavg)
finished=$(date -u +%Y-%m-%dT%H:%M:%SZ)
kill "$sampler" 2>/dev/null || true
sampler=

# Only complete results replace the previous ones.
rm -f "$results"/footprint-*.json "$results"/allocation-*.json
cp "$work"/footprint-*.json "$work"/allocation-*.json "$results/"
cp "$work/jmh.json" "$results/jmh.json"
cp "$work/jmh.log" "$results/jmh.log" # ignored by git (*.log)

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git -C "$root" status --porcelain -- java native 2>/dev/null)" ]; then
  commit="$commit (library sources modified)"
fi
MODE=$mode STARTED=$started FINISHED=$finished LOAD_BEFORE=$load_before LOAD_AFTER=$load_after \
COMMIT=$commit JMH_OPTS="${jmh_opts[*]} -prof gc $*" JAVA_BIN=$java WORK=$work BENCH_DIR=$root/bench \
python3 - "$results/meta.json" <<'EOF'
import json, os, platform, subprocess, sys
env = os.environ
def cpu():
    return subprocess.run([os.path.join(env['BENCH_DIR'], 'cpu.sh')], capture_output=True, text=True).stdout.strip()
java = subprocess.run([env['JAVA_BIN'], '-version'], capture_output=True, text=True).stderr.strip().splitlines()
samples = []
for line in open(os.path.join(env['WORK'], 'load.txt')):
    parts = line.split()
    if len(parts) == 4:
        samples.append([int(parts[0])] + [float(x) for x in parts[1:]])
engines = {}
try:
    for line in open(os.path.join(env['WORK'], 'engines.tsv')):
        name, _, impl = line.rstrip('\n').partition('\t')
        engines.setdefault(name, [])
        if impl not in engines[name]:
            engines[name].append(impl)
except OSError:
    pass
meta = {
    'mode': env['MODE'], 'started': env['STARTED'], 'finished': env['FINISHED'],
    'commit': env['COMMIT'], 'jmhOptions': env['JMH_OPTS'],
    'cpu': cpu(), 'cores': os.cpu_count(), 'java': java,
    # the CPUs the run may use: `taskset -c 1 bench/run.sh` pins it (JMH's forks inherit the mask)
    'cpusAllowed': sorted(os.sched_getaffinity(0)),
    'loadBefore': [float(x) for x in env['LOAD_BEFORE'].split()],
    'loadAfter': [float(x) for x in env['LOAD_AFTER'].split()],
    'loadSamples': samples,
    'engines': engines,
}
with open(sys.argv[1], 'w') as f:
    json.dump(meta, f, indent=1)
    f.write('\n')
EOF

echo "== chart"
python3 "$root/bench/chart.py" "$results"
echo "== done: $results/results.md, $results/chart.svg (load average before $load_before, after $load_after)"
