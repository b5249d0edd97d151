#!/bin/sh
# --prom FILE in a directory others can write to (issue 22, items 1, 2, 7),
# with cachestat as the audit did:
#  - a character device or a FIFO (with a reader waiting) at FILE is
#    refused before tracing starts, one line, exit 1, and left as it was
#    (the audit's run turned /dev/full into a regular file);
#  - a symlink planted at the old temporary name (.FILE.tmp) is not
#    followed: its target keeps its bytes, FILE is a regular file;
#  - a directory at FILE or a missing directory is refused before tracing
#    (no report on stdout), not at every interval;
#  - after SIGTERM, SIGINT or a closed pipe no temporary file is left and
#    FILE is a whole, valid exposition file.
# Run as root from the repository root: sh tests/e2e/hardening_prom.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-hprom.XXXXXX)
T=hardening_prom
fails=0
RPID=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$RPID" ] && kill "$RPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox

kind() { stat -c %F "$1" 2>/dev/null || echo missing; }

# refused LABEL FILE WANT: cachestat --prom=FILE 1 3 exits 1 within 2 s
# (before a report), one stderr line matching WANT, nothing on stdout
refused() {
	label=$1 file=$2 want=$3
	timeout 5 "$CB" cachestat --prom="$file" 1 3 > "$W/out" 2> "$W/err" &
	pid=$!
	reap $pid 20
	if [ "$rc" = 1 ] && [ "$(wc -l < "$W/err")" = 1 ] && grep -q -- "$want" "$W/err" && [ ! -s "$W/out" ]; then
		ok "$label: refused before tracing: $(cat "$W/err")"
	else
		notok "$label: exit $rc: $(head -c 300 "$W/err") / stdout $(head -c 100 "$W/out")"
	fi
}

# 1. devices and FIFOs stay what they are
mknod "$W/null" c 1 3
refused "a character device" "$W/null" "is a character device, not a regular file"
[ "$(kind "$W/null")" = "character special file" ] && ok "the character device is still one" ||
	notok "the character device became: $(kind "$W/null")"
mkfifo "$W/fifo"
cat "$W/fifo" > "$W/fifo.read" &
RPID=$!
refused "a FIFO with a reader waiting" "$W/fifo" "is a FIFO, not a regular file"
[ "$(kind "$W/fifo")" = fifo ] && ok "the FIFO is still one" || notok "the FIFO became: $(kind "$W/fifo")"
kill "$RPID" 2>/dev/null
wait "$RPID" 2>/dev/null
RPID=

# 2. a symlink at the predictable temporary name
mkdir "$W/d"
printf 'victim\n' > "$W/victim"
ln -s "$W/victim" "$W/d/.out.prom.tmp"
timeout 10 "$CB" cachestat --prom="$W/d/out.prom" 1 2 > "$W/out" 2> "$W/err"
rc=$?
[ $rc = 0 ] && ok "--prom beside a planted symlink: exit 0" || notok "--prom beside a planted symlink: exit $rc: $(cat "$W/err")"
[ "$(cat "$W/victim")" = victim ] && ok "the symlink's target keeps its bytes" ||
	notok "the symlink's target was overwritten: $(head -c 200 "$W/victim")"
if [ "$(kind "$W/d/out.prom")" = "regular file" ] && grep -q '^corebox_cachestat_' "$W/d/out.prom"; then
	ok "FILE is a regular file with the metrics"
else
	notok "FILE is $(kind "$W/d/out.prom"): $(head -c 200 "$W/d/out.prom" 2>/dev/null)"
fi
left=$(ls -A "$W/d" | grep -v -x -e out.prom -e .out.prom.tmp)
[ -z "$left" ] && ok "no temporary file left beside it" || notok "left in the directory: $left"

# 3. directories: the target one, a missing one
refused "a directory at FILE" "$W/d" "is a directory, not a regular file"
refused "a missing directory" "$W/nodir/x.prom" "cannot create a temporary file in $W/nodir/"

# 4. stopped by a signal or a closed pipe: no temporary file, a whole file
for how in TERM INT pipe; do
	rm -rf "$W/s"
	mkdir "$W/s"
	if [ $how = pipe ]; then
		timeout 20 sh -c "'$CB' cachestat --prom='$W/s/s.prom' 1 | head -n 4 > /dev/null" 2> "$W/err"
		rc=$?
	else
		timeout 20 "$CB" cachestat --prom="$W/s/s.prom" 1 > /dev/null 2> "$W/err" &
		pid=$!
		wait_for "$W/s/s.prom" '^corebox_cachestat_' 50
		sleep 1.5
		kill -$how $pid
		reap $pid 50
	fi
	left=$(ls -A "$W/s" | grep -v -x s.prom)
	if [ "$rc" != timeout ] && [ -z "$left" ] && python3 tests/e2e/promcheck.py "$W/s/s.prom" > /dev/null 2> "$W/pc"; then
		ok "stopped by $how (exit $rc): no temporary file, a valid FILE"
	else
		notok "stopped by $how: exit $rc, left: '$left', promcheck: $(head -c 200 "$W/pc") $(head -c 200 "$W/err")"
	fi
done

[ "$fails" = 0 ]
