#!/bin/sh
# biopattern end to end: on a loop device a helper (blkio.c) makes K
# O_DIRECT reads back to back (sequential) or with a gap between them
# (random).  A disk's first request in a report only sets where it
# ended, so: a sequential phase reports 0% random, 100% sequential, K-1
# requests; a random one 100/0, K-1; a sequential then a random phase
# K*100/(2K-1) and (K-1)*100/(2K-1) percent of 2K-1.  -d takes the name
# or MAJ:MIN (the seed's "biopattern -T 1 -d 259:0"), --json and --prom
# carry the counts; SIGINT exits 0; nothing is left loaded.
# Run as root from the repository root: sh tests/e2e/biopattern.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-biopattern.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-biopattern.XXXXXX)
T=biopattern
K=40
SIZE=4096
fails=0
LA= TPID=
. tests/e2e/lib.sh

trap blkfs_cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper blkio
bpf_snapshot before

loop_disks 16 LA
NA=$(basename "$LA")
MMA=$(cat /sys/block/$NA/dev)

# run NAME PHASES ARGS...: trace while the helper runs the phases
# ("seq", "rand" or "seq rand"), one report at SIGINT; output $W/NAME.out
run() {
	name=$1 phases=$2
	shift 2
	tool_start t 'KBYTES' "$T" "$@" || return 1
	off=0
	for p in $phases; do
		"$W/blkio" "$LA" $p $K $SIZE $off > "$W/$name.$p" 2>&1 || notok "$name: blkio $p failed"
		off=$((off + 4 * K * SIZE))
	done
	sleep 0.3
	snoop_stop "$name"
	cp "$W/t.out" "$W/$name.out"
}

# the row of disk NA: "%RND %SEQ COUNT KBYTES"
row() { awk -v d="$NA" '$(NF - 4) == d { print $(NF - 3), $(NF - 2), $(NF - 1), $NF }' "$1" | tail -1; }

# A rare completion can go unseen (nested program run skipped by the
# kernel): a check that comes up short is tried once more.
check() { # NAME PHASES WANT ARGS...
	name=$1 phases=$2 want=$3
	shift 3
	run "$name" "$phases" "$@" || return 1
	got=$(row "$W/$name.out")
	[ "$got" = "$want" ]
}
KB=$(((K - 1) * SIZE / 1024))
for t in "seq|seq|0 100 $((K - 1)) $KB" "rand|rand|100 0 $((K - 1)) $KB" \
	"mixed|seq rand|$((K * 100 / (2 * K - 1))) $(((K - 1) * 100 / (2 * K - 1))) $((2 * K - 1)) $(((2 * K - 1) * SIZE / 1024))"; do
	name=${t%%|*} rest=${t#*|}
	phases=${rest%%|*} want=${rest#*|}
	if check "$name" "$phases" "$want" -d "$NA" || { echo "# retrying $name: got '$got'"; check "$name" "$phases" "$want" -d "$NA"; }; then
		ok "$name ($phases): %RND %SEQ COUNT KBYTES = $want"
	else
		notok "$name ($phases): want '$want', got '$got': $(head -c 400 "$W/$name.out")"
	fi
done
if head -2 "$W/seq.out" | grep -Eq '^DISK +%RND +%SEQ +COUNT +KBYTES$' &&
	head -1 "$W/seq.out" | grep -q '^Tracing block device I/O requested seeks... Hit Ctrl-C to end.$'; then
	ok "banner and DISK %RND %SEQ COUNT KBYTES header"
else
	notok "header: $(head -2 "$W/seq.out" | tr '\n' '|')"
fi

# the seed's form: -T and -d MAJ:MIN, interval 1
check_mm() {
	run mm "seq" -T -d "$MMA" 1 || return 1
	got=$(awk -v d="$NA" '$2 == d { n += $5 } END { print n + 0 }' "$W/mm.out")
	# each report re-primes: at least K - 3 of K counted over <= 3 reports
	[ "$got" -ge $((K - 3)) ] && [ "$got" -le $((K - 1)) ] &&
		grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2}  $NA " "$W/mm.out" && head -2 "$W/mm.out" | grep -q '^TIME      DISK'
}
if check_mm || { echo "# retrying mm: got '$got'"; check_mm; }; then
	ok "-T -d $MMA 1: TIME column, $got of $K requests counted across reports"
else
	notok "-T -d $MMA 1: got '$got': $(head -c 400 "$W/mm.out")"
fi

# --json and --prom: the mixed phases' counts
check_jp() {
	rm -f "$W/p.prom"
	"$CB" biopattern --json --prom "$W/p.prom" -d "$NA" > "$W/j.out" 2> "$W/j.err" &
	TPID=$!
	if ! wait_for "$W/j.err" '^Tracing block device' 150; then
		kill -KILL "$TPID"; wait "$TPID" 2>/dev/null; TPID=
		got="not started: $(head -c 300 "$W/j.err")"
		return 1
	fi
	"$W/blkio" "$LA" seq $K $SIZE 0 > /dev/null && "$W/blkio" "$LA" rand $K $SIZE $((4 * K * SIZE)) > /dev/null
	sleep 0.3
	kill -INT "$TPID"; wait "$TPID"; rc=$?; TPID=
	python3 tests/e2e/helpers/jsonprom.py json "$W/j.out" > /dev/null || { got="JSON: $(cat "$W/j.out")"; return 1; }
	got=$(python3 -c '
import json, sys
for l in open(sys.argv[1]):
    for r in json.loads(l).get("disks", []):
        if r["disk"] == sys.argv[2]:
            print(r["random"], r["sequential"], r["count"])' "$W/j.out" "$NA")
	prom=$(python3 tests/e2e/helpers/jsonprom.py prom "$W/p.prom") || { got="prom: $prom"; return 1; }
	pr=$(echo "$prom" | awk -v d="disk=\"$NA\"" 'index($0, d) && /^corebox_biopattern_random_total/ { print $2 }')
	ps=$(echo "$prom" | awk -v d="disk=\"$NA\"" 'index($0, d) && /^corebox_biopattern_sequential_total/ { print $2 }')
	got="json '$got', prom random $pr sequential $ps, exit $rc"
	[ "$got" = "json '$K $((K - 1)) $((2 * K - 1))', prom random $K sequential $((K - 1)), exit 0" ]
}
if check_jp || { echo "# retrying: $got"; check_jp; }; then ok "--json --prom: $got"
else notok "--json --prom: $got"; fi

"$CB" biopattern -d 9999:9999 1 1 > "$W/bad.out" 2>&1
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$W/bad.out")" = 1 ]; then ok "-d with an unknown MAJ:MIN: one line, exit 1"
else notok "-d 9999:9999: status $rc: $(cat "$W/bad.out")"; fi
usage_exit2 "biopattern 1 2 3" biopattern 1 2 3

snoop_left
[ $fails = 0 ]
