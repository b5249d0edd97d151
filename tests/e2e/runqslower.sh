#!/bin/sh
# runqslower end to end: a helper pins a nice-0 CPU hog and itself, a
# nice-19 sleeper waking every 10 ms N times, to one CPU, so each wakeup
# waits for the hog's slice.  `runqslower -P -p SLEEPER 500` must show
# only the sleeper's waits (TID, COMM), each over 500 us, at least N/4 of
# them, most with the hog as PREV TID (the thread it waited behind);
# -t SLEEPER the same; -p of another process none of them; libbpf-tools'
# banner and header (byte for byte beside Debian's runqslower when it is
# installed); -j lines parse with the same fields; bad arguments exit 2;
# nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/runqslower.sh
set -u
T=runqslower
N=100
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup cbx_sched

# rows FILE: "TID COMM LAT PREVTID" of each text event row
rows() { awk '/^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] / { print $3, $2, $4, $NF }' "$1"; }

# run LABEL ARGS...: the tool with ARGS (SLEEPER in them is the sleeper's
# pid) over the N wakeups; the sleeper's pid in $SLEEPER, the hog's in $HOG
run() {
	label=$1
	shift
	helper_start runqlat "$WCPU" $N 10 || return 1
	SLEEPER=$HPID HOG=${HREADY#* }
	args=$(echo "$*" | sed "s/SLEEPER/$SLEEPER/g")
	# shellcheck disable=SC2086
	tool_start t '^Tracing run queue latency' "$T" $args || { helper_stop; return 1; }
	helper_go 300
	snoop_stop "$label"
}

# ---- 1: -P -p SLEEPER 500 ------------------------------------------------------------
if run "-P -p" -P -p SLEEPER 500; then
	if [ "$(sed -n 1p "$W/t.out")" = "Tracing run queue latency higher than 500 us" ] &&
		[ "$(sed -n 2p "$W/t.out")" = "TIME     COMM             TID           LAT(us) PREV COMM        PREV TID" ]; then
		ok "libbpf-tools' banner and -P header"
	else notok "banner/header: $(head -2 "$W/t.out" | tr '\n' '|')"; fi
	rows "$W/t.out" > "$W/rows"
	n=$(wc -l < "$W/rows")
	others=$(awk -v s="$SLEEPER" '$1 != s || $2 != "cbx_sched" || $3 <= 500' "$W/rows" | head -3)
	behind=$(awk -v h="$HOG" '$4 == h' "$W/rows" | wc -l)
	if [ "$n" -ge $((N / 4)) ] && [ "$n" -le $((2 * N + 10)) ] && [ -z "$others" ]; then
		ok "$n waits of the sleeper over 500 us for $N wakeups behind the hog, no other thread's"
	else notok "$n rows ($N wakeups), others: '$others': $(sed -n 3,6p "$W/t.out" | tr '\n' '|')"; fi
	if [ $((behind * 2)) -ge "$n" ] && [ "$n" -gt 0 ]; then ok "$behind of $n behind the hog (PREV TID $HOG)"
	else notok "$behind of $n behind the hog $HOG: $(head -5 "$W/rows" | tr '\n' '|')"; fi
	if awk -v s="$SLEEPER" '$3 == s' "$W/t.out" | head -1 |
		grep -Eq "^[0-9:]{8} cbx_sched {8}$SLEEPER +[0-9]+ [^ ].{15} [0-9]+ *$" &&
		awk -v s="$SLEEPER" '$3 == s' "$W/t.out" | head -1 | awk '{ exit length($0) != 8 + 1 + 16 + 1 + 6 + 1 + 14 + 1 + 16 + 1 + 6 }'; then
		ok "row widths as libbpf-tools (8 16 6 14 16 6)"
	else notok "row layout: '$(awk -v s="$SLEEPER" '$3 == s' "$W/t.out" | head -1)'"; fi
fi

# ---- 2: -t SLEEPER, and -p of another process ----------------------------------------
if run "-t" -t SLEEPER 500; then
	rows "$W/t.out" > "$W/rows"
	n=$(wc -l < "$W/rows")
	if [ "$(sed -n 2p "$W/t.out")" = "TIME     COMM             TID           LAT(us)" ] &&
		[ "$n" -ge $((N / 4)) ] && [ -z "$(awk -v s="$SLEEPER" '$1 != s' "$W/rows")" ]; then
		ok "-t: $n waits of the sleeper thread alone; the header without -P"
	else notok "-t: $n rows: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
fi
if run "-p other" -p $$ 500; then
	if ! rows "$W/t.out" | grep -q "^$SLEEPER "; then
		ok "-p of another process: none of the sleeper's waits"
	else notok "-p $$: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: JSON -----------------------------------------------------------------------------
if run "-j" -j -P -p SLEEPER 500 && python3 - "$W/t.out" "$SLEEPER" "$HOG" $N <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s, hog, n = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
assert n // 4 <= len(rows) <= 2 * n + 10, len(rows)
assert all(r["tid"] == s and r["comm"] == "cbx_sched" and r["lat_us"] > 500 and "time" in r for r in rows), rows[:3]
assert 2 * sum(r["prev_tid"] == hog for r in rows) >= len(rows), rows[:5]
PY
then ok "-j: JSON lines of the sleeper's waits with tid, comm, lat_us, prev_comm, prev_tid"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

# ---- 4: beside Debian's libbpf-tools 0.26 ------------------------------------------------
if [ -x /usr/sbin/runqslower ]; then
	helper_start runqlat "$WCPU" $N 10 && {
		SLEEPER=$HPID
		# (line-buffered: its stdout is a file here)
		stdbuf -oL /usr/sbin/runqslower -P -p "$SLEEPER" 500 > "$W/lt.out" 2> "$W/lt.err" &
		SPID=$!
		if tool_start t '^Tracing run queue latency' "$T" -P -p "$SLEEPER" 500 && wait_for "$W/lt.out" '^TIME' 50; then
			helper_go 300
			snoop_stop "beside libbpf-tools"
			kill -INT "$SPID"; reap "$SPID" 50; SPID=
			a=$(rows "$W/lt.out" | wc -l) b=$(rows "$W/t.out" | wc -l)
			if [ "$(head -2 "$W/lt.out")" = "$(head -2 "$W/t.out")" ] &&
				[ "$(awk '/^[0-9:]{8} / { print length($0) }' "$W/lt.out" | sort -u)" = "$(awk '/^[0-9:]{8} / { print length($0) }' "$W/t.out" | sort -u)" ] &&
				[ "$b" -ge $((a * 3 / 4)) ] && [ "$a" -ge $((b * 3 / 4)) ]; then
				ok "beside libbpf-tools: same banner, header and row widths; $b rows vs its $a"
			else notok "beside libbpf-tools ($b vs $a rows): $(head -3 "$W/t.out" | tr '\n' '|') vs $(head -3 "$W/lt.out" | tr '\n' '|')"; fi
		else
			notok "libbpf-tools' runqslower did not start: $(head -c 200 "$W/lt.err")"
			[ -z "$TPID" ] || snoop_stop "beside libbpf-tools"
			helper_stop; kill -KILL "$SPID" 2>/dev/null; SPID=
		fi
	}
else echo "ok - $T: # SKIP Debian's libbpf-tools not installed"; fi

# ---- 5: usage ----------------------------------------------------------------------------
exits_2 "min_us 0" runqslower 0
exits_2 "min_us not a number" runqslower 10x
exits_2 "two positionals" runqslower 10 20

snoop_left
[ "$fails" = 0 ]
