#!/usr/bin/env bash
# Fails when Compress.java is not what java/codegen/gen_compress.py writes: the generated file
# is committed (the build needs no Python), so an edit to either alone must not go unnoticed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
committed="$here/../src/main/java/io/github/blake3fast/Compress.java"
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
python3 "$here/gen_compress.py" >"$fresh"
if ! diff -u "$committed" "$fresh"; then
  echo "codegen: Compress.java differs from what gen_compress.py writes (above: - committed, + generated);" \
    "run: python3 java/codegen/gen_compress.py > java/src/main/java/io/github/blake3fast/Compress.java" >&2
  exit 1
fi
echo "codegen: Compress.java is what gen_compress.py writes"
