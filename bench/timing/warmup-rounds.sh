#!/usr/bin/env bash
# bench/timing/warmup-rounds.sh [REPS [ROUNDS]]: how many rounds of the Vector API engine's
# warm-up (WarmingVectorKernel.WarmUpWork) C2 needs, per JDK and setting: WarmUpRounds under
# -XX:+LogCompilation, then the round by which C2 had installed (not just started) its code for
# every round method of VectorCompress (round1 ... round7, round1Lanes) and the load method of
# VectorTranspose for the width it compiled (the small dispatchers, compress and load, are left
# out: C2 inlines them into their callers, and compiles them alone late or never), with the JVM's
# uptime and CPU time then. Settings: two cores idle, one core (taskset -c 0), two cores with 1 and 3 threads
# hashing on the scalar engine. JDKS (default: java on PATH, and Temurin 25 where installed)
# overrides. Default REPS 2, ROUNDS 3000. Needs java/target/classes (mvn -B -q -pl java -DskipTests package).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
reps=${1:-2}
rounds=${2:-3000}
classes="$root/java/target/classes"
if [ -z "${JDKS:-}" ]; then
  JDKS=$(command -v java)
  [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && JDKS+=" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-wrounds.XXXXXX")
trap 'rm -rf "$work"' EXIT
javac --add-modules jdk.incubator.vector -d "$work/classes" -cp "$classes" "$here/WarmUpRounds.java" 2>&1 |
  grep -v 'incubat' || true

echo "CPU: $("$here/../cpu.sh"), $(nproc) cores; $rounds rounds a run"
for _ in $(seq "$reps"); do
  for java in $JDKS; do
    for setting in "0,1 0" "0 0" "0,1 1" "0,1 3"; do
      read -r cpus busy <<<"$setting"
      load=$(cut -d' ' -f1 /proc/loadavg)
      taskset -c "$cpus" "$java" --add-modules jdk.incubator.vector -XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation \
        -XX:LogFile="$work/compile.log" -cp "$work/classes:$classes" io.github.blake3fast.WarmUpRounds "$rounds" "$busy" \
        >"$work/rounds.txt" 2>/dev/null
      echo "$("$java" -version 2>&1 | head -n 1 | cut -d'"' -f2) cpus $cpus busy $busy load $load: $(python3 - "$work/rounds.txt" "$work/compile.log" <<'PY'
import re, sys
rounds = [l.split() for l in open(sys.argv[1]) if l.startswith("round ")]
end = [int(r[2]) / 1000 for r in rounds]
cpu = [int(r[4]) / 1000 for r in rounds]
pcpu = [int(r[6]) / 1000 for r in rounds]
vector = re.compile(r"io\.github\.blake3fast\.(VectorCompress round|VectorTranspose load\d)")
installed = {}
for line in open(sys.argv[2]):
    if line.startswith("<nmethod") and "compiler='c2'" in line and "compile_kind='osr'" not in line:
        m = re.search(r"method='([^']*)'", line).group(1)
        if vector.match(m):
            installed.setdefault(m.split(" (")[0], float(re.search(r"stamp='([\d.]+)'", line).group(1)) * 1000)
name, at = max(installed.items(), key=lambda kv: kv[1])
i = next((k for k, e in enumerate(end) if e >= at), len(end))
j = min(i, len(end) - 1)
print(f"{len(installed)} vector methods in C2 by round {i} (last {name.split('.')[-1]}), at {end[j]:.0f} ms uptime,"
      f" thread cpu {cpu[j]:.0f} ms, process cpu {pcpu[j]:.0f} ms; {len(end)} rounds done at {end[-1]:.0f} ms,"
      f" thread cpu {cpu[-1]:.0f} ms")
PY
)"
    done
  done
done
