#!/bin/sh
# cpudist end to end: a helper runs N on-CPU bursts of exactly 3 ms
# (SCHED_FIFO: nothing preempts them), 10 ms apart.  `cpudist -p PID`
# must hold the bursts in slices >= 2048 us (90% to 110% of N), most of them in
# the 2048 -> 4095 us bucket, and
# count at most N + a few slices; -O -p: the 10 ms sleeps in 8192 ->
# 16383 us; -P -j --prom: the helper's own histogram in valid JSON and
# Prometheus text with the same count; -e the extension line; SIGINT
# exits 0; bad flags exit 2; nothing stays loaded.  Every wait is bounded.
# Run as root from the repository root: sh tests/e2e/cpudist.sh
set -u
T=cpudist
N=50
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched

# 1. on-CPU: the bursts' bucket holds them
if helper_start bursts "$WCPU" $N 3000 10 && tool_start t '^Tracing on-CPU time' "$T" -p "$HPID" -e; then
	helper_go 300
	snoop_stop "-p -e"
	b=$(hist_rows "$W/t.out" | awk '$1 == 2048 { print $2 }')
	ge=$(hist_sum "$W/t.out" "" 2048)
	c=$(hist_sum "$W/t.out")
	# a SCHED_FIFO burst's slice is never shorter than its 3 ms; a stalled
	# virtual CPU can only make it longer -- and can stretch one of the
	# helper's short slices (start, exit) past 2 ms too (CI saw 51 of 50)
	if [ "$ge" -ge $((N * 9 / 10)) ] && [ "$ge" -le $((N + N / 10)) ] && [ $((${b:-0} * 2)) -gt "$ge" ]; then
		ok "-p: $b of $N bursts of 3 ms in the 2048 -> 4095 us bucket, $ge >= 2048 us ($(sed -n 's/^done //p' "$W/h.out"))"
	else
		notok "-p: bucket 2048 -> 4095 holds '$b', $ge >= 2048 us, of $N bursts: $(head -c 900 "$W/t.out")"
	fi
	if [ "$c" -ge "${b:-0}" ] && [ "$c" -le $((N + 10)) ]; then ok "-p: $c slices in all (only the helper's)"
	else notok "-p: $c slices for $N bursts"; fi
	if grep -q "^avg = [0-9]* usecs, total: [0-9]* usecs, count: $c\$" "$W/t.out"; then ok "-e: extension line, count $c"
	else notok "-e line: $(grep avg "$W/t.out")"; fi
fi
helper_stop

# 2. off-CPU: the 10 ms sleeps
if helper_start bursts "$WCPU" $N 3000 10 && tool_start t '^Tracing off-CPU time' "$T" -O -p "$HPID"; then
	helper_go 300
	snoop_stop "-O -p"
	s=$(hist_rows "$W/t.out" | awk '$1 == 8192 { print $2 }')
	if [ "${s:-0}" -ge $((N * 8 / 10)) ] && [ "${s:-0}" -le $N ]; then ok "-O: $s of $N sleeps of 10 ms in 8192 -> 16383 us"
	else notok "-O: bucket 8192 -> 16383 holds '$s': $(head -c 900 "$W/t.out")"; fi
fi
helper_stop

# 3. -P -j --prom
if helper_start bursts "$WCPU" $N 3000 10 && tool_start t '^Tracing on-CPU time' "$T" -P -j --prom "$W/prom"; then
	P=$HPID
	helper_go 300
	snoop_stop "-P -j --prom"
	n=$(json_lines "$W/t.out")
	case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
	jc=$(python3 - "$W/t.out" "$P" <<'PY'
import json, sys
c = 0
for l in open(sys.argv[1]):
    for h in json.loads(l).get("oncpu", []):
        if h.get("pid") == sys.argv[2]:
            c += sum(b["count"] for b in h["buckets"] if b["low"] == 2048)
print(c)
PY
)
	if [ "$jc" -ge $((N * 8 / 10)) ] && [ "$jc" -le $N ]; then ok "JSON: pid $P has $jc bursts in [2048, 4095]"
	else notok "JSON: pid $P has '$jc' bursts in [2048, 4095]"; fi
	pv=$(prom_valid "$W/prom")
	case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
	le=$(grep "^corebox_cpudist_oncpu_seconds_bucket{pid=\"$P\",.*le=\"0.004096\"}" "$W/prom" | awk '{ print $NF }')
	lo=$(grep "^corebox_cpudist_oncpu_seconds_bucket{pid=\"$P\",.*le=\"0.002048\"}" "$W/prom" | awk '{ print $NF }')
	if [ -n "$le" ] && [ -n "$lo" ] && [ $((le - lo)) = "$jc" ]; then ok "Prometheus buckets of pid $P agree ($((le - lo)))"
	else notok "Prometheus buckets le=0.004096 '$le' - le=0.002048 '$lo' vs JSON $jc"; fi
fi
helper_stop

# 4. interval, idle
timeout 10 "$CB" cpudist -I -T 1 2 > "$W/int" 2>&1
rc=$?
ts=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] *$' "$W/int")
if [ $rc = 0 ] && [ "$ts" = 2 ]; then ok "-I -T 1 2: two timestamped reports, exit 0"
else notok "-I -T 1 2: status $rc, $ts stamps: $(head -c 300 "$W/int")"; fi
exits_2 "-P with -L" cpudist -P -L
exits_2 "-p with no such process" cpudist -p 999999999

snoop_left
[ $fails = 0 ]
