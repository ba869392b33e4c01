#!/bin/sh
# check-glibc-symbols.sh LIB [MAX_VERSION]
#
# Fails (exit 1) when the shared library
#   - references a GLIBC_x.y symbol version newer than MAX_VERSION (default by ELF machine:
#     2.17, RISC-V 2.27, LoongArch 2.36: the first glibc of those ports),
#   - needs a library other than libc (and the dynamic loader),
#   - exports any symbol but JNI_OnLoad,
#   - asks for an executable stack.
# Uses readelf only (binutils; llvm-readelf works too via READELF=...).
set -eu

READELF=${READELF:-readelf}
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 LIB [MAX_GLIBC_VERSION]" >&2
  exit 2
fi
lib=$1
if [ ! -f "$lib" ]; then
  echo "$0: $lib: no such file" >&2
  exit 2
fi

machine=$(LC_ALL=C "$READELF" -h "$lib" | sed -n 's/^ *Machine: *//p')
if [ $# -eq 2 ]; then
  max=$2
else
  case "$machine" in
    *RISC-V*) max=2.27 ;;
    *LoongArch*) max=2.36 ;;
    *) max=2.17 ;;
  esac
fi

status=0
say() { echo "$lib: $*"; }

# "a.b[.c]" -> comparable integer
vnum() { echo "$1" | awk -F. '{ printf "%d\n", ($1 * 1000000) + ($2 * 1000) + ($3 + 0) }'; }
maxn=$(vnum "$max")

# Drop annotations some targets add to the visibility column, e.g. ppc64le "[<localentry>: 8]"
# or aarch64 "[VARIANT_PCS]", so that the columns line up for awk.
dynsyms=$(LC_ALL=C "$READELF" --dyn-syms -W "$lib" | sed 's/ \[[^]]*\]//g')

# 1. symbol versions
newest=none
for v in $(echo "$dynsyms" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -u); do
  if [ "$(vnum "$v")" -gt "$maxn" ]; then
    say "needs GLIBC_$v (newer than $max):"
    echo "$dynsyms" | awk -v v="@GLIBC_$v" '$1 ~ /^[0-9]+:$/ && index($8, v) { print "    " $8 }'
    status=1
  fi
  if [ "$newest" = none ] || [ "$(vnum "$v")" -gt "$(vnum "$newest")" ]; then newest=$v; fi
done

# 2. needed libraries: libc and the loader only
for n in $(LC_ALL=C "$READELF" -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
  case "$n" in
    libc.so.*|ld-linux*.so.*|ld64.so.*|ld.so.*) ;;
    *) say "needs $n (only libc is allowed)"; status=1 ;;
  esac
done

# 3. exports: JNI_OnLoad only (defined, global or weak, default visibility)
exports=$(echo "$dynsyms" | awk '$1 ~ /^[0-9]+:$/ && $7 != "UND" && $7 != "ABS" && ($5 == "GLOBAL" || $5 == "WEAK") && $6 == "DEFAULT" { print $8 }' | sed 's/@.*//' | sort -u)
for s in $exports; do
  [ "$s" = JNI_OnLoad ] || { say "exports $s (only JNI_OnLoad may be exported)"; status=1; }
done
echo "$exports" | grep -qx JNI_OnLoad || { say "does not export JNI_OnLoad"; status=1; }

# 4. non-executable stack
if LC_ALL=C "$READELF" -lW "$lib" | grep GNU_STACK | grep -q 'RWE'; then
  say "asks for an executable stack"
  status=1
fi

imports=$(echo "$dynsyms" | awk '$1 ~ /^[0-9]+:$/ && $7 == "UND" && $8 != "" { print $8 }' | sort -u | tr '\n' ' ')
if [ $status -eq 0 ]; then
  say "OK ($machine; newest GLIBC_$newest <= $max; imports: ${imports:-none})"
fi
exit $status
