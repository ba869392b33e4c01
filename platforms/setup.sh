#!/usr/bin/env bash
# shellcheck disable=SC2317 # the job functions below run through run_pair, by name
# Installs and fetches what the cross builds and emulated tests need. Idempotent: a second run
# only checks stamps and takes a second or two.
#
#   1. apt (host): cross gccs + libc6-dev-*-cross, qemu-user-static, clang-19, lld-19, llvm-19,
#      cmake. These must work: a failure here fails the script.
#   2. trixie's qemu-user .deb -> qemu-loongarch64 and qemu-riscv64 (qemu 10: LSX, hwprobe),
#      and trixie's loong64 cross glibc (arch:all packages) -> the loong64 build sysroot.
#   3. Foreign JREs, each through a private apt configuration (no dpkg --add-architecture,
#      nothing outside the cache changes), two downloads at a time, unpacked into sysroots
#      whose absolute symlinks are rewritten to stay inside them, then smoke-tested with
#      `java -version` under qemu. A JRE that cannot be had is a loud SKIPPED marker, not a
#      failure (test-all.sh then decides whether that platform may be skipped).
#
# Environment: BLAKE3_CACHE (default /var/cache/blake3-fast), BLAKE3_PLATFORMS (subset, e.g.
# "aarch64 s390x"), BLAKE3_DEBIAN_MIRROR (else read from /etc/apt), BLAKE3_SKIP_JRE=1 (C only),
# BLAKE3_REFRESH=1 (re-fetch the JREs and the trixie/sid pieces even if cached).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

t_setup=$(b3_now)
mkdir -p "$B3_CACHE"/{apt,jre,logs,sysroot,debs}
platforms=$(b3_selected_platforms)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
    b3_die "need root for: $*"
  fi
}

# ---- 1. host packages ----------------------------------------------------------------------

need_pkgs="cmake qemu-user-static binutils"
for arch in $platforms; do
  b3_load_conf "$arch"
  need_pkgs="$need_pkgs $HOST_PACKAGES"
  case "$arch" in riscv64 | loongarch64) need_pkgs="$need_pkgs clang-19 lld-19 llvm-19" ;; esac
done
need_pkgs=$(tr ' ' '\n' <<<"$need_pkgs" | sed '/^$/d' | sort -u | tr '\n' ' ')
missing=""
for p in $need_pkgs; do
  if ! dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qx installed; then
    missing="$missing $p"
  fi
done
t=$(b3_now)
if [ -n "$missing" ]; then
  b3_log "apt: installing$missing"
  as_root apt-get -o DPkg::Lock::Timeout=900 update >"$B3_CACHE/logs/apt-update.log" 2>&1 ||
    b3_warn "apt-get update reported errors (see $B3_CACHE/logs/apt-update.log); trying the install anyway"
  # shellcheck disable=SC2086
  as_root env DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y \
    --no-install-recommends $missing >"$B3_CACHE/logs/apt-install.log" 2>&1 ||
    { tail -20 "$B3_CACHE/logs/apt-install.log" >&2; b3_die "apt-get install failed"; }
  b3_log "apt: done in $(b3_elapsed "$t") s"
else
  b3_log "apt: all host packages present"
fi

# ---- private apt configurations ------------------------------------------------------------

MIRROR=$(b3_debian_mirror) || b3_die "no Debian mirror for bookworm in /etc/apt (set BLAKE3_DEBIAN_MIRROR)"

# apt_private, apt_fetch, fix_links, merge_usr_links: in lib.sh (platforms/jdk21.sh uses them too).

# ---- 2. qemu 10 and the loong64 cross sysroot (trixie, arch amd64/all) ---------------------

