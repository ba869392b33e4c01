#!/usr/bin/env bash
# The README's two commands on a fresh Debian 12, as root and as an ordinary user.
#
# A minimal bookworm root (mmdebstrap --variant=required: the packages every Debian system has,
# from the Debian mirror named in this machine's apt sources) holding only what the README's
# "two commands" paragraph names, plus Debian's b3sum to compare with and ca-certificates. The commit under test (the checkout's
# HEAD, uncommitted changes are not part of it) is cloned into root's home, where
#   ./b3sum FILES...   must print exactly what Debian's b3sum prints for the same files, and
#   mvn -B verify      must pass;
# then the same as user "builder" in its own home. The root is built once per package list and
# kept as a tarball in $BLAKE3_CACHE/fresh-root/; every run unpacks a new copy, so the clone,
# ~/.m2 and the build are fresh each time. Runs in a private mount namespace: /proc, /sys, /dev
# and a tmpfs /tmp are mounted only there and vanish with it, even if this script is killed.
#
# Environment: BLAKE3_CACHE, BLAKE3_DEBIAN_MIRROR (else read from /etc/apt), BLAKE3_REFRESH=1
# (build the root again), BLAKE3_FRESH_USER_MVN (what the ordinary user runs after ./b3sum;
# default the full "mvn -B verify"), BLAKE3_FRESH_WITHOUT (packages removed from this run's copy
# of the root, dependencies ignored, to try a machine that lacks them: "libc6-dev" leaves a gcc
# that cannot link, "cmake" or "gcc-12" no toolchain; not used by CI).
set -euo pipefail
source "$(dirname "$0")/../platforms/lib.sh"

# What the README tells a new user to install (keep the two in step), then what this script
# needs to compare and to reach the registries.
README_PACKAGES="maven openjdk-17-jdk-headless cmake gcc make git"
EXTRA_PACKAGES="b3sum ca-certificates"
VARIANT=required
USER_NAME=builder
USER_ID=1000
USER_MVN=${BLAKE3_FRESH_USER_MVN:-mvn -B verify}

dir="$B3_CACHE/fresh-root"
logs="$B3_CACHE/logs"
work="$dir/run.$$"

# ---- inside the private mount namespace ----------------------------------------------------

