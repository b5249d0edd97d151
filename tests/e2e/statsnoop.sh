#!/bin/sh
# statsnoop end to end: a helper stats a file the test created N times,
# lstats a path that does not exist (ENOENT), then fstatat, statx and
# statfs on the file (each through syscall(2)); with -p HELPER exactly
# those calls must be shown, in order, with RET/ERR/PATH as the helper saw
# them (libbpf-tools' header and columns); -x keeps the failure alone; -t
# starts at 0 and grows; JSON lines parse and carry the same calls with
# the syscall's name; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/statsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-statsnoop.XXXXXX)
T=statsnoop
fails=0
TPID= HPID=
N=4
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper stats
need_corebox
bpf_snapshot before
echo data > "$W/file"

# run LABEL HEADER|-j ARGS...: the helper, the tool on it (-p), the calls,
# stop the tool; the helper's own account of its calls in $W/want
run() {
	label=$1 how=$2
	shift 2
	helper_start "$W/helper" "$W/stats" "$W" $N || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	case $how in
	-j) tool_start t "" "$T" -j -p "$hpid" "$@" ;;
	*) tool_start t "$how" "$T" -p "$hpid" "$@" ;;
	esac || { helper_stop; return 1; }
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 50 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	sed -n '/^ready/d; /^done/d; p' "$W/helper" > "$W/want"
	sleep 0.3
	snoop_stop "$label"
}

# ---- 1: the calls --------------------------------------------------------------------
if run "plain run" PATH; then
	if head -1 "$W/t.out" | grep -qx 'PID     COMM                 RET  ERR  PATH'; then ok "header as libbpf-tools"
	else notok "header: '$(head -1 "$W/t.out")'"; fi
	awk -v p="$hpid" '$1 == p && $2 == "stats" { print $3, $4, $5 }' "$W/t.out" > "$W/got"
	nall=$(awk -v p="$hpid" '$1 == p' "$W/t.out" | wc -l)
	if cmp -s "$W/got" "$W/want" && [ "$nall" = "$(wc -l < "$W/want")" ] && [ "$(wc -l < "$W/want")" -ge $((N + 4)) ]; then
		ok "the $(wc -l < "$W/want") calls ($N stats, the ENOENT, fstatat, statx, statfs) in order, RET/ERR/PATH as made"
	else notok "calls: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|') ($nall rows)"; fi
	if awk -v p="$hpid" '$1 == p' "$W/t.out" | head -1 | grep -Eq "^$hpid +stats {15}"; then ok "COMM 20 wide"
	else notok "row layout: $(awk -v p="$hpid" '$1 == p' "$W/t.out" | head -1)"; fi
fi

# ---- 2: -x -----------------------------------------------------------------------------
if run "-x run" PATH -x; then
	got=$(awk -v p="$hpid" '$1 == p { print $3, $4, $5 }' "$W/t.out")
	if [ "$got" = "-1 2 $W/missing" ]; then ok "-x: the failed lstat alone"
	else notok "-x: '$got'"; fi
fi

# ---- 3: -t: seconds from the first event --------------------------------------------
if run "-t run" 'TIME(s)' -t; then
	rows=$(awk -v p="$hpid" '$2 == p' "$W/t.out")
	if head -1 "$W/t.out" | grep -q '^TIME(s)        PID' && [ -n "$rows" ] &&
		echo "$rows" | head -1 | grep -q '^0\.000000000 ' &&
		! echo "$rows" | grep -Evq '^[0-9]+\.[0-9]{9} ' &&
		echo "$rows" | awk '$1 < last { bad = 1 } { last = $1 } END { exit bad }'; then
		ok "-t: TIME(s) from 0.000000000, 9 decimals, not decreasing"
	else notok "-t: $(head -3 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 4: JSON ---------------------------------------------------------------------------
if run "-j run" -j && python3 - "$W/t.out" "$W/want" "$hpid" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r["pid"] == int(sys.argv[3])]
want = [l.split(" ", 2) for l in open(sys.argv[2]).read().splitlines()]
got = [[str(r["ret"]), str(r["err"]), r["path"]] for r in rows]
assert got == want, (got, want)
assert all(r["comm"] == "stats" and r["syscall"] for r in rows), rows
assert [r["errno"] for r in rows if r["err"]] == ["ENOENT"], rows
assert {"statx", "statfs", "newfstatat"} <= {r["syscall"] for r in rows}, rows
PY
then ok "-j: JSON lines parse; the same calls with ret, err, errno, path, syscall"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

snoop_left
[ "$fails" = 0 ]
