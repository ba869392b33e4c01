#!/usr/bin/env bash
# Regenerates test_vectors.json, test_vectors.txt and extra_vectors.json in this
# folder from the b3sum command-line tool (Debian package `b3sum`; the committed
# files were made with b3sum 1.2.0 on Debian 12). Needs only bash, python3 and b3sum.
#
#   ./generate.sh                       # writes the three files, prints a summary
#   ./generate.sh --compare OFFICIAL    # also compares with the official test_vectors.json
#   ./generate.sh --help                # all options
#
# Takes a minute or two: the XOF windows at offset 2^32+7 are read off 4 GiB
# output streams (b3sum 1.2.0 has no --seek).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
b3sum_exe="${B3SUM:-b3sum}"
if ! command -v "$b3sum_exe" >/dev/null 2>&1; then
    echo "generate.sh: b3sum not found; on Debian: apt-get install b3sum" >&2
    exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
    echo "generate.sh: python3 not found" >&2
    exit 1
fi
version="$("$b3sum_exe" --version)"
if [ "$version" != "b3sum 1.2.0" ]; then
    echo "generate.sh: note: $version, the committed files came from b3sum 1.2.0" >&2
fi
exec python3 "$here/generate.py" --b3sum "$b3sum_exe" "$@"
