#!/bin/sh
# cachestat end to end on an ext4 image (4 KiB blocks) on a loop device.
# A helper (tests/e2e/helpers/pcache.c) reads a file of N pages after
# dropping them from the page cache: the MISSES of the run must add up to
# about N; it writes M new pages: DIRTIES (buffers dirtied: one per page
# with 4 KiB blocks) at least M.  cachestat is system wide and other work
# runs on this machine, so the sums are checked within a margin (the
# exact ground truth is in make vmtest, on a quiet kernel).  Where the
# kernel cannot count accesses (no fentry, no kprobes: this one) HITS and
# HITRATIO are '-' and a line above the header says why; --json and --prom
# carry the same numbers; -T adds TIME; SIGINT exits 0.
# Run as root from the repository root: sh tests/e2e/cachestat.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-cachestat.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-cachestat.XXXXXX)
T=cachestat
N=16384
M=8192
fails=0
LE= TPID= MNT=
. tests/e2e/lib.sh

trap blkfs_cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper pcache
bpf_snapshot before
ext4_mount 160M
"$W/pcache" create "$MNT/data" $N > /dev/null || { notok "cannot create the data file"; exit 1; }

# rows FILE: the report rows in it (the last column a number, not the header)
rows() { awk '$NF ~ /^[0-9]+$/ && $1 != "HITS" { n++ } END { print n + 0 }' "$1"; }
# run NAME WORK ARGS...: cachestat 1 while WORK runs; $W/NAME.out/.err
run() {
	name=$1 work=$2
	shift 2
	tool_start t 'CACHED_MB' "$T" "$@" 1 || return 1
	sleep 1.2
	eval "$work" > /dev/null || notok "$name: $work failed"
	# two more rows (one a second), bounded (5 s)
	n0=$(rows "$W/t.out")
	i=0
	while [ $i -lt 50 ] && [ "$(rows "$W/t.out")" -lt $((n0 + 2)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	snoop_stop "$name"
	cp "$W/t.out" "$W/$name.out"
	cp "$W/t.err" "$W/$name.err"
}
# sum of column C (counted from the right: 1 = CACHED_MB) of the rows
colsum() { awk -v c="$2" '$NF ~ /^[0-9]+$/ && $1 != "HITS" { s += $(NF - c + 1) } END { print s + 0 }' "$1"; }
within() { [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

check_miss() {
	run miss '"$W/pcache" cold "$MNT/data"' || return 1
	got=$(colsum "$W/miss.out" 5)
	within "$got" $((N * 9 / 10)) $((N * 13 / 10))
}
if check_miss || { echo "# retrying: misses $got"; check_miss; }; then
	ok "cold read of $N pages: MISSES add up to $got"
else
	notok "cold read of $N pages: MISSES add up to $got: $(head -c 600 "$W/miss.out")"
fi
if grep -q '^cachestat: HITS and HITRATIO need fentry or a kprobe' "$W/miss.err"; then
	bad=$(awk '$NF ~ /^[0-9]+$/ && ($(NF - 5) != "-" || $(NF - 2) != "-")' "$W/miss.out" | wc -l)
	if [ "$bad" = 0 ]; then ok "no access counting here: HITS and HITRATIO are '-', a line on stderr says why"
	else notok "HITS/HITRATIO not '-' on $bad rows: $(head -c 400 "$W/miss.out")"; fi
else
	# hits measurable: a warm read of the same N pages is mostly hits
	run hit '"$W/pcache" warm "$MNT/data"'
	got=$(colsum "$W/hit.out" 6)
	if within "$got" $((N * 9 / 10)) $((N * 13 / 10)); then ok "warm read of $N pages: HITS add up to $got"
	else notok "warm read: HITS $got: $(head -c 600 "$W/hit.out")"; fi
fi
if head -1 "$W/miss.out" | grep -Eq '^ +HITS +MISSES +DIRTIES +HITRATIO +BUFFERS_MB +CACHED_MB$'; then
	ok "header HITS MISSES DIRTIES HITRATIO BUFFERS_MB CACHED_MB"
else
	notok "header: $(head -1 "$W/miss.out")"
fi

check_dirty() {
	run dirty '"$W/pcache" dirty "$MNT/new" $M' -T || return 1
	got=$(colsum "$W/dirty.out" 4)
	within "$got" $M $((M * 4))
}
if check_dirty || { echo "# retrying: dirties $got"; check_dirty; }; then ok "-T: $M pages written: DIRTIES add up to $got"
else notok "$M pages written: DIRTIES add up to $got: $(head -c 600 "$W/dirty.out")"; fi
if awk '$1 != "TIME" && $1 != "cachestat:" && $1 !~ /^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$/ { bad = 1 } END { exit bad }' "$W/dirty.out" &&
	grep -v '^cachestat: ' "$W/dirty.out" | head -1 | grep -q '^TIME '; then
	ok "-T: TIME column"
else
	notok "-T: $(head -3 "$W/dirty.out" | tr '\n' '|')"
fi

# --json and --prom: two reports; the Prometheus counters add them up
timeout 20 "$CB" cachestat --json --prom "$W/c.prom" 1 2 > "$W/j.out" 2> "$W/j.err"
rc=$?
if n=$(python3 tests/e2e/helpers/jsonprom.py json "$W/j.out") && [ "$n" = 2 ] && [ $rc = 0 ]; then
	jm=$(python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])]
print(sum(x["misses"] for x in r), sum(x["dirties"] for x in r))' "$W/j.out")
	if prom=$(python3 tests/e2e/helpers/jsonprom.py prom "$W/c.prom"); then
		pm=$(echo "$prom" | awk '/^corebox_cachestat_misses_total/ { m = $2 } /^corebox_cachestat_dirties_total/ { d = $2 } END { print m, d }')
		if [ "$pm" = "$jm" ] && echo "$prom" | grep -q '^corebox_cachestat_cached_mb'; then
			ok "--json --prom: 2 reports, misses_total and dirties_total $pm = the reports' sums"
		else
			notok "--prom misses_total and dirties_total '$pm', JSON sums $jm: $prom"
		fi
	else
		notok "--prom: $prom"
	fi
else
	notok "--json 1 2: status $rc, '$n': $(head -c 400 "$W/j.out")"
fi
usage_exit2 "cachestat 0" cachestat 0

snoop_left
[ $fails = 0 ]
