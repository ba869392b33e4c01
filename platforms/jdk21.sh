#!/usr/bin/env bash
# Unpacks Debian trixie's OpenJDK 21 runtime for amd64 into $BLAKE3_CACHE/jdk21-amd64, through a
# private apt configuration as setup.sh does for the foreign JREs (nothing outside the cache
# changes), and prints the path of its java launcher. For the GC-locker matrix
# (bench/gclocker.sh) and running tests on JDK 21. Idempotent: a second run only checks a stamp.
#
# Environment: BLAKE3_CACHE (default /var/cache/blake3-fast), BLAKE3_DEBIAN_MIRROR (else read
# from /etc/apt), BLAKE3_REFRESH=1 (fetch again even if cached).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
MIRROR=$(b3_debian_mirror) || b3_die "no Debian mirror for bookworm in /etc/apt (set BLAKE3_DEBIAN_MIRROR)"
root="$B3_CACHE/jdk21-amd64"
mkdir -p "$B3_CACHE"/{apt,logs,debs}

if [ -f "$root.ok" ] && [ -z "${BLAKE3_REFRESH:-}" ] && [ -n "$(b3_jre_java "$root")" ]; then
  b3_jre_java "$root"
  exit 0
fi
rm -f "$root.ok"
conf=$(apt_private jdk21-amd64 amd64 trixie)
debs="$B3_CACHE/debs/jdk21-amd64"
# With trixie's C and C++ runtimes: its JDK needs a newer glibc than bookworm's.
apt_fetch "$conf" "$debs" openjdk-21-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g >"$B3_CACHE/logs/jdk21-amd64.log" 2>&1 ||
  { tail -20 "$B3_CACHE/logs/jdk21-amd64.log" >&2; b3_die "could not download openjdk-21-jre-headless from trixie"; }
rm -rf "$root.tmp" && mkdir -p "$root.tmp"
for deb in "$debs"/*.deb; do dpkg -x "$deb" "$root.tmp"; done
merge_usr_links "$root.tmp"
fix_links "$root.tmp"
rm -rf "$root" && mv "$root.tmp" "$root"
java=$(b3_jre_java "$root")
[ -n "$java" ] || b3_die "no bin/java in openjdk-21-jre-headless"
# The launcher, and the helper through which the JDK starts processes, run under trixie's dynamic
# loader and libraries, never the host's. Each becomes a script, so that a JVM that starts
# $JAVA_HOME/bin/java (test child JVMs) gets the same; the JDK finds its home from libjli's path,
# which this does not change.
wrap() {
  mv "$1" "$1.real"
  printf '#!/bin/sh\nexec "%s" --library-path "%s" "%s" "$@"\n' "$root/lib64/ld-linux-x86-64.so.2" \
    "$root/usr/lib/x86_64-linux-gnu" "$1.real" >"$1"
  chmod +x "$1"
}
wrap "$java"
wrap "$(dirname "$(dirname "$java")")/lib/jspawnhelper"
version=$("$java" -Xshare:auto -version 2>&1) || { echo "$version" >&2; b3_die "$java -version failed"; }
echo "$version" | head -2 | tr '\n' ' ' | sed 's/ *$//' >"$root.ok"
echo "$java"
