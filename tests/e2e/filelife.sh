#!/bin/sh
# filelife end to end: a helper creates NC files with mknod and NC with
# open(O_CREAT|O_EXCL), keeps them LIFE_MS, then unlinks them all; filelife
# (-p the helper) must show exactly those 2*NC files, for the helper's PID
# and COMM, each at least LIFE_MS old, with libbpf-tools' banner, header
# and columns; -j the same as JSON; a file created before the tool started
# is not shown; SIGINT exits 0 and nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/filelife.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-filelife.XXXXXX)
T=filelife
fails=0
TPID= HPID=
NC=4 LIFE=300
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

want() { i=0; while [ $i -lt $NC ]; do echo cbx_new_$i; echo cbx_node_$i; i=$((i + 1)); done | sort; }
want > "$W/want"

# run LABEL ARGS...: helper ready, the tool (-p helper), the work, SIGINT
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" 1 1 1 1 $NC $LIFE || { notok "helper not ready"; return 1; }
	hpid=$HPID
	: > "$W/old_file" # made before the tool: its unlink is not a short life seen
	case $label in
	json) tool_start "$label" "" filelife -p "$hpid" "$@" ;;
	*) tool_start "$label" "Hit Ctrl-C" filelife -p "$hpid" "$@" ;;
	esac || { helper_stop; return 1; }
	rm -f "$W/old_file"
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

if run text; then
	if [ "$(head -1 "$W/text.out")" = "Tracing the lifespan of short-lived files ... Hit Ctrl-C to end." ] &&
		[ "$(sed -n 2p "$W/text.out")" = "TIME     PID    COMM             AGE(s)  FILE" ]; then
		ok "banner and header as libbpf-tools"
	else notok "banner/header: $(head -2 "$W/text.out" | tr '\n' '|')"; fi
	sed 1,2d "$W/text.out" | awk '{ print $5 }' | sort > "$W/got"
	if cmp -s "$W/got" "$W/want"; then ok "exactly the helper's $((2 * NC)) files (mknod and creating opens)"
	else notok "files: $(diff "$W/want" "$W/got" | tr '\n' '|')"; fi
	if ! sed 1,2d "$W/text.out" | grep -Evq '^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] [0-9][0-9 ]{5} cbx_vfsops       [0-9]+\.[0-9][0-9] +cbx_n' &&
		sed 1,2d "$W/text.out" | awk -v p="$hpid" -v l="$LIFE" '$2 != p || $4 < l / 1000 { bad = 1 } END { exit bad || NR == 0 }'; then
		ok "rows: PID, COMM, AGE(s) at least ${LIFE} ms, in libbpf-tools' columns"
	else notok "rows: $(sed 1,2d "$W/text.out" | head -3 | tr '\n' '|')"; fi
fi

if run json -j && python3 - "$W/json.out" "$W/want" "$hpid" $LIFE <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
assert sorted(r["file"] for r in rows) == open(sys.argv[2]).read().split(), rows
assert all(r["pid"] == int(sys.argv[3]) and r["comm"] == "cbx_vfsops" and r["age_s"] >= int(sys.argv[4]) / 1000 for r in rows), rows
PY
then ok "-j: the same files as JSON with pid, comm, age_s"
else notok "-j: $(head -c 400 "$W/json.out")"; fi

usage_exit2 "bad pid" filelife -p x
snoop_left
[ "$fails" = 0 ]
