# shellcheck shell=bash
# The one list of the platforms the jar carries a native library for, sourced by b3sum,
# native/build-host.sh and platforms/lib.sh (bash). Each Linux entry: the architecture, which
# names platforms/<arch>.conf and the jar's directory linux-<arch>, then any other name
# `uname -m` or a JVM's os.arch gives the same machine. An entry of another OS is its full name,
# <os>-<arch> (the descriptor and the jar's directory alike), and no machine name finds it. The Java loader's Platform enum and platforms/*.conf
# are checked against this list by PlatformListTest; native/CMakeLists.txt reads the table
# itself (keep each entry on its own line, quoted, indented by two spaces).
B3_PLATFORM_TABLE=(
  "x86_64 amd64"
  "aarch64"
  "ppc64le"
  "riscv64"
  "loongarch64"
  "s390x"
  "ppc64"
  "windows-x86_64"
)

# Prints linux-<arch> for a machine name (`uname -m`), or an <os>-<arch> entry for its own
# name; status 1 and nothing where the jar has no library for that machine.
b3_platform_of() {
  local entry name
  for entry in "${B3_PLATFORM_TABLE[@]}"; do
    if [[ "$entry" == *-* ]]; then
      if [ "$entry" = "$1" ]; then
        echo "$entry"
        return 0
      fi
      continue
    fi
    for name in $entry; do
      if [ "$name" = "$1" ]; then
        echo "linux-${entry%% *}"
        return 0
      fi
    done
  done
  return 1
}
