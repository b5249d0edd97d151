#!/bin/sh
# runqslower end to end: a helper pins a nice-0 CPU hog and itself, a
# SCHED_IDLE sleeper waking every 10 ms N times, to one CPU, so each
# wakeup waits for the hog's slice.  `runqslower -P -p SLEEPER 500` must
# show only the sleeper's waits (TID, COMM), each over 500 us, at least
# N/4 of them (other load on the CPU only makes waits longer) and at most
# one per context switch the kernel counted for the sleeper over the run
# (+1: each wait follows a sleep or a preemption, and other load preempts
# the sleeper more), PREV TID never the sleeper itself, the hog named
# cbx_sched (PREV is whoever ran last on that CPU: the hog on a quiet
# host, any task on a loaded one), and beside Debian's runqslower (when
# installed) the same PREV TIDs; -t SLEEPER the same; -p of another process
# none of them; libbpf-tools' banner and header (byte for byte beside
# Debian's runqslower when it is installed); -j lines parse with the same
# fields; bad arguments exit 2; nothing stays loaded.
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
# pid) over the N wakeups; the sleeper's pid in $SLEEPER, the hog's in
# $HOG, the most rows the sleeper's context switches allow in $MAXROWS
run() {
	label=$1
	shift
	helper_start runqlat "$WCPU" $N 10 linger || return 1
	SLEEPER=$HPID HOG=${HREADY#* }
	args=$(echo "$*" | sed "s/SLEEPER/$SLEEPER/g")
	sw0=$(switches "$SLEEPER")
	# shellcheck disable=SC2086
	tool_start t '^Tracing run queue latency' "$T" $args || { helper_stop; return 1; }
	# (a SCHED_IDLE sleeper on a loaded CPU takes long: bounded by the
	# helper's own 60 s alarm)
	helper_work 580
	snoop_stop "$label"
	MAXROWS=$(($(switches "$SLEEPER") - sw0 + 1))
	helper_stop
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
	self=$(awk -v s="$SLEEPER" '$4 == s' "$W/rows" | wc -l)
	if [ "$n" -ge $((N / 4)) ] && [ "$n" -le "$MAXROWS" ] && [ -z "$others" ]; then
		ok "$n waits of the sleeper over 500 us for $N wakeups behind the hog (<= $MAXROWS, its context switches + 1), no other thread's"
	else notok "$n rows ($N wakeups, at most $MAXROWS), others: '$others': $(sed -n 3,6p "$W/t.out" | tr '\n' '|')"; fi
	hogname=$(awk -v h="$HOG" '$4 == h' "$W/t.out" | grep -vc " cbx_sched  *$HOG *\$")
	if [ "$self" = 0 ] && [ "$hogname" = 0 ]; then ok "$behind of $n behind the hog (PREV TID $HOG, named cbx_sched), none behind the sleeper itself"
	else notok "$behind of $n behind the hog $HOG ($hogname misnamed), $self behind the sleeper: $(head -5 "$W/rows" | tr '\n' '|')"; fi
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
		[ "$n" -ge $((N / 4)) ] && [ "$n" -le "$MAXROWS" ] && [ -z "$(awk -v s="$SLEEPER" '$1 != s' "$W/rows")" ]; then
		ok "-t: $n waits of the sleeper thread alone (<= $MAXROWS); the header without -P"
	else notok "-t: $n rows: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
fi
if run "-p other" -p $$ 500; then
	if ! rows "$W/t.out" | grep -q "^$SLEEPER "; then
		ok "-p of another process: none of the sleeper's waits"
	else notok "-p $$: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: JSON -----------------------------------------------------------------------------
if run "-j" -j -P -p SLEEPER 500 && python3 - "$W/t.out" "$SLEEPER" "$HOG" $N "$MAXROWS" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
s, hog, n, most = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
assert n // 4 <= len(rows) <= most, (len(rows), most)
assert all(r["tid"] == s and r["comm"] == "cbx_sched" and r["lat_us"] > 500 and "time" in r for r in rows), rows[:3]
assert all(r["prev_comm"] == "cbx_sched" for r in rows if r["prev_tid"] == hog), rows[:5]
assert not any(r["prev_tid"] == s for r in rows), rows[:5]
PY
then ok "-j: JSON lines of the sleeper's waits with tid, comm, lat_us, prev_comm, prev_tid"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

# ---- 4: beside Debian's libbpf-tools 0.26 ------------------------------------------------
if [ -x /usr/sbin/runqslower ]; then
	# (linger: both tools see the same waits, from the go wakeup to the
	# last sleep; none after it)
	helper_start runqlat "$WCPU" $N 10 linger && {
		SLEEPER=$HPID
		# (line-buffered: its stdout is a file here)
		stdbuf -oL /usr/sbin/runqslower -P -p "$SLEEPER" 500 > "$W/lt.out" 2> "$W/lt.err" &
		SPID=$!
		if tool_start t '^Tracing run queue latency' "$T" -P -p "$SLEEPER" 500 && wait_for "$W/lt.out" '^TIME' 50; then
			helper_work 580
			snoop_stop "beside libbpf-tools"
			kill -INT "$SPID"; reap "$SPID" 50; SPID=
			helper_stop
			a=$(rows "$W/lt.out" | wc -l) b=$(rows "$W/t.out" | wc -l)
			# the PREV TIDs, but for a wait within a few us of 500 that
			# one tool's clock put over and the other's not
			pd=$(rows "$W/lt.out" | awk '$3 > 510 { print $4 }' | sort > "$W/lt.prev"
				rows "$W/t.out" | awk '$3 > 510 { print $4 }' | sort | comm -3 - "$W/lt.prev" | wc -l)
			if [ "$(head -2 "$W/lt.out")" = "$(head -2 "$W/t.out")" ] &&
				[ "$(awk '/^[0-9:]{8} / { print length($0) }' "$W/lt.out" | sort -u)" = "$(awk '/^[0-9:]{8} / { print length($0) }' "$W/t.out" | sort -u)" ] &&
				[ "$b" -ge $((a * 3 / 4)) ] && [ "$a" -ge $((b * 3 / 4)) ] && [ "$pd" = 0 ]; then
				ok "beside libbpf-tools: same banner, header and row widths; $b rows vs its $a, the same PREV TIDs"
			else notok "beside libbpf-tools ($b vs $a rows, $pd PREV TIDs differ): $(head -3 "$W/t.out" | tr '\n' '|') vs $(head -3 "$W/lt.out" | tr '\n' '|')"; fi
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
