#!/bin/sh
# runqlen end to end: 3 CPU hogs pinned to one CPU.  `runqlen -C 2 1`:
# that CPU's samples sit at length >= 2 (most of them: other tasks may
# run there too and are sampled on their own queues); -H (the CPU's whole
# run queue) likewise; -C -O: its occupancy >= 50%; -j --prom: valid JSON
# and Prometheus text whose occupancy gauge is the JSON value; SIGINT
# exits 0; bad flags exit 2; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/runqlen.sh
set -u
T=runqlen
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched

check_cpu() { # LABEL FILE
	all=$(hist_sum "$2" "cpu = $WCPU")
	q=$(hist_sum "$2" "cpu = $WCPU" 2)
	if [ "$all" -gt 50 ] && [ $((q * 2)) -ge "$all" ]; then
		ok "$1: CPU $WCPU: $q of $all samples at length >= 2"
	else
		notok "$1: CPU $WCPU: $q of $all samples at length >= 2: $(head -c 900 "$2")"
	fi
}

if helper_start hogs "$WCPU" 3; then
	sleep 0.3
	timeout 20 "$CB" runqlen -C 2 1 > "$W/c" 2>&1 || notok "-C 2 1: status $?"
	check_cpu "-C" "$W/c"
	grep -q '^     runqlen       : count     distribution$' "$W/c" && ok "linear histogram header" ||
		notok "header: $(head -c 300 "$W/c")"
	timeout 20 "$CB" runqlen -H -C 2 1 > "$W/h" 2>&1 || notok "-H -C 2 1: status $?"
	check_cpu "-H -C" "$W/h"
	timeout 20 "$CB" runqlen -C -O 1 1 > "$W/o" 2>&1
	occ=$(awk -v c="$WCPU" '$1 == "runqocc," && $3 == c { sub("%", "", $4); print int($4) }' "$W/o")
	if [ "${occ:-0}" -ge 50 ]; then ok "-C -O: CPU $WCPU occupancy $occ%"
	else notok "-C -O: CPU $WCPU occupancy '$occ': $(cat "$W/o")"; fi
	if tool_start t '^Sampling run queue length' "$T" -O -j --prom "$W/prom"; then
		sleep 1.2
		snoop_stop "-O -j --prom"
		n=$(json_lines "$W/t.out")
		case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
		jo=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["runqocc"])' "$W/t.out")
		pv=$(prom_valid "$W/prom")
		case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
		po=$(awk '/^corebox_runqlen_runqocc /{ print $2 }' "$W/prom")
		if python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-6)' "${jo:-x}" "${po:-y}" 2>/dev/null; then
			ok "Prometheus runqocc $po = JSON"
		else
			notok "Prometheus runqocc '$po' vs JSON '$jo'"
		fi
	fi
fi
helper_stop

exits_2 "-f 0" runqlen -f 0
exits_2 "a third positional" runqlen 1 2 3
snoop_left
[ $fails = 0 ]
