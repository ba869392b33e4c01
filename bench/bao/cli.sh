#!/usr/bin/env bash
# bench/bao/cli.sh: ./bao on files against Debian's b3sum and cp, whole processes (issue 42).
#
# Makes a 1 GiB file of random bytes and a 256 MiB one (its head) under a temporary directory
# in /tmp (deleted on exit), their outboards and the 256 MiB file's combined encoding, warms
# the page cache, then runs RUNS (default 10) rounds; a round runs each command once (hyperfine,
# every output deleted first), in one order in even rounds and the reverse in odd ones, so that
# a machine whose load drifts favours none:
#   encode: b3sum BIG; ./bao encode BIG --outboard=OUT; an empty main with ./bao's flags
#   decode: b3sum MID; cp MID OUT; ./bao decode HASH MID OUT --outboard=MID.obao;
#           ./bao decode HASH MID.bao OUT
# Prints each command's median wall, user and system time over the rounds, and the median
# over the rounds of each ./bao command's ratio to b3sum in the same round. BEFORE=an older
# checkout (built, with its ./bao) adds its ./bao commands to the same rounds, side by side.
# Needs the jar (mvn -B -q -DskipTests package), b3sum, hyperfine, python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-10}
for tool in b3sum hyperfine python3; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing" >&2; exit 1; }
done
baos=("$root/bao")
[ -n "${BEFORE:-}" ] && baos+=("$BEFORE/bao")

work=$(mktemp -d /tmp/b3bao.XXXXXX)
trap 'rm -rf "$work"' EXIT
head -c 1073741824 /dev/urandom >"$work/big"
head -c 268435456 "$work/big" >"$work/mid"
"$root/bao" encode "$work/mid" --outboard="$work/mid.obao"
"$root/bao" encode "$work/mid" "$work/mid.bao"
hash=$("$root/bao" hash "$work/mid")
for b in "${baos[@]}"; do "$b" encode "$work/mid" --outboard="$work/warm.obao"; done # CDS archives
cat "$work/big" "$work/mid" "$work/mid.obao" "$work/mid.bao" >/dev/null

flags=$(BAO_SHOW_COMMAND=1 "$root/bao" x | sed '/^-cp$/,$d' | tr '\n' ' ')
printf 'public class Empty { public static void main(String[] a) {} }\n' >"$work/Empty.java"
javac -d "$work" "$work/Empty.java"
empty="$flags -cp $work Empty"

encode=("b3sum $work/big")
decode=("b3sum $work/mid" "cp $work/mid $work/out")
for b in "${baos[@]}"; do
  encode+=("$b encode $work/big --outboard=$work/out")
  decode+=("$b decode $hash $work/mid $work/out --outboard=$work/mid.obao" "$b decode $hash $work/mid.bao $work/out")
done
encode+=("$empty")

echo "== $(nproc) CPUs, $("$root/bench/cpu.sh"), $(java -version 2>&1 | head -1), load $(cut -d' ' -f1-3 /proc/loadavg)"
rounds() { # NAME COMMAND...
  local name=$1 r
  shift
  local cmds=("$@") rev=()
  for ((r = ${#cmds[@]} - 1; r >= 0; r--)); do rev+=("${cmds[r]}"); done
  for ((r = 0; r < runs; r++)); do
    if ((r % 2 == 0)); then set -- "${cmds[@]}"; else set -- "${rev[@]}"; fi
    hyperfine -N --runs 1 --style none --prepare "rm -f $work/out" --export-json "$work/$name.$r.json" "$@" >/dev/null
  done
  python3 - "$work" "$name" "$runs" "$root" "${BEFORE:-/nowhere}" "$hash" <<'PY'
import json, statistics, sys
work, name, runs, root, before, h = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
by = {}
for r in range(runs):
    for res in json.load(open(f"{work}/{name}.{r}.json"))["results"]:
        by.setdefault(res["command"], []).append(res)
base = next(c for c in by if c.startswith("b3sum "))
for c, rs in by.items():
    label = c.replace(before + "/bao", "BEFORE/bao").replace(root + "/bao", "./bao").replace(h, "HASH")
    label = label.replace(work, "$W") if "Empty" not in c else "empty main, ./bao's flags and archive"
    line = (f"{name}: {label:58s} wall {statistics.median([x['mean'] for x in rs]) * 1e3:6.1f} ms"
            f"  user {statistics.median([x['user'] for x in rs]) * 1e3:6.1f}  sys {statistics.median([x['system'] for x in rs]) * 1e3:6.1f}")
    if c != base:
        ratios = [x["mean"] / b["mean"] for x, b in zip(rs, by[base])]
        line += f"  / b3sum per round: median {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
    print(line)
PY
}
rounds encode "${encode[@]}"
rounds decode "${decode[@]}"
echo "== load $(cut -d' ' -f1-3 /proc/loadavg)"
