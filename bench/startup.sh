#!/usr/bin/env bash
# First use and ./b3sum start-up against an empty main, with hyperfine (issue 16.5).
#
#   bench/startup.sh [RUNS]      RUNS per command per round (default 20), 3 rounds
#
# For each JDK (JAVAS, default: java on the PATH, then Temurin 25 where installed) it times, in
# one hyperfine call per round, an empty main, a main whose only work is Blake3.hash of three
# bytes (native engine), and the same with -Dblake3.native=false (Java engine); then the empty
# main and the Java engine's first hash with and without --add-modules jdk.incubator.vector (the
# Vector API engine's module). Then ./b3sum on a 6-byte file against an empty main run with the very flags and archive the launcher uses
# (B3SUM_SHOW_COMMAND=1), and against Debian's /usr/bin/b3sum when it is there. The order of
# the commands is reversed every other round, so that a machine whose load drifts does not
# favour one of them; the table gives the median of the rounds' medians (wall) and of their
# mean user+system times (CPU), and each command's difference to the empty main of its group. Needs the jar (mvn -B -q -pl java -DskipTests
# package) and python3 to read hyperfine's JSON. BEFORE_JAR=an older build adds its two first
# hashes to the same rounds, for a before/after measured side by side.
set -euo pipefail

runs=${1:-20}
rounds=3
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=
for f in "$root"/java/target/blake3-fast-*.jar; do
  case $f in *-sources.jar | *-javadoc.jar | *-tests.jar) continue ;; esac
  [ -f "$f" ] && jar=$f
done
[ -n "$jar" ] || { echo "startup.sh: no jar: run mvn -B -q -pl java -DskipTests package" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "startup.sh: needs hyperfine" >&2; exit 1; }

if [ -z "${JAVAS:-}" ]; then
  JAVAS=$(command -v java)
  t25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
  [ -x "$t25" ] && JAVAS="$JAVAS $t25"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The mains copy the jar aside so that a build running meanwhile cannot change what is timed.
cp "$jar" "$work/blake3-fast.jar"
jar=$work/blake3-fast.jar
[ -z "${BEFORE_JAR:-}" ] || cp "$BEFORE_JAR" "$work/before.jar"
cat >"$work/Empty.java" <<'EOF'
public class Empty {
  public static void main(String[] args) {}
}
EOF
cat >"$work/FirstHash.java" <<'EOF'
public class FirstHash {
  public static void main(String[] args) {
    byte[] h = io.github.blake3fast.Blake3.hash(new byte[] {1, 2, 3});
    if (h.length != 32) throw new AssertionError();
  }
}
EOF
javac --release 17 -cp "$jar" -d "$work" "$work/Empty.java" "$work/FirstHash.java"
printf 'hello\n' >"$work/small"

