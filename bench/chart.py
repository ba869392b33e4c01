#!/usr/bin/env python3
"""Turns a bench/run.sh run into bench/results/results.md and bench/results/chart.svg.

Usage: python3 bench/chart.py [RESULTS_DIR]   (default: bench/results next to this script)

Reads jmh.json (JMH's JSON, with -prof gc), meta.json (written by run.sh) and footprint-*.json
(HasherFootprint). Python 3 standard library only. Throughput is JMH's ops/s times the input
size, in MB/s with MB = 10^6 bytes. Every ratio compares numbers from the same run.
"""

import html
import json
import math
import os
import sys

PKG = 'io.github.blake3fast.bench.'

# (JMH method name, column label, colour): the order of columns and bars.
IMPLS = [
    ('blake3fast', 'blake3-fast', '#0072B2'),
    ('blake3fastJava', 'blake3-fast Java engine', '#56B4E9'),
    ('commonsCodec', 'commons-codec', '#E69F00'),
    ('bouncyCastle', 'Bouncy Castle', '#009E73'),
    ('sha256', 'JDK SHA-256', '#CC79A7'),
]
ENGINES = [  # EngineBench methods, fastest expected first
    ('avx512', 'AVX-512', 'native-avx512'),
    ('avx2', 'AVX2', 'native-avx2'),
    ('sse41', 'SSE4.1', 'native-sse41'),
    ('sse2', 'SSE2', 'native-sse2'),
    ('portable', 'portable C', 'native-portable'),
    ('java', 'Java engine', 'java'),
]
STREAM_ROW = 'stream'


def size_label(n):
    n = int(n)
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return '%d MiB' % (n >> 20)
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return '%d KiB' % (n >> 10)
    return '%d B' % n


def row_label(row):
    kind, size = row
    if kind == STREAM_ROW:
        return '%s in 64 B updates' % size_label(size)
    return '%s one-shot' % size_label(size)


def fmt_mbs(v):
    if v is None:
        return '–'
    if v >= 100:
        return '{:,.0f}'.format(v)
    if v >= 10:
        return '{:.1f}'.format(v)
    return '{:.2f}'.format(v)


def fmt_ratio(v):
    if v is None:
        return '–'
    return ('{:.2f}×' if v < 10 else '{:.1f}×').format(v)


def fmt_bytes(v):
    if v is None:
        return '–'
    if abs(v) < 0.05:
        return '0'
    if abs(v) < 10:
        return '{:.1f}'.format(v)
    return '{:,.0f}'.format(v)


class Run:
    """The results of one run, indexed by (class, method, size)."""

    def __init__(self, directory):
        self.dir = directory
        with open(os.path.join(directory, 'jmh.json')) as f:
            self.jmh = json.load(f)
        try:
            with open(os.path.join(directory, 'meta.json')) as f:
                self.meta = json.load(f)
        except OSError:
            self.meta = {}
        self.footprints = []
        self.allocation = {}  # 'default' / 'java' -> {'engine': ..., (kind, size): bytes per op}
        for name in sorted(os.listdir(directory)):
            if name.startswith('footprint-') and name.endswith('.json'):
                with open(os.path.join(directory, name)) as f:
                    self.footprints.append(json.load(f))
            if name.startswith('allocation-') and name.endswith('.json'):
                with open(os.path.join(directory, name)) as f:
                    a = json.load(f)
                d = {'engine': a['engine']}
                for r in a['rows']:
                    d[(r['kind'], r['size'])] = r['bytesPerOp']
                self.allocation[name[len('allocation-'):-len('.json')]] = d
        self.results = {}
        for r in self.jmh:
            bench = r['benchmark']
            if not bench.startswith(PKG):
                continue
            cls, method = bench[len(PKG):].rsplit('.', 1)
            size = int(r.get('params', {}).get('size', 0))
            pm = r['primaryMetric']
            if pm['scoreUnit'] != 'ops/s':
                raise SystemExit('%s: expected ops/s, got %s' % (bench, pm['scoreUnit']))
            gc = r.get('secondaryMetrics', {}).get('gc.alloc.rate.norm')
            err = pm.get('scoreError')
            if not isinstance(err, (int, float)) or math.isnan(err):
                err = None
            self.results[(cls, method, size)] = {
                'mbs': pm['score'] * size / 1e6,
                'err': None if err is None else err * size / 1e6,
                'bop': gc['score'] if gc else None,
                'forks': r.get('forks'),
                'engine': self.engine(bench),
            }

    def engine(self, bench):
        seen = self.meta.get('engines', {}).get(bench)
        return ', '.join(seen) if seen else None

    def get(self, cls, method, size, key='mbs'):
        r = self.results.get((cls, method, size))
        return None if r is None else r[key]

    def sizes(self, cls):
        return sorted({s for (c, _, s) in self.results if c == cls})

    def rows(self):
        rows = [('hash', s) for s in self.sizes('HashBench')]
        rows += [(STREAM_ROW, s) for s in self.sizes('StreamBench')]
        return rows

    def value(self, row, method, key='mbs'):
        kind, size = row
        cls = 'StreamBench' if kind == STREAM_ROW else 'HashBench'
        return self.get(cls, method, size, key)

    def default_engine(self):
        """What blake3fast (no switch) ran, e.g. native-avx512, or None if unknown."""
        for (cls, method, _), r in sorted(self.results.items()):
            if method == 'blake3fast' and r['engine']:
                return r['engine']
        return None


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def load_text(meta):
    samples = meta.get('loadSamples') or []
    before = meta.get('loadBefore')
    after = meta.get('loadAfter')
    parts = []
    if before:
        parts.append('before %.2f' % before[0])
    if samples:
        ones = [s[1] for s in samples]
        parts.append('during %.2f–%.2f (mean %.2f, %d samples)' % (
            min(ones), max(ones), sum(ones) / len(ones), len(ones)))
    if after:
        parts.append('after %.2f' % after[0])
    return '1-minute load average ' + ', '.join(parts) if parts else 'load average not recorded'


