#!/bin/sh
# Lost events are counted exactly: opensnoop -p (and trace -p on
# sys_openat) traces one process that opens a file N times while the
# tool is stopped (SIGSTOP), so most of the opens find the buffer full;
# at exit every open is either printed or in the "lost N events" total:
# printed + lost == N, with the ring buffer and with the perf buffer
# (COREBOX_DISABLE=ringbuf), whose PERF_RECORD_LOST alone never reports
# losses no later record follows.
# The helper is static so that its exec opens nothing else, and it waits
# (stopped) until the tool runs, so that -p can name it.
# Run as root from the repository root: sh tests/e2e/lost.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-lost.XXXXXX)
T=lost
N=50000
fails=0
TPID= HPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
if ! $CC -O2 -static -o "$W/open_many" tests/e2e/helpers/open_many.c 2> "$W/cc.err"; then
	echo "ok - $T: printed + lost == opens # SKIP no static libc: $(head -c 200 "$W/cc.err")"
	exit 0
fi
: > "$W/file"

# count LABEL ENV=VALUE TOOL [ARGS...]: the N opens under TOOL -p PID
# ARGS, then the sum
count() {
	label=$1 envv=$2 tool=$3
	shift 3
	sh -c 'kill -STOP $$; exec "$0" "$1" "$2"' "$W/open_many" "$W/file" $N &
	HPID=$!
	: > "$W/out"
	# stopped before it execs (bounded)
	i=0
	while [ $i -lt 50 ] && ! grep -q '^[0-9]* ([^)]*) T' /proc/$HPID/stat 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	env $envv "$CB" $tool -p $HPID "$@" > "$W/out" 2> "$W/err" &
	TPID=$!
	if ! wait_for "$W/out" '^PID' 150; then
		notok "$label: $tool did not start: $(head -c 300 "$W/err")"
		return
	fi
	kill -STOP $TPID
	kill -CONT $HPID
	wait $HPID; HPID=
	kill -CONT $TPID
	# drained when the printed count stops growing (bounded)
	last=-1 i=0
	while [ $i -lt 50 ]; do
		now=$(grep -c "$W/file\$" "$W/out")
		[ "$now" = "$last" ] && break
		last=$now
		sleep 0.2
		i=$((i + 1))
	done
	kill -INT $TPID
	reap $TPID 50; TPID=
	printed=$(grep -c "$W/file\$" "$W/out")
	lost=$(sed -n "s/^$tool: lost \\([0-9]*\\) events (consumer too slow; try a filter): records .*/\\1/p" "$W/err")
	if [ "$rc" = 0 ] && [ -n "$lost" ] && [ "$lost" -gt 0 ] && [ $((printed + lost)) = $N ]; then
		ok "$label: $printed printed + $lost lost == $N opens"
	else
		notok "$label: rc $rc, $printed printed + '${lost}' lost != $N: $(tail -c 300 "$W/err")"
	fi
}

count "opensnoop, ring buffer" COREBOX_DISABLE= opensnoop
count "opensnoop, perf buffer" COREBOX_DISABLE=ringbuf opensnoop
count "trace, ring buffer" COREBOX_DISABLE= trace 'sys_openat "%s", arg2'
count "trace, perf buffer" COREBOX_DISABLE=ringbuf trace 'sys_openat "%s", arg2'
[ $fails = 0 ]
