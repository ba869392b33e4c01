# shellcheck shell=bash
# Shared by platforms/setup.sh, build-all.sh and test-all.sh (sourced, bash only).
#
# Layout of the cache (outside the checkout; nothing here goes into git):
#   $B3_CACHE/apt/<name>/           private apt state, one per (architecture, suite)
#   $B3_CACHE/qemu10/               qemu-loongarch64 and qemu-riscv64 from trixie's qemu-user
#   $B3_CACHE/sysroot/loong64-cross trixie's loong64 cross glibc (arch:all packages, unpacked)
#   $B3_CACHE/jre/<debian-arch>/    a foreign JRE + its runtime libraries, unpacked
#   $B3_CACHE/jre/<debian-arch>.ok       written once that JRE ran `java -version` under qemu
#   $B3_CACHE/jre/<debian-arch>.SKIPPED  written when it could not be fetched or run (why)
#   $B3_CACHE/logs/                 one log per setup job
#   $B3_CACHE/fresh-root/           .ci/fresh-root.sh: the minimal bookworm root as a tarball,
#                                   named by its package list, and each run's copy (run.PID)

B3_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
B3_PLATFORMS_DIR="$B3_ROOT/platforms"
B3_CACHE=${BLAKE3_CACHE:-/var/cache/blake3-fast}
# shellcheck disable=SC2034 # read by the scripts that source this file
B3_BUILD="$B3_ROOT/build"
B3_QEMU10="$B3_CACHE/qemu10"
B3_LOONG_SYSROOT="$B3_CACHE/sysroot/loong64-cross"
# shellcheck source=arch.sh
source "$B3_PLATFORMS_DIR/arch.sh"
# The descriptors' names (platforms/<arch>.conf), in the order of the list in arch.sh.
B3_PLATFORM_ORDER="${B3_PLATFORM_TABLE[*]%% *}"

b3_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*"; }
b3_warn() { printf '[%s] WARNING: %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
b3_die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# Seconds since the epoch with a fraction, for timings.
b3_now() { date +%s.%N; }
b3_elapsed() { awk -v a="$1" -v b="$(b3_now)" 'BEGIN { printf "%.1f", b - a }'; }

# Loads platforms/<arch>.conf into the current shell (clearing the previous one's fields).
b3_load_conf() {
  local arch=$1
  unset PLATFORM ARCH DEBIAN_ARCH GNU_TRIPLET TOOLCHAIN_FILE ELF_MACHINE ELF_DATA HOST_PACKAGES \
    C_COMPILER QEMU C_RUNTIME_ROOT CPUS JRE JRE_SUITE JRE_PACKAGES JRE_OPTIONAL LIB_FORMAT
  # shellcheck disable=SC1090
  source "$B3_PLATFORMS_DIR/$arch.conf"
  # linux-<arch>: the directory under build/native/ and META-INF/native/ (ARCH is the
  # descriptor's; PLATFORM is read by the scripts that source this file)
  # shellcheck disable=SC2034,SC2153
  PLATFORM=$(b3_platform_of "$ARCH") || b3_die "platforms/$arch.conf: ARCH=$ARCH is not in platforms/arch.sh"
}

# The library's file name for the loaded descriptor: a PE DLL carries no lib prefix.
b3_lib_name() {
  if [ "${LIB_FORMAT:-elf}" = pe ]; then echo blake3fast.dll; else echo libblake3fast.so; fi
}

# The wine prefix of the Windows runs (created by setup.sh), and wine's chatter off.
b3_wine_env() {
  export WINEPREFIX="$B3_CACHE/wine64" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
}

# Platforms to work on: $BLAKE3_PLATFORMS (space or comma separated, e.g. "aarch64,s390x")
# or all of them.
b3_selected_platforms() {
  local want=${BLAKE3_PLATFORMS:-$B3_PLATFORM_ORDER}
  echo "${want//,/ }"
}

# Expands the "@" shorthands of the descriptors into cache paths.
b3_resolve() {
  local p=$1
  case "$p" in
    @qemu10/*) echo "$B3_QEMU10/${p#@qemu10/}" ;;
    @loong64-cross/*) echo "$B3_LOONG_SYSROOT/${p#@loong64-cross/}" ;;
    @loong64-cross) echo "$B3_LOONG_SYSROOT" ;;
    *) echo "$p" ;;
  esac
}

# The Debian mirror named in this machine's apt sources for bookworm (never written into the
# repository). $BLAKE3_DEBIAN_MIRROR overrides it. Reads deb822 *.sources files (the URIs of
# the stanza whose Suites include bookworm) and one-line sources.list files.
b3_debian_mirror() {
  if [ -n "${BLAKE3_DEBIAN_MIRROR:-}" ]; then
    echo "${BLAKE3_DEBIAN_MIRROR%/}"
    return 0
  fi
  local f uri=""
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -r "$f" ] || continue
    uri=$(awk '
      function flush() {
        if (enabled && types ~ /(^|[ \t])deb([ \t]|$)/ && suites ~ /(^|[ \t])bookworm([ \t]|$)/ && uris != "") {
          split(uris, u, /[ \t]+/); print u[1]; found = 1; exit
        }
        types = ""; suites = ""; uris = ""; enabled = 1
      }
      BEGIN { enabled = 1 }
      /^[ \t]*#/ { next }
      /^[ \t]*$/ { flush(); next }
      {
        key = $0; sub(/:.*/, "", key); val = $0; sub(/^[^:]*:[ \t]*/, "", val)
        k = tolower(key)
        if (k == "types") types = val
        else if (k == "suites") suites = val
        else if (k == "uris") uris = val
        else if (k == "enabled" && tolower(val) == "no") enabled = 0
      }
      END { if (!found) flush() }' "$f")
    [ -n "$uri" ] && break
  done
  if [ -z "$uri" ]; then
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
      [ -r "$f" ] || continue
      # deb [options] URI SUITE COMPONENTS...
      uri=$(sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$f" |
        awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }')
      [ -n "$uri" ] && break
    done
  fi
  [ -n "$uri" ] || return 1
  echo "${uri%/}"
}

