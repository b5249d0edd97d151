#!/bin/sh
# pidpersec end to end: while the tool runs, a helper forks N children;
# the per-second counts the tool prints (bcc's "HH:MM:SS: PIDs/sec: N"
# lines after its "Tracing... Ctrl-C to end." banner) must add up to at
# least N and to at most the kernel's own count of forks over a window
# that contains the whole run (the "processes" line of /proc/stat: other
# processes fork too); SIGINT ends it with status 0;
# JSON lines parse and carry the same; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/pidpersec.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-pidpersec.XXXXXX)
T=pidpersec
fails=0
TPID=
N=300
. tests/e2e/lib.sh

cleanup() {
	[ -z "$TPID" ] || kill -KILL "$TPID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper forks
need_corebox

forks_so_far() { awk '$1 == "processes" { print $2 }' /proc/stat; }

# run LABEL BANNER ARGS...: start the tool, fork N, wait for two more
# report lines (the one covering the forks' second is then complete),
# stop it; the kernel's fork count over the run in $W/kernel
run() {
	label=$1 banner=$2
	shift 2
	p0=$(forks_so_far)
	tool_start "$label" "$banner" pidpersec "$@" || return 1
	before=$(wc -l < "$W/$label.out")
	"$W/forks" $N > "$W/helper" 2>&1 || notok "$label: helper failed: $(cat "$W/helper")"
	wait_for_lines "$W/$label.out" $((before + 2)) 40
	snoop_stop "$label"
	echo $(($(forks_so_far) - p0)) > "$W/kernel"
}

# wait_for_lines FILE N TENTHS
wait_for_lines() {
	i=0
	while [ "$(wc -l < "$1")" -lt "$2" ] && [ "$i" -lt "$3" ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# ---- 1: text ---------------------------------------------------------------------------
if run text '^Tracing'; then
	out=$W/text.out kernel=$(cat "$W/kernel")
	if head -1 "$out" | grep -qx 'Tracing\.\.\. Ctrl-C to end\.'; then ok "bcc's banner first"
	else notok "banner: '$(head -1 "$out")'"; fi
	rows=$(sed 1d "$out")
	sum=$(echo "$rows" | awk '{ s += $3 } END { print s + 0 }')
	if [ -n "$rows" ] && ! echo "$rows" | grep -Evq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]: PIDs/sec: [0-9]+$'; then
		ok "$(echo "$rows" | wc -l) lines 'HH:MM:SS: PIDs/sec: N' (bcc's layout)"
	else notok "lines: $(echo "$rows" | head -3 | tr '\n' '|')"; fi
	if [ "$sum" -ge $N ] && [ "$sum" -le "$kernel" ]; then
		ok "counted $sum new processes: at least the helper's $N, at most the kernel's $kernel"
	else notok "counted $sum: want $N..$kernel"; fi
fi

# ---- 2: JSON ---------------------------------------------------------------------------
if run j '' -j && python3 - "$W/j.out" "$N" "$(cat "$W/kernel")" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert rows and all(set(r) == {"time", "pids"} for r in rows), rows
s = sum(r["pids"] for r in rows)
assert int(sys.argv[2]) <= s <= int(sys.argv[3]), (s, sys.argv[2:])
PY
then ok "-j: one JSON object a second, {time, pids}, the same bounds"
else notok "-j: $(head -c 400 "$W/j.out")"; fi
if grep -q '^Tracing' "$W/j.err" && ! grep -q Tracing "$W/j.out"; then ok "-j: the banner on stderr"
else notok "-j: banner not on stderr alone"; fi

snoop_left
[ "$fails" = 0 ]
