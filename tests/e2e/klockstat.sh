#!/bin/sh
# klockstat end to end: a helper contends its file's inode lock exactly
# N times (a writer stopped in a userfaultfd page fault with the lock
# held, a second writer waiting on it: tests/e2e/helpers/cbx_lockcont.c);
# with -p HELPER the caller in the write path must show Count N in
# libbpf-tools' layout between its banner and its closing line; -s names
# the helper as Max PID, -L on that lock keeps its waits alone; -P shows each waiting thread once on it; -c filters by
# the caller's name; JSON carries the same; -i/-d report and stop on
# their own; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/klockstat.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-klockstat.XXXXXX)
T=klockstat
fails=0
TPID= HPID=
N=4
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ -d /sys/kernel/tracing/events/lock/contention_begin ] || {
	echo "ok - $T: # SKIP the kernel has no lock:contention_begin tracepoint"
	exit 0
}
build_helper bpf_count
build_helper cbx_lockcont -O2 -pthread
need_corebox
bpf_snapshot before

# run LABEL ARGS...: the helper, the tool on it (-p), the N rounds, stop
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_lockcont" "$W/file" $N || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	tool_start t "Tracing mutex/sem lock events" "$T" -p "$hpid" "$@" || { helper_stop; return 1; }
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}
HEAD='                               Caller  Avg Wait    Count   Max Wait   Total Wait'
ROW='^ {0,36}[a-z0-9_.]*write_iter\+0x[0-9a-f]+ +[0-9.]+ [mu]?s +'

# ---- 1: the N waits under the write path's caller ---------------------------------------
if run "plain run"; then
	if [ "$(head -1 "$W/t.out")" = "Tracing mutex/sem lock events...  Hit Ctrl-C to end" ] &&
		[ "$(tail -1 "$W/t.out")" = "Exiting trace of mutex/sem locks" ] &&
		grep -qxF "$HEAD" "$W/t.out"; then ok "banner, header and closing line as libbpf-tools"
	else notok "layout: $(head -5 "$W/t.out" | tr '\n' '|')"; fi
	row=$(grep -E "$ROW" "$W/t.out")
	if [ "$(printf '%s\n' "$row" | grep -c .)" = 1 ] && [ "$(echo "$row" | awk '{ print $4 }')" = $N ] &&
		printf '%s\n' "$row" | grep -Eq '^.{37} .{9} .{8} .{10} .{12}$'; then
		ok "the write path's caller ($(echo "$row" | awk '{ print $1 }')) waited $N times; widths 37/9/8/10/12"
	else notok "row: '$row' in $(tr '\n' '|' < "$W/t.out")"; fi
	caller=$(echo "$row" | awk '{ print $1 }' | sed 's/+0x.*//')
fi

# ---- 2: -s: frames and the longest waiter ----------------------------------------------------
if run "-s run" -s 3; then
	if grep -A3 -E "$ROW" "$W/t.out" | grep -Eq "^ +Max PID $hpid, COMM cbx_lockcont, Lock [^ ]+ \(0x[0-9a-f]+\)\$" &&
		[ "$(grep -A2 -E "$ROW" "$W/t.out" | sed -n 2,3p | grep -Ec '^ +[a-z0-9_.]+\+0x[0-9a-f]+$')" = 2 ]; then
		ok "-s 3: two more frames, then Max PID $hpid, COMM cbx_lockcont and the lock"
	else notok "-s: $(grep -A4 -E "$ROW" "$W/t.out" | tr '\n' '|')"; fi
	lockaddr=$(grep -A3 -E "$ROW" "$W/t.out" | sed -n 's/.*Max PID.*(\(0x[0-9a-f]*\))$/\1/p')
fi

# ---- 2b: -L: that lock (the file's inode lock: the same file, the same inode) -----------------
if [ -n "${lockaddr:-}" ] && run "-L run" -L "$lockaddr"; then
	if [ "$(grep -E "$ROW" "$W/t.out" | awk '{ print $4 }')" = $N ] && [ "$(grep -c '+0x' "$W/t.out")" = 1 ]; then
		ok "-L $lockaddr: the $N waits on it alone"
	else notok "-L: $(tr '\n' '|' < "$W/t.out")"; fi
