#!/usr/bin/env bash
# The launchers ./b3sum and ./bao as a user runs them, on JDK 17 and on Temurin 25 when present:
# from an empty cache (extraction and the class-data training run) and again from the filled
# one, each run must print the right answer and nothing on stderr (JDK 24 and later print a
# four-line warning when a class path jar loads a native library without native access).
# Needs the jar built (mvn package) and Debian's b3sum for the expected hashes.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
head -c 300000 /dev/urandom >"$work/in.bin"
printf 'abc' >"$work/abc.txt"
expected=$(cd "$work" && b3sum in.bin abc.txt)
fail=0

check() { # label, stderr file, then the test as a command
  local label=$1 err=$2
  shift 2
  if "$@" && [ ! -s "$err" ]; then
    echo "launchers: $label: PASS"
  else
    echo "launchers: $label: FAIL"
    [ -s "$err" ] && sed 's/^/    stderr: /' "$err"
    fail=1
  fi
}

for java in java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; do
  command -v "$java" >/dev/null || { echo "launchers: $java: not here, skipped"; continue; }
  export JAVA=$java B3SUM_CACHE_DIR="$work/cache-${java//\//_}"
  for run in "empty cache" "filled cache"; do
    label="$java, $run"
    got=$(cd "$work" && "$OLDPWD/b3sum" in.bin abc.txt 2>"$work/err")
    check "$label: ./b3sum" "$work/err" test "$got" = "$expected"
    rm -f "$work/in.obao" "$work/out.bin"
    hash=$(./bao hash "$work/in.bin" 2>"$work/err")
    check "$label: ./bao hash" "$work/err" test "$hash" = "${expected%%  *}"
    ./bao encode "$work/in.bin" --outboard="$work/in.obao" 2>"$work/err" || true
    check "$label: ./bao encode --outboard" "$work/err" test -s "$work/in.obao"
    ./bao decode "$hash" "$work/in.bin" "$work/out.bin" --outboard="$work/in.obao" 2>"$work/err" || true
    check "$label: ./bao decode --outboard" "$work/err" cmp -s "$work/in.bin" "$work/out.bin"
  done
done
exit "$fail"
