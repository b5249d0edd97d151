#!/bin/sh
# llcstat --replay FILE takes only a regular file (issue 22, item 6), as
# --btf does: /dev/zero used to spin at 100% CPU forever, a FIFO to block
# in open, a directory to give an empty report and exit 0.  Each now exits
# 1 at once with one line naming the file and what it is; a regular file
# and stdin (-) still replay.
# Run as root from the repository root: sh tests/e2e/hardening_replay.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-hreplay.XXXXXX)
T=hardening_replay
fails=0
. tests/e2e/lib.sh

cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
mkfifo "$W/fifo"

# refused LABEL WANT CMD...: exit 1 within 3 s, one stderr line matching WANT, nothing on stdout
refused() {
	label=$1 want=$2
	shift 2
	timeout 3 "$@" > "$W/out" 2> "$W/err" < /dev/null
	rc=$?
	if [ $rc = 124 ]; then
		notok "$label: still running after 3 s (killed)"
	elif [ $rc = 1 ] && [ "$(wc -l < "$W/err")" = 1 ] && grep -q -- "$want" "$W/err" && [ ! -s "$W/out" ]; then
		ok "$label: exit 1: $(cat "$W/err")"
	else
		notok "$label: exit $rc: $(head -c 300 "$W/err") / $(head -c 200 "$W/out")"
	fi
}

refused "--replay=/dev/zero" "/dev/zero is a character device" "$CB" llcstat --replay=/dev/zero
refused "--replay=FIFO" "fifo is a FIFO" "$CB" llcstat --replay="$W/fifo"
refused "--replay=DIR" "is a directory" "$CB" llcstat --replay="$W"
refused "--replay=missing" "cannot open $W/missing" "$CB" llcstat --replay="$W/missing"

# a regular file and stdin still replay
printf 'ref 0 42 42 100 app\nmiss 0 42 42 100 app\nref 0 42 42 100 app\n' > "$W/samples"
for how in file stdin; do
	if [ $how = file ]; then
		timeout 3 "$CB" llcstat --replay="$W/samples" > "$W/out" 2> "$W/err"
	else
		timeout 3 "$CB" llcstat --replay=- < "$W/samples" > "$W/out" 2> "$W/err"
	fi
	rc=$?
	if [ $rc = 0 ] && grep -q '^Total References: 200 Total Misses: 100 Hit Rate: 50.00%$' "$W/out"; then
		ok "--replay from a $how: the report"
	else
		notok "--replay from a $how: exit $rc: $(head -c 300 "$W/out") $(head -c 200 "$W/err")"
	fi
done

[ "$fails" = 0 ]