fi
if $CB klockstat -L no_such_lock_ > /dev/null 2> "$W/L.err"; then notok "-L no_such_lock_ accepted"
elif grep -q 'failed to find lock no_such_lock_' "$W/L.err"; then ok "-L with an unknown lock refused"
else notok "-L no_such_lock_: $(cat "$W/L.err")"; fi

# ---- 3: -P (on the inode lock: its threads may wait on others too) ----------------------------
if [ -n "${lockaddr:-}" ] && run "-P run" -P -L "$lockaddr"; then
	awk '$1 == "round" { print $3 }' "$W/helper" | sort > "$W/want"
	awk '$2 == "cbx_lockcont" { print $1, $5 }' "$W/t.out" | sort > "$W/got"
	if grep -qxF '                Tid              Comm  Avg Wait    Count   Max Wait   Total Wait' "$W/t.out" &&
		[ "$(wc -l < "$W/want")" = $N ] && [ "$(sed 's/$/ 1/' "$W/want")" = "$(cat "$W/got")" ]; then
		ok "-P: the $N waiting threads, each with Count 1, under the Tid/Comm header"
	else notok "-P: want $(tr '\n' ' ' < "$W/want"), got $(tr '\n' '|' < "$W/t.out")"; fi
fi

# ---- 4: -c: by the caller's name ----------------------------------------------------------------
if [ -n "${caller:-}" ] && run "-c run" -c "$caller"; then
	if grep -Eq "$ROW" "$W/t.out" && ! grep -Ev "^ *$caller\+" "$W/t.out" | grep -Eq '\+0x[0-9a-f]+ '; then
		ok "-c $caller: its row, no other caller"
	else notok "-c: $(tr '\n' '|' < "$W/t.out")"; fi
fi
if run "-c none run" -c no_such_caller_; then
	if ! grep -q '+0x' "$W/t.out" && ! grep -qF "$HEAD" "$W/t.out"; then ok "-c no_such_caller_: no rows"
	else notok "-c none: $(tr '\n' '|' < "$W/t.out")"; fi
fi

# ---- 5: JSON -------------------------------------------------------------------------------------
if run "-j run" -j && python3 - "$W/t.out" "$hpid" $N <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
assert len(docs) == 1, docs
rows = [r for r in docs[0]["locks"] if r["caller"].split("+")[0].endswith("write_iter")]
assert len(rows) == 1, docs
r = rows[0]
assert r["count"] == int(sys.argv[3]) and r["max_pid"] == int(sys.argv[2]), r
assert r["max_comm"] == "cbx_lockcont" and r["total_ns"] >= r["max_ns"] >= r["avg_ns"] > 0, r
PY
then ok "-j: one document, the caller's row with count, max_pid, max_comm and ns times"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

# ---- 6: -i/-d: two reports, then it stops on its own ---------------------------------------------
start=$(date +%s)
if timeout 10 $CB klockstat -i 1 -d 2 -T > "$W/id.out" 2> "$W/id.err"; then
	took=$(($(date +%s) - start))
	if [ "$(grep -Ec '^[0-9]{2}:[0-9]{2}:[0-9]{2} *$' "$W/id.out")" = 2 ] && [ "$took" -le 5 ]; then
		ok "-i 1 -d 2 -T: two stamped reports, exit 0 after ${took} s"
	else notok "-i/-d: ${took} s, $(tr '\n' '|' < "$W/id.out" | head -c 300)"; fi
else notok "-i 1 -d 2: exit status $?: $(cat "$W/id.err")"; fi
if $CB klockstat -P -s 2 > /dev/null 2> "$W/ps.err"; then notok "-P -s 2 accepted"
elif grep -q 'cannot be used together' "$W/ps.err"; then ok "-P with -s refused as libbpf-tools"
else notok "-P -s 2: $(cat "$W/ps.err")"; fi

snoop_left
[ "$fails" = 0 ]
