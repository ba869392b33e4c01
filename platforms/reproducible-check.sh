#!/usr/bin/env bash
# Builds one commit twice, in two fresh copies of its tree (git archive: exactly what the commit
# holds, whether or not a branch points at it) at different paths, one after the other, and
# compares every jar (and native library) byte for byte. Prints one line per file and exits
# non-zero if any differs, listing the entries that differ.
#
#   platforms/reproducible-check.sh [COMMIT]     (default HEAD)
#
# Cheap by default: `mvn -pl java -am -DskipTests package` in each copy, which builds the host
# library (linux-x86_64 here) and the three jars. BLAKE3_REPRO_ALL=1 runs
# platforms/build-all.sh in each copy first, so the jars carry and compare every library
# (about 1.5 min more per copy). What makes this pass: project.build.outputTimestamp (every
# archive entry gets the same time), javadoc without timestamps, and C built without debug
# information, so neither the directory nor the time of the build is embedded.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

commit=$(git -C "$B3_ROOT" rev-parse "${1:-HEAD}^{commit}")
work=$(mktemp -d "${TMPDIR:-/tmp}/blake3-repro.XXXXXX")
trap 'rm -rf "$work"' EXIT
t0=$(b3_now)

# Two paths of different lengths, so an embedded build directory cannot hide.
dirs=("$work/a" "$work/second/copy-b")
for d in "${dirs[@]}"; do
  mkdir -p "$d"
  git -C "$B3_ROOT" archive "$commit" | tar -x -C "$d"
  b3_log "building ${commit:0:12} in $d"
  if [ -n "${BLAKE3_REPRO_ALL:-}" ]; then
    (cd "$d" && BLAKE3_REQUIRE_ALL=1 platforms/build-all.sh >"$d.build-all.log" 2>&1) ||
      { tail -30 "$d.build-all.log" >&2; b3_die "platforms/build-all.sh failed in $d"; }
  fi
  (cd "$d" && mvn -B -q -pl java -am -DskipTests package >"$d.mvn.log" 2>&1) ||
    { tail -30 "$d.mvn.log" >&2; b3_die "the build failed in $d"; }
done

a=${dirs[0]} b=${dirs[1]}
status=0
echo
echo "---- reproducibility of ${commit:0:12} ($(b3_elapsed "$t0") s) ----"
# Only the host library exists unless BLAKE3_REPRO_ALL is set, so a pattern may match nothing:
# nullglob drops it instead of passing it on (ls would exit 2 and end the script under set -e).
files=()
shopt -s nullglob
for f in "$a"/java/target/*.jar "$a"/build/native/*/libblake3fast.so "$a"/build/native/*/blake3fast.dll; do
  files+=("${f#"$a"/}")
done
shopt -u nullglob
[ ${#files[@]} -gt 0 ] || b3_die "nothing was built in $a"
for f in "${files[@]}"; do
  if [ ! -f "$b/$f" ]; then
    printf '%-58s MISSING in the second build\n' "$f"
    status=1
  elif cmp -s "$a/$f" "$b/$f"; then
    printf '%-58s identical  %s\n' "$f" "$(sha256sum "$a/$f" | cut -d' ' -f1)"
  else
    printf '%-58s DIFFERENT\n' "$f"
    status=1
    if [[ "$f" == *.jar ]]; then
      mkdir -p "$work/x/a" "$work/x/b"
      (cd "$work/x/a" && rm -rf ./* && jar xf "$a/$f")
      (cd "$work/x/b" && rm -rf ./* && jar xf "$b/$f")
      diff -rq "$work/x/a" "$work/x/b" | sed 's/^/    /' || true
      if unzip -Z -T "$a/$f" >/dev/null 2>&1; then
        diff <(unzip -Z -T "$a/$f") <(unzip -Z -T "$b/$f") | head -10 | sed 's/^/    /' || true
      fi
    fi
  fi
done
if [ $status -eq 0 ]; then
  echo "REPRODUCIBLE: both builds gave the same bytes"
else
  echo "NOT REPRODUCIBLE: see the differences above" >&2
fi
exit $status
