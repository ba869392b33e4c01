#!/usr/bin/env bash
# The release jar, from a clean state: every platform's library or nothing.
#
#   1. `mvn clean` (it removes build/ too, so no library of an earlier build can be shipped);
#   2. platforms/build-all.sh with BLAKE3_REQUIRE_ALL=1: every platform's library, each checked
#      (ELF machine and byte order, GLIBC_ floors, libc only, JNI_OnLoad only; for the Windows
#      DLL: PE32+ x86-64, imports from KERNEL32 and msvcrt only, JNI_OnLoad only);
#   3. `mvn -pl java -am -DskipTests package`: the jar, its -sources and -javadoc jars;
#   4. reads the libraries back OUT OF THE JAR and checks each again: present, the very file
#      built in step 2 (same SHA-256: not stale), the ELF header its descriptor names and
#      native/check-glibc-symbols.sh (a DLL: native/check-pe-imports.sh); nothing else under
#      META-INF/native/.
# Prints a table of what the jar carries (platform, bytes, SHA-256) and exits non-zero when any
# step or check fails. Needs the cross toolchains of platforms/setup.sh.
#
#   platforms/release.sh --check JAR   only step 4, on any jar (stale = differs from build/native)
#
# Environment: BLAKE3_CACHE (as setup.sh), BLAKE3_JOBS (compile jobs, default 2),
# BLAKE3_RELEASE_GOAL (package, or install to put the jars into ~/.m2 as well).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
check_only=
if [ "${1:-}" = --check ]; then
  if [ $# -ne 2 ] || [ ! -f "$2" ]; then b3_die "usage: $0 --check JAR"; fi
  check_only=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
fi
cd "$B3_ROOT"
unset BLAKE3_PLATFORMS # a release is every platform, whatever the caller's shell says

t0=$(b3_now)
goal=${BLAKE3_RELEASE_GOAL:-package}
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' pom.xml | head -1)
jar="$B3_ROOT/java/target/blake3-fast-$version.jar"

if [ -n "$check_only" ]; then
  jar=$check_only
else
  if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
    b3_warn "the checkout has uncommitted changes: this jar is not commit $commit"
  fi
  b3_log "release of $commit (version $version): clean"
  mvn -B -q clean
  [ ! -e "$B3_BUILD/native" ] || b3_die "mvn clean left $B3_BUILD/native behind"

  b3_log "every native library (platforms/build-all.sh, BLAKE3_REQUIRE_ALL=1)"
  BLAKE3_REQUIRE_ALL=1 "$B3_PLATFORMS_DIR/build-all.sh" || b3_die "platforms/build-all.sh failed (above): no release"

  b3_log "the jars: mvn -B -pl java -am -DskipTests $goal"
  mvn -B -q -pl java -am -DskipTests "$goal"
  [ -f "$jar" ] || b3_die "no $jar after the build"
fi

# Read the libraries from the jar itself: the table describes what users get.
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
(cd "$unpacked" && jar xf "$jar" META-INF/native)

status=0
rows=()
expected=" "
for arch in $B3_PLATFORM_ORDER; do
  b3_load_conf "$arch"
  expected+="$PLATFORM "
  lib="$unpacked/META-INF/native/$PLATFORM/$(b3_lib_name)"
  built="$B3_BUILD/native/$PLATFORM/$(b3_lib_name)"
  if [ ! -f "$lib" ]; then
    rows+=("$(printf '%-18s %9s  %-64s  %s' "$PLATFORM" - - "MISSING from the jar")")
    status=1
    continue
  fi
  size=$(stat -c %s "$lib")
  sha=$(sha256sum "$lib" | cut -d' ' -f1)
  problems=()
  if [ ! -f "$built" ] || [ "$(sha256sum "$built" | cut -d' ' -f1)" != "$sha" ]; then
    problems+=("STALE: not the library this run built ($built)")
  fi
  if [ "${LIB_FORMAT:-elf}" = pe ]; then
    if ! out=$(sh "$B3_ROOT/native/check-pe-imports.sh" "$lib" 2>&1); then
      problems+=("PE check: $(tail -2 <<<"$out" | tr '\n' ' ')")
    fi
  else
    header=$(LC_ALL=C readelf -h "$lib" 2>&1) || true
    grep -q 'Class:[[:space:]]*ELF64' <<<"$header" || problems+=("not ELF64")
    grep -q "Data:.*$ELF_DATA endian" <<<"$header" || problems+=("not $ELF_DATA-endian")
    grep -q "Machine:[[:space:]]*$ELF_MACHINE" <<<"$header" || problems+=("machine is not $ELF_MACHINE")
    if ! out=$(sh "$B3_ROOT/native/check-glibc-symbols.sh" "$lib" 2>&1); then
      problems+=("glibc check: $(tail -2 <<<"$out" | tr '\n' ' ')")
    fi
  fi
  if [ ${#problems[@]} -eq 0 ]; then
    verdict="ok"
  else
    verdict="FAILED: $(IFS=';'; echo "${problems[*]}")"
    status=1
  fi
  rows+=("$(printf '%-18s %9s  %-64s  %s' "$PLATFORM" "$size" "$sha" "$verdict")")
done
for d in "$unpacked"/META-INF/native/*/; do
  [ -d "$d" ] || continue
  p=$(basename "$d")
  if [[ "$expected" != *" $p "* ]]; then
    rows+=("$(printf '%-18s %9s  %-64s  %s' "$p" - - "UNEXPECTED in the jar")")
    status=1
  fi
done

# The module descriptor only under META-INF/versions/9 of a multi-release jar: shading tools
# then have no top-level module-info.class to warn about, and the module path still sees it.
(cd "$unpacked" && jar xf "$jar" META-INF/MANIFEST.MF)
manifest=$(tr -d '\r' <"$unpacked/META-INF/MANIFEST.MF")
if ! grep -qx 'Multi-Release: true' <<<"$manifest"; then
  rows+=("jar: the manifest lacks Multi-Release: true"); status=1
fi
entries=$(jar tf "$jar")
if grep -qx 'module-info.class' <<<"$entries" || ! grep -qx 'META-INF/versions/9/module-info.class' <<<"$entries"; then
  rows+=("jar: module-info.class must be under META-INF/versions/9 only"); status=1
fi

echo
if [ -n "$check_only" ]; then
  echo "---- $jar ----"
else
  echo "---- $(basename "$jar") ($commit, $(b3_elapsed "$t0") s from clean) ----"
fi
printf '%-18s %9s  %-64s  %s\n' platform bytes sha256 checks
printf '%s\n' "${rows[@]}"
echo
for f in "$B3_ROOT"/java/target/blake3-fast-"$version"*.jar; do
  [ -z "$check_only" ] || break
  printf '%-40s %9s  %s\n' "$(basename "$f")" "$(stat -c %s "$f")" "$(sha256sum "$f" | cut -d' ' -f1)"
done
if [ $status -ne 0 ]; then
  echo "RELEASE FAILED: the jar above must not be published" >&2
fi
exit $status