# Commands run in the root: a login-like environment with nothing of CI's (no JAVA_HOME, no
# MAVEN_OPTS), but the proxies, if this machine has any.
in_root() {
  local spec=$1 home=$2 user=$3
  shift 3
  local env=(HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
  local v
  for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
    [ -n "${!v:-}" ] && env+=("$v=${!v}")
  done
  chroot --userspec="$spec" "$root" /usr/bin/env -i "${env[@]}" bash -c "cd && $*"
}

# The distinct reasons JUnit skipped tests for, from the surefire reports (the last execution
# to report a class wins; enough to see that each skip says why): the first line of each
# assumption's message.
skip_reasons() {
  cat "$1"/TEST-*.xml 2>/dev/null | awk '
    /<skipped/ {
      s = 1
      if (match($0, /message="[^"]*"/)) { print substr($0, RSTART + 9, RLENGTH - 10); s = 0; next }
    }
    s && /Assumption failed: / { sub(/.*Assumption failed: /, ""); print; s = 0; next }
    s && /TestAbortedException: ./ { sub(/.*TestAbortedException: /, ""); print; s = 0; next }
    s && /<\/skipped>/ { s = 0 }' |
    sed -e 's/&quot;/"/g' -e 's/&lt;/</g' -e 's/&gt;/>/g' -e 's/&amp;/\&/g' | cut -c1-220 | sort | uniq -c | sort -rn
}

# "N tests in E surefire executions, S skipped", from a Maven log.
totals() {
  grep -E '^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, .*[0-9]$' "$1" |
    awk -F'[:,] *' '{ e++; n += $2; s += $8 } END { printf "%d tests in %d surefire executions, %d skipped", n, e, s }'
}

# One line of the summary, printed now and again at the end.
result() { echo "$*" | tee -a "$summary"; }

# run_commands LABEL SPEC HOME USER MVN: the README's two commands in a new clone; one result
# line per command.
run_commands() {
  local label=$1 spec=$2 home=$3 user=$4 mvn=$5 t clone log status
  clone="$home/blake3-fast"
  log="$logs/fresh-root-$label"
  b3_log "$label: git clone of $commit into $clone"
  in_root "$spec" "$home" "$user" "git -c advice.detachedHead=false clone -q /srv/src.bundle blake3-fast" ||
    { result "$label: git clone FAILED"; return 1; }

  # Inputs: files of the clone, an empty file and 3 MiB + 1 byte of random data (many chunks,
  # a partial last one).
  in_root "$spec" "$home" "$user" "mkdir -p in && : >in/empty && head -c 3145729 /dev/urandom >in/random.bin"
  local files="README.md pom.xml b3sum ../in/empty ../in/random.bin"
  t=$(b3_now)
  status=0
  in_root "$spec" "$home" "$user" "cd blake3-fast && ./b3sum $files" >"$log-b3sum.out" 2>"$log-b3sum.err" || status=$?
  local took
  took=$(b3_elapsed "$t")
  in_root "$spec" "$home" "$user" "cd blake3-fast && b3sum $files" >"$log-debian.out" 2>&1 || true
  if [ "$status" = 0 ] && [ -s "$log-b3sum.out" ] && cmp -s "$log-b3sum.out" "$log-debian.out"; then
    result "$label: ./b3sum ($(wc -w <<<"$files") files, the first run builds the jar; ${took} s): PASS, identical to Debian's b3sum"
  else
    result "$label: ./b3sum: FAIL (exit $status, ${took} s)"
    echo "--- ./b3sum stdout" && cat "$log-b3sum.out"
    echo "--- ./b3sum stderr" && tail -30 "$log-b3sum.err"
    echo "--- Debian's b3sum" && cat "$log-debian.out"
    failed=1
  fi
  sed 's/^/    /' "$log-b3sum.out"
  [ -s "$log-b3sum.err" ] && { echo "  stderr of ./b3sum:"; sed 's/^/    /' "$log-b3sum.err"; }

  b3_log "$label: $mvn (log: $log-mvn.log)"
  t=$(b3_now)
  status=0
  in_root "$spec" "$home" "$user" "cd blake3-fast && $mvn" >"$log-mvn.log" 2>&1 || status=$?
  took=$(b3_elapsed "$t")
  # The totals of each surefire execution, and whatever build-host.sh said.
  grep -E '^\[INFO\] --- (maven-)?surefire(-plugin)?:|^\[(INFO|WARNING|ERROR)\] Tests run: [0-9]+, .*[0-9]$|^blake3-fast: ' "$log-mvn.log" |
    sed 's/^/    /' || true
  # The root copy goes when this script ends: keep the reports.
  rm -rf "$log-surefire-reports"
  cp -r "$root$clone/java/target/surefire-reports" "$log-surefire-reports" 2>/dev/null || true
  echo "  skipped tests, by reason (reports: $log-surefire-reports):"
  skip_reasons "$log-surefire-reports" | sed 's/^/    /'
  if [ "$status" = 0 ] && grep -q '^\[INFO\] BUILD SUCCESS' "$log-mvn.log"; then
    result "$label: $mvn (${took} s): PASS, $(totals "$log-mvn.log")"
  else
    result "$label: $mvn (${took} s): FAIL (exit $status)"
    # A failure may not come back on the next run: keep its log and reports where a later run
    # does not overwrite them.
    kept="$logs/failed-$(date -u +%Y%m%dT%H%M%S)-fresh-root-$label"
    if mkdir -p "$kept"; then
      cp -r "$log-mvn.log" "$log-surefire-reports" "$kept/" 2>/dev/null || true
    fi
    echo "  kept for later: $kept"
    grep -E '^\[ERROR\]' "$log-mvn.log" | head -40
    failed=1
  fi
}

inside() {
  root=$1 commit=$2 summary=$3
  failed=0
  mounted=()
  # shellcheck disable=SC2317 # called by the EXIT trap
  cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" || true; done
  }
  trap cleanup EXIT
  mnt() { mount "$@"; mounted+=("${!#}"); }
  # The root a mount point of its own, as / is on a machine: `unshare --propagation private`
  # (the loader tests' mount namespaces) refuses a / that is not one.
  mnt --bind "$root" "$root"
  # /proc first: the Java keystore hook of update-ca-certificates runs java, which needs it.
  mnt -t proc proc "$root/proc"
  mnt -t sysfs -o ro sysfs "$root/sys"
  mnt --rbind /dev "$root/dev"
  mnt -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$root/dev/shm"
  mnt -t tmpfs -o mode=1777,nosuid,nodev,size=8g tmpfs "$root/tmp"

  # The registries are reached through this machine's extra CAs: into the system store and,
  # through ca-certificates-java's hook, the JDK's keystore.
  local crt n=0 alias missing=""
  for crt in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$crt" ] || continue
    cp "$crt" "$root/usr/local/share/ca-certificates/"
    n=$((n + 1))
  done
  chroot "$root" update-ca-certificates >"$logs/fresh-root-ca.log" 2>&1 ||
    { cat "$logs/fresh-root-ca.log"; b3_die "update-ca-certificates failed in the root"; }
  for crt in /usr/local/share/ca-certificates/*.crt; do
    [ -f "$crt" ] || continue
    alias="debian:$(basename "${crt%.crt}").pem"
    chroot "$root" keytool -list -cacerts -storepass changeit -alias "$alias" >/dev/null 2>&1 || missing="$missing $alias"
  done
  [ -z "$missing" ] || b3_die "the root's Java keystore lacks$missing (log: $logs/fresh-root-ca.log)"
  b3_log "root: $n extra CA certificates in the system store and the Java keystore"
  b3_log "root: $(chroot "$root" java -version 2>&1 | head -1)"
  cp -L /etc/resolv.conf "$root/etc/resolv.conf"
  # Maven settings of this machine's root user (mirrors, proxies), if any.
  if [ -f "$HOME/.m2/settings.xml" ]; then
    mkdir -p "$root/root/.m2" "$root/home/$USER_NAME/.m2"
    cp "$HOME/.m2/settings.xml" "$root/root/.m2/"
    cp "$HOME/.m2/settings.xml" "$root/home/$USER_NAME/.m2/"
    chown -R "$USER_ID:$USER_ID" "$root/home/$USER_NAME/.m2"
  fi

  : >"$summary"
  run_commands root 0:0 /root root "mvn -B verify" || failed=1
  run_commands "$USER_NAME" "$USER_ID:$USER_ID" "/home/$USER_NAME" "$USER_NAME" "$USER_MVN" || failed=1
  return "$failed"
}

if [ "${1:-}" = --inside ]; then
  shift
  inside "$@"
  exit $?
fi

# ---- outside: the cached root, a fresh copy of it, the namespace ---------------------------

[ "$(id -u)" = 0 ] || b3_die "needs root (chroot, mounts)"
t_all=$(b3_now)
mkdir -p "$dir" "$logs"
export DEBIAN_FRONTEND=noninteractive
if ! command -v mmdebstrap >/dev/null; then
  b3_log "apt: installing mmdebstrap"
  apt-get -o DPkg::Lock::Timeout=900 update -qq || b3_warn "apt-get update reported errors; continuing"
  apt-get -o DPkg::Lock::Timeout=900 install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

# Recommends are installed, as `apt-get install` on a fresh machine does (gcc brings libc6-dev
# that way).
packages="$README_PACKAGES $EXTRA_PACKAGES"
key=$(echo "bookworm $VARIANT recommends $packages" | sha256sum | cut -c1-12)
tarball="$dir/bookworm-$VARIANT-$key.tar"
if [ ! -s "$tarball" ] || [ -n "${BLAKE3_REFRESH:-}" ]; then
  mirror=$(b3_debian_mirror) || b3_die "no Debian mirror for bookworm in /etc/apt (set BLAKE3_DEBIAN_MIRROR)"
  b3_log "root: mmdebstrap $VARIANT bookworm + $packages (log: $logs/fresh-root-mmdebstrap.log)"
  t=$(b3_now)
  rm -f "$dir"/bookworm-*.tar "$tarball.tmp"
  mmdebstrap --variant="$VARIANT" --aptopt='APT::Install-Recommends "true"' \
    --include="${packages// /,}" --format=tar bookworm "$tarball.tmp" "deb $mirror bookworm main" \
    >"$logs/fresh-root-mmdebstrap.log" 2>&1 ||
    { tail -30 "$logs/fresh-root-mmdebstrap.log" >&2; rm -f "$tarball.tmp"; b3_die "mmdebstrap failed"; }
  mv "$tarball.tmp" "$tarball"
  b3_log "root: built in $(b3_elapsed "$t") s, $(du -h "$tarball" | cut -f1)"
else
  b3_log "root: cached $tarball"
fi

# One copy per run (run.PID). A copy left by a killed run has nothing mounted (the mounts lived
# in its namespace), but make sure before deleting: a bind mount of /dev under it would take the
# host's /dev with it.
remove_copy() {
  if grep -q " $1/" /proc/self/mountinfo; then
    b3_die "something is still mounted under $1; not deleting it"
  fi
  rm -rf --one-file-system "$1" "$1.summary"
}
for old in "$dir"/run.*; do
  [ -d "$old" ] && ! kill -0 "${old##*.}" 2>/dev/null && remove_copy "$old"
done
trap 'remove_copy "$work"' EXIT
t=$(b3_now)
mkdir -p "$work"
tar -x -p --numeric-owner -f "$tarball" -C "$work"
root="$work"

# The ordinary user, written into the root's databases directly (no useradd in a minimal root);
# a 0700 home like root's, so tests cannot count on others reading the checkout.
echo "$USER_NAME:x:$USER_ID:$USER_ID::/home/$USER_NAME:/bin/bash" >>"$root/etc/passwd"
echo "$USER_NAME:x:$USER_ID:" >>"$root/etc/group"
echo "$USER_NAME:*:19000:0:99999:7:::" >>"$root/etc/shadow"
install -d -m 0700 -o "$USER_ID" -g "$USER_ID" "$root/home/$USER_NAME"

if [ -n "${BLAKE3_FRESH_WITHOUT:-}" ]; then
  b3_log "root: removing $BLAKE3_FRESH_WITHOUT from this copy"
  # shellcheck disable=SC2086
  chroot "$root" dpkg --purge --force-depends $BLAKE3_FRESH_WITHOUT >"$logs/fresh-root-without.log" 2>&1 ||
    { cat "$logs/fresh-root-without.log"; b3_die "could not remove $BLAKE3_FRESH_WITHOUT"; }
fi

commit=$(git -C "$B3_ROOT" rev-parse HEAD)
if [ "$(git -C "$B3_ROOT" rev-parse --is-shallow-repository)" = true ]; then
  # A shallow checkout cannot be bundled (the parents are missing): bundle a one-commit history
  # of the same tree, made in a scratch repository (the checkout's own is left alone).
  scratch="$work/srv/src"
  mkdir -p "$scratch"
  git -C "$B3_ROOT" archive HEAD | tar -x -C "$scratch"
  git -C "$scratch" init -q
  git -C "$scratch" add -A
  GIT_AUTHOR_NAME=fresh-root GIT_AUTHOR_EMAIL=fresh-root@localhost GIT_COMMITTER_NAME=fresh-root \
    GIT_COMMITTER_EMAIL=fresh-root@localhost git -C "$scratch" commit -q -m "tree of $commit (shallow checkout)"
  git -C "$scratch" bundle create "$root/srv/src.bundle" HEAD 2>/dev/null
  rm -rf "$scratch"
else
  git -C "$B3_ROOT" bundle create "$root/srv/src.bundle" HEAD 2>/dev/null
fi
chmod 0644 "$root/srv/src.bundle"
b3_log "root: unpacked in $(b3_elapsed "$t") s; testing commit $commit ($(git -C "$B3_ROOT" log -1 --format=%s | cut -c1-60))"
# shellcheck disable=SC2016,SC2086 # dpkg-query's own ${...} format; one argument per package
b3_log "root: installed: $(chroot "$root" dpkg-query -W -f='${Package}=${Version} ' $README_PACKAGES | sed 's/ $//')"

summary="$work.summary"
status=0
unshare --mount --propagation private -- "$0" --inside "$root" "$commit" "$summary" || status=$?
echo "---- fresh Debian 12 root, commit ${commit:0:12}: $(b3_elapsed "$t_all") s ----"
cat "$summary" 2>/dev/null || true
[ "$status" = 0 ] || echo "FAILED: the README's two commands on a fresh Debian 12 (logs: $logs/fresh-root-*)"
exit "$status"