def engine_note(engine):
    if engine is None:
        return 'engine not recorded'
    return engine


def markdown(run):
    meta = run.meta
    out = []
    w = out.append
    default = run.default_engine()
    w('# blake3-fast benchmark results')
    w('')
    w('Generated by `bench/run.sh` and `bench/chart.py`; the numbers are from one JMH run, so every')
    w('ratio compares implementations measured side by side. Throughput in MB/s (10^6 bytes/s) =')
    w('ops/s × input size; ± is JMH\'s 99.9% confidence half-width. B/op is `gc.alloc.rate.norm`.')
    w('')
    w('| run | |')
    w('|---|---|')
    w('| date | %s → %s (%s mode) |' % (meta.get('started', '?'), meta.get('finished', '?'), meta.get('mode', '?')))
    w('| commit | %s |' % meta.get('commit', '?'))
    w('| machine | %s, %s cores (shared) |' % (meta.get('cpu', '?'), meta.get('cores', '?')))
    allowed = meta.get('cpusAllowed')
    if allowed and len(allowed) < (meta.get('cores') or 0):
        w('| pinned | to CPU %s (`taskset`) |' % ', '.join(str(c) for c in allowed))
    w('| JVM | %s |' % ' / '.join(meta.get('java', ['?'])[:2]))
    w('| JMH | %s |' % meta.get('jmhOptions', '?'))
    w('| load | %s |' % load_text(meta))
    samples = [x[1] for x in meta.get('loadSamples') or []]
    cores = meta.get('cores') or 0
    if samples and cores and sum(samples) / len(samples) > cores:
        w('| ⚠ | the load average was above the %d cores for much of the run: other work competed '
          'with the benchmarks, and ratios are less certain than usual |' % cores)
    w('| blake3-fast column | `%s` (the engine the library picks by itself) |' % engine_note(default))
    w('| Java-engine column | `-Dblake3.native=false` |')
    w('')

    # Throughput
    rows = run.rows()
    present = [m for m in IMPLS if any(run.value(r, m[0]) is not None for r in rows)]
    w('## Throughput (MB/s) and ratios')
    w('')
    w('One-shot: `Blake3.hash(data)` (new 32-byte result); commons-codec '
      '`Blake3.initHash().update(data).doFinalize(32)` (a fresh hasher per call); Bouncy Castle '
      'and SHA-256 reuse one digest per thread and write into a reused buffer (their best case). '
      'Streaming: one hasher per thread, reset per operation, 64-byte `update` calls, digest into '
      'a reused buffer.')
    w('')
    head = ['input'] + [m[1] for m in present]
    ours = [m for m in present if m[0] in ('blake3fast', 'blake3fastJava')]
    for m in ours:
        short = 'blake3-fast' if m[0] == 'blake3fast' else 'Java engine'
        head += ['%s ÷ BC' % short, '%s ÷ SHA-256' % short]
    w('| ' + ' | '.join(head) + ' |')
    w('|' + '---|' + '---:|' * (len(head) - 1))
    for r in rows:
        cells = [row_label(r)]
        for m in present:
            v = run.value(r, m[0])
            e = run.value(r, m[0], 'err')
            cell = fmt_mbs(v)
            if v and e is not None:
                cell += ' ±%.0f%%' % (100 * e / v)
            cells.append(cell)
        for m in ours:
            v = run.value(r, m[0])
            cells.append(fmt_ratio(ratio(v, run.value(r, 'bouncyCastle'))))
            cells.append(fmt_ratio(ratio(v, run.value(r, 'sha256'))))
        w('| ' + ' | '.join(cells) + ' |')
    w('')
    if any(run.value(r, 'blake3fastFresh') is not None for r in rows):
        r = next(r for r in rows if run.value(r, 'blake3fastFresh') is not None)
        w('A fresh `Blake3.newHasher()` per operation instead of a reset one (%s): %s MB/s, %s B/op.' % (
            row_label(r), fmt_mbs(run.value(r, 'blake3fastFresh')), fmt_bytes(run.value(r, 'blake3fastFresh', 'bop'))))
        w('')

    # Allocation
    w('## Allocation per operation (B/op, `gc.alloc.rate.norm`)')
    w('')
    head = ['input'] + [m[1] for m in present]
    w('| ' + ' | '.join(head) + ' |')
    w('|' + '---|' + '---:|' * (len(head) - 1))
    for r in rows:
        w('| ' + ' | '.join([row_label(r)] + [fmt_bytes(run.value(r, m[0], 'bop')) for m in present]) + ' |')
    w('')

    if run.allocation:
        w('Exact allocation per operation of blake3-fast (`AllocationCheck`: this thread\'s own '
          'allocation counter around a warmed-up loop; JMH\'s numbers above also include a share of '
          'what JMH\'s own threads allocate per iteration, which is why SHA-256, allocating nothing '
          'here, shows a few B/op at 1 MiB):')
        w('')
        keys = sorted(run.allocation)
        w('| operation | ' + ' | '.join('`%s`' % run.allocation[k]['engine'] for k in keys) + ' |')
        w('|---|' + '---:|' * len(keys))
        ops = sorted({x for k in keys for x in run.allocation[k] if x != 'engine'}, key=lambda t: (t[0] != 'one-shot', t[1]))
        for kind, size in ops:
            name = ('%s one-shot' % size_label(size)) if kind == 'one-shot' else (
                '%s in 64 B updates (reset hasher)' % size_label(size))
            w('| %s | %s |' % (name, ' | '.join(fmt_bytes(run.allocation[k].get((kind, size))) for k in keys)))
        w('')

    # Engines
    eng = [(m, label, want) for (m, label, want) in ENGINES if run.get('EngineBench', m, 1 << 20) is not None]
    if eng:
        size = 1 << 20
        java = run.get('EngineBench', 'java', size)
        bc = run.get('HashBench', 'bouncyCastle', size)
        sha = run.get('HashBench', 'sha256', size)
        w('## Engines at 1 MiB (`EngineBench`: `Blake3.hash`, one engine per fork)')
        w('')
        w('| engine asked for | engine that ran | MB/s | ÷ Java engine | ÷ BC | ÷ SHA-256 | B/op |')
        w('|---|---|---:|---:|---:|---:|---:|')
        chain = []
        for m, label, want in eng:
            r = run.results[('EngineBench', m, size)]
            ran = r['engine'] or '?'
            ok = r['engine'] is None or r['engine'].startswith(want)
            v = r['mbs']
            w('| %s | `%s`%s | %s%s | %s | %s | %s | %s |' % (
                label, ran, '' if ok else ' **(not what was asked)**', fmt_mbs(v),
                ' ±%.0f%%' % (100 * r['err'] / v) if v and r['err'] is not None else '', fmt_ratio(ratio(v, java)),
                fmt_ratio(ratio(v, bc)), fmt_ratio(ratio(v, sha)), fmt_bytes(r['bop'])))
            if ok and m != 'portable':
                chain.append((label, v))
        w('')
        if java and chain:
            w('Ratio %s = %s (Java engine = 1).' % (
                ' : '.join(l for l, _ in chain), ' : '.join('%.2f' % (v / java) for _, v in chain)))
            w('')

    # Targets
    w('## Targets')
    w('')
    w('| target | measured | goal | met |')
    w('|---|---:|---:|:---:|')
    for t in targets(run):
        w('| %s | %s | %s | %s |' % t)
    w('')

    # Footprint
    if run.footprints:
        w('## Hasher footprint (bytes one hasher keeps alive)')
        w('')
        w('`HasherFootprint`: **heap** = growth of the JVM\'s live-object class histogram (full GC) '
          'across allocating n hashers, divided by n; **layout** = the hasher\'s object graph walked by '
          'reflection, HotSpot sizes added up (12-byte headers, 4-byte references, 8-byte alignment), '
          'objects shared with a second hasher left out. Peers for context.')
        w('')
        w('| engine | hasher | n | heap B | layout B | made of (layout: class ×count = bytes) |')
        w('|---|---|---:|---:|---:|---|')
        for fp in run.footprints:
            for row in fp['rows']:
                parts = row.get('layoutParts') or row.get('heapParts') or {}
                made = ', '.join('%s ×%d = %d' % (k.rsplit('.', 1)[-1], v[0], v[1]) for k, v in parts.items()
                                 if not k.startswith('('))
                w('| `%s` | %s | %d | %s | %s | %s |' % (
                    fp['engine'], row['label'], row['n'], fmt_bytes(row.get('heapBytes')),
                    fmt_bytes(row.get('layoutBytes')), made))
        w('')
    return '\n'.join(out)


