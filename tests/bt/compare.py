#!/usr/bin/env python3
"""Join two runtime.sh result files (-o TSV): the oracle's (bpftrace 0.17) and
corebox's, print per suite file: cases, passes of each, and corebox's failures
grouped by the missing feature their first error line names.
    python3 tests/bt/compare.py ORACLE.tsv COREBOX.tsv
"""
import re, sys
from collections import OrderedDict, defaultdict

# first error line -> missing feature; first match wins, the rest is "other"
RULES = [
    (r"invalid option -- 'q'|unrecognized option '--unsafe'|invalid option -- 'k'|"
     r"unrecognized option '--(info|include)'", 'command-line option (-q --unsafe -k -I --info --include)'),
    (r'print\(\) expects a map', 'print() of a non-map value (tuple, struct, array, scalar)'),
    (r'is not in the kernel.s BTF', 'struct/union declarations in the program (struct X {...}) for casts'),
    (r"syntax error: expected '\)'|syntax error: expected ',' or '\)'", 'syntax: casts to types, tuples, (expr) forms the parser rejects'),
    (r'Unknown function: (\w+)', 'builtin function %s()'),
    (r"Unknown identifier: '(\w+)'|unknown identifier '(\w+)'", 'builtin or variable %s'),
    (r'printf: ', 'printf format/argument checks'),
    (r'-l.*|lists? ', 'probe listing (-l)'),
    (r'/sys/kernel/debug/tracing', 'environment: debugfs not mounted (both fail)'),
    (r'no function in .* matches', 'uprobe by address/offset (FUNC+OFF, 0xADDR)'),
    (r'positional|\$\d|BEG\$', 'positional parameters as probe names, literals, strings'),
    (r'unroll\(\)|loops are not supported', 'loops: while / unroll beyond limits'),
    (r'json|attached_probes', '-f json output layout'),
    (r'unreachable insn', 'verifier: code after exit() left unreachable'),
    (r'could not be attached|cannot attach|rejected by the verifier', 'attach / verifier failure'),
    (r'pointer', 'pointer arithmetic scaled by element size; arrays as pointers'),
    (r'invalid PID|no process with PID|cannot open|Usage: bpftrace|bpftrace \(corebox\)|'
     r'tracepoint \S+ does not exist|no function in .* matches .\d'
     r"|invalid option -- 'i'",
     'messages worded unlike 0.17 (usage, version, missing file/pid/probe)'),
]


def load(path):
    res, seen = OrderedDict(), defaultdict(int)
    for line in open(path, errors='replace'):
        f = line.rstrip('\n').split('\t')
        if len(f) >= 3:
            # a few suites reuse a NAME: the n-th occurrence is its own case
            seen[(f[0], f[1])] += 1
            name = f[1] if seen[(f[0], f[1])] == 1 else '%s #%d' % (f[1], seen[(f[0], f[1])])
            res[(f[0], name)] = (f[2], f[3] if len(f) > 3 else '')
    return res


def classify(suite, name, detail):
    text = detail.split(': ', 1)[1] if ': ' in detail else detail
    for pat, label in RULES:
        m = re.search(pat, text if not label.startswith('probe listing') else name)
        if m:
            groups = [g for g in m.groups() if g] if m.groups() else []
            return label % groups[0] if '%s' in label and groups else label.replace('%s', '?')
    if suite == 'json-output':
        return '-f json output layout'
    if suite == 'pointers':
        return 'pointer arithmetic scaled by element size; arrays as pointers'
    return 'other: output differs (' + re.sub(r'\d+', 'N', text)[:50] + ')'


def main():
    oracle, cb = load(sys.argv[1]), load(sys.argv[2])
    suites = OrderedDict()
    for (s, n) in list(oracle) + list(cb):
        suites.setdefault(s, OrderedDict())[n] = True
    print('%-14s %5s %8s %8s %8s  %s' % ('suite', 'cases', 'pass_bt', 'pass_cb', 'skip', 'corebox failures by feature (count)'))
    groups = defaultdict(list)
    tot = [0, 0, 0, 0]
    for s, names in suites.items():
        pb = sum(1 for n in names if oracle.get((s, n), ('',))[0] == 'ok')
        pc = sum(1 for n in names if cb.get((s, n), ('',))[0] == 'ok')
        sk = sum(1 for n in names if cb.get((s, n), ('',))[0] == 'skip')
        per = defaultdict(int)
        for n in names:
            st, detail = cb.get((s, n), ('', ''))
            if st != 'not ok':
                continue
            label = classify(s, n, detail)
            if oracle.get((s, n), ('',))[0] != 'ok':
                label = 'bpftrace 0.17 fails too'
            per[label] += 1
            groups[label].append('%s.%s: %s' % (s, n, detail))
        tot = [tot[0] + len(names), tot[1] + pb, tot[2] + pc, tot[3] + sk]
        top = ', '.join('%s (%d)' % (k[:40], v) for k, v in sorted(per.items(), key=lambda kv: -kv[1])[:3])
        print('%-14s %5d %8d %8d %8d  %s' % (s, len(names), pb, pc, sk, top))
    print('%-14s %5d %8d %8d %8d' % ('total', *tot))
    print()
    print('corebox failures grouped by missing feature (cases; one example):')
    for label, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print('%4d  %s\n      e.g. %s' % (len(items), label, items[0][:150]))


if __name__ == '__main__':
    main()
