#!/usr/bin/env bash
# bench/files/profile.sh FILE [ROUNDS]: where the CPU time of hashing one large file goes, for
# ./b3sum, Debian's b3sum and Blake3.hashFile in process (issue 16, item 4).
#
# Each round records, one after the other, `perf record -g` (software clock, 2 kHz) of
#   ./b3sum FILE          (the launcher: JVM start, the library's first use, the hashing)
#   b3sum FILE            (Debian's)
#   java HashLoop FILE 4  (the jar of ./b3sum; one call to warm up, then 4 timed calls)
#   an empty main         (with the flags and AppCDS archive of ./b3sum: the JVM's floor)
# and splits each profile's samples into: the hashing kernel (blake3_* in our library, the
# b3sum executable itself for Debian's), the OS kernel under page faults, under munmap, under
# mmap, the rest of the OS kernel, the JVM (libjvm, JIT-compiled and interpreted code) and the
# rest. Prints milliseconds of CPU per run (samples / 2 kHz), medians over the rounds. FILE
# should be in the page cache (cat it to /dev/null first). Needs perf (linux-perf), b3sum.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
file=$1
rounds=${2:-3}
for tool in perf b3sum; do
  command -v "$tool" >/dev/null || { echo "$0: $tool is missing" >&2; exit 1; }
done
jar=
for f in "$root"/java/target/blake3-fast-*.jar; do
  case $f in *-sources.jar | *-javadoc.jar | *-tests.jar) ;; *) jar=$f ;; esac
done
[ -n "$jar" ] || { echo "$0: build the jar first (mvn -B -q -pl java -DskipTests package)" >&2; exit 1; }

work=$(mktemp -d /tmp/b3prof.XXXXXX)
trap 'rm -rf "$work"' EXIT
cat >"$work/HashLoop.java" <<'JAVA'
import io.github.blake3fast.Blake3;
import java.nio.file.Path;

public class HashLoop {
  public static void main(String[] a) throws Exception {
    Path p = Path.of(a[0]);
    int n = Integer.parseInt(a[1]);
    Blake3.hashFile(p);
    for (int i = 0; i < n; i++) {
      Blake3.hashFile(p);
    }
  }
}
JAVA
javac -cp "$jar" -d "$work" "$work/HashLoop.java"
"$root/b3sum" "$file" >/dev/null # makes the launcher's archive and library
# The JVM flags of ./b3sum, as it would exec java (as in run.sh).
line=$(bash -x "$root/b3sum" "$file" 2>&1 >/dev/null | grep -E '^\+ exec ' | tail -1)
read -r -a words <<<"${line#+ exec }"
empty=("${words[0]}")
for ((i = 1; i < ${#words[@]}; i++)); do
  [ "${words[i]}" = -jar ] && break
  empty+=("${words[i]}")
done
printf 'public class Empty { public static void main(String[] a) {} }\n' >"$work/Empty.java"
javac -d "$work" "$work/Empty.java"
empty+=(-cp "$jar:$work" Empty)
cat "$file" >/dev/null

echo "== $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), $(java -version 2>&1 | head -1)"
for ((r = 0; r < rounds; r++)); do
  perf record -q -F 2000 -g -o "$work/ours.$r.data" -- "$root/b3sum" "$file" >/dev/null 2>&1
  perf record -q -F 2000 -g -o "$work/debian.$r.data" -- b3sum "$file" >/dev/null 2>&1
  perf record -q -F 2000 -g -o "$work/inproc.$r.data" -- java -cp "$jar:$work" HashLoop "$file" 4 >/dev/null 2>&1
  perf record -q -F 2000 -g -o "$work/empty.$r.data" -- "${empty[@]}" >/dev/null 2>&1
done
for name in ours debian inproc empty; do
  for ((r = 0; r < rounds; r++)); do
    perf script -i "$work/$name.$r.data" -F comm,ip,sym,dso 2>/dev/null >"$work/$name.$r.txt"
  done
done
python3 - "$work" "$rounds" <<'PY'
import statistics, sys

work, rounds = sys.argv[1], int(sys.argv[2])
HZ = 2000.0
CATS = ["hashing", "faults", "munmap", "mmap", "os other", "jvm", "other"]


def classify(frames):
    """frames: (sym, dso) from the leaf outwards."""
    sym, dso = frames[0]
    if "blake3" in sym or dso.endswith("/b3sum") or dso == "b3sum":
        return "hashing"
    if "kernel.kallsyms" in dso:
        syms = [s for s, _ in frames]
        if any("exc_page_fault" in s for s in syms):
            return "faults"
        if any("sys_munmap" in s for s in syms):
            return "munmap"
        if any("mmap_pgoff" in s for s in syms):
            return "mmap"
        return "os other"
    if "libjvm" in dso or "[JIT]" in dso or dso.startswith("[unknown]") or "perf-" in dso:
        return "jvm"
    return "other"


def parse(path):
    counts = dict.fromkeys(CATS, 0)
    frames = []

    def flush():
        if frames:
            counts[classify(frames)] += 1
            frames.clear()

    header = False
    for line in open(path, errors="replace"):
        if not line.strip():
            flush()
            header = False
            continue
        if not line.startswith((" ", "\t")):
            flush()
            header = True
            continue
        parts = line.strip().split(None, 1)
        rest = parts[1] if len(parts) > 1 else ""
        sym, _, dso = rest.rpartition(" (")
        frames.append((sym, dso.rstrip(")")))
    flush()
    return counts


names = {"ours": "./b3sum FILE", "debian": "Debian b3sum FILE", "inproc": "HashLoop run / 5",
         "empty": "empty main"}
print(f"{'ms of CPU (median)':22s}" + "".join(f"{c:>10s}" for c in CATS) + f"{'total':>10s}")
for name, label in names.items():
    per = [parse(f"{work}/{name}.{r}.txt") for r in range(rounds)]
    div = 5 if name == "inproc" else 1  # HashLoop: 1 warm-up + 4 calls
    row = [statistics.median(p[c] for p in per) / HZ * 1000 / div for c in CATS]
    total = statistics.median(sum(p.values()) for p in per) / HZ * 1000 / div
    print(f"{label:22s}" + "".join(f"{v:10.0f}" for v in row) + f"{total:10.0f}")
PY
