#!/bin/sh
# dcstat and dcsnoop end to end.  Where the kernel has neither kprobes nor
# fentry (lookup_fast and d_lookup have no tracepoint), each must refuse
# in one line on stderr saying why and what would work, exit 1, print
# nothing on stdout and leave nothing loaded.  Where it has one, a helper
# creates NC files by mknod and NC by open(O_CREAT) with unique names
# (each a d_lookup that finds nothing) and unlinks them: dcsnoop must show
# a miss (M) of each name for the helper's PID in bcc's columns; dcstat's
# MISS/s, added up, at least 2*NC.
# Run as root from the repository root: sh tests/e2e/dcsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-dcsnoop.XXXXXX)
T=dcsnoop
fails=0
TPID= HPID=
NC=5
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

refused=0
for t in dcsnoop dcstat; do
	"$CB" $t > "$W/$t.probe.out" 2> "$W/$t.probe.err" &
	p=$!
	wait_exit $p 50 || { kill -INT $p; wait $p; continue; } # it runs: this kernel has a way in
	wait $p
	rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$W/$t.probe.err")" = 1 ] && [ ! -s "$W/$t.probe.out" ] &&
		grep -q "^$t: the dcache lookups (lookup_fast, d_lookup) have no tracepoint, and this kernel has no kprobes and refuses fentry: .*CONFIG_KPROBES" "$W/$t.probe.err"; then
		ok "$t: no kprobes or fentry here: one line saying so and what would work, exit 1, no stdout"
		refused=$((refused + 1))
	else notok "$t: exit $rc, stderr '$(cat "$W/$t.probe.err")', stdout '$(head -c 100 "$W/$t.probe.out")'"; fi
done
if [ $refused = 2 ]; then
	bpf_snapshot after
	if [ -z "$(bpf_new after '^(prog|link) ')" ]; then ok "nothing left loaded"
	else notok "left loaded: $(bpf_new after '^(prog|link) ' | head -3)"; fi
	[ "$fails" = 0 ]
	exit
fi

run() {
	label=$1 ready=$2
	shift 2
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" 0 0 0 0 $NC 0 || { notok "helper not ready"; return 1; }
	hpid=$HPID
	tool_start "$label" "$ready" "$@" || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 1.2
	snoop_stop "$label"
}
if run snoop "^TIME" dcsnoop; then
	o=$W/snoop.out
	n=0 i=0
	while [ $i -lt $NC ]; do
		for f in cbx_node_$i cbx_new_$i; do
			grep -Eq "^[0-9]+\.[0-9]{6} +$hpid +cbx_vfsops +M $f\$" "$o" && n=$((n + 1))
		done
		i=$((i + 1))
	done
	if [ "$(head -1 "$o")" = "TIME(s)     PID     COMM             T FILE" ] && [ $n = $((2 * NC)) ]; then
		ok "dcsnoop: bcc's header; a miss of each of the helper's $((2 * NC)) new names"
	else notok "dcsnoop: $n of $((2 * NC)) misses: $(head -5 "$o" | tr '\n' '|')"; fi
fi
if run stat "^TIME" dcstat; then
	if [ "$(head -1 "$W/stat.out")" = "TIME         REFS/s   SLOW/s   MISS/s     HIT%" ] &&
		awk -v n=$((2 * NC)) 'NR > 1 { m += $4 } END { exit m < n }' "$W/stat.out"; then
		ok "dcstat: bcc's header; MISS/s added up at least the helper's $((2 * NC)) new names"
	else notok "dcstat: $(head -4 "$W/stat.out" | tr '\n' '|')"; fi
fi
snoop_left
[ "$fails" = 0 ]
