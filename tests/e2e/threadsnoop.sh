#!/bin/sh
# threadsnoop end to end: a helper creates exactly N pthreads running
# cbx_thread_main; threadsnoop must show exactly N lines for its PID, each
# naming that function (uprobe on pthread_create in libc).  The same helper
# linked statically with musl has no libc to probe: its N threads must
# still show, once each, through sched_process_fork ([unknown] function).
# -p, JSON, SIGINT and leftovers too.
# Run as root from the repository root: sh tests/e2e/threadsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-threadsnoop.XXXXXX)
T=threadsnoop
fails=0
TPID=
N=7
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

threads_begin
static=
if command -v musl-gcc >/dev/null 2>&1 && musl-gcc -static -O2 -o "$W/threads_static" tests/e2e/helpers/threads.c 2>/dev/null; then
	static=$W/threads_static
fi
rm -f "$W/fifo" && mkfifo "$W/fifo"

# run_helper BIN: start it, wait for "ready"; HP = its pid
run_helper() {
	"$1" "$W/fifo" $N > "$W/helper" 2>&1 &
	HP=$!
	wait_for "$W/helper" ready 50
}

# ---- 1: N pthreads of a dynamically linked program --------------------------------
if run_helper "$W/threads" && tool_start t FUNC "$T"; then
	printf x > "$W/fifo"
	wait "$HP"
	sleep 0.3
	snoop_stop "pthread run"
	# TIME(ms) PID COMM FUNC
	n=$(awk -v p="$HP" '$2 == p' "$W/t.out" | wc -l)
	nf=$(awk -v p="$HP" '$2 == p && $4 == "cbx_thread_main"' "$W/t.out" | wc -l)
	if [ "$n" = $N ] && [ "$nf" = $N ]; then ok "$N pthreads: $N lines, FUNC cbx_thread_main"
	else notok "$n lines for pid $HP ($nf with cbx_thread_main), want $N: $(awk -v p="$HP" '$2 == p' "$W/t.out" | head -3 | tr '\n' '|')"; fi
	if head -1 "$W/t.out" | grep -Eq '^TIME\(ms\) +PID +COMM +FUNC$'; then ok "header (bcc)"
	else notok "header: $(head -1 "$W/t.out")"; fi
fi

# ---- 1b: the same program stripped: the start function cannot be named,
# FUNC is bcc's "[unknown]" (no bare address)
cp "$W/threads" "$W/threads_stripped" && strip --strip-all "$W/threads_stripped"
if run_helper "$W/threads_stripped" && tool_start t FUNC "$T" -p "$HP"; then
	printf x > "$W/fifo"
	wait "$HP"
	sleep 0.3
	snoop_stop "stripped run"
	n=$(awk -v p="$HP" '$2 == p && $4 == "[unknown]" && NF == 4' "$W/t.out" | wc -l)
	if [ "$n" = $N ]; then ok "stripped binary: $N threads with FUNC [unknown]"
	else notok "stripped: $n of $N lines with [unknown]: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 2: a static (musl) program: no libc to probe, the clone path ------------------
if [ -n "$static" ]; then
	if run_helper "$static" && tool_start t FUNC "$T" -p "$HP"; then
		printf x > "$W/fifo"
		wait "$HP"
		sleep 0.3
		snoop_stop "static run"
		n=$(awk -v p="$HP" '$2 == p' "$W/t.out" | wc -l)
		others=$(awk -v p="$HP" 'NR > 1 && $2 != p' "$W/t.out" | wc -l)
		if [ "$n" = $N ] && [ "$others" = 0 ]; then ok "static binary, -p: $N threads seen once each (clone path), nothing else"
		else notok "static -p: $n lines (want $N), $others others: $(head -4 "$W/t.out" | tr '\n' '|')"; fi
	fi
else
	ok "static binary, -p # SKIP no musl-gcc"
fi

# ---- 3: JSON ----------------------------------------------------------------------
if run_helper "$W/threads" && tool_start t "" "$T" -j -p "$HP"; then
	printf x > "$W/fifo"
	wait "$HP"
	sleep 0.3
	kill -INT "$TPID"; wait "$TPID"; rc=$?; TPID=
	if [ $rc = 0 ] && python3 - "$W/t.out" "$HP" $N <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
mine = [r for r in rows if r["pid"] == int(sys.argv[2])]
assert len(mine) == int(sys.argv[3]), mine
assert all(r["func"] == "cbx_thread_main" and r["tid"] != r["pid"] for r in mine), mine
assert len({r["tid"] for r in mine}) == len(mine)
PY
	then ok "-j: $N objects, distinct new thread ids, func cbx_thread_main"
	else notok "-j: status $rc: $(head -c 300 "$W/t.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