# bench NAME LABEL COMMAND [LABEL COMMAND]...: hyperfine, ROUNDS times, the order reversed
# every other round; json files $work/NAME.R.json. The first command is the reference.
bench() {
  local name=$1
  shift
  local r i args
  for r in $(seq "$rounds"); do
    args=()
    if [ $((r % 2)) = 1 ]; then
      for ((i = 1; i <= $#; i += 2)); do args+=(-n "${!i}" "$(eval echo "\"\${$((i + 1))}\"")"); done
    else
      for ((i = $# - 1; i >= 1; i -= 2)); do args+=(-n "${!i}" "$(eval echo "\"\${$((i + 1))}\"")"); done
    fi
    nice hyperfine -N --style none --warmup 3 --runs "$runs" --export-json "$work/$name.$r.json" "${args[@]}" \
      >/dev/null 2>"$work/hyperfine.err" || { cat "$work/hyperfine.err" >&2; exit 1; }
  done
}

# Median of the rounds' medians per command, and its difference to the first command given.
report() {
  python3 - "$work" "$1" "$rounds" <<'EOF'
import json, statistics, sys
work, name, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
med, user_sys = {}, {}
order = []
for r in range(1, rounds + 1):
    for res in json.load(open(f"{work}/{name}.{r}.json"))["results"]:
        c = res["command"]
        if c not in med:
            order.append(c)
        med.setdefault(c, []).append(res["median"] * 1000)
        user_sys.setdefault(c, []).append((res["user"] + res["system"]) * 1000)
first = None
for c in order:
    m = statistics.median(med[c])
    cpu = statistics.median(user_sys[c])
    if first is None:
        first = (m, cpu)
    rounds_ = ", ".join(f"{x:.1f}" for x in med[c])
    print(f"  {c:30} {m:7.1f} ms wall ({m - first[0]:+6.1f})  {cpu:6.1f} ms CPU ({cpu - first[1]:+6.1f})  rounds: {rounds_}")
EOF
}

echo "startup.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $runs runs x $rounds rounds"
echo "wall: median of the rounds' medians; CPU: user+system, median of the rounds' means; (difference to"
echo "the group's first command); then each round's median wall time"
n=0
for java in $JAVAS; do
  n=$((n + 1))
  extra=()
  feature=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  [ "${feature:-17}" -ge 24 ] && extra=(--enable-native-access=ALL-UNNAMED)
  echo "== $java ($("$java" -version 2>&1 | head -1))${extra[*]:+, ${extra[*]}}"
  cp="$jar:$work"
  before=()
  if [ -n "${BEFORE_JAR:-}" ]; then
    bcp="$work/before.jar:$work"
    before=("first hash, native, before" "$java ${extra[*]} -cp $bcp FirstHash"
      "first hash, Java engine, before" "$java ${extra[*]} -Dblake3.native=false -cp $bcp FirstHash")
  fi
  bench "first$n" \
    "empty main" "$java ${extra[*]} -cp $cp Empty" \
    "first hash, native" "$java ${extra[*]} -cp $cp FirstHash" \
    "first hash, Java engine" "$java ${extra[*]} -Dblake3.native=false -cp $cp FirstHash" "${before[@]}"
  report "first$n"

  # The Vector API module (issue 28): what --add-modules jdk.incubator.vector costs an empty main
  # (the JVM's part) and the Java engine's first hash, which it leaves on the scalar engine.
  vec=--add-modules=jdk.incubator.vector
  bench "module$n" \
    "empty main" "$java ${extra[*]} -cp $cp Empty" \
    "empty main + module" "$java ${extra[*]} $vec -cp $cp Empty" \
    "first hash, Java engine" "$java ${extra[*]} -Dblake3.native=false -cp $cp FirstHash" \
    "first hash, Java + module" "$java ${extra[*]} $vec -Dblake3.native=false -cp $cp FirstHash"
  report "module$n"

  # ./b3sum as users run it (its archive made on first use, outside the timing), against an
  # empty main with the same flags and archive: the launcher's own command, main swapped.
  export B3SUM_CACHE_DIR=$work/cache-$n
  JAVA=$java "$root/b3sum" "$work/small" >/dev/null
  mapfile -t cmd < <(JAVA=$java B3SUM_SHOW_COMMAND=1 "$root/b3sum" "$work/small")
  empty=()
  for ((i = 0; i < ${#cmd[@]}; i++)); do
    if [ "${cmd[i]}" = -jar ]; then
      empty+=(-cp "${cmd[i + 1]}:$work" Empty)
      break
    fi
    empty+=("${cmd[i]}")
  done
  others=()
  [ -x /usr/bin/b3sum ] && others=("Debian's b3sum, small file" "/usr/bin/b3sum $work/small")
  bench "b3sum$n" "empty main, b3sum's flags" "${empty[*]}" \
    "./b3sum, small file" "env JAVA=$java $root/b3sum $work/small" "${others[@]}"
  report "b3sum$n"
  echo "  (b3sum's flags: ${empty[*]:1:${#empty[@]}-4})"
done
