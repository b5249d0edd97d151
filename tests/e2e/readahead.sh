#!/bin/sh
# readahead end to end on an ext4 image on a loop device: a helper
# (tests/e2e/helpers/pcache.c) reads a file of N pages sequentially
# after dropping it from the page cache, so the kernel reads it ahead and
# the read uses those pages.  readahead must report at least 90% of N
# pages read ahead and used (total - unused), its age histogram must
# count exactly the used pages (total - unused), --json and --prom the
# same; -d ends it by itself; SIGINT exits 0; nothing is left loaded.
# Run as root from the repository root: sh tests/e2e/readahead.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-readahead.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-readahead.XXXXXX)
T=readahead
N=8192
fails=0
LE= TPID= MNT=
. tests/e2e/lib.sh

trap blkfs_cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper pcache
bpf_snapshot before
ext4_mount 64M
"$W/pcache" create "$MNT/data" $N > /dev/null || { notok "cannot create the data file"; exit 1; }

# "UNUSED TOTAL HISTSUM" of a report
report() {
	awk -F'[ /:]+' '/^Readahead unused\/total pages:/ { u = $5; t = $6 }
		/ -> / { split($0, p, ":"); split(p[2], q, " "); s += q[1] }
		END { print u + 0, t + 0, s + 0 }' "$1"
}

check_run() {
	tool_start t '^Tracing fs read-ahead' "$T" -v || return 1
	"$W/pcache" cold "$MNT/data" > /dev/null || notok "cold read failed"
	sleep 0.3
	snoop_stop plain
	cp "$W/t.out" "$W/plain.out"
	cp "$W/t.err" "$W/plain.err"
	set -- $(report "$W/plain.out")
	u=$1 t=$2 s=$3
	msg="unused/total $u/$t, histogram counts $s"
	[ $((t - u)) -ge $((N * 9 / 10)) ] && [ "$s" = $((t - u)) ]
}
if check_run || { echo "# retrying: $msg"; check_run; }; then
	ok "cold sequential read of $N pages: $msg (used = total - unused)"
else
	notok "cold read of $N pages: $msg: $(head -c 600 "$W/plain.out")"
fi
if grep -q '^     msecs               : count    distribution$' "$W/plain.out" && sed -n 2p "$W/plain.out" | grep -q '^$'; then
	ok "blank line, unused/total line and the msecs histogram"
else
	notok "report layout: $(head -c 400 "$W/plain.out")"
fi
grep -q '^readahead: ' "$W/plain.err" && ok "-v: $(grep '^readahead: ' "$W/plain.err" | grep -v 'BTF\|CO-RE' | head -1 | cut -c1-90)..." ||
	notok "-v printed nothing: $(head -c 300 "$W/plain.err")"

# --json --prom, -d: one document, ends by itself
rm -f "$W/r.prom"
"$CB" readahead --json --prom "$W/r.prom" -d 3 > "$W/j.out" 2> "$W/j.err" &
TPID=$!
if wait_for "$W/j.err" '^Tracing fs read-ahead' 150; then
	"$W/pcache" cold "$MNT/data" > /dev/null
	if wait_exit "$TPID" 100; then
		wait "$TPID"
		rc=$?
		TPID=
		got=$(python3 -c '
import json, sys
d = [json.loads(l) for l in open(sys.argv[1])][-1]
used = sum(b["count"] for h in d["age"] for b in h["buckets"])
print(d["unused"], d["total"], used)' "$W/j.out" 2>&1)
		set -- $got
		prom=$(python3 tests/e2e/helpers/jsonprom.py prom "$W/r.prom" 2>&1)
		pc=$(echo "$prom" | awk '/^corebox_readahead_age_seconds_count/ { print $2 }')
		if [ $rc = 0 ] && [ $# = 3 ] && [ "$3" = $(($2 - $1)) ] && [ "$3" -ge $((N * 9 / 10)) ] && [ "$pc" = "$3" ]; then
			ok "-d 3 --json --prom: unused $1, total $2, used $3 = Prometheus count"
		else
			notok "--json --prom: status $rc, '$got', prom count '$pc': $(head -c 300 "$W/j.out") $prom"
		fi
	else
		notok "-d 3: still running after 10 s"
	fi
else
	notok "--json: did not start: $(head -c 300 "$W/j.err")"
fi
[ -n "$TPID" ] && { kill -KILL "$TPID"; wait "$TPID" 2>/dev/null; TPID=; }
usage_exit2 "readahead -d 0" readahead -d 0
usage_exit2 "readahead 5 (no positional arguments)" readahead 5

snoop_left
[ $fails = 0 ]
