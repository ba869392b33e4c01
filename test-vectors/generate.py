#!/usr/bin/env python3
"""Generate blake3-fast's BLAKE3 test vectors with the `b3sum` command-line tool.

Python 3 standard library only; every output byte comes from `b3sum` (Debian
package `b3sum`, version 1.2.0 when these files were made).  Normally run
through generate.sh, which checks prerequisites first.

Writes, next to this file (or into --out-dir):
  test_vectors.json   official BLAKE3 test-vector format (131-byte outputs)
  test_vectors.txt    the same cases, one line each, for the C harness
  extra_vectors.json  more output lengths and XOF reads at offsets

Deterministic: the same b3sum gives byte-identical files on every run.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

KEY = b"whats the Elvish word for friend"
CONTEXT = "BLAKE3 2019-12-27 16:29:52 test vectors context"
MODES = ("hash", "keyed_hash", "derive_key")

# Input lengths of the official BLAKE3 test vectors (test_vectors.json of the
# reference repository), and their output length.
OFFICIAL_INPUT_LENS = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 65, 127, 128, 129,
    1023, 1024, 1025, 2048, 2049, 3072, 3073, 4096, 4097, 5120, 5121,
    6144, 6145, 7168, 7169, 8192, 8193, 16384, 31744, 102400,
]
OFFICIAL_OUT_LEN = 131

# extra_vectors.json, part (a): these output lengths for these inputs.
EXTRA_INPUT_LENS = [0, 1, 64, 1024, 1025, 100000]
EXTRA_OUT_LENS = [0, 1, 31, 32, 33, 63, 64, 65, 127, 128, 129, 1000, 1024, 4096, 10240]

# extra_vectors.json, part (b): WINDOW output bytes starting at these offsets.
OFFSET_INPUT_LENS = [0, 65, 1025, 31744]
WINDOW = 64
# Produced with `b3sum --length OFFSET+64`, keeping the last 64 bytes.
SMALL_OFFSETS = [1, 63, 64, 65, 1023, 1048576]
# Too long for that: produced by streaming `b3sum --raw --length MAX+64` through
# a pipe and keeping only the windows: 4 GiB per stream, so only a few inputs. Past 2^32
# output blocks the counter's high word is in use; 2^38 + 13 (a 256 GiB stream per case, an
# hour of CPU for the set) is left out: the tests check far seeks against the Java kernel.
HUGE_OFFSETS = [2**32 + 7]
HUGE_INPUT_LENS = [65, 1025]

OFFICIAL_COMMENT = (
    "Each test is an input length and three outputs, one for each of the hash, "
    "keyed_hash, and derive_key modes. The input in each case is filled with a "
    "repeating sequence of 251 bytes: 0, 1, 2, ..., 249, 250, 0, 1, ..., and so on. "
    "The key used with keyed_hash is the 32-byte ASCII string \"whats the Elvish word "
    "for friend\", also given in the `key` field below. The context string used with "
    "derive_key is the ASCII string \"BLAKE3 2019-12-27 16:29:52 test vectors context\", "
    "also given in the `context_string` field below. Outputs are encoded as hexadecimal. "
    "Each case is an extended output of %d bytes, and implementations should also check "
    "that the first 32 bytes match their default-length output. "
    "blake3-fast generated this file itself with %s (see generate.sh and README.md); "
    "it is not a copy of the reference repository's file."
)

EXTRA_COMMENT = (
    "Extra BLAKE3 vectors for blake3-fast, generated with %s by generate.sh. "
    "Each case: mode is hash, keyed_hash or derive_key; the input is input_len bytes, "
    "byte i being i %% 251; keyed_hash cases give the 32-byte ASCII key in `key`, "
    "derive_key cases the context string in `context`; `output` is the hex encoding of "
    "the extended output bytes [offset, offset + len(output)/2). "
    "Cases with offset 0 test output lengths %s for input lengths %s. "
    "Cases with offset > 0 are %d-byte XOF reads at offsets %s for input lengths %s, "
    "and at offsets %s for input lengths %s; every mode is covered for each. "
    "Not included: offsets of 2^38 or more (output block counter >= 2^32), since "
    "b3sum 1.2.0 cannot seek and each such case would be a 256 GiB output stream."
)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def input_bytes(n):
    pattern = bytes(range(251))
    return (pattern * (n // 251 + 1))[:n]


class B3sum:
    def __init__(self, exe, input_dir):
        self.exe = exe
        self.input_dir = input_dir

    def path(self, input_len):
        return os.path.join(self.input_dir, "input_%d.bin" % input_len)

    def argv(self, mode, input_len, length=None, raw=True):
        argv = [self.exe]
        if raw:
            argv.append("--raw")
        else:
            argv.append("--no-names")
        if length is not None:
            argv += ["--length", str(length)]
        if mode == "keyed_hash":
            argv.append("--keyed")  # the key is read from stdin
        elif mode == "derive_key":
            argv += ["--derive-key", CONTEXT]
        elif mode != "hash":
            raise ValueError(mode)
        argv.append(self.path(input_len))
        return argv

    def stdin(self, mode):
        return KEY if mode == "keyed_hash" else b""

    def output(self, mode, input_len, length):
        """The first `length` output bytes, via --raw."""
        res = subprocess.run(self.argv(mode, input_len, length), input=self.stdin(mode),
                             stdout=subprocess.PIPE, check=True)
        if len(res.stdout) != length:
            raise RuntimeError("b3sum gave %d bytes, wanted %d" % (len(res.stdout), length))
        return res.stdout

    def hex_output(self, mode, input_len, length=None):
        """The hex line b3sum prints without --raw (length None: its default)."""
        res = subprocess.run(self.argv(mode, input_len, length, raw=False),
                             input=self.stdin(mode), stdout=subprocess.PIPE, check=True)
        return res.stdout.decode("ascii").strip()

    def stream_windows(self, mode, input_len, offsets):
        """WINDOW bytes at each offset, from one `--raw` stream through a pipe.

        Bytes before a window are moved to /dev/null with splice(2) where the
        kernel allows it (no copy through this process), else read and dropped.
        """
        offsets = sorted(set(offsets))
        # Merge windows closer than 2 MiB into one range that is read whole.
        ranges = []
        for off in offsets:
            if ranges and off <= ranges[-1][1] + (1 << 21):
                ranges[-1][1] = max(ranges[-1][1], off + WINDOW)
            else:
                ranges.append([off, off + WINDOW])
        total = offsets[-1] + WINDOW
        rfd, wfd = os.pipe()
        try:
            import fcntl
            fcntl.fcntl(rfd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
        except (ImportError, OSError):
            pass
        proc = subprocess.Popen(self.argv(mode, input_len, total), stdin=subprocess.PIPE,
                                stdout=wfd)
        os.close(wfd)
        proc.stdin.write(self.stdin(mode))
        proc.stdin.close()
        devnull = os.open(os.devnull, os.O_WRONLY)
        use_splice = hasattr(os, "splice")
        scratch = bytearray(1 << 20)
        pos = 0
        result = {}
        try:
            for start, end in ranges:
                while pos < start:
                    want = min(start - pos, 1 << 20)
                    n = None
                    if use_splice:
                        try:
                            n = os.splice(rfd, devnull, want)
                        except OSError:
                            use_splice = False
                    if n is None:
                        n = os.readv(rfd, [memoryview(scratch)[:want]])
                    if n == 0:
                        raise RuntimeError("b3sum output ended at %d" % pos)
                    pos += n
                got = bytearray()
                while len(got) < end - start:
                    chunk = os.read(rfd, min(end - start - len(got), 1 << 20))
                    if not chunk:
                        raise RuntimeError("b3sum output ended at %d" % (pos + len(got)))
                    got += chunk
                pos = end
                for off in offsets:
                    if start <= off < end:
                        result[off] = bytes(got[off - start:off - start + WINDOW])
            if os.read(rfd, 1):
                raise RuntimeError("b3sum gave more than %d bytes" % total)
        except BaseException:
            proc.kill()
            raise
        finally:
            os.close(devnull)
            os.close(rfd)
            proc.wait()
        if proc.returncode != 0:
            raise RuntimeError("b3sum failed (exit %d)" % proc.returncode)
        return result


def key_fields(mode):
    if mode == "keyed_hash":
        return {"key": KEY.decode("ascii")}
    if mode == "derive_key":
        return {"context": CONTEXT}
    return {}


def extra_case(mode, input_len, offset, output):
    case = {"mode": mode, "input_len": input_len}
    case.update(key_fields(mode))
    case["offset"] = offset
    case["output"] = output.hex()
    return case


def write_text(path, text):
    with open(path, "w", encoding="ascii", newline="\n") as f:
        f.write(text)


def sha256_file(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--b3sum", default="b3sum", help="b3sum executable (default: b3sum)")
    ap.add_argument("--out-dir", default=os.path.dirname(os.path.abspath(__file__)),
                    help="where to write the files (default: this script's folder)")
    ap.add_argument("-j", "--jobs", type=int, default=max(1, os.cpu_count() or 1),
                    help="b3sum streams to run at once for the huge offsets")
    ap.add_argument("--compare", metavar="OFFICIAL_JSON",
                    help="afterwards, compare test_vectors.json with this official file")
    args = ap.parse_args()

    version = subprocess.run([args.b3sum, "--version"], stdout=subprocess.PIPE,
                             check=True).stdout.decode().strip()
    log("using %s" % version)
    started = time.time()

    with tempfile.TemporaryDirectory(prefix="b3vectors.") as tmp:
        b3 = B3sum(args.b3sum, tmp)
        for n in sorted(set(OFFICIAL_INPUT_LENS + EXTRA_INPUT_LENS + OFFSET_INPUT_LENS)):
            with open(b3.path(n), "wb") as f:
                f.write(input_bytes(n))

        # 1 and 3: the official cases.
        official = []
        for n in OFFICIAL_INPUT_LENS:
            case = {"input_len": n}
            for mode in MODES:
                out = b3.output(mode, n, OFFICIAL_OUT_LEN).hex()
                # Sanity: b3sum's hex mode agrees, and its default 32-byte
                # output is the prefix of the extended output.
                if b3.hex_output(mode, n, OFFICIAL_OUT_LEN) != out:
                    raise RuntimeError("hex and raw output differ: %s %d" % (mode, n))
                if b3.hex_output(mode, n) != out[:64]:
                    raise RuntimeError("default output is no prefix: %s %d" % (mode, n))
                case[mode] = out
            official.append(case)
        log("official cases: %d" % len(official))

        # 2a: output lengths, offset 0.
        extra = []
        for mode in MODES:
            for n in EXTRA_INPUT_LENS:
                longest = b3.output(mode, n, max(EXTRA_OUT_LENS))
                for length in EXTRA_OUT_LENS:
                    out = b3.output(mode, n, length)
                    if out != longest[:length]:
                        raise RuntimeError("output is no prefix: %s %d %d" % (mode, n, length))
                    extra.append(extra_case(mode, n, 0, out))
        log("extra output-length cases: %d" % len(extra))

        # 2b: windows at offsets. Small offsets: the tail of --length off+64.
        windows = {}
        for mode in MODES:
            for n in OFFSET_INPUT_LENS:
                for off in SMALL_OFFSETS:
                    windows[(mode, n, off)] = b3.output(mode, n, off + WINDOW)[off:]
        log("small-offset windows: %d" % len(windows))

        # Huge offsets: one stream per (mode, input) that also passes over the
        # small offsets, which must then agree with the values above.
        jobs = [(mode, n) for mode in MODES for n in HUGE_INPUT_LENS]
        log("streaming %d b3sum outputs of %d bytes each for the huge offsets "
            "(%d at a time)..." % (len(jobs), max(HUGE_OFFSETS) + WINDOW,
                                                  args.jobs))

        def stream(job):
            t = time.time()
            res = b3.stream_windows(job[0], job[1], SMALL_OFFSETS + HUGE_OFFSETS)
            log("  %s input_len=%d: %.0f s" % (job[0], job[1], time.time() - t))
            return job, res

        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            for (mode, n), res in pool.map(stream, jobs):
                for off in SMALL_OFFSETS:
                    if res[off] != windows[(mode, n, off)]:
                        raise RuntimeError("stream disagrees at %s %d %d" % (mode, n, off))
                for off in HUGE_OFFSETS:
                    windows[(mode, n, off)] = res[off]

        for (mode, n, off), out in sorted(windows.items(), key=lambda kv: (MODES.index(kv[0][0]), kv[0][1], kv[0][2])):
            extra.append(extra_case(mode, n, off, out))

    # Write the files.
    os.makedirs(args.out_dir, exist_ok=True)
    paths = {name: os.path.join(args.out_dir, name)
             for name in ("test_vectors.json", "test_vectors.txt", "extra_vectors.json")}

    doc = {
        "_comment": OFFICIAL_COMMENT % (OFFICIAL_OUT_LEN, version),
        "key": KEY.decode("ascii"),
        "context_string": CONTEXT,
        "cases": official,
    }
    write_text(paths["test_vectors.json"], json.dumps(doc, indent=2) + "\n")

    lines = [
        "# BLAKE3 test vectors for blake3-fast, generated with %s by generate.sh." % version,
        "# Same cases as test_vectors.json. One line per case, fields separated by one space:",
        "#   input_len hash_hex keyed_hash_hex derive_key_hex",
        "# Input byte i is i %% 251. Each output is the first %d bytes of the extended output."
        % OFFICIAL_OUT_LEN,
        "# keyed_hash key (32 ASCII bytes): %s" % KEY.decode("ascii"),
        "# derive_key context string (ASCII): %s" % CONTEXT,
    ]
    for c in official:
        lines.append(" ".join([str(c["input_len"])] + [c[m] for m in MODES]))
    write_text(paths["test_vectors.txt"], "\n".join(lines) + "\n")

    extra_doc = {
        "_comment": EXTRA_COMMENT % (
            version, EXTRA_OUT_LENS, EXTRA_INPUT_LENS, WINDOW,
            SMALL_OFFSETS, OFFSET_INPUT_LENS, HUGE_OFFSETS, HUGE_INPUT_LENS),
        "cases": extra,
    }
    write_text(paths["extra_vectors.json"], json.dumps(extra_doc, indent=2) + "\n")

    print("generated with %s in %.0f s" % (version, time.time() - started))
    print("  test_vectors.json : %d cases x 3 modes, %d-byte outputs"
          % (len(official), OFFICIAL_OUT_LEN))
    print("  test_vectors.txt  : the same %d cases, flat" % len(official))
    n_len = sum(1 for c in extra if c["offset"] == 0)
    print("  extra_vectors.json: %d cases = %d output-length + %d offset-window"
          % (len(extra), n_len, len(extra) - n_len))
    for name, path in paths.items():
        print("  sha256 %s  %s" % (sha256_file(path), name))

    if args.compare:
        with open(args.compare, encoding="utf-8") as f:
            ref = json.load(f)
        ref_cases = {c["input_len"]: c for c in ref["cases"]}
        bad = 0
        for c in official:
            r = ref_cases.get(c["input_len"])
            if r is None:
                print("  compare: input_len %d not in %s" % (c["input_len"], args.compare))
                bad += 1
                continue
            for m in MODES:
                if c[m] != r[m]:
                    print("  compare: MISMATCH input_len %d %s" % (c["input_len"], m))
                    bad += 1
        same_meta = ref.get("key") == doc["key"] and ref.get("context_string") == CONTEXT
        print("  compare with %s: %d cases x 3 modes checked, %d mismatches, key/context %s"
              % (args.compare, len(official), bad, "equal" if same_meta else "DIFFER"))
        if bad or not same_meta:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