trixie_host_job() {
  set -e
  local conf debs
  if [ -x "$B3_QEMU10/qemu-loongarch64" ] && [ -x "$B3_QEMU10/qemu-riscv64" ] &&
    [ -f "$B3_LOONG_SYSROOT/.ok" ] && [ -z "${BLAKE3_REFRESH:-}" ]; then
    echo "cached"
    return 0
  fi
  conf=$(apt_private trixie-amd64 amd64 trixie)
  debs="$B3_CACHE/debs/trixie-amd64"
  # libgcc-N-dev-loong64-cross: the gcc version of trixie's cross packages (14 or 13).
  local gccdev=""
  apt_fetch "$conf" "$debs" qemu-user || return 1
  for v in 14 13 15; do
    if apt-cache -c "$conf" show "libgcc-$v-dev-loong64-cross" >/dev/null 2>&1; then
      gccdev="libgcc-$v-dev-loong64-cross"
      break
    fi
  done
  [ -n "$gccdev" ] || { echo "no libgcc-*-dev-loong64-cross in trixie"; return 1; }
  local sysdebs="$B3_CACHE/debs/loong64-cross"
  apt_fetch "$conf" "$sysdebs" libc6-dev-loong64-cross libc6-loong64-cross \
    linux-libc-dev-loong64-cross libgcc-s1-loong64-cross "$gccdev" || return 1

  rm -rf "$B3_QEMU10.tmp" && mkdir -p "$B3_QEMU10.tmp"
  dpkg-deb --fsys-tarfile "$debs"/qemu-user_*.deb |
    tar -x -C "$B3_QEMU10.tmp" ./usr/bin/qemu-loongarch64 ./usr/bin/qemu-riscv64
  mv "$B3_QEMU10.tmp"/usr/bin/qemu-* "$B3_QEMU10.tmp"/
  rm -rf "$B3_QEMU10.tmp/usr" "$B3_QEMU10"
  mv "$B3_QEMU10.tmp" "$B3_QEMU10"
  "$B3_QEMU10/qemu-loongarch64" -version | head -1

  rm -rf "$B3_LOONG_SYSROOT.tmp" && mkdir -p "$B3_LOONG_SYSROOT.tmp"
  for deb in "$sysdebs"/*.deb; do dpkg -x "$deb" "$B3_LOONG_SYSROOT.tmp"; done
  fix_links "$B3_LOONG_SYSROOT.tmp"
  # The dynamic loader is /lib64/ld-linux-loongarch-lp64d.so.1: make it visible under the
  # runtime root qemu gets with -L.
  local rt="$B3_LOONG_SYSROOT.tmp/usr/loongarch64-linux-gnu"
  [ -e "$rt/lib64" ] || ln -s lib "$rt/lib64"
  ls "$B3_LOONG_SYSROOT.tmp"/usr/lib/gcc-cross/loongarch64-linux-gnu/ >"$B3_LOONG_SYSROOT.tmp/.ok"
  rm -rf "$B3_LOONG_SYSROOT"
  mv "$B3_LOONG_SYSROOT.tmp" "$B3_LOONG_SYSROOT"
  echo "qemu 10 and the loong64 cross sysroot (gcc $(cat "$B3_LOONG_SYSROOT/.ok")) ready"
}

# ---- 3. foreign JREs ------------------------------------------------------------------------

# jre_job ARCH: fetch, unpack and smoke-test the JRE of platform ARCH.
jre_job() {
  set -e
  local arch=$1
  b3_load_conf "$arch"
  local root="$B3_CACHE/jre/$DEBIAN_ARCH"
  if [ -f "$root.ok" ] && [ -z "${BLAKE3_REFRESH:-}" ] && [ -n "$(b3_jre_java "$root")" ]; then
    echo "cached: $(cat "$root.ok")"
    return 0
  fi
  rm -f "$root.ok" "$root.SKIPPED"
  local conf debs="$B3_CACHE/debs/jre-$DEBIAN_ARCH"
  conf=$(apt_private "$DEBIAN_ARCH-$JRE_SUITE" "$DEBIAN_ARCH" "$JRE_SUITE")
  # shellcheck disable=SC2086
  apt_fetch "$conf" "$debs" $JRE_PACKAGES || { echo "download failed"; return 1; }
  rm -rf "$root.tmp" && mkdir -p "$root.tmp"
  for deb in "$debs"/*.deb; do dpkg -x "$deb" "$root.tmp"; done
  merge_usr_links "$root.tmp"
  fix_links "$root.tmp"
  rm -rf "$root" && mv "$root.tmp" "$root"
  local java qemu
  java=$(b3_jre_java "$root")
  [ -n "$java" ] || { echo "no bin/java in the unpacked packages"; return 1; }
  # shellcheck disable=SC2153 # QEMU is the descriptor's field, b3_load_conf set it
  qemu=$(b3_qemu_path "$QEMU")
  [ -n "$qemu" ] || { echo "no $QEMU to run it"; return 1; }
  local version
  if ! version=$("$qemu" -L "$root" "$java" -Xshare:auto -version 2>&1); then
    echo "$version"
    echo "java -version failed under $qemu"
    return 1
  fi
  echo "$version" | head -2 | tr '\n' ' ' | sed 's/ *$//' >"$root.ok"
  echo "ready: $(cat "$root.ok")"
}

jre_failed() {
  local arch=$1 why=$2
  b3_load_conf "$arch"
  local marker="$B3_CACHE/jre/$DEBIAN_ARCH.SKIPPED"
  {
    echo "SKIPPED: $PLATFORM JRE ($JRE_PACKAGES from $JRE_SUITE) not available"
    echo "reason: $why"
    echo "date: $(date -u +%FT%TZ)"
  } >"$marker"
  echo "################################################################################" >&2
  echo "### SKIPPED: no $DEBIAN_ARCH JRE ($JRE_SUITE); the $PLATFORM JVM tests cannot run." >&2
  echo "### $why (log: $B3_CACHE/logs/jre-$DEBIAN_ARCH.log, marker: $marker)" >&2
  echo "################################################################################" >&2
}

# Runs "name:function args" jobs two at a time; waits on each pid to see its status.
declare -A job_status=()
run_pair() {
  local pids=() names=() spec name i
  for spec in "$@"; do
    name=${spec%%:*}
    # shellcheck disable=SC2086
    (
      t0=$(b3_now)
      ${spec#*:}
      echo "took $(b3_elapsed "$t0") s"
    ) >"$B3_CACHE/logs/$name.log" 2>&1 &
    pids+=("$!")
    names+=("$name")
  done
  for i in "${!pids[@]}"; do
    if wait "${pids[$i]}"; then
      job_status[${names[$i]}]=ok
      b3_log "${names[$i]}: $(grep -v '^took ' "$B3_CACHE/logs/${names[$i]}.log" | tail -1) ($(tail -1 "$B3_CACHE/logs/${names[$i]}.log"))"
    else
      job_status[${names[$i]}]=failed
      b3_warn "${names[$i]} failed; last lines of $B3_CACHE/logs/${names[$i]}.log:"
      tail -5 "$B3_CACHE/logs/${names[$i]}.log" >&2
    fi
  done
}

t=$(b3_now)
jobs=()
need_trixie=0
for arch in $platforms; do
  case "$arch" in riscv64 | loongarch64) need_trixie=1 ;; esac
done
[ "$need_trixie" = 1 ] && jobs+=("qemu10-loong64-sysroot:trixie_host_job")
if [ -z "${BLAKE3_SKIP_JRE:-}" ]; then
  # The loong64 JRE needs qemu 10 for its smoke test: it goes after the trixie job.
  for arch in $platforms; do
    b3_load_conf "$arch"
    [ "$JRE" = debian ] && [ "$arch" != loongarch64 ] && jobs+=("jre-$DEBIAN_ARCH:jre_job $arch")
  done
  case " $platforms " in *" loongarch64 "*) jobs+=("jre-loong64:jre_job loongarch64") ;; esac
fi
for ((i = 0; i < ${#jobs[@]}; i += 2)); do
  run_pair "${jobs[@]:i:2}"
done

status=0
if [ "${job_status[qemu10-loong64-sysroot]:-ok}" != ok ]; then
  b3_warn "qemu 10 / loong64 sysroot: FAILED (the C toolchain for linux-loongarch64 is unusable)"
  status=1
fi
for name in "${!job_status[@]}"; do
  case "$name" in
    jre-*)
      if [ "${job_status[$name]}" != ok ]; then
        deb=${name#jre-}
        for arch in $platforms; do
          b3_load_conf "$arch"
          [ "$DEBIAN_ARCH" = "$deb" ] && jre_failed "$arch" "$(grep -v '^took ' "$B3_CACHE/logs/$name.log" | tail -1)"
        done
      fi
      ;;
  esac
done
b3_log "downloads and sysroots: $(b3_elapsed "$t") s"

# ---- toolchain check: every selected platform must compile and link a JNI-free test ------

t=$(b3_now)
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
printf '#include <stdio.h>\nint main(void) { puts("ok"); return 0; }\n' >"$probe/p.c"
for arch in $platforms; do
  b3_load_conf "$arch"
  cc=""
  case "$arch" in
    x86_64) cc="gcc" ;;
    riscv64) cc="clang-19 --target=riscv64-linux-gnu -march=rv64gc" ;;
    loongarch64) cc="clang-19 --target=loongarch64-linux-gnu --sysroot=$B3_LOONG_SYSROOT --gcc-toolchain=$B3_LOONG_SYSROOT/usr -fuse-ld=lld -mno-lsx" ;;
    *) cc="$C_COMPILER" ;;
  esac
  qemu=$(b3_qemu_path "$QEMU")
  exe="$probe/p-$arch"
  [ "${LIB_FORMAT:-elf}" = pe ] && exe="$exe.exe"
  # shellcheck disable=SC2086
  if ! $cc -O2 "$probe/p.c" -o "$exe" >"$probe/cc-$arch.log" 2>&1; then
    cat "$probe/cc-$arch.log" >&2
    b3_warn "$PLATFORM: the C toolchain does not work ($cc)"
    status=1
    continue
  fi
  if [ "$arch" = x86_64 ]; then out=$("$probe/p-$arch" 2>&1 || true)
  elif [ "${LIB_FORMAT:-elf}" = pe ] && [ -n "$qemu" ]; then
    # The first wine run creates the prefix (some 20 s): here, once, rather than in two
    # test runs at the same time; it also prints wine's own notes about that ("created the
    # configuration directory", a missing 32-bit rundll32), so only a second run is compared.
    # msvcrt writes text mode: CR LF.
    (b3_wine_env; [ -d "$WINEPREFIX" ] || "$qemu" "$exe" >/dev/null 2>&1 || true)
    out=$(b3_wine_env; "$qemu" "$exe" 2>&1 | tr -d '\r'; true)
  elif [ -n "$qemu" ]; then out=$("$qemu" -L "$(b3_resolve "$C_RUNTIME_ROOT")" "$probe/p-$arch" 2>&1 || true)
  else out="no $QEMU"; fi
  if [ "$out" != ok ]; then
    b3_warn "$PLATFORM: the test program does not run: $out"
    status=1
  fi
done
b3_log "toolchains checked in $(b3_elapsed "$t") s"

echo "---- setup summary ($(b3_elapsed "$t_setup") s) ----"
for arch in $platforms; do
  b3_load_conf "$arch"
  jre="host JDK"
  [ "$JRE" = none ] && jre="none: no JVM for this platform here (C tests only)"
  if [ "$JRE" = debian ]; then
    if [ -n "${BLAKE3_SKIP_JRE:-}" ]; then jre="not fetched (BLAKE3_SKIP_JRE)"
    elif [ -f "$B3_CACHE/jre/$DEBIAN_ARCH.ok" ]; then jre=$(cat "$B3_CACHE/jre/$DEBIAN_ARCH.ok")
    else jre="SKIPPED ($(sed -n 2p "$B3_CACHE/jre/$DEBIAN_ARCH.SKIPPED" 2>/dev/null))"; fi
  fi
  printf '%-18s qemu=%-40s jre=%s\n' "$PLATFORM" "$(b3_qemu_path "$QEMU")" "$jre"
done
exit $status