def targets(run):
    """(target, measured, goal, met) rows for the goals the lead set."""
    rows = []
    default = run.default_engine() or ''
    native = default.startswith('native')
    M = 1 << 20

    def add(name, value, goal, text=None, below=False, goal_text=None):
        goal_s = goal_text or (('≥ %s' % fmt_ratio(goal)) if not below else ('≤ %g B/op' % goal))
        if value is None:
            rows.append((name, 'not measured', goal_s, '–'))
            return
        met = value <= goal if below else value >= goal
        shown = fmt_ratio(value) if text is None else text % value
        rows.append((name, shown, goal_s, '✅' if met else '❌'))

    J = 'blake3fastJava'
    add('Java engine, 1 MiB one-shot ÷ Bouncy Castle', ratio(run.get('HashBench', J, M), run.get('HashBench', 'bouncyCastle', M)), 1.6)
    add('Java engine, 64 B one-shot ÷ Bouncy Castle', ratio(run.get('HashBench', J, 64), run.get('HashBench', 'bouncyCastle', 64)), 1.5)
    add('Java engine, 1 MiB in 64 B updates ÷ 1 MiB one-shot', ratio(run.get('StreamBench', J, M), run.get('HashBench', J, M)), 0.9)
    label = 'native (`%s`)' % default if native else 'native (did not run: `%s`)' % (default or '?')
    N = 'blake3fast'

    def nat(v):
        return v if native else None
    add('%s, 1 MiB one-shot ÷ Bouncy Castle' % label, nat(ratio(run.get('HashBench', N, M), run.get('HashBench', 'bouncyCastle', M))), 14)
    add('%s, 1 MiB one-shot ÷ SHA-256' % label, nat(ratio(run.get('HashBench', N, M), run.get('HashBench', 'sha256', M))), 4)
    add('%s, 16 KiB one-shot ÷ Bouncy Castle' % label, nat(ratio(run.get('HashBench', N, 16384), run.get('HashBench', 'bouncyCastle', 16384))), 8)
    add('%s, 64 B one-shot ÷ SHA-256' % label, nat(ratio(run.get('HashBench', N, 64), run.get('HashBench', 'sha256', 64))), 1.0)
    add('%s, 1 MiB in 64 B updates ÷ 1 MiB one-shot' % label, nat(ratio(run.get('StreamBench', N, M), run.get('HashBench', N, M))), 0.8)
    if run.allocation:
        for key in sorted(run.allocation):
            a = run.allocation[key]
            who = '`%s`' % a['engine'].split(' (')[0]
            for (kind, size), v in sorted((k, v) for k, v in a.items() if k != 'engine'):
                if kind == 'update':
                    add('%s: update allocates nothing (%s in 64 B updates; exact)' % (who, size_label(size)),
                        v, 0.5, '%.2f B/op', below=True, goal_text='0 B/op')
                else:
                    add('%s: one-shot %s allocates only its 32-byte result (48 B; exact)' % (who, size_label(size)),
                        v, 48.5, '%.2f B/op', below=True, goal_text='48 B/op')
    else:  # JMH's numbers only: they carry a few B/op of JMH's own allocation
        for m, who in ((N, 'blake3-fast (`%s`)' % (default or '?')), (J, 'Java engine')):
            for s in run.sizes('StreamBench'):
                add('%s: update allocates nothing (%s in 64 B updates; JMH)' % (who, size_label(s)),
                    run.get('StreamBench', m, s, 'bop'), 16, '%.2f B/op', below=True)
            for s in run.sizes('HashBench'):
                add('%s: one-shot %s allocates only its 32-byte result (JMH)' % (who, size_label(s)),
                    run.get('HashBench', m, s, 'bop'), 64, '%.1f B/op', below=True)
    return rows


