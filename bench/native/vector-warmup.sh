#!/usr/bin/env bash
# bench/native/vector-warmup.sh OLD.jar NEW.jar [REPS [ROUNDS]]: two builds of the library, with
# native code off and the Vector API engine by default (--add-modules jdk.incubator.vector):
# 1. when the vector engine takes over (VectorTakeover): REPS runs per build, JDK and setting
#    (two cores idle after one 1 MiB hash, two cores with this thread hashing, one core idle under
#    taskset -c 0), the builds' order alternating every run; one line per run;
# 2. its steady state (BuildsSideBySide): both builds in one JVM pinned to core 0, ROUNDS
#    alternated rounds at 16 KiB and 1 MiB, once in each load order.
# JDKS (default: java on PATH, and Temurin 25 where installed) overrides. Default REPS 4, ROUNDS 21.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
old=$(readlink -f "$1")
new=$(readlink -f "$2")
reps=${3:-4}
rounds=${4:-21}
if [ -z "${JDKS:-}" ]; then
  JDKS=$(command -v java)
  [ -x /usr/lib/jvm/temurin-25-jdk-amd64/bin/java ] && JDKS+=" /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-vwarm.XXXXXX")
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$old" "$root/bench/timing/VectorTakeover.java" "$root/bench/timing/BuildsSideBySide.java"
opts=(--add-modules jdk.incubator.vector -Dblake3.native=false)

echo "CPU: $("$here/../cpu.sh"), $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for java in $JDKS; do
  echo "== $("$java" -version 2>&1 | head -n 1)"
  for rep in $(seq "$reps"); do
    for setting in "0,1 idle" "0,1 busy" "0 idle"; do
      read -r cpus mode <<<"$setting"
      order="old new"
      [ $((rep % 2)) -eq 0 ] && order="new old"
      for build in $order; do
        jar=$old
        [ "$build" = new ] && jar=$new
        line=$(taskset -c "$cpus" "$java" "${opts[@]}" -cp "$work:$jar" VectorTakeover "$mode" 2>&1 | grep -v '^WARNING: Using incubator')
        echo "takeover cpus $cpus $build load $(cut -d' ' -f1 /proc/loadavg): $line"
      done
    done
  done
  for first in old new; do
    taskset -c 0 "$java" "${opts[@]}" -cp "$work" BuildsSideBySide "$old" "$new" "$rounds" "$first" 16384 1048576 2>&1 |
      grep -v '^WARNING: Using incubator' | sed "s/^/steady state: /"
  done
done