# The best x86-64 kernel this CPU can run, spelled as the dispatcher names it.
b3_host_x86_isa() {
  local flags
  flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
  case " $flags " in
    *" avx512f "*" avx512vl "* | *" avx512vl "*" avx512f "*) echo avx512 ;;
    *" avx2 "*) echo avx2 ;;
    *" sse4_1 "*) echo sse41 ;;
    *) echo sse2 ;;
  esac
}

# The qemu binary for a descriptor's QEMU field (empty if it is missing).
b3_qemu_path() {
  local q
  q=$(b3_resolve "$1")
  case "$q" in
    /*) [ -x "$q" ] && echo "$q" ;;
    *) command -v "$q" 2>/dev/null ;;
  esac
  return 0
}

# The java launcher inside an unpacked JRE sysroot (empty if none).
b3_jre_java() {
  local root=$1 j
  # usr/lib/jvm holds the JDK directory and a java-1.N.0-... symlink to it: take the directory.
  for j in "$root"/usr/lib/jvm/*/bin/java; do
    [ -L "${j%/bin/java}" ] && continue
    [ -x "$j" ] && { echo "$j"; return 0; }
  done
  return 0
}

# The host JDK's home (for JNI headers and the host JVM).
b3_host_java_home() {
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
    echo "$JAVA_HOME"
    return 0
  fi
  local javac
  javac=$(command -v javac 2>/dev/null || command -v java 2>/dev/null || true)
  [ -n "$javac" ] || return 1
  dirname "$(dirname "$(readlink -f "$javac")")"
}

# ---- private apt configurations (setup.sh, jdk21.sh) -----------------------------------------
# They need $MIRROR (b3_debian_mirror) and $KEYRING set by the caller.

# apt_private NAME ARCH SUITE: prepares $B3_CACHE/apt/NAME and prints its apt.conf path.
apt_private() {
  local name=$1 arch=$2 suite=$3 d="$B3_CACHE/apt/$1"
  mkdir -p "$d"/{lists/partial,cache/archives/partial,etc/sources.list.d,etc/preferences.d,debs}
  [ -e "$d/status" ] || : >"$d/status"
  echo "deb [arch=$arch signed-by=$KEYRING] $MIRROR $suite main" >"$d/etc/sources.list"
  cat >"$d/apt.conf" <<EOF
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Install-Recommends "false";
APT::Sandbox::User "root";
Acquire::Retries "3";
Dir::State "$d";
Dir::State::Lists "$d/lists";
Dir::State::status "$d/status";
Dir::Cache "$d/cache";
Dir::Etc::SourceList "$d/etc/sources.list";
Dir::Etc::SourceParts "$d/etc/sources.list.d";
Dir::Etc::Preferences "$d/etc/preferences";
Dir::Etc::PreferencesParts "$d/etc/preferences.d";
EOF
  echo "$d/apt.conf"
}

# apt_fetch CONF DEST PKG...: refreshes the index (at most once per 6 hours) and downloads the
# newest version of each package into DEST. Prints nothing on success.
apt_fetch() {
  local conf=$1 dest=$2 d
  shift 2
  d=$(dirname "$conf")
  if [ -z "$(find "$d/lists" -maxdepth 1 -name '*_Packages*' -mmin -360 2>/dev/null | head -1)" ]; then
    apt-get -c "$conf" -q update || return 1
  fi
  rm -f "$dest"/*.deb
  mkdir -p "$dest"
  (cd "$dest" && apt-get -c "$conf" -q download "$@") || return 1
}

# Rewrites absolute symlinks under $1 so they point inside it (else qemu -L and the JDK's
# conf/ links would resolve on the host).
fix_links() {
  local root=$1 l t
  find "$root" -type l -print0 | while IFS= read -r -d '' l; do
    t=$(readlink "$l")
    case "$t" in
      /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$l")" "$root$t")" "$l" ;;
    esac
  done
}

# Merged-/usr packages (trixie, sid) keep /lib/... inside usr/: add the top-level links.
merge_usr_links() {
  local root=$1 dir
  for dir in lib lib64; do
    if [ -d "$root/usr/$dir" ] && [ ! -e "$root/$dir" ]; then ln -s "usr/$dir" "$root/$dir"; fi
  done
}
