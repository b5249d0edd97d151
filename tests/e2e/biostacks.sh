#!/bin/sh
# biostacks end to end: two loop devices over 32 MiB files; a helper
# (comm dio_read) makes K O_DIRECT 4 KiB reads on each, one request per
# read.  The histograms under dio_read for the first disk must count
# exactly K, their stacks must name a block-layer function, -d must leave
# the other disk's reads out, -m prints msecs, -j carries the same counts,
# DURATION ends the tool by itself, and SIGINT ends it with status 0.
# Run as root from the repository root: sh tests/e2e/biostacks.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cb-biostk.XXXXXX 2>/dev/null || mktemp -d /tmp/cb-biostk.XXXXXX)
K=150
T=biostacks
fails=0
LA= LB= TPID=
. tests/e2e/lib.sh

need_corebox
trap blkfs_cleanup EXIT INT TERM
build_helper dio_read
loop_disks 32 LA LB
NA=$(basename "$LA")
NB=$(basename "$LB")

# run NAME ARGS...: trace while the helper reads both devices, then SIGINT
run() {
	name=$1
	shift
	e2e_begin "$name" '^Tracing block I/O with init stacks' 100 biostacks "$@" || return 1
	timeout 60 "$W/dio_read" "$LA" $K > /dev/null || notok "$name: dio_read $LA failed"
	timeout 60 "$W/dio_read" "$LB" $K > /dev/null || notok "$name: dio_read $LB failed"
	sleep 0.2
	kill -INT "$TPID"
	if wait_exit "$TPID" 50; then
		wait "$TPID"
		rc=$?
		[ $rc = 0 ] || notok "$name: exit status $rc after SIGINT: $(head -c 300 "$W/$name.err")"
	else
		notok "$name: still running 5 s after SIGINT"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	TPID=
	return 0
}

# sum FILE DISK: the counts of every dio_read histogram on DISK.  A block
# is "COMM PID DISK", its frames, the histogram rows, an empty line.
sum() {
	awk -v d="$2" '
		/^$|^Tracing block I\/O/ { first = 1; want = 0; next }
		first { first = 0; want = ($1 == "dio_read" && $3 == d); next }
		want && / -> / { split($0, p, ":"); split(p[2], q, " "); s += q[1] }
		END { print s + 0 }' "$1"
}
# frames FILE DISK: the frame lines of the dio_read blocks on DISK
frames() {
	awk -v d="$2" '
		/^$|^Tracing block I\/O/ { first = 1; want = 0; next }
		first { first = 0; want = ($1 == "dio_read" && $3 == d); next }
		want && !/ -> / && !/^ *[um]secs/ { print }' "$1"
}

# The kernel skips a program run that would nest in another run of the
# same program on one CPU, so a rare request can go unseen: a short count
# is tried once more before it fails.
check_plain() {
	run plain || return 1
	a=$(sum "$W/plain.out" "$NA")
	b=$(sum "$W/plain.out" "$NB")
	msg="dio_read on $NA: $a, on $NB: $b (K=$K each)"
	[ "$a" = $K ] && [ "$b" = $K ]
}
if check_plain || { echo "# retrying: $msg"; check_plain; }; then
	ok "plain: $msg"
else
	notok "plain: $msg; output: $(head -c 800 "$W/plain.out")"
fi
if frames "$W/plain.out" "$NA" | grep -qE '^(blk_mq_submit_bio|submit_bio_noacct|submit_bio|__submit_bio|blk_account_io_start)$'; then
	ok "stacks name the block layer ($(frames "$W/plain.out" "$NA" | grep -cE 'bio') bio frames)"
else
	notok "no block-layer frame in dio_read's stacks: $(frames "$W/plain.out" "$NA" | head -30 | tr '\n' ' ')"
fi
grep -q '^     usecs               : count    distribution$' "$W/plain.out" &&
	ok "usecs histogram header" || notok "no usecs header: $(head -c 400 "$W/plain.out")"

check_disk() {
	run disk -d "$NA" -m || return 1
	a=$(sum "$W/disk.out" "$NA")
	b=$(awk -v d="$NB" '$3 == d' "$W/disk.out" | wc -l)
	msg="-d $NA: dio_read on $NA $a (K=$K), $b headers for $NB"
	[ "$a" = $K ] && [ "$b" = 0 ] && grep -q '^     msecs ' "$W/disk.out"
}
if check_disk || { echo "# retrying: $msg"; check_disk; }; then
	ok "-d -m: $msg, msecs"
else
	notok "-d -m: $msg; output: $(head -c 800 "$W/disk.out")"
fi

json_count() { # FILE DISK: dio_read's count on DISK in the JSON report
	python3 -c '
import json, sys
n = 0
for l in open(sys.argv[1]):
    if l.strip():
        for h in json.loads(l).get("latency", []):
            if h["comm"] == "dio_read" and h["disk"] == sys.argv[2]:
                assert h["count"] == sum(b["count"] for b in h["buckets"])
                assert any(f.split("+")[0] == "blk_mq_submit_bio" for f in h["stack"].split(";"))
                n += h["count"]
print(n)' "$1" "$2"
}
check_json() {
	run json -j -d "$NA" || return 1
	a=$(json_count "$W/json.out" "$NA" 2> "$W/json.py")
	msg="JSON count for dio_read on $NA: '$a' (K=$K) $(head -c 200 "$W/json.py")"
	[ "$a" = $K ]
}
if check_json || { echo "# retrying: $msg"; check_json; }; then
	ok "-j: $msg"
else
	notok "-j: $msg; output: $(head -c 600 "$W/json.out")"
fi

# DURATION: ends by itself
timeout 10 "$CB" biostacks 1 > "$W/dur.out" 2>&1
rc=$?
if [ $rc = 0 ] && head -1 "$W/dur.out" | grep -q '^Tracing block I/O with init stacks'; then
	ok "duration 1: banner, exit 0"
else
	notok "duration 1: status $rc: $(head -c 300 "$W/dur.out")"
fi

if "$CB" biostacks -d no-such-disk-xyz 1 > /dev/null 2>&1; then
	notok "-d with an unknown disk accepted"
else
	ok "-d with an unknown disk refused"
fi
usage_exit2 "two positionals" biostacks 1 2

[ $fails = 0 ]
