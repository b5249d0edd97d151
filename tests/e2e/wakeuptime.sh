#!/bin/sh
# wakeuptime and offwaketime end to end: a reader/writer pipe pair
# (tests/e2e/helpers/cbx_wake_pair.c; the writer "cbxwriter" writes a byte
# every 100 ms, 10 times; the reader "cbxreader" blocks reading them).
#   wakeuptime -f -p READER: a "cbxwriter;...;cbxreader N" line whose waker
#     stack shows the pipe write, N about 10 x 100 ms;
#   offwaketime -f -p READER: "cbxreader;...pipe_read...;--;...pipe_write...;cbxwriter N";
#   the multi-line outputs name target and waker; --svg writes XML;
#   SIGINT ends both with status 0; bad flags exit 2; nothing stays loaded.
# Every wait is bounded.  Run as root from the repository root:
# --stack-storage-size 16384: with the default 1024 buckets two of the few
# stacks can land in one bucket (-EEXIST) and show as missed.
#   sh tests/e2e/wakeuptime.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-wakeuptime.XXXXXX)
T=wakeuptime
fails=0
T1= T2= HPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $T1 $T2 $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

need_corebox
build_helper bpf_count
build_helper cbx_wake_pair -O0 -fno-omit-frame-pointer

# finish PID NAME: wait for a tool (bounded), report its status
finish() {
	reap "$1" 150
	if [ "$rc" = 0 ]; then ok "$2: exits 0"; else notok "$2: status $rc"; fi
}

# start the pair; sets HPID (reader) and WPID (writer)
pair() {
	rm -f "$W/gate"; mkfifo "$W/gate"
	: > "$W/h.out"
	"$W/cbx_wake_pair" "$W/gate" 10 > "$W/h.out" &
	HPID=$!
	wait_for "$W/h.out" '[0-9]' 50
	set -- $(head -1 "$W/h.out")
	WPID=${2:-0}
}

# release: open the gate (the pair starts), wait for the reader to end
release() {
	echo go > "$W/gate"
	wait_pid "$HPID" 50
	wait "$HPID" 2>/dev/null
	HPID=
}

# both RUN FLAG WK OW: wakeuptime and offwaketime at once, with FLAG, for
# 4 s on a new pair (output in $W/WK and $W/OW), released once both loaded
both() {
	pair
	"$CB" wakeuptime --stack-storage-size 16384 $2 -p "$HPID" 4 > "$W/$3" 2> "$W/$3.err" &
	T1=$!
	"$CB" offwaketime --stack-storage-size 16384 $2 -p "$HPID" 4 > "$W/$4" 2> "$W/$4.err" &
	T2=$!
	wait_attached 2 || notok "$1: the programs were not loaded within 10 s"
	sleep 0.2
	release
	finish "$T1" "wakeuptime $2 -p PID 4"; T1=
	finish "$T2" "offwaketime $2 -p PID 4"; T2=
}

# blocked_about TOOL FILE REGEX: the microseconds of FILE's folded lines
# that match REGEX add up to about the pair's 10 x 100 ms
blocked_about() {
	us=$(awk -v re="$3" '$0 ~ re { s += $NF } END { print s + 0 }' "$2")
	if [ "$us" -ge 800000 ] && [ "$us" -le 1300000 ]; then
		ok "$1: blocked $us us, about 10 x 100 ms"
	else
		notok "$1: blocked $us us, expected about 1000000"
	fi
}

bpf_snapshot before

# ---- run 1: folded, both tools at once ----------------------------------------
both "run 1" -f wk1 ow1

if grep -Eq '^cbxwriter;.*pipe_write;.*;cbxreader [0-9]+$' "$W/wk1"; then
	ok "wakeuptime: the reader's waker is cbxwriter, from its pipe write"
else
	notok "wakeuptime: no cbxwriter;...pipe_write...;cbxreader line: $(head -3 "$W/wk1" | tr '\n' '|') $(head -c 200 "$W/wk1.err")"
fi
blocked_about wakeuptime "$W/wk1" '^cbxwriter;.*;cbxreader [0-9]+$'
others=$(grep -v ';cbxreader [0-9]*$' "$W/wk1" | head -3)
if [ -z "$others" ]; then ok "wakeuptime -p: only the reader as target"
else notok "wakeuptime -p: other targets: $(echo "$others" | tr '\n' '|')"; fi

if grep -Eq '^cbxreader;.*pipe_read;.*;--;.*pipe_write;.*;cbxwriter [0-9]+$' "$W/ow1"; then
	ok "offwaketime: cbxreader;...pipe_read...;--;...pipe_write...;cbxwriter in one record"
