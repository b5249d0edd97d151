#!/usr/bin/env python3
"""Output checks the block and file system tools' e2e tests share (until
the lead's promcheck.py covers the Prometheus side).

  jsonprom.py json FILE          every line is a JSON value; prints the count
  jsonprom.py prom FILE          FILE is valid Prometheus text exposition
                                 (HELP/TYPE before samples, names, labels,
                                 values, histogram buckets cumulative and
                                 ending in +Inf = _count); prints each sample
                                 as "name{labels} value"
Exit status 1 with a message on the first problem."""
import json
import re
import sys

NAME = re.compile(r'^[a-zA-Z_:][a-zA-Z0-9_:]*$')
SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)')


def fail(msg):
    print(msg)
    sys.exit(1)


def check_json(path):
    n = 0
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                json.loads(line)
            except ValueError as e:
                fail('%s:%d: not JSON (%s): %s' % (path, i, e, line[:200]))
            n += 1
    print(n)


def labels_of(s):
    out, pos = [], 0
    while pos < len(s):
        m = LABEL.match(s, pos)
        if not m:
            fail('bad labels: {%s}' % s)
        out.append((m.group(1), m.group(2)))
        pos = m.end()
    return out


def check_prom(path):
    types, helps, samples = {}, set(), []
    buckets = {}
    for i, line in enumerate(open(path), 1):
        line = line.rstrip('\n')
        if not line:
            continue
        if line.startswith('# HELP ') or line.startswith('# TYPE '):
            parts = line.split(' ', 3)
            if len(parts) < 4 or not NAME.match(parts[2]):
                fail('%s:%d: bad comment line: %s' % (path, i, line))
            if parts[1] == 'TYPE':
                if parts[3] not in ('counter', 'gauge', 'histogram', 'summary', 'untyped'):
                    fail('%s:%d: bad type %s' % (path, i, parts[3]))
                types[parts[2]] = parts[3]
            else:
                helps.add(parts[2])
            continue
        if line.startswith('#'):
            continue
        m = SAMPLE.match(line)
        if not m:
            fail('%s:%d: bad sample: %s' % (path, i, line))
        name, labels, value = m.group(1), labels_of(m.group(3) or ''), m.group(4)
        try:
            v = float(value)
        except ValueError:
            fail('%s:%d: bad value: %s' % (path, i, line))
        base = re.sub(r'_(bucket|sum|count)$', '', name)
        if name not in types and base not in types:
            fail('%s:%d: sample before its TYPE: %s' % (path, i, line))
        if types.get(name) == 'counter' and not name.endswith('_total'):
            fail('%s:%d: counter without _total: %s' % (path, i, name))
        if name.endswith('_bucket') and types.get(base) == 'histogram':
            key = (base, tuple(l for l in labels if l[0] != 'le'))
            le = dict(labels).get('le')
            buckets.setdefault(key, []).append((le, v))
        if name.endswith('_count') and types.get(base) == 'histogram':
            key = (base, tuple(labels))
            b = buckets.get(key, [])
            if not b or b[-1][0] != '+Inf' or b[-1][1] != v:
                fail('%s:%d: histogram %s: +Inf bucket != _count' % (path, i, base))
            if any(b[j][1] > b[j + 1][1] for j in range(len(b) - 1)):
                fail('%s:%d: histogram %s: buckets not cumulative' % (path, i, base))
        samples.append('%s{%s} %s' % (name, ','.join('%s="%s"' % l for l in labels), value))
    if not samples:
        fail('%s: no samples' % path)
    print('\n'.join(samples))


if __name__ == '__main__':
    if len(sys.argv) != 3 or sys.argv[1] not in ('json', 'prom'):
        fail(__doc__)
    (check_json if sys.argv[1] == 'json' else check_prom)(sys.argv[2])
