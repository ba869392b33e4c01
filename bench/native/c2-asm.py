#!/usr/bin/env python3
"""Disassembles the last C2 compilation of a method from a HotSpot -XX:CompileCommand=print log
and counts its instructions up to the first return (the straight path: a Vector API round has no
loop, its deoptimization stubs come after the return).

    java -XX:+UnlockDiagnosticVMOptions \\
        -XX:CompileCommand=print,io.github.blake3fast.VectorCompress::round2 ... > LOG 2>&1
    bench/native/c2-asm.py LOG [--listing]

Without a working hsdis plugin HotSpot prints the machine code as hex words (Debian's
libhsdis0-fcml printed only those on this machine), so this decodes them with binutils' objdump
(x86-64 only). Prints mnemonic counts, most frequent first; --listing prints the whole
disassembly too.
"""
import re
import subprocess
import sys
import tempfile
from collections import Counter

CODE_LINE = re.compile(r"\s*0x([0-9a-f]+): ([0-9a-f |]+)$")


def last_c2_code(lines):
    starts = [i for i, line in enumerate(lines) if line.startswith("Compiled method (c2)")]
    if not starts:
        sys.exit("c2-asm: no C2 compilation in the log (did the method get hot enough?)")
    header = lines[starts[-1]]
    code, base = bytearray(), None
    for line in lines[starts[-1] + 1:]:
        if line.startswith(("Compiled method", "[Exception Handler]", "[Stub Code]")):
            break
        m = CODE_LINE.match(line)
        if m:
            base = base if base is not None else int(m.group(1), 16)
            code += bytes.fromhex(m.group(2).replace("|", "").replace(" ", ""))
    if not code:
        sys.exit("c2-asm: the compilation has no hex code lines (hsdis decoded it: read the log)")
    return header, base, bytes(code)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    header, base, code = last_c2_code(open(sys.argv[1], errors="replace").read().splitlines())
    with tempfile.NamedTemporaryFile(suffix=".bin") as f:
        f.write(code)
        f.flush()
        listing = subprocess.run(["objdump", "-D", "-b", "binary", "-mi386:x86-64", "-M", "intel",
                                  f"--adjust-vma={base:#x}", f.name],
                                 capture_output=True, text=True, check=True).stdout
    counts = Counter()
    for line in listing.splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and fields[2].strip():
            mnemonic = fields[2].split()[0]
            counts[mnemonic] += 1
            if mnemonic == "ret":
                break
    print(header)
    print(f"{sum(counts.values())} instructions to the first ret:",
          ", ".join(f"{n} {m}" for m, n in counts.most_common()))
    if "--listing" in sys.argv[2:]:
        print(listing)


if __name__ == "__main__":
    main()
