#!/bin/sh
# vfsstat end to end: a helper makes NW writes, NR preads, NF fsyncs,
# 1+NO opens and NC mknods of regular files (plus NC creating opens) while
# vfsstat counts; the counts of the tool's JSON reports, added up, must be
# at least the helper's (the counts are system wide: other processes only
# add); the text layout is libbpf-tools' (header, "HH:MM:SS:" rows of five
# right-aligned rates); --prom writes the same counters; SIGINT exits 0
# and nothing stays loaded.  Run as root from the repository root.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-vfsstat.XXXXXX)
T=vfsstat
fails=0
TPID= HPID=
NW=3000 NR=2000 NF=20 NO=500 NC=40
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

# run LABEL ARGS...: the tool, then the helper's work, then SIGINT
run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" $NW $NR $NF $NO $NC 0 || { notok "helper not ready"; return 1; }
	tool_start "$label" "" vfsstat "$@" || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 200 || notok "helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 1.2 # the last interval ends
	snoop_stop "$label"
}

# ---- 1: text layout --------------------------------------------------------------------
if run text 1; then
	if head -1 "$W/text.out" | grep -qx 'TIME         READ/s  WRITE/s  FSYNC/s   OPEN/s CREATE/s'; then
		ok "header as libbpf-tools"
	else notok "header: '$(head -1 "$W/text.out")'"; fi
	if [ "$(wc -l < "$W/text.out")" -ge 2 ] &&
		sed 1d "$W/text.out" | grep -vq '^[0-2][0-9]:[0-5][0-9]:[0-5][0-9]: \( [ 0-9]\{7\}[0-9]\)\{5\}$'; then
		notok "row layout: $(sed 1d "$W/text.out" | head -2 | tr '\n' '|')"
	elif [ "$(wc -l < "$W/text.out")" -ge 2 ]; then ok "rows: HH:MM:SS: and five 8-wide rates"
	else notok "no rows"; fi
	if awk 'NR > 1 { r += $2; w += $3; f += $4; o += $5; c += $6 }
		END { exit !(r >= '$NR' && w >= '$NW' && f >= '$NF' && o >= '$((NO + 1))' && c >= '$NC') }' "$W/text.out"; then
		ok "text rates (1 s intervals) add up to at least the helper's calls"
	else notok "text counts short of $NR/$NW/$NF/$((NO + 1))/$NC: $(tr '\n' '|' < "$W/text.out")"; fi
fi

# ---- 2: JSON and Prometheus ----------------------------------------------------------
if run json -j --prom "$W/vfs.prom" 1 && python3 - "$W/json.out" "$W/vfs.prom" $NR $NW $NF $((NO + 1)) $NC <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
want = dict(zip(["read", "write", "fsync", "open", "create"], map(int, sys.argv[3:8])))
got = {k: sum(d[k] for d in docs) for k in want}
assert docs and all("time" in d for d in docs), docs
assert all(got[k] >= want[k] for k in want), (got, want)
prom = {l.split()[0]: float(l.split()[1]) for l in open(sys.argv[2]) if l[0] != "#"}
for k in want:
    assert prom["corebox_vfsstat_%s_total" % k] >= want[k], (k, prom)
PY
then ok "-j: one document per interval; counts and --prom counters at least the helper's"
else notok "-j/--prom: $(head -c 300 "$W/json.out") $(head -c 300 "$W/vfs.prom" 2>/dev/null)"; fi

usage_exit2 "bad interval" vfsstat 0
usage_exit2 "bad count" vfsstat 1 x
snoop_left
[ "$fails" = 0 ]
