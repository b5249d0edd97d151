#!/bin/sh
# softirqs end to end, with the kernel's own counters as the oracle:
# /proc/softirqs is read before and after a `softirqs -C --json 2 1` run
# (and a `-c CPU` run against that CPU's column).  For every vector the
# tool reports, its count is at most the kernel's delta (the tool's
# window is inside the test's) and in all it holds at least 40% of it;
# the table has libbpf-tools' header (TOTAL_count with -C), -d the
# "softirq = NAME" histograms; --prom is valid and counts what JSON
# counts; SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/softirqs.sh
set -u
T=softirqs
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# check LABEL CPU: tool rows in $W/t.out vs /proc/softirqs $W/s0 -> $W/s1
# (CPU: a column, or "all")
check() {
	res=$(python3 - "$W/s0" "$W/s1" "$W/t.out" "$2" <<'PY'
import json, sys

def parse(path, cpu):
    lines = open(path).read().splitlines()
    out = {}
    for l in lines[1:]:
        f = l.split()
        v = [int(x) for x in f[1:]]
        out[f[0].rstrip(':').lower()] = sum(v) if cpu == "all" else v[int(cpu)]
    return out

a, b = parse(sys.argv[1], sys.argv[4]), parse(sys.argv[2], sys.argv[4])
rows = [r for l in open(sys.argv[3]) for r in json.loads(l).get("softirqs", [])]
bad, tool = [], 0
for r in rows:
    d = b.get(r["softirq"], 0) - a.get(r["softirq"], 0)
    if r["softirq"] not in b:
        bad.append("%s: not in /proc/softirqs" % r["softirq"])
    elif r["count"] > d:
        bad.append("%s: tool %d > kernel %d" % (r["softirq"], r["count"], d))
    tool += r["count"]
delta = sum(b[k] - a[k] for k in b)
if bad:
    print("bad", "; ".join(bad))
elif not rows or tool * 10 < delta * 4:
    print("bad tool counted %d of the kernel's %d" % (tool, delta))
else:
    print("ok %d vectors: tool counted %d, /proc/softirqs %d, none higher than the kernel" % (len(rows), tool, delta))
PY
)
	case $res in ok*) ok "$1: ${res#ok }" ;; *) notok "$1: ${res#bad }; output: $(head -c 400 "$W/t.out")" ;; esac
}

cp /proc/softirqs "$W/s0"
if tool_start t '^Tracing soft irq' "$T" -C --json --prom "$W/prom" 2 1; then
	reap "$TPID" 100
	TPID=
	cp /proc/softirqs "$W/s1"
	[ "$rc" = 0 ] && ok "-C --json 2 1: exit 0" || notok "-C --json 2 1: status $rc"
	check "-C" all
	pv=$(prom_valid "$W/prom")
	case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
	same=$(python3 - "$W/t.out" "$W/prom" <<'PY'
import json, sys
rows = [r for l in open(sys.argv[1]) for r in json.loads(l).get("softirqs", [])]
prom = {}
for l in open(sys.argv[2]):
    if l.startswith("corebox_softirqs_count_total{"):
        k, v = l.rsplit(" ", 1)
        prom[k] = int(float(v))
want = {'corebox_softirqs_count_total{softirq="%s"}' % r["softirq"]: r["count"] for r in rows}
print("yes" if want == prom else "no: %r vs %r" % (want, prom))
PY
)
	[ "$same" = yes ] && ok "Prometheus counters = JSON counts" || notok "Prometheus vs JSON: $same"
fi

cp /proc/softirqs "$W/s0"
if tool_start t '^Tracing soft irq' "$T" -c "$WCPU" --json 2 1; then
	reap "$TPID" 100
	TPID=
	cp /proc/softirqs "$W/s1"
	check "-c $WCPU" "$WCPU"
fi

timeout 10 "$CB" softirqs -C 1 1 > "$W/t" 2>&1
grep -q '^SOFTIRQ          TOTAL_usecs  TOTAL_count$' "$W/t" && ok "-C: libbpf-tools header" ||
	notok "-C header: $(sed -n 3p "$W/t" | od -c | head -3)"
grep -Eq '^(timer|rcu|sched) +[0-9]+ +[0-9]+$' "$W/t" && ok "-C: rows" || notok "-C rows: $(head -c 300 "$W/t")"
timeout 10 "$CB" softirqs -NT 1 1 > "$W/n" 2>&1
grep -qx 'SOFTIRQ          TOTAL_nsecs' "$W/n" && ok "-N: header as libbpf-tools 0.26 (no padding)" ||
	notok "-N header: $(sed -n 4p "$W/n" | od -c | head -3)"
if tool_start t '^Tracing soft irq' "$T" -d; then
	sleep 0.5
	snoop_stop "-d"
	if grep -q '^softirq = timer$' "$W/t.out" && grep -q '^     usecs               : count    distribution$' "$W/t.out"; then
		ok "-d: 'softirq = NAME' sections and usecs histograms"
	else
		notok "-d: $(head -c 400 "$W/t.out")"
	fi
fi
exits_2 "-c with a bad CPU" softirqs -c x
snoop_left
[ $fails = 0 ]
