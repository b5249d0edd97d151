#!/bin/sh
# uthreads end to end (bcc's tools/lib/uthreads.py, an alias of
# threadsnoop): a helper (tests/e2e/helpers/threads.c) creates exactly N
# pthreads running cbx_thread_main once the test writes to its FIFO, a
# second copy M threads at the same time.  `uthreads PID` of the first
# must print bcc's banner (language: c) and header, then exactly N lines
# "pthread  cbx_thread_main [threads]" with N distinct thread ids, none
# being the process id, and nothing of the second; `-l none --json` the
# same N as objects; -l java on a process without libjvm.so's HotSpot
# probes says so in one line (status 1; tests/e2e/ulang_rt.sh runs it on a
# JVM); a bad -l or no pid is a usage error; SIGINT exits 0;
# nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/uthreads.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-uthreads.XXXXXX)
T=uthreads
fails=0
TPID= HA= HB=
N=7
M=3
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HA $HB; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
threads_begin

# run LABEL BANNER ARGS...: both helpers waiting, the tool on the first, go, SIGINT
run() {
	label=$1 banner=$2
	shift 2
	rm -f "$W/fa" "$W/fb"
	mkfifo "$W/fa" "$W/fb"
	"$W/threads" "$W/fa" $N > "$W/ha.out" &
	HA=$!
	"$W/threads" "$W/fb" $M > "$W/hb.out" &
	HB=$!
	wait_for "$W/ha.out" ready 50 && wait_for "$W/hb.out" ready 50 || { notok "$label: helpers not ready"; return 1; }
	tool_start "$label" "$banner" "$T" "$@" $HA || return 1
	echo x > "$W/fa"
	echo x > "$W/fb"
	wait_exit "$HA" 100
	wait_exit "$HB" 100
	sleep 0.3
	snoop_stop "$label"
	APID=$HA
	HA= HB=
}

if run t '^Tracing thread events'; then
	rows=$(grep -cE '^[0-9]+\.[0-9]{3} +[0-9]+ +pthread +cbx_thread_main \[threads\] *$' "$W/t.out")
	ids=$(awk '$3 == "pthread" { print $2 }' "$W/t.out" | sort -u | grep -vx "$APID" | wc -l)
	if grep -qx "Tracing thread events in process $APID (language: c)... Ctrl-C to quit." "$W/t.out" &&
		grep -qx 'TIME     ID               TYPE     DESCRIPTION                   ' "$W/t.out" &&
		[ "$rows" = $N ] && [ "$ids" = $N ] && [ "$(grep -c pthread "$W/t.out")" = $N ]; then
		ok "PID: bcc's banner and header, $N pthread lines with $N distinct thread ids, none of the other process"
	else
		notok "PID: $rows matching lines, $ids ids (want $N): $(head -c 700 "$W/t.out")"
	fi
fi
if run j '' -l none --json; then
	n=$(python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
print(sum(1 for x in r if x["type"] == "pthread" and x["description"] == "cbx_thread_main [threads]"), len(r))' "$W/j.out")
	[ "$n" = "$N $N" ] && ok "-l none --json: $N objects" || notok "-l none --json: '$n' (want '$N $N'): $(head -c 400 "$W/j.out")"
fi

"$CB" $T -l java $$ > "$W/out" 2> "$W/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$W/err")" = 1 ] && grep -q 'java' "$W/err" && ok "-l java: one line, status 1" ||
	notok "-l java: status $rc: $(cat "$W/err")"
usage_exit2 "-l perl" "$T" -l perl $$
usage_exit2 "no pid" "$T"
snoop_left
[ "$fails" = 0 ]
