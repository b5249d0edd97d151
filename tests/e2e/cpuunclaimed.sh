#!/bin/sh
# cpuunclaimed end to end: 3 CPU hogs pinned to one CPU.  -j (CSV of the
# snapshots of every run queue): that CPU's column shows >= 3 tasks in
# (nearly) every snapshot; -J adds the offset columns; the summary mode
# prints "%CPU x%, unclaimed idle y%" each interval with percentages in
# 0..100, %CPU at least the hogs' CPU share, the same numbers in valid
# JSON and Prometheus text; SIGINT exits 0; -j with an interval exits 2;
# nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/cpuunclaimed.sh
set -u
T=cpuunclaimed
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched
NCPU=$(grep -c '^processor' /proc/cpuinfo)

if helper_start hogs "$WCPU" 3; then
	sleep 0.3
	# 1. -J: every snapshot's queue lengths
	if tool_start t '^TIMESTAMP_ns' "$T" -J; then
		sleep 1.5
		snoop_stop "-J"
		col=$((WCPU + 2))
		hdr=$(head -1 "$W/t.out")
		exp=$(awk -v n="$NCPU" 'BEGIN { s = "TIMESTAMP_ns"; for (i = 0; i < n; i++) s = s ",CPU" i;
			for (i = 0; i < n; i++) s = s ",OFFSET_ns_CPU" i; print s }')
		[ "$hdr" = "$exp" ] && ok "-J header: $hdr" || notok "-J header: '$hdr', expected '$exp'"
		tot=$(awk -F, 'NR > 1' "$W/t.out" | wc -l)
		full=$(awk -F, -v c="$col" 'NR > 1 && $c >= 3' "$W/t.out" | wc -l)
		if [ "$tot" -ge 50 ] && [ $((full * 10)) -ge $((tot * 9)) ]; then
			ok "-J: CPU $WCPU has >= 3 tasks queued in $full of $tot snapshots"
		else
			notok "-J: CPU $WCPU >= 3 in $full of $tot snapshots: $(head -5 "$W/t.out" | tr '\n' '|')"
		fi
	fi
	# 2. the summary, JSON and Prometheus
	timeout 20 "$CB" cpuunclaimed -T 1 2 > "$W/s" 2>&1
	rc=$?
	lines=$(grep -cE '^[0-9:]{8} %CPU +[0-9.]+%, unclaimed idle [0-9.]+%$' "$W/s")
	if [ $rc = 0 ] && [ "$lines" = 2 ]; then ok "-T 1 2: two summary lines, exit 0"
	else notok "-T 1 2: status $rc, $lines lines: $(cat "$W/s")"; fi
	if tool_start t 'Sampling run queues' "$T" --json --prom "$W/prom" 1; then
		sleep 1.5
		snoop_stop "--json --prom 1"
		n=$(json_lines "$W/t.out")
		case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
		set -- $(python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])][-1]
print(d["cpu_percent"], d["unclaimed_percent"])' "$W/t.out")
		u=${1:-x} c=${2:-x}
		min=$((100 / NCPU - 5))
		if python3 -c 'import sys; u, c, m = map(float, sys.argv[1:]); sys.exit(not (m <= u <= 100 and 0 <= c <= 100 - u + 1e-9))' "$u" "$c" "$min" 2>/dev/null; then
			ok "JSON: %CPU $u (>= the hogs' $min), unclaimed $c"
		else
			notok "JSON: %CPU '$u' unclaimed '$c' (hogs alone are >= $min%)"
		fi
		pv=$(prom_valid "$W/prom")
		case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
		pu=$(prom_value "$W/prom" corebox_cpuunclaimed_cpu_percent)
		if python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-6)' "${pu:-x}" "$u" 2>/dev/null; then
			ok "Prometheus cpu_percent = JSON ($pu)"
		else
			notok "Prometheus cpu_percent '$pu' vs JSON '$u'"
		fi
	fi
fi
helper_stop

exits_2 "-j with an interval" cpuunclaimed -j 1
snoop_left
[ $fails = 0 ]
