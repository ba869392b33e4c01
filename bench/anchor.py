#!/usr/bin/env python3
"""anchor.py WORK OUT.md OUT.json: the anchor's table from bench/anchor.sh's JMH runs.

WORK holds runs.tsv (one line per JMH run: name, ISA, java) and, per run, NAME.json (JMH's
results) and NAME.engines.tsv (what EngineLog recorded in each fork). The run's details come
from the environment anchor.sh sets. Throughput in MB/s with MB = 10^6 bytes, as chart.py.
"""
import json
import math
import os
import platform
import subprocess
import sys

SIZES = [64, 1024, 16384, 1048576, 16777216]


def size_label(n):
    for unit, name in ((1 << 20, 'MiB'), (1 << 10, 'KiB')):
        if n >= unit and n % unit == 0:
            return '%d %s' % (n // unit, name)
    return '%d B' % n


def cpu():
    """The CPU as bench/cpu.sh names it (model name, family and model)."""
    try:
        return subprocess.run([os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cpu.sh')],
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or 'unknown'


def mbps(metric, size):
    if metric['scoreUnit'] != 'ops/s':
        raise SystemExit('anchor.py: expected ops/s, got %s' % metric['scoreUnit'])
    score = metric['score'] * size / 1e6
    err = metric.get('scoreError')
    err = err * size / 1e6 if isinstance(err, (int, float)) and math.isfinite(err) else None
    return score, err


def fmt(value_err):
    value, err = value_err
    text = '{:,.0f}'.format(value)
    return text + (' ± {:,.0f}'.format(err) if err is not None else '')


class Run:
    def __init__(self, work, name, isa, java):
        self.name, self.isa, self.java = name, isa, java
        with open(os.path.join(work, name + '.json')) as f:
            self.jmh = json.load(f)
        if not self.jmh:
            raise SystemExit('anchor.py: %s has no results' % name)
        self.jdk = 'JDK %s' % self.jmh[0]['jdkVersion']
        self.points = {}  # (method, size) -> (MB/s, error)
        for r in self.jmh:
            method = r['benchmark'].rsplit('.', 1)[1]
            size = int(r['params']['size'])
            self.points[(method, size)] = mbps(r['primaryMetric'], size)
        self.engines = []
        with open(os.path.join(work, name + '.engines.tsv')) as f:
            for line in f:
                bench, _, engine = line.rstrip('\n').partition('\t')
                if bench.endswith('.ours') and engine not in self.engines:
                    self.engines.append(engine)

    def ours_label(self):
        if self.isa == 'portable':
            return 'Java engine'
        return '; '.join(self.engines) or 'not recorded'

    def ratio(self, size):
        ours, official = self.points.get(('ours', size)), self.points.get(('official', size))
        if ours is None or official is None:
            return None
        return ours[0] / official[0]


def main(work, out_md, out_json):
    env = os.environ
    runs = []
    with open(os.path.join(work, 'runs.tsv')) as f:
        for line in f:
            if line.strip():
                runs.append(Run(work, *line.rstrip('\n').split('\t')))
    sizes = [s for s in SIZES if any(('ours', s) in r.points for r in runs)]
    lines = []
    w = lines.append
    w('# The anchor: blake3-fast against the official BLAKE3 C code')
    w('')
    w('Written by `bench/anchor.sh` (%s run); `AnchorBench` in one JMH run per row, both sides in the '
      'same run: `ours` = `Blake3.hash(byte[])` through the public API, `official` = the official C '
      'code and assembly (%s, from the source Debian\'s `librust-blake3-dev` installs) through '
      '`official_jni.c`, the input array pinned. The same ISA is forced on both sides; the '
      '`portable` rows are our Java engine (`-Dblake3.native=false`) against the official portable C. '
      'Throughput in MB/s (10^6 bytes/s), ± the 99.9%% confidence half-width; '
      'ratio = ours / official, above 1 means ours is faster.' % (env.get('MODE', '?'), env.get('OFFICIAL', '?')))
    w('')
    w('- CPU: %s (%d logical cores)' % (cpu(), os.cpu_count() or 0))
    w('- JDKs: %s' % ', '.join(sorted({'%s (%s)' % (r.jdk, r.jmh[0]['vmName']) for r in runs})))
    w('- date: %s to %s; commit %s' % (env.get('STARTED', '?'), env.get('FINISHED', '?'), env.get('COMMIT', '?')))
    w('- JMH: `%s`%s' % (env.get('JMH_OPTS', '?').strip(),
                         '; `-Dblake3.native.pin=%s`' % env['PIN'] if env.get('PIN') else ''))
    w('- load average (1, 5, 15 min) before: %s, after: %s; a shared machine: compare ratios, not MB/s'
      % (env.get('LOAD_BEFORE', '?'), env.get('LOAD_AFTER', '?')))
    w('')
    w('## Ours / official')
    w('')
    w('| ISA | JDK | ours ran | ' + ' | '.join(size_label(s) for s in sizes) + ' |')
    w('|---|---|---|' + '---:|' * len(sizes))
    for r in runs:
        cells = []
        for s in sizes:
            x = r.ratio(s)
            cells.append('%.2f' % x if x is not None else '')
        w('| %s | %s | %s | %s |' % (r.isa, r.jdk, r.ours_label(), ' | '.join(cells)))
    w('')
    w('## Throughput (MB/s)')
    w('')
    w('| ISA | JDK | size | ours | official | ours / official |')
    w('|---|---|---:|---:|---:|---:|')
    for r in runs:
        for s in sizes:
            ours, official = r.points.get(('ours', s)), r.points.get(('official', s))
            if ours is None or official is None:
                continue
            w('| %s | %s | %s | %s | %s | %.2f |' % (r.isa, r.jdk, size_label(s), fmt(ours), fmt(official), r.ratio(s)))
    w('')
    with open(out_md, 'w') as f:
        f.write('\n'.join(lines))
    with open(out_json, 'w') as f:
        json.dump({'mode': env.get('MODE'), 'commit': env.get('COMMIT'), 'official': env.get('OFFICIAL'),
                   'started': env.get('STARTED'), 'finished': env.get('FINISHED'), 'cpu': cpu(),
                   'runs': [{'name': r.name, 'isa': r.isa, 'java': r.java, 'ours': r.engines, 'jmh': r.jmh}
                            for r in runs]}, f, indent=1)
        f.write('\n')


if __name__ == '__main__':
    if len(sys.argv) != 4:
        raise SystemExit('usage: anchor.py WORK OUT.md OUT.json')
    main(*sys.argv[1:])
