#!/usr/bin/env bash
# Fails when a generated Java file is not what its generator writes: Compress.java
# (gen_compress.py), VectorCompress.java (gen_vector_compress.py) and VectorTranspose.java
# (gen_vector_transpose.py). The generated files are
# committed (the build needs no Python), so an edit to either side alone must not go unnoticed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
check() { # GENERATOR COMMITTED-FILE
  python3 "$here/$1" >"$fresh"
  if ! diff -u "$2" "$fresh"; then
    echo "codegen: $(basename "$2") differs from what $1 writes (above: - committed, + generated);" \
      "run: python3 java/codegen/$1 > ${2#"$here/../../"}" >&2
    exit 1
  fi
  echo "codegen: $(basename "$2") is what $1 writes"
}
check gen_compress.py "$here/../src/main/java/io/github/blake3fast/Compress.java"
check gen_vector_compress.py "$here/../src/main/java-vector/io/github/blake3fast/VectorCompress.java"
check gen_vector_transpose.py "$here/../src/main/java-vector/io/github/blake3fast/VectorTranspose.java"