# ---------------------------------------------------------------------------------------------
# SVG

def esc(s):
    return html.escape(str(s), quote=True)


def text_w(s, size):
    return 0.56 * size * len(str(s))


def svg(run):
    rows = run.rows()
    present = [m for m in IMPLS if any(run.value(r, m[0]) is not None for r in rows)]
    default = run.default_engine()
    labels = {m[0]: m[1] for m in present}
    if 'blake3fast' in labels and default:
        labels['blake3fast'] = 'blake3-fast (%s)' % default.split(' (')[0]

    W = 960
    font = 'font-family="Helvetica, Arial, sans-serif"'
    parts = []
    p = parts.append

    # ---- panel 1: grouped bars, log scale ----
    top, left, right = 78, 70, 20
    ph = 300
    vals = [run.value(r, m[0]) for r in rows for m in present if run.value(r, m[0])]
    lo = 1
    if vals:  # the largest 1-2-5 step below 70% of the smallest bar
        d = 10 ** math.floor(math.log10(min(vals) * 0.7))
        lo = max(k * d for k in (1, 2, 5) if k * d <= min(vals) * 0.7)
    hi = 10
    if vals:  # the smallest 1-2-5 step above 150% of the tallest bar (room for its label)
        d = 10 ** math.floor(math.log10(max(vals) * 1.5))
        hi = min(k * d for k in (1, 2, 5, 10) if k * d >= max(vals) * 1.5)
    plot_w = W - left - right

    def y(v):
        return top + ph - ph * (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))

    p('<text x="%d" y="28" font-size="19" font-weight="bold" %s>BLAKE3 throughput on the JVM, by input size</text>' % (left, font))
    p('<text x="%d" y="48" font-size="12" fill="#555" %s>MB/s (10^6 bytes/s), log scale; one JMH run, %s; %s</text>' % (
        left, font, esc(run.meta.get('started', '')[:10]), esc(load_text(run.meta).replace('1-minute load average', 'load'))))
    # legend
    lx = left
    for m in present:
        lab = labels[m[0]]
        p('<rect x="%.1f" y="58" width="12" height="12" fill="%s"/>' % (lx, m[2]))
        p('<text x="%.1f" y="68.5" font-size="12" %s>%s</text>' % (lx + 16, font, esc(lab)))
        lx += 16 + text_w(lab, 12) + 18
    # grid
    d = 10 ** math.floor(math.log10(lo))
    while d <= hi * 1.0001:
        for k in (1, 2, 5):
            v = d * k
            if v < lo or v > hi * 1.0001:
                continue
            yy = y(v)
            major = k == 1
            p('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="%s" stroke-width="1"/>' % (
                left, W - right, yy, yy, '#ccc' if major else '#eee'))
            p('<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#444" %s>%s</text>' % (
                left - 6, yy + 4, font, '{:,.0f}'.format(v) if v >= 1 else '%g' % v))
        d *= 10
    p('<text transform="translate(18,%d) rotate(-90)" font-size="12" text-anchor="middle" fill="#444" %s>MB/s</text>' % (
        top + ph // 2, font))
    # bars
    gw = plot_w / max(1, len(rows))
    bw = min(30, (gw - 24) / max(1, len(present)))
    for i, r in enumerate(rows):
        gx = left + gw * i + (gw - bw * len(present)) / 2
        for j, m in enumerate(present):
            v = run.value(r, m[0])
            if not v:
                continue
            x = gx + j * bw
            yy = y(v)
            p('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s, %s: %s MB/s</title></rect>' % (
                x + 1, yy, bw - 2, top + ph - yy, m[2], esc(labels[m[0]]), esc(row_label(r)), fmt_mbs(v)))
            tx, ty = x + bw / 2 + 3.5, yy - 4
            p('<text transform="translate(%.1f,%.1f) rotate(-90)" font-size="10" fill="#222" %s>%s</text>' % (
                tx, ty, font, fmt_mbs(v)))
        lab = row_label(r)
        cx = left + gw * i + gw / 2
        if r[0] == STREAM_ROW:
            p('<text x="%.1f" y="%d" font-size="12" text-anchor="middle" %s>%s</text>' % (cx, top + ph + 18, font, esc(size_label(r[1]))))
            p('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#555" %s>in 64-byte updates</text>' % (cx, top + ph + 32, font))
        else:
            p('<text x="%.1f" y="%d" font-size="12" text-anchor="middle" %s>%s</text>' % (cx, top + ph + 18, font, esc(size_label(r[1]))))
            p('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#555" %s>one-shot</text>' % (cx, top + ph + 32, font))
    p('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>' % (left, W - right, top + ph, top + ph))
    y_end = top + ph + 40

    # ---- panel 2: engines at 1 MiB, linear ----
    M = 1 << 20
    bars = []
    for m, label, want in ENGINES:
        r = run.results.get(('EngineBench', m, M))
        if r:
            ran = r['engine'] or ''
            ok = not ran or ran.startswith(want)
            bars.append((label if ok else '%s → %s' % (label, ran.split(' (')[0]), r['mbs'], '#0072B2' if m != 'java' else '#56B4E9'))
    for meth, label, colour in (('bouncyCastle', 'Bouncy Castle', '#009E73'), ('sha256', 'JDK SHA-256', '#CC79A7'),
                                ('commonsCodec', 'commons-codec', '#E69F00')):
        v = run.get('HashBench', meth, M)
        if v:
            bars.append((label, v, colour))
    H2 = 0
    if bars:
        t2 = y_end + 40
        p('<text x="%d" y="%d" font-size="16" font-weight="bold" %s>1 MiB one-shot, each engine (native capped with -Dblake3.isa), MB/s</text>' % (
            left, t2, font))
        java = run.get('EngineBench', 'java', M)
        bc = run.get('HashBench', 'bouncyCastle', M)
        lw = 150
        bx = left + lw
        bmax = max(v for _, v, _ in bars)
        avail = W - right - bx - 190
        bh, gap = 20, 6
        for i, (label, v, colour) in enumerate(bars):
            yy = t2 + 14 + i * (bh + gap)
            p('<text x="%d" y="%.1f" font-size="12" text-anchor="end" %s>%s</text>' % (bx - 8, yy + bh * 0.7, font, esc(label)))
            wpx = max(1.5, avail * v / bmax)
            p('<rect x="%d" y="%.1f" width="%.1f" height="%d" fill="%s"/>' % (bx, yy, wpx, bh, colour))
            note = '%s MB/s' % fmt_mbs(v)
            extra = []
            if java and label != 'Java engine':
                extra.append('%s Java' % fmt_ratio(v / java))
            if bc and label != 'Bouncy Castle':
                extra.append('%s BC' % fmt_ratio(v / bc))
            if extra:
                note += '  (' + ', '.join(extra) + ')'
            p('<text x="%.1f" y="%.1f" font-size="11" fill="#222" %s>%s</text>' % (bx + wpx + 6, yy + bh * 0.7, font, esc(note)))
        H2 = 14 + len(bars) * (bh + gap) + 40
        y_end = t2 + H2 - 30
    Htot = int(y_end + 24)
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d">'
            '<rect width="100%%" height="100%%" fill="white"/>' % (W, Htot, W, Htot))
    foot = '<text x="%d" y="%d" font-size="10" fill="#777" %s>%s · %s · commit %s</text>' % (
        left, Htot - 8, font, esc(run.meta.get('cpu', '')), esc((run.meta.get('java') or [''])[0]), esc(run.meta.get('commit', '')))
    return head + '\n' + '\n'.join(parts) + '\n' + foot + '\n</svg>\n'


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    directory = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'results')
    run = Run(directory)
    with open(os.path.join(directory, 'results.md'), 'w') as f:
        f.write(markdown(run))
    with open(os.path.join(directory, 'chart.svg'), 'w') as f:
        f.write(svg(run))
    print('wrote %s and %s' % (os.path.join(directory, 'results.md'), os.path.join(directory, 'chart.svg')))


if __name__ == '__main__':
    main()
