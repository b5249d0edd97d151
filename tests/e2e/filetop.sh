#!/bin/sh
# filetop end to end: a helper makes NW write()s and NR pread64()s of 100
# bytes on one file; filetop -p (the helper) over one long interval ended
# by SIGINT must show that file on the helper's thread with exactly NW
# writes, NR reads and their bytes (R_Kb/W_Kb in KiB, exact bytes in
# JSON), in libbpf-tools' layout (clear unless -C, loadavg line, header,
# rows, empty line); -r limits the rows; -j gives a document per
# interval; SIGINT exits 0 and nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/filetop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-filetop.XXXXXX)
T=filetop
fails=0
TPID= HPID=
NW=3000 NR=2000
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

# run LABEL ARGS...: helper ready, the tool (-p helper, interval 60), the work, SIGINT
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" $NW $NR 0 0 0 0 || { notok "helper not ready"; return 1; }
	hpid=$HPID
	tool_start "$label" "" filetop -p "$hpid" "$@" 60 || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

if run text -C; then
	o=$W/text.out
	if head -1 "$o" | grep -q '^[0-2][0-9]:[0-5][0-9]:[0-5][0-9] loadavg: [0-9.]* [0-9.]* [0-9.]* [0-9]*/[0-9]* [0-9]*$' &&
		[ "$(sed -n 2p "$o")" = "" ] &&
		[ "$(sed -n 3p "$o")" = "TID     COMM             READS  WRITES R_Kb    W_Kb    T FILE" ] &&
		[ "$(tail -1 "$o")" = "" ]; then
		ok "-C: loadavg line, header and trailing empty line as libbpf-tools, no clear"
	else notok "layout: $(head -4 "$o" | tr '\n' '|')"; fi
	row=$(grep ' cbx_vfs_data$' "$o")
	exp=$(printf '%-7d %-16s %-6d %-6d %-7d %-7d R cbx_vfs_data' "$hpid" cbx_vfsops $NR $NW $((NR * 100 / 1024)) $((NW * 100 / 1024)))
	if [ "$row" = "$exp" ]; then ok "the helper's file: exactly $NR reads, $NW writes and their KiB"
	else notok "row '$row', want '$exp'"; fi
fi

if run clear -r 1 -s wbytes; then
	if head -c 7 "$W/clear.out" | od -c | grep -q '033   \[   H 033   \[   2   J'; then ok "without -C: the screen is cleared first"
	else notok "no clear sequence: $(head -c 20 "$W/clear.out" | od -c | head -2)"; fi
	if [ "$(grep -c ' R ' "$W/clear.out")" = 1 ] && grep -q ' cbx_vfs_data$' "$W/clear.out"; then
		ok "-r 1 -s wbytes: one row, the most written file"
	else notok "-r 1: $(tr '\n' '|' < "$W/clear.out")"; fi
fi

if run json -j && python3 - "$W/json.out" "$hpid" $NR $NW <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
pid, nr, nw = map(int, sys.argv[2:5])
rows = [r for d in docs for r in d["rows"] if r["file"] == "cbx_vfs_data"]
assert docs and len(rows) == 1, docs
r = rows[0]
assert (r["tid"], r["pid"], r["comm"], r["type"]) == (pid, pid, "cbx_vfsops", "R"), r
assert (r["reads"], r["writes"], r["read_bytes"], r["write_bytes"]) == (nr, nw, nr * 100, nw * 100), r
PY
then ok "-j: a document with the file's exact counts and bytes"
else notok "-j: $(head -c 400 "$W/json.out")"; fi

usage_exit2 "bad sort" filetop -s nope
usage_exit2 "bad rows" filetop -r 0
snoop_left
[ "$fails" = 0 ]
