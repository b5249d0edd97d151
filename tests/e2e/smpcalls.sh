#!/bin/sh
# smpcalls end to end: a helper with two threads (a spinner on CPU 1, a
# caller on CPU 0) makes expedited private membarriers (function ipi_mb)
# and write-protects of a page the spinner's CPU may cache (TLB
# shootdowns, flush_tlb_func) until N membarriers were made while the
# spinner provably ran on CPU 1 throughout (its context-switch count
# unchanged, its progress counter moving: each of those IPIs CPU 1 once;
# helpers/sched_work.h).  smpcalls must count ipi_mb between those N and
# the membarriers made (every call it saw, only the test's), and on
# kernels with the csd tracepoints stay within the kernel's own counters:
# ipi_mb calls <= the /proc/interrupts CAL delta, remote flush_tlb_func
# runs <= the TLB delta (and >= N/2).  The text is bpftrace's
# (@time_ns[func]: and "[lo, hi)  count |@@@|" rows); JSON and Prometheus
# are valid and agree; -T 1 2 prints two stamped intervals; SIGINT exits
# 0; nothing stays loaded.  Run as root from the repository root:
# sh tests/e2e/smpcalls.sh
set -u
T=smpcalls
N=500
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched
if [ "$(grep -c '^processor' /proc/cpuinfo)" -lt 2 ]; then
	ok "skipped: one CPU, no SMP calls to cause"
	exit 0
fi

# 1. JSON and Prometheus against /proc/interrupts
grep -E '^ *(CAL|TLB):' /proc/interrupts > "$W/i0"
if helper_start smp $N && tool_start t '^Tracing SMP calls' "$T" -v --json --prom "$W/prom"; then
	helper_go 300
	sleep 0.3
	snoop_stop "--json --prom"
	grep -E '^ *(CAL|TLB):' /proc/interrupts > "$W/i1"
	set -- $(sed -n 's/^done //p' "$W/h.out")
	made=${1:--1} sure=${2:-0}
	mech=$(sed -n 's/^smpcalls: \(.*\(tracepoints\|callers\)\)$/\1/p' "$W/t.err")
	n=$(json_lines "$W/t.out")
	case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse ($mech)" ;; esac
	res=$(python3 - "$W/t.out" "$W/i0" "$W/i1" "$N" "$mech" "$made" "$sure" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
count = {}
for d in docs:
    for h in d.get("time_ns", []):
        count[h["function"]] = count.get(h["function"], 0) + h["count"]
def irq(path):
    out = {}
    for l in open(path):
        f = l.split()
        out[f[0].rstrip(':')] = sum(int(x) for x in f[1:] if x.isdigit())
    return out
a, b = irq(sys.argv[2]), irq(sys.argv[3])
dcal, dtlb = b["CAL"] - a["CAL"], b["TLB"] - a["TLB"]
n, csd = int(sys.argv[4]), sys.argv[5].startswith("csd")
made, sure = int(sys.argv[6]), int(sys.argv[7])
mb, tlb = count.get("ipi_mb", 0), count.get("flush_tlb_func", 0)
msgs, bad = [], []
msgs.append("ipi_mb %d for %d membarriers, %d with the spinner on its CPU" % (mb, made, sure))
if sure < n:
    bad.append("only %d of %d membarriers found the spinner on its CPU throughout (want %d)" % (sure, made, n))
if not sure <= mb <= made:
    bad.append("ipi_mb %d not in [%d, %d]" % (mb, sure, made))
if csd:
    msgs.append("<= CAL delta %d; flush_tlb_func %d <= TLB delta %d" % (dcal, tlb, dtlb))
    if mb > dcal:
        bad.append("ipi_mb %d > CAL delta %d" % (mb, dcal))
    if tlb > dtlb or tlb < n // 2:
        bad.append("flush_tlb_func %d not in [%d, TLB delta %d]" % (tlb, n // 2, dtlb))
print(("bad " + "; ".join(bad)) if bad else ("ok " + ", ".join(msgs)))
PY
)
	case $res in ok*) ok "${res#ok }" ;; *) notok "${res#bad }; $(head -c 300 "$W/t.out")" ;; esac
	pv=$(prom_valid "$W/prom")
	case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
	pc=$(prom_value "$W/prom" 'corebox_smpcalls_time_ns_seconds_count{function="ipi_mb"}')
	jc=$(python3 -c '
import json, sys
print(sum(h["count"] for l in open(sys.argv[1]) for h in json.loads(l).get("time_ns", []) if h["function"] == "ipi_mb"))' "$W/t.out")
	[ "${pc:-x}" = "$jc" ] && ok "Prometheus ipi_mb count = JSON ($jc)" || notok "Prometheus ipi_mb '$pc' vs JSON $jc"
fi
helper_stop

# 2. bpftrace's text
if helper_start smp 100 && tool_start t '^Tracing SMP calls. Hit Ctrl-C to stop.$' "$T"; then
	helper_go 300
	snoop_stop "text"
	if grep -q '^@time_ns\[ipi_mb\]:$' "$W/t.out" &&
		grep -Eq '^\[[0-9]+[KMGTPE]?, [0-9]+[KMGTPE]?\) {1,}[0-9]+ \|@* *\|$' "$W/t.out" &&
		[ "$(grep -E '^\[' "$W/t.out" | awk '{ print length($0) }' | sort -u)" = 79 ]; then
		ok "bpftrace layout: @time_ns[ipi_mb]: and 79-column rows"
	else
		notok "text: $(head -c 600 "$W/t.out")"
	fi
fi
helper_stop
timeout 10 "$CB" smpcalls -T 1 2 > "$W/int" 2>&1
rc=$?
ts=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' "$W/int")
[ $rc = 0 ] && [ "$ts" = 2 ] && ok "-T 1 2: two stamped intervals, exit 0" || notok "-T 1 2: status $rc, $ts stamps"
exits_2 "a third positional" smpcalls 1 2 3
snoop_left
[ $fails = 0 ]
