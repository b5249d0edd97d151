#!/bin/sh
# fileslower end to end: the fsops helper writes 4 x 4 KiB, fsyncs, then
# reads 4 KiB into a userfaultfd page that stays missing DELAY ms (a read
# at least that slow), and 4 KiB more at once, on a file whose name is
# longer than 32 bytes.  `fileslower -p HELPER 100` must show that one
# slow read (R, 4096 bytes, LAT >= DELAY) in bcc's columns, the name cut
# as bcc cuts it (29 bytes and "..."); `0` all six reads and writes in
# order; -j the same as JSON; SIGINT exits 0, nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/fileslower.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-fileslower.XXXXXX)
T=fileslower
fails=0
TPID= HPID=
DELAY=300
NAME=cbx_fileslower_a_rather_long_file_name_0123
SHOWN=cbx_fileslower_a_rather_long_...
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper fsops -O2 -pthread
need_corebox
bpf_snapshot before

# run LABEL ARGS...: helper ready, the tool (-p helper), the work, SIGINT
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/fsops" "$W/$NAME" $DELAY || { notok "helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	case $label in
	json) tool_start "$label" "" fileslower -p "$hpid" "$@" ;;
	*) tool_start "$label" "^TIME" fileslower -p "$hpid" "$@" ;;
	esac || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

if run slow 100; then
	o=$W/slow.out
	if [ "$(head -1 "$o")" = "Tracing sync read/writes slower than 100 ms" ] &&
		[ "$(sed -n 2p "$o")" = "TIME(s)  COMM           TID    D BYTES   LAT(ms) FILENAME" ]; then
		ok "banner and header as bcc"
	else notok "banner/header: $(head -2 "$o" | tr '\n' '|')"; fi
	rows=$(sed 1,2d "$o")
	if [ "$(echo "$rows" | grep -c .)" = 1 ] &&
		echo "$rows" | grep -Eq "^[0-9]+\.[0-9]{3} +fsops          $hpid +R 4096    +[0-9]+\.[0-9]{2} $SHOWN\$" &&
		echo "$rows" | awk -v d=$DELAY '{ exit !($6 >= d) }'; then
		ok "the one slow read: R, 4096 bytes, LAT(ms) >= $DELAY, the long name cut as bcc"
	else notok "rows: $(echo "$rows" | tr '\n' '|')"; fi
fi

if run all 0; then
	got=$(awk -v f="$SHOWN" '$NF == f { print $4, $5 }' "$W/all.out" | tr '\n' '|')
	if [ "$got" = "W 4096|W 4096|W 4096|W 4096|R 4096|R 4096|" ]; then ok "0 ms: the 4 writes and 2 reads, in order"
	else notok "0 ms: '$got'"; fi
fi

if run json -j 0 && python3 - "$W/json.out" "$hpid" "$SHOWN" $DELAY <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r["file"] == sys.argv[3]]
assert [(r["dir"], r["bytes"]) for r in rows] == [("W", 4096)] * 4 + [("R", 4096)] * 2, rows
assert all(r["tid"] == int(sys.argv[2]) and r["comm"] == "fsops" for r in rows), rows
assert rows[4]["lat_ms"] >= int(sys.argv[4]), rows
PY
then ok "-j: the same six as JSON, the slow read's lat_ms"
else notok "-j: $(head -c 400 "$W/json.out")"; fi

usage_exit2 "bad min_ms" fileslower x
snoop_left
[ "$fails" = 0 ]
