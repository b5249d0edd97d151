#!/bin/sh
# syncsnoop end to end: a helper (COMM cbx_syncs) calls sync N times, then
# fsync, fdatasync, msync, sync_file_range and syncfs once each; exactly
# those calls must be shown for it, in order, with upstream libbpf-tools'
# header and columns and TIME(s) on the monotonic clock between the
# test's readings before and after; JSON lines parse and carry the same
# calls with the helper's PID; nothing stays loaded.  (No -p in the tool,
# as upstream: the rows are told apart by COMM.)
# Run as root from the repository root: sh tests/e2e/syncsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-syncsnoop.XXXXXX)
T=syncsnoop
fails=0
TPID= HPID=
N=3
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper cbx_syncs
need_corebox
bpf_snapshot before

mono() { python3 -c 'import time; print("%.6f" % time.clock_gettime(time.CLOCK_MONOTONIC))'; }

# run HEADER|-j: the helper, the tool, the calls, stop the tool; the
# helper's account of its calls in $W/want, the clock around them in t0, t1
run() {
	helper_start "$W/helper" "$W/cbx_syncs" "$W/file" $N || { notok "helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	case $1 in
	-j) tool_start t "" "$T" -j ;;
	*) tool_start t "$1" "$T" ;;
	esac || { helper_stop; return 1; }
	t0=$(mono)
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 100 || notok "helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	t1=$(mono)
	sed -n '/^ready/d; /^done/d; p' "$W/helper" > "$W/want"
	sleep 0.3
	snoop_stop "$1 run"
}

# ---- 1: the calls --------------------------------------------------------------------
if run CALL; then
	if head -1 "$W/t.out" | grep -qx 'TIME(s)            COMM             CALL'; then ok "header as upstream libbpf-tools"
	else notok "header: '$(head -1 "$W/t.out")'"; fi
	awk '$2 == "cbx_syncs" { print $3 }' "$W/t.out" > "$W/got"
	if cmp -s "$W/got" "$W/want" && [ "$(wc -l < "$W/want")" = $((N + 5)) ]; then
		ok "the $((N + 5)) calls ($N sync, fsync, fdatasync, msync, sync_file_range, syncfs) in order"
	else notok "calls: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|')"; fi
	if awk -v a="$t0" -v b="$t1" '$2 == "cbx_syncs" { n++; if ($1 < a - 0.01 || $1 > b + 0.01 || $1 < last) bad = 1; last = $1 }
		END { exit bad || !n }' "$W/t.out"; then
		ok "TIME(s): monotonic seconds within the calls' window, not decreasing"
	else notok "TIME(s) outside [$t0, $t1]: $(grep cbx_syncs "$W/t.out" | head -3 | tr '\n' '|')"; fi
	if grep -q '^[0-9]*\.[0-9]\{9\} *cbx_syncs        sync            $' "$W/t.out"; then ok "row layout (CALL padded to 16, as upstream)"
	else notok "row layout: '$(grep cbx_syncs "$W/t.out" | head -1)'"; fi
fi

# ---- 2: JSON ---------------------------------------------------------------------------
if run -j && python3 - "$W/t.out" "$W/want" "$hpid" <<'PY'
import json, sys
rows = [r for r in (json.loads(l) for l in open(sys.argv[1])) if r["comm"] == "cbx_syncs"]
want = open(sys.argv[2]).read().split()
assert [r["call"] for r in rows] == want, rows
assert all(r["pid"] == int(sys.argv[3]) and r["tid"] == r["pid"] and r["ts_s"] > 0 for r in rows), rows
PY
then ok "-j: JSON lines parse; the same calls with pid, tid, ts_s"
else notok "-j: $(grep cbx_syncs "$W/t.out" | head -c 400)"; fi

snoop_left
[ "$fails" = 0 ]
