#!/usr/bin/env bash
# bench/files/run.sh [JAR...]: file hashing against Debian's b3sum (issue 16, item 4).
#
# Makes a 1 GiB file and 1000 files of 4 KiB under a temporary directory in /tmp (deleted on
# exit), warms the page cache, then:
#   1. in one JVM per jar, rounds of Debian's b3sum, cat and Blake3.hashFile (FileTiming.java);
#      the jars take turns, twice;
#   2. rounds of one hyperfine run each of ./b3sum FILE, Debian's b3sum FILE and an empty main
#      started with the flags and archive ./b3sum uses (read from `bash -x ./b3sum`), on the
#      1 GiB file and on one small file; of ./b3sum and b3sum on the 1000 small files.
# Default JAR: java/target/blake3-fast-*.jar (what ./b3sum runs). Needs b3sum, hyperfine.
# ROUNDS (default 7) rounds per JVM, RUNS (default 10) alternating rounds of the commands.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
rounds=${ROUNDS:-7}
runs=${RUNS:-10}
jars=("$@")
if [ ${#jars[@]} -eq 0 ]; then
  for f in "$root"/java/target/blake3-fast-*.jar; do
    case $f in *-sources.jar | *-javadoc.jar | *-tests.jar) ;; *) jars+=("$f") ;; esac
  done
fi
for tool in b3sum hyperfine; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/b3files.XXXXXX)
trap 'rm -rf "$work"' EXIT
head -c 1073741824 /dev/urandom >"$work/big"
mkdir "$work/many"
for i in $(seq -w 1 1000); do head -c 4096 /dev/urandom >"$work/many/f$i"; done
head -c 1000 /dev/urandom >"$work/small"
cat "$work/big" "$work"/many/* >/dev/null

echo "== $(nproc) CPUs, $("$root/bench/cpu.sh"), load $(cut -d' ' -f1-3 /proc/loadavg)"
for pass in 1 2; do
  for jar in "${jars[@]}"; do
    echo "== in-process, pass $pass: $jar"
    java -cp "$jar" "$root/bench/timing/FileTiming.java" big "$work/big" "$rounds"
    java -cp "$jar" "$root/bench/timing/FileTiming.java" many "$work/many" "$rounds"
  done
done

# The JVM flags of ./b3sum, as it would exec java (its first run also makes its archive).
"$root/b3sum" "$work/small" >/dev/null
line=$(bash -x "$root/b3sum" "$work/small" 2>&1 >/dev/null | grep -E '^\+ exec ' | tail -1)
read -r -a words <<<"${line#+ exec }"
java=${words[0]}
flags=()
for ((i = 1; i < ${#words[@]}; i++)); do
  [ "${words[i]}" = -jar ] && { jar=${words[i + 1]}; break; }
  flags+=("${words[i]}")
done
printf 'public class Empty { public static void main(String[] a) {} }\n' >"$work/Empty.java"
javac -d "$work" "$work/Empty.java"
empty="$java ${flags[*]} -cp $jar:$work Empty"
echo "== empty main: $empty"

# hyperfine runs one command's runs together; alternating needs one run of each per round.
# Prints per command the median wall time over the rounds, and per round the ratio of ./b3sum
# to (Debian's b3sum + the empty main) measured in that round.
alternate() { # NAME COMMAND...
  local name=$1 r
  shift
  for ((r = 0; r < runs; r++)); do
    hyperfine -N --runs 1 --style none --export-json "$work/$name.$r.json" "$@" >/dev/null
  done
  python3 - "$work" "$name" "$runs" <<'PY'
import json, statistics, sys
work, name, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
rounds = [json.load(open(f"{work}/{name}.{r}.json"))["results"] for r in range(runs)]
for i, res in enumerate(rounds[0]):
    wall = [rs[i]["mean"] for rs in rounds]
    user = [rs[i]["user"] for rs in rounds]
    system = [rs[i]["system"] for rs in rounds]
    print(f"{name}: {res['command'][:60]:60s} median wall {statistics.median(wall):.3f} s, "
          f"user {statistics.median(user):.3f}, sys {statistics.median(system):.3f}")
if len(rounds[0]) == 3:
    ratios = [rs[0]["mean"] / (rs[1]["mean"] + rs[2]["mean"]) for rs in rounds]
    print(f"{name}: ./b3sum / (b3sum + empty main) per round: median {statistics.median(ratios):.2f}, "
          f"range {min(ratios):.2f}-{max(ratios):.2f}")
else:
    ratios = [rs[0]["mean"] / rs[1]["mean"] for rs in rounds]
    print(f"{name}: ./b3sum / b3sum per round: median {statistics.median(ratios):.2f}")
PY
}

echo "== alternating rounds, load $(cut -d' ' -f1-3 /proc/loadavg)"
alternate big "$root/b3sum $work/big" "b3sum $work/big" "$empty"
alternate small "$root/b3sum $work/small" "b3sum $work/small" "$empty"
alternate many "bash -c '$root/b3sum $work/many/* >/dev/null'" "bash -c 'b3sum $work/many/* >/dev/null'"
echo "== load $(cut -d' ' -f1-3 /proc/loadavg)"
