#!/bin/sh
# check-pe-imports.sh DLL
#
# The Windows counterpart of check-glibc-symbols.sh. Fails (exit 1) when the DLL
#   - is not a PE32+ x86-64 DLL,
#   - imports from any DLL but KERNEL32.dll and msvcrt.dll (both in every Windows since XP:
#     a libgcc, libwinpthread or UCRT dependency would fail to load on a machine without it),
#   - exports any symbol but JNI_OnLoad,
#   - lacks ASLR (dynamic base, high-entropy VA) or DEP (NX compatible).
# Uses objdump (OBJDUMP=..., default x86_64-w64-mingw32-objdump, else objdump).
set -eu

if [ $# -ne 1 ]; then
  echo "usage: $0 DLL" >&2
  exit 2
fi
lib=$1
if [ ! -f "$lib" ]; then
  echo "$0: $lib: no such file" >&2
  exit 2
fi
if [ -z "${OBJDUMP:-}" ]; then
  if command -v x86_64-w64-mingw32-objdump >/dev/null 2>&1; then OBJDUMP=x86_64-w64-mingw32-objdump; else OBJDUMP=objdump; fi
fi

status=0
say() { echo "$lib: $*"; }
dump=$(LC_ALL=C "$OBJDUMP" -p "$lib" 2>&1) || { say "objdump cannot read it: $dump"; exit 1; }

echo "$dump" | grep -q 'file format pei-x86-64' || { say "not a PE32+ x86-64 image"; status=1; }
chars=$(echo "$dump" | sed -n 's/^Characteristics[[:space:]]*0x\([0-9a-fA-F]*\).*/\1/p' | head -1)
if [ -z "$chars" ] || [ $(( 0x$chars & 0x2000 )) -eq 0 ]; then
  say "not a DLL (Characteristics 0x${chars:-?})"
  status=1
fi
dllchars=$(echo "$dump" | sed -n 's/^DllCharacteristics[[:space:]]*\([0-9a-fA-F]*\).*/\1/p' | head -1)
# 0x20 high-entropy VA, 0x40 dynamic base, 0x100 NX compatible
if [ -z "$dllchars" ] || [ $(( 0x$dllchars & 0x160 )) -ne $(( 0x160 )) ]; then
  say "DllCharacteristics 0x${dllchars:-?} lack ASLR or DEP (want 0x160 set)"
  status=1
fi

imports=$(echo "$dump" | sed -n 's/^[[:space:]]*DLL Name: //p' | tr -d '\r' | sort -u)
for d in $imports; do
  case "$(echo "$d" | tr '[:upper:]' '[:lower:]')" in
    kernel32.dll | msvcrt.dll) ;;
    *) say "imports from $d (only KERNEL32.dll and msvcrt.dll are allowed)"; status=1 ;;
  esac
done
echo "$imports" | grep -qi '^kernel32.dll$' || { say "imports nothing from KERNEL32.dll: not a mingw-w64 DLL?"; status=1; }

# The export table's name list: lines "[   0] NAME" after "[Ordinal/Name Pointer] Table" or
# "[Name Pointer/Ordinal] Table" (the wording changed between binutils versions).
exports=$(echo "$dump" | awk '/Name Pointer.*Table|Ordinal\/Name Pointer/ { on = 1; next } on && /^[[:space:]]*\[ *[0-9]+\]/ { sub(/^[[:space:]]*\[ *[0-9]+\][[:space:]]*/, ""); print } on && /^$/ { on = 0 }' | sort -u)
for s in $exports; do
  [ "$s" = JNI_OnLoad ] || { say "exports $s (only JNI_OnLoad may be exported)"; status=1; }
done
echo "$exports" | grep -qx JNI_OnLoad || { say "does not export JNI_OnLoad"; status=1; }

if [ $status -eq 0 ]; then
  say "OK (PE32+ x86-64 DLL, ASLR+DEP; imports: $(echo "$imports" | tr '\n' ' '); exports: JNI_OnLoad)"
fi
exit $status
