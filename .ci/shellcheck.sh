#!/usr/bin/env bash
# Runs shellcheck (all severities, .shellcheckrc at the top) over every shell script git tracks:
# the *.sh files and the files whose first line names sh or bash (./b3sum, .ci/run), plus the
# platform descriptors (bash sourced by platforms/lib.sh; their fields are read elsewhere).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts=()
while IFS= read -r -d '' f; do
  case $f in
    *.sh) scripts+=("$f") ;;
    *) head -n 1 "$f" | grep -Eq '^#!.*[/ ](ba)?sh( |$)' && scripts+=("$f") ;;
  esac
done < <(git ls-files -z)
shellcheck "${scripts[@]}"
shellcheck -s bash -e SC2034 platforms/*.conf
echo "shellcheck: ${#scripts[@]} scripts and the platform descriptors pass"
