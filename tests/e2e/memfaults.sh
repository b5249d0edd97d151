#!/bin/sh
# faults, ffaults, hfaults, swapin and numamove end to end.  A helper
# touches exactly P new anonymous pages from cbx_touch_marker() and then
# reads each page of a file with a unique name through a mapping:
#   faults -p: >= P faults (and at most P + slack) on a stack through
#              cbx_touch_marker; -f folds it; -j carries it;
#   ffaults:   the file's name counted (faults that reach the page cache);
#   hfaults, swapin: where the kernel offers no way in (no kprobes, no
#              fentry: this build machine) one line saying so and status
#              1, else they run and exit 0;
#   numamove:  runs (one NUMA node here: it says so once), rows of zeros,
#              JSON and a valid Prometheus file.
# SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/memfaults.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-memfaults.XXXXXX)
P=300
SLACK=20
T=memfaults
fails=0
HPID= TPID=
. tests/e2e/lib.sh
. tests/e2e/helpers/mem.sh

bg_traps

need_corebox
mem_build cbx_touch
bpf_count_build
bpf_snapshot before
FILE=cbxfault_$$
dd if=/dev/urandom of="$W/$FILE" bs=4096 count=64 status=none

# run LABEL READY TOOL ARGS...: trace the helper (@PID@ = its pid)
run() {
	label=$1 ready=$2
	shift 2
	: > "$W/helper.out"
	"$W/cbx_touch" $P "$W/$FILE" > "$W/helper.out" 2>&1 &
	HPID=$!
	wait_for "$W/helper.out" '^ready' 50 || { notok "$label: helper did not start"; return 1; }
	for a in "$@"; do
		shift
		[ "$a" = @PID@ ] && a=$HPID
		set -- "$@" "$a"
	done
	tool_start "$label" "$ready" "$@" || { kill -KILL "$HPID"; wait "$HPID" 2>/dev/null; HPID=; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper.out" '^done' 50 || notok "$label: helper did not finish"
	sleep 0.2
	tstop "$label" 50
	kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
}

# 1. faults: the touches on the marker's stack
if run faults '^Attaching 1 probe' faults -p @PID@; then
	c=$(awk '/^@\[$/ { s = "" } { s = s $0 "\n" } /^, cbx_touch\]: [0-9]+$/ && s ~ /cbx_touch_marker/ { sub(/.*: /, ""); n += $0 } END { print n + 0 }' "$W/faults.out")
	if [ "$c" -ge $P ] && [ "$c" -le $((P + SLACK)) ]; then ok "faults: $c faults on cbx_touch_marker's stack (touched $P pages)"
	else notok "faults: $c on cbx_touch_marker (want $P..$((P + SLACK))): $(head -c 600 "$W/faults.out")"; fi
fi
if run folded '' faults -f -p @PID@; then
	c=$(awk '/^cbx_touch;.*cbx_touch_marker [0-9]+$/ { n += $NF } END { print n + 0 }' "$W/folded.out")
	if [ "$c" -ge $P ] && [ "$c" -le $((P + SLACK)) ]; then ok "faults -f: 'cbx_touch;...;cbx_touch_marker $c'"
	else notok "faults -f: $c (want $P..): $(head -c 400 "$W/folded.out")"; fi
fi
if run faultsj '' faults -j -p @PID@; then
	json_ok faultsj
	c=$(python3 -c 'import json,sys
d = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
print(sum(e["count"] for e in d["counts"] if e["comm"] == "cbx_touch" and any("cbx_touch_marker" in f for f in e["user"])))' "$W/faultsj.out" 2>&1)
	if [ "$c" -ge $P ] 2>/dev/null && [ "$c" -le $((P + SLACK)) ]; then ok "faults -j: $c on cbx_touch_marker"; else notok "faults -j: '$c'"; fi
fi
# the tracepoint fallback (exceptions:page_fault_user, x86)
if [ -d /sys/kernel/tracing/events/exceptions/page_fault_user ] || [ -d /sys/kernel/debug/tracing/events/exceptions/page_fault_user ]; then
	export COREBOX_DISABLE=perf_sw
	if run faultstp '^Attaching 1 probe' faults -p @PID@; then
		c=$(awk '/^@\[$/ { s = "" } { s = s $0 "\n" } /^, cbx_touch\]: [0-9]+$/ && s ~ /cbx_touch_marker/ { sub(/.*: /, ""); n += $0 } END { print n + 0 }' "$W/faultstp.out")
		if [ "$c" -ge $P ] && [ "$c" -le $((P + SLACK)) ]; then ok "faults (page_fault_user tracepoint): $c on cbx_touch_marker"
		else notok "faults (tracepoint): $c: $(head -c 400 "$W/faultstp.out")"; fi
	fi
	unset COREBOX_DISABLE
fi

# 2. ffaults: the file's name among the faulting files
sync
echo 1 > /proc/sys/vm/drop_caches 2>/dev/null
if run ffaults '^Attaching 1 probe' ffaults -p @PID@; then
	if grep -Eq "^@\\[$FILE\\]: [1-9][0-9]*\$" "$W/ffaults.out"; then ok "ffaults: @[$FILE] counted"
	else notok "ffaults: no @[$FILE]: $(head -c 400 "$W/ffaults.out")"; fi
fi

# 3. hfaults and swapin: a way in, or one line saying there is none
for t in hfaults swapin; do
	timeout 10 "$CB" $t -v 1 1 > "$W/$t.out" 2> "$W/$t.err"
	rc=$?
	[ $t = hfaults ] && { timeout 10 "$CB" $t -d 1 > "$W/$t.out" 2> "$W/$t.err"; rc=$?; }
	if [ $rc = 1 ] && grep -q "this kernel offers no way to trace" "$W/$t.err" && [ "$(wc -l < "$W/$t.err")" = 1 ]; then
		ok "$t: no kprobes/fentry here: one line says so, status 1"
	elif [ $rc = 0 ]; then
		ok "$t: runs on this kernel ($(grep -Eo '(fentry|kprobe) [a-z_]+' "$W/$t.err" | head -1))"
	else
		notok "$t: status $rc: $(head -c 300 "$W/$t.err")"
	fi
done

# 4. numamove: one node here -> one note (stderr: stdout starts with the
#    header, as libbpf-tools'), zero rows, JSON and Prometheus
# upto N FILE ERE: until FILE has N lines matching ERE (bounded: 5 s)
upto() {
	i=0
	while [ $i -lt 50 ] && [ "$(grep -Ec "$3" "$2")" -lt "$1" ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
if tool_start numa '^TIME ' numamove; then
	upto 2 "$W/numa.out" '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] +[0-9]+ +[0-9]+$'
	tstop numa 30
	nodes=$(cat /sys/devices/system/node/online 2>/dev/null)
	rows=$(grep -Ec '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9] +[0-9]+ +[0-9]+$' "$W/numa.out")
	if [ "$rows" -ge 2 ]; then ok "numamove: $rows one-second rows"; else notok "numamove: rows: $(head -c 300 "$W/numa.out")"; fi
	case $nodes in
	0|'') if [ "$(grep -c 'one NUMA node' "$W/numa.err")" = 1 ] && head -1 "$W/numa.out" | grep -q '^TIME ' &&
		[ -z "$(awk '/^[0-9][0-9]:/ && ($2 != 0 || $3 != 0)' "$W/numa.out")" ]; then ok "numamove: one node: said once, counts 0"
	      else notok "numamove one node: $(head -c 300 "$W/numa.out")"; fi ;;
	esac
fi
if tool_start numaj '' numamove -j --prom "$W/numa.prom"; then
	upto 2 "$W/numaj.out" '^[{]'
	tstop numaj 30
	json_ok numaj
	prom_ok "$W/numa.prom" numamove
	if grep -q '^corebox_numamove_migrations_total ' "$W/numa.prom"; then ok "numamove --prom: migrations counter"
	else notok "numamove --prom: $(head -c 300 "$W/numa.prom")"; fi
fi

usage_exit2 "faults bad duration" faults -d 0
usage_exit2 "swapin bad interval" swapin x

snoop_left
[ "$fails" = 0 ]
