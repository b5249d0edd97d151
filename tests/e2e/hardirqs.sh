#!/bin/sh
# hardirqs end to end, with the kernel's own counters as the oracle:
# /proc/interrupts is read before and after a `hardirqs --CPU --json 2 1`
# run while the test makes disk I/O.  For every (handler, CPU) the tool
# reports, its count is at most the /proc/interrupts delta of that CPU
# summed over the IRQs whose actions carry that name (the tool's window is
# inside the test's: a little lower, never higher), and in all it holds
# at least 40% of the delta; -C (counts) and the default table have
# libbpf-tools' columns, -d histograms their headers; --prom is valid and
# counts what JSON counts; SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/hardirqs.sh
set -u
T=hardirqs
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

io() { # disk I/O that completes with interrupts, ~1 s at most
	dd if=/dev/zero of="$W/io" bs=4k count=300 oflag=direct,dsync status=none 2>/dev/null ||
		dd if=/dev/zero of="$W/io" bs=4k count=300 conv=fsync status=none
}

# 1. --CPU --json --prom 2 1 against /proc/interrupts
cp /proc/interrupts "$W/i0"
if tool_start t '^Tracing hard irq' "$T" --CPU --json --prom "$W/prom" 2 1; then
	io
	reap "$TPID" 100
	TPID=
	cp /proc/interrupts "$W/i1"
	[ "$rc" = 0 ] && ok "--CPU --json 2 1: exit 0" || notok "--CPU --json 2 1: status $rc: $(head -c 300 "$W/t.err")"
	res=$(python3 - "$W/i0" "$W/i1" "$W/t.out" <<'PY'
import json, sys

def parse(path):
    lines = open(path).read().splitlines()
    ncpu = len(lines[0].split())
    per = {}  # (name, cpu) -> count
    for l in lines[1:]:
        f = l.split()
        if f and f[0].startswith('IPI') and f[0][3:4].isdigit():
            f = f + ['IPI']  # arm64: IPIs are interrupts of action "IPI", lines IPI0:...
        elif not f or not f[0].rstrip(':').isdigit():
            continue
        counts = [int(x) for x in f[1:1 + ncpu]]
        # the chip's columns differ (x86 "IO-APIC 4-edge", arm64 "GICv3 27
        # Level"): the action names are last, "a, b"
        i = len(f) - 1
        while i - 1 > ncpu and f[i - 1].endswith(','):
            i -= 1
        names = [x.rstrip(',') for x in f[i:]] if i > ncpu else []
        for n in names:
            for c, v in enumerate(counts):
                per[(n, c)] = per.get((n, c), 0) + v
    return per

a, b = parse(sys.argv[1]), parse(sys.argv[2])
rows = [r for l in open(sys.argv[3]) for r in json.loads(l).get("hardirqs", [])]
bad, tool, delta = [], 0, 0
for r in rows:
    k = (r["hardirq"], r["cpu"])
    d = b.get(k, 0) - a.get(k, 0)
    if k not in b:
        bad.append("%s cpu %d: not in /proc/interrupts" % k)
    elif r["count"] > d:
        bad.append("%s cpu %d: tool %d > kernel %d" % (k[0], k[1], r["count"], d))
    tool += r["count"]
names = {r["hardirq"] for r in rows}
delta = sum(b[k] - a.get(k, 0) for k in b if k[0] in names)
if bad:
    print("bad", "; ".join(bad))
elif not rows or tool * 10 < delta * 4:
    print("bad tool counted %d of the kernel's %d (rows %d)" % (tool, delta, len(rows)))
else:
    print("ok %d rows: tool counted %d, /proc/interrupts %d, none higher than the kernel" % (len(rows), tool, delta))
PY
)
	case $res in ok*) ok "${res#ok }" ;; *) notok "${res#bad }; output: $(head -c 400 "$W/t.out")" ;; esac
	pv=$(prom_valid "$W/prom")
	case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
	same=$(python3 - "$W/t.out" "$W/prom" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) for r in json.loads(l).get("hardirqs", [])]
prom = {}
for l in open(sys.argv[2]):
    if l.startswith("corebox_hardirqs_count_total{"):
        k, v = l.rsplit(" ", 1)
        prom[k] = int(float(v))
want = {'corebox_hardirqs_count_total{hardirq="%s",cpu="%d"}' % (r["hardirq"], r["cpu"]): r["count"] for r in rows}
print("yes" if want == prom else "no: %r vs %r" % (want, prom))
PY
)
	[ "$same" = yes ] && ok "Prometheus counters = JSON counts" || notok "Prometheus vs JSON: $same"
fi

# 2. the text layouts
if tool_start t '^Tracing hard irq' "$T"; then
	io
	snoop_stop "default table"
	grep -qx 'HARDIRQ                    TOTAL_usecs' "$W/t.out" &&
		ok "table header as libbpf-tools 0.26" || notok "table header: $(sed -n 3p "$W/t.out")"
	grep -Eq '^[^ ].{25} +[0-9]+$' "$W/t.out" && ok "table rows" || notok "rows: $(head -c 300 "$W/t.out")"
fi
timeout 10 "$CB" hardirqs -C 1 1 > "$W/c" 2>&1
grep -qx 'HARDIRQ                    TOTAL_count' "$W/c" && ok "-C: count table header (0.26)" ||
	notok "-C header: $(sed -n 3p "$W/c")"
head -1 "$W/c" | grep -qx 'Tracing hard irq events\.\.\. Hit Ctrl-C to end\.' && ok "-C: 0.26's banner" ||
	notok "-C banner: $(head -1 "$W/c")"
usage_exit2 "-C with -d (refused as 0.26)" hardirqs -C -d
if tool_start t '^Tracing hard irq' "$T" -d -N; then
	io
	snoop_stop "-d -N"
	if grep -q '^hardirq = ' "$W/t.out" && grep -q '^     nsecs               : count    distribution$' "$W/t.out"; then
		ok "-d -N: 'hardirq = NAME' sections and nsecs histograms"
	else
		notok "-d -N: $(head -c 400 "$W/t.out")"
	fi
fi
exits_2 "-s with a bad CPU" hardirqs -s x
exits_2 "a third positional" hardirqs 1 2 3
snoop_left
[ $fails = 0 ]