else
	notok "offwaketime: no merged reader/writer record: $(head -3 "$W/ow1" | tr '\n' '|') $(head -c 200 "$W/ow1.err")"
fi
blocked_about offwaketime "$W/ow1" '^cbxreader;.*;--;.*;cbxwriter [0-9]+$'

# ---- run 1b: -j, both tools at once ----------------------------------------------
both "run 1b" -j wkj owj
if python3 -c '
import json, sys
wk = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ow = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
assert len(wk) == 1 and len(ow) == 1
w = [s for s in wk[0]["stacks"] if s["target"] == "cbxreader" and s["waker"] == "cbxwriter"]
assert w and all(w[0]["waker_kernel"]) and w[0]["waker_kernel"][0].startswith("try_to_wake_up"), wk[0]["stacks"][:2]
o = [s for s in ow[0]["stacks"] if s["target"] == "cbxreader" and s["waker"] == "cbxwriter"]
assert o and o[0]["waker_kernel"] and o[0]["target_kernel"], ow[0]["stacks"][:2]
assert o[0]["folded"].startswith("cbxreader;") and o[0]["folded"].endswith(";cbxwriter")
' "$W/wkj" "$W/owj" 2> "$W/py.err"; then
	ok "-j: wakeuptime and offwaketime reports parse; cbxwriter woke cbxreader, with the waker's frames"
else
	notok "-j: $(tail -1 "$W/py.err"); $(head -c 300 "$W/wkj") $(head -c 300 "$W/owj")"
fi

# ---- run 2: multi-line, --svg, ended by SIGINT ---------------------------------
pair
: > "$W/wk2"; : > "$W/ow2"
"$CB" wakeuptime --stack-storage-size 16384 -p "$HPID" --svg "$W/wk.svg" > "$W/wk2" 2> "$W/wk2.err" &
T1=$!
"$CB" offwaketime --stack-storage-size 16384 -p "$HPID" --svg "$W/ow.svg" > "$W/ow2" 2> "$W/ow2.err" &
T2=$!
if wait_for "$W/wk2" '^Tracing blocked' 100 && wait_for "$W/ow2" 'Hit Ctrl-C' 100; then
	R=$HPID
	release
	kill -INT "$T1" "$T2"
	for t in "$T1" "$T2"; do
		after_sigint "$t"
	done
	T1= T2=
	if head -1 "$W/wk2" | grep -qx 'Tracing blocked time (us) by kernel stack' &&
		grep -Eq '^	target: +cbxreader$' "$W/wk2" && grep -Eq '^	 +waker: cbxwriter$' "$W/wk2" &&
		grep -Eq '^	[0-9a-f]{16} (anon_)?pipe_write$' "$W/wk2" && ! grep -q '+0x' "$W/wk2"; then
		ok "wakeuptime multi-line (libbpf-tools 0.26): target cbxreader, waker cbxwriter, ADDR pipe_write (no +offset)"
	else
		notok "wakeuptime multi-line: $(head -12 "$W/wk2" | tr '\n\t' '| ')"
	fi
	if grep -Eq "^    waker: +cbxwriter $WPID\$" "$W/ow2" && grep -Eq "^    target: +cbxreader $R\$" "$W/ow2" &&
		grep -Eq '^    -- +--$' "$W/ow2"; then
		ok "offwaketime multi-line: waker cbxwriter, --, target cbxreader"
	else
		notok "offwaketime multi-line: $(head -12 "$W/ow2" | tr '\n' '|')"
	fi
	for f in wk ow; do
		if ! svg_valid "$W/$f.svg" "$f --svg"; then
			:
		elif grep -q cbxwriter "$W/$f.svg" && grep -q cbxreader "$W/$f.svg"; then
			ok "$f --svg: XML naming cbxreader and cbxwriter"
		else
			notok "$f --svg: names missing"
		fi
	done
else
	notok "no headers within 10 s: $(head -c 200 "$W/wk2.err") $(head -c 200 "$W/ow2.err")"
fi

# ---- usage -------------------------------------------------------------------
usage_exit2 "wakeuptime -p with -u" wakeuptime -p 1 -u 1
usage_exit2 "offwaketime -U -K" offwaketime -U -K 1
usage_exit2 "offwaketime -m > -M" offwaketime -m 10 -M 5 1

# ---- nothing left loaded -------------------------------------------------------
sleep 0.2
left=$(bpf_left '^prog [0-9]+ (sched_switch|sched_waking|sched_wakeup_ne)')
if [ -z "$left" ]; then ok "no sched_* BPF program left loaded"
else notok "programs left loaded (ours or a concurrent tool's): $(echo "$left" | tr '\n' '|')"; fi

[ "$fails" = 0 ]
