#!/bin/sh
# futexctn end to end: a helper thread named cbx_futex makes exactly N
# FUTEX_WAITs on one word that are woken after ~2 ms each.  `futexctn -p
# HELPER` must show one histogram: "cbx_futex[TID] lock 0xWORD contended
# N times" with min/avg/max in the 1-8 ms the waits took, the waiting
# thread's user stack (cbx_futex_waiter) between "    -" lines and N
# samples in the libbpf-tools log2 layout; -s one per process with the
# PID and no stack; -l WORD the same lock, -l of another word nothing;
# -m msecs; -j the histogram with its labels, count and stack, --prom
# its count; bad
# arguments exit 2; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/futexctn.sh
set -u
T=futexctn
N=20
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup
build_helper futex_waits -O1 -fno-omit-frame-pointer -pthread

# run LABEL ARGS...: the helper's N waits under the tool (HPID, WTID and
# WORD in ARGS replaced by the helper's pid, waiter tid and word)
run() {
	label=$1
	shift
	: > "$W/h.out"
	"$W/futex_waits" $N > "$W/h.out" 2>&1 &
	HPID=$!
	wait_for "$W/h.out" '^ready' 50 || { notok "$label: helper not ready"; return 1; }
	set -- $(sed -n 's/^ready //p' "$W/h.out") "$@"
	HP=$HPID WTID=$2 WORD=$3
	shift 3
	args=$(echo "$*" | sed "s/HPID/$HPID/g; s/WTID/$WTID/g; s/WORD/$WORD/g")
	# shellcheck disable=SC2086
	tool_start t "" "$T" $args || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/h.out" "^done $N\$" 100 || notok "$label: helper: $(cat "$W/h.out")"
	snoop_stop "$label"
	helper_stop # (after the report: the stacks are named from its mappings)
}

# ---- 1: -p HELPER -------------------------------------------------------------------------
if run "-p" -p HPID; then
	heads=$(grep -c ' lock 0x' "$W/t.out")
	if [ "$heads" = 1 ] && grep -Eq "^cbx_futex\[$WTID\] lock $WORD contended $N times, [0-9]+ avg usecs \[max: [0-9]+ usecs, min [0-9]+ usecs\]\$" "$W/t.out"; then
		ok "one histogram: cbx_futex[$WTID] lock $WORD contended $N times"
	else notok "head ($heads): $(grep ' lock 0x' "$W/t.out" | head -3)"; fi
	if grep ' lock 0x' "$W/t.out" | awk '{ avg = $7; max = $11; min = $14 } END { exit !(min >= 900 && avg >= min && max >= avg && max < 50000) }'; then
		ok "min <= avg <= max, from the ~2 ms waits"
	else notok "min/avg/max: $(grep ' lock 0x' "$W/t.out")"; fi
	c=$(hist_sum "$W/t.out")
	slow=$(hist_sum "$W/t.out" "" 512)
	if [ "$c" = "$N" ] && [ "$slow" = "$N" ]; then ok "$N samples, all in the buckets >= 512 us"
	else notok "$c samples ($slow >= 512 us) for $N waits"; fi
	if awk '/ lock 0x/ { s = 1; next } s && /^    -$/ { d++; next } s && d == 1 { print }' "$W/t.out" | grep -qx '    cbx_futex_waiter' &&
		grep -q '^     usecs               : count    distribution$' "$W/t.out"; then
		ok "the waiter's user stack between '    -' lines, then the libbpf-tools histogram"
	else notok "stack/layout: $(head -12 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 2: -s ----------------------------------------------------------------------------------
if run "-s" -s -p HPID; then
	if grep -Eq "^cbx_futex\[$HP\] lock $WORD contended $N times" "$W/t.out" && ! grep -q '^    -$' "$W/t.out"; then
		ok "-s: per process ([$HP]), no stack"
	else notok "-s: $(head -6 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: -l, -m ------------------------------------------------------------------------------
if run "-l" -m -l WORD; then
	if [ "$(grep -c ' lock 0x' "$W/t.out")" = 1 ] && grep -q "^cbx_futex\[$WTID\] lock $WORD contended $N times, [0-9]* avg msecs" "$W/t.out" &&
		grep -q '^     msecs               : count    distribution$' "$W/t.out"; then
		ok "-l $WORD: that lock alone; -m: msecs"
	else notok "-l/-m: $(grep -E 'lock|msecs' "$W/t.out" | head -4 | tr '\n' '|')"; fi
fi
if run "-l other" -p HPID -l 0x10; then
	if ! grep -q ' lock 0x' "$W/t.out"; then ok "-l 0x10: none of the helper's waits"
	else notok "-l 0x10: $(grep ' lock 0x' "$W/t.out" | head -2)"; fi
fi

# ---- 4: JSON ---------------------------------------------------------------------------------
if run "-j" -j --prom "$W/prom" -p HPID && python3 - "$W/t.out" "$WTID" "$WORD" $N <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
hs = [h for d in docs for h in d.get("latency", [])]
assert len(hs) == 1, hs
h = hs[0]
assert h["tid"] == sys.argv[2] and h["lock"] == sys.argv[3] and h["comm"] == "cbx_futex", h
assert h["count"] == int(sys.argv[4]), h
assert "cbx_futex_waiter" in h["stack"].split(";"), h["stack"]
PY
then ok "-j: the histogram with tid, comm, lock, stack and count $N"
else notok "-j: $(head -c 500 "$W/t.out")"; fi
pn=$(prom_valid "$W/prom")
c=$(awk -v p="corebox_futexctn_latency_seconds_count{tid=\"$WTID\",comm=\"cbx_futex\",lock=\"$WORD\",stack=\"" \
	'index($0, p) == 1 && /cbx_futex_waiter/ { print $NF }' "$W/prom")
case $pn in
bad*) notok "--prom: $pn" ;;
*) if [ "$c" = "$N" ]; then ok "--prom: $pn valid samples; the lock's and stack's count $N"; else notok "--prom: count '$c': $(grep _count "$W/prom" | head -2)"; fi ;;
esac

# ---- 5: usage ---------------------------------------------------------------------------------
exits_2 "-l not hex" futexctn -l zz
exits_2 "-l 0" futexctn -l 0
exits_2 "three positionals" futexctn 1 2 3

snoop_left
[ "$fails" = 0 ]
