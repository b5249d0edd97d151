#!/bin/sh
# bitesize end to end: a helper (blkio.c) built under a unique name makes
# K1 O_DIRECT reads of 4 KiB and K2 of 16 KiB on a loop device, another
# copy under a second name K1 reads.  bitesize -c NAME must show one
# "Process Name = NAME" histogram whose only non-zero rows are "4 -> 7"
# (K1) and "16 -> 31" (K2), and nothing of the other name; without -c
# both names appear; --json and --prom carry the same buckets; -T 1 2
# prints two timestamped reports; nothing is left loaded.
# Run as root from the repository root: sh tests/e2e/bitesize.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-bitesize.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-bitesize.XXXXXX)
T=bitesize
K1=30
K2=12
fails=0
LA= TPID=
. tests/e2e/lib.sh

trap blkfs_cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper blkio
cp "$W/blkio" "$W/cbxbite"
cp "$W/blkio" "$W/cbxother"
bpf_snapshot before

loop_disks 16 LA
NA=$(basename "$LA")

workload() {
	"$W/cbxbite" "$LA" rand $K1 4096 0 > /dev/null || notok "cbxbite 4k failed"
	"$W/cbxbite" "$LA" rand $K2 16384 1048576 > /dev/null || notok "cbxbite 16k failed"
	"$W/cbxother" "$LA" rand $K1 4096 4194304 > /dev/null || notok "cbxother failed"
}

run() { # NAME ARGS...
	name=$1
	shift
	tool_start t '^Tracing block device' "$T" "$@" || return 1
	workload
	sleep 0.3
	snoop_stop "$name"
	cp "$W/t.out" "$W/$name.out"
}

# "LOW COUNT" of the non-zero rows of NAME's histogram in FILE
rows() {
	awk -v n="$2" '/^Process Name = / { sec = substr($0, 16); next }
		sec == n && / -> / { split($0, p, ":"); split(p[2], q, " "); if (q[1] > 0) print $1, q[1] }' "$1" | tr '\n' ' '
}

want="4 $K1 16 $K2 "
# A rare request can go unseen (nested program run skipped): retry once.
check_comm() {
	run comm -c cbxbite || return 1
	got=$(rows "$W/comm.out" cbxbite)
	others=$(grep -c '^Process Name = ' "$W/comm.out")
	[ "$got" = "$want" ] && [ "$others" = 1 ]
}
if check_comm || { echo "# retrying: '$got'"; check_comm; }; then
	ok "-c cbxbite: one histogram, non-zero rows '$got' (4 KiB x $K1, 16 KiB x $K2)"
else
	notok "-c cbxbite: rows '$got' (want '$want'), $others sections: $(head -c 600 "$W/comm.out")"
fi
if grep -q '^     Kbytes              : count    distribution$' "$W/comm.out"; then ok "Kbytes histogram header"
else notok "histogram header: $(head -c 300 "$W/comm.out")"; fi

check_all() {
	run all -d "$NA" || return 1
	got=$(rows "$W/all.out" cbxbite)
	o=$(rows "$W/all.out" cbxother)
	[ "$got" = "$want" ] && [ "$o" = "4 $K1 " ]
}
if check_all || { echo "# retrying: '$got' '$o'"; check_all; }; then ok "-d $NA: cbxbite '$got', cbxother '$o'"
else notok "-d $NA: cbxbite '$got', cbxother '$o': $(head -c 600 "$W/all.out")"; fi

# --json and --prom
check_jp() {
	rm -f "$W/p.prom"
	"$CB" bitesize --json --prom "$W/p.prom" -c cbxbite > "$W/j.out" 2> "$W/j.err" &
	TPID=$!
	if ! wait_for "$W/j.err" '^Tracing block device' 150; then
		kill -KILL "$TPID"; wait "$TPID" 2>/dev/null; TPID=
		got="not started: $(head -c 300 "$W/j.err")"
		return 1
	fi
	workload
	sleep 0.3
	kill -INT "$TPID"; wait "$TPID"; rc=$?; TPID=
	python3 tests/e2e/helpers/jsonprom.py json "$W/j.out" > /dev/null || { got="JSON: $(cat "$W/j.out")"; return 1; }
	got=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    for h in json.loads(l).get("size", []):
        if h.get("comm") == "cbxbite":
            print(" ".join("%d %d" % (b["low"], b["count"]) for b in h["buckets"] if b["count"]))' "$W/j.out")
	prom=$(python3 tests/e2e/helpers/jsonprom.py prom "$W/p.prom") || { got="prom: $prom"; return 1; }
	pc=$(echo "$prom" | awk '/^corebox_bitesize_size_bytes_count\{comm="cbxbite"\}/ { print $2 }')
	psum=$(echo "$prom" | awk '/^corebox_bitesize_size_bytes_sum\{comm="cbxbite"\}/ { print $2 }')
	got="json '$got', prom count $pc sum $psum, exit $rc"
	[ "$got" = "json '4 $K1 16 $K2', prom count $((K1 + K2)) sum $((K1 * 4096 + K2 * 16384)), exit 0" ]
}
if check_jp || { echo "# retrying: $got"; check_jp; }; then ok "--json --prom: $got"
else notok "--json --prom: $got; prom: $(head -c 600 "$W/p.prom")"; fi

timeout 20 "$CB" bitesize -T 1 2 > "$W/int.out" 2>&1
rc=$?
n=$(grep -c '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] *$' "$W/int.out")
if [ $rc = 0 ] && [ "$n" = 2 ]; then ok "-T 1 2: two timestamped reports, exit 0"
else notok "-T 1 2: status $rc, $n timestamps: $(head -c 300 "$W/int.out")"; fi

usage_exit2 "bitesize -c with a 16-character name" bitesize -c 0123456789abcdef
snoop_left
[ $fails = 0 ]
