#!/usr/bin/env bash
# Copied against pinned arrays in one JVM (PinCopyTiming): one-shot hashes of SIZE bytes through
# the best native kernel, pinning and copying in alternating rounds, timed in thread CPU time.
#   bench/timing/pin-copy.sh [SIZE [ROUNDS]]      (defaults 1048576 and 40)
# Needs the library's classes (mvn -B -q -pl java -DskipTests package): PinCopyTiming is in the
# library's package and compiled against java/target/classes. JAVA= picks the JVM.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
classes=$root/java/target/classes
if [ ! -d "$classes" ]; then
  echo "pin-copy.sh: no $classes: run mvn -B -q -pl java -DskipTests package first" >&2
  exit 1
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-pincopy.XXXXXX")
trap 'rm -rf "$work"' EXIT
javac -d "$work" -cp "$classes" "$here/PinCopyTiming.java"
"${JAVA:-java}" -cp "$work:$classes" io.github.blake3fast.PinCopyTiming "$@"
