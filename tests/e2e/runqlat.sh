#!/bin/sh
# runqlat end to end: a helper pins a CPU hog and itself, a SCHED_IDLE
# sleeper waking every 10 ms N times, to one CPU.  `runqlat -p SLEEPER`
# must count each wakeup (N..2N samples: only the sleeper's) and at least
# half of them in the buckets the hog causes (>= 512 us: the sleeper waits for the
# hog's slice); -P -j --prom must give the sleeper's own histogram in
# valid JSON and Prometheus text with the same count; -mT 1 2 two
# timestamped reports; SIGINT exits 0; bad flags exit 2; nothing stays
# loaded.  Every wait is bounded.
# Run as root from the repository root: sh tests/e2e/runqlat.sh
set -u
T=runqlat
N=100
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched

# 1. -p SLEEPER
if helper_start runqlat "$WCPU" $N 10 && tool_start t '^Tracing run queue latency' "$T" -p "$HPID"; then
	SLEEPER=$HPID
	helper_go 300
	snoop_stop "-p"
	c=$(hist_sum "$W/t.out")
	slow=$(hist_sum "$W/t.out" "" 512)
	if [ "$c" -ge $((N - 2)) ] && [ "$c" -le $((2 * N + 10)) ]; then
		ok "-p $SLEEPER: $c samples for $N wakeups (only the sleeper's)"
	else
		notok "-p $SLEEPER: $c samples for $N wakeups: $(head -c 600 "$W/t.out")"
	fi
	if [ $((slow * 2)) -ge "$c" ] && [ "$c" -gt 0 ]; then
		ok "$slow of $c in the buckets >= 512 us the hog causes"
	else
		notok "only $slow of $c in the buckets >= 512 us: $(head -c 900 "$W/t.out")"
	fi
	grep -q '^     usecs               : count    distribution$' "$W/t.out" &&
		ok "libbpf-tools histogram header" || notok "header: $(sed -n 3p "$W/t.out")"
fi
helper_stop

# 2. -P -j --prom: the sleeper's own histogram
if helper_start runqlat "$WCPU" $N 10 && tool_start t '^Tracing run queue latency' "$T" -P -j --prom "$W/prom"; then
	SLEEPER=$HPID
	sleep 0.5
	helper_go 300
	snoop_stop "-P -j --prom"
	n=$(json_lines "$W/t.out")
	case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
	jc=$(python3 - "$W/t.out" "$SLEEPER" <<'PY'
import json, sys
c = 0
for l in open(sys.argv[1]):
    for h in json.loads(l).get("latency", []):
        if h.get("pid") == sys.argv[2]:
            c += h["count"]
print(c)
PY
)
	if [ "$jc" -ge $((N - 2)) ] && [ "$jc" -le $((2 * N + 10)) ]; then
		ok "JSON: pid $SLEEPER's histogram counts $jc"
	else
		notok "JSON: pid $SLEEPER's histogram counts '$jc': $(head -c 400 "$W/t.out")"
	fi
	pv=$(prom_valid "$W/prom")
	case $pv in bad*|0|'') notok "Prometheus file: $pv" ;; *) ok "Prometheus file valid ($pv samples)" ;; esac
	pc=$(grep "^corebox_runqlat_latency_seconds_count{pid=\"$SLEEPER\"," "$W/prom" | awk '{ print $NF }')
	if [ "$pc" = "$jc" ]; then ok "Prometheus _count of pid $SLEEPER = JSON count ($pc)"
	else notok "Prometheus _count '$pc' vs JSON $jc: $(grep "pid=\"$SLEEPER\"" "$W/prom" | head -3)"; fi
fi
helper_stop

# 3. interval and count, milliseconds, timestamps
timeout 10 "$CB" runqlat -mT 1 2 > "$W/int" 2>&1
rc=$?
ts=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] *$' "$W/int")
if [ $rc = 0 ] && [ "$ts" = 2 ] && grep -q 'msecs' "$W/int"; then ok "-mT 1 2: two timestamped msecs reports, exit 0"
else notok "-mT 1 2: status $rc, $ts stamps: $(head -c 300 "$W/int")"; fi

# 4. usage errors
exits_2 "--pidnss with -P" runqlat --pidnss -P
exits_2 "-p with no such process" runqlat -p 999999999
exits_2 "a third positional" runqlat 1 2 3
exits_2 "interval 0" runqlat 0

snoop_left
[ $fails = 0 ]
