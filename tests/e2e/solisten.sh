#!/bin/sh
# solisten end to end: a helper listens on N TCP sockets bound to
# 127.0.0.1 (backlog 1..N), one on ::1, one unbound (port 0 shown, as
# libbpf-tools), and tries listen() on a UDP socket (fails; not shown: it
# is not inet_listen); with -p HELPER exactly the TCP listens must be
# shown, in order, with RET/BACKLOG/PROTO/PORT/ADDR as the helper saw them
# (libbpf-tools 0.26's header and widths); -t adds HH:MM:SS; JSON lines
# parse and carry the same listens; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/solisten.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-solisten.XXXXXX)
T=solisten
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
build_helper listens
need_corebox

# run LABEL BANNER ARGS...: the helper, the tool on it (-p; BANNER empty
# for -j), the listens, stop the tool; the tool's output in $W/LABEL.out,
# the helper's own account of its listens in $W/want
run() {
	label=$1 banner=$2
	shift 2
	helper_start "$W/helper" "$W/listens" $N || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	tool_start "$label" "$banner" solisten -p "$hpid" "$@" || { helper_stop; return 1; }
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 50 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	sed -n '/^ready/d; /^done/d; p' "$W/helper" > "$W/want"
	sleep 0.3
	snoop_stop "$label"
}

# ---- 1: the listens ------------------------------------------------------------------
if run plain '^PID'; then
	out=$W/plain.out
	if head -1 "$out" | grep -qx 'PID     COMM             RET BACKLOG PROTO PORT  ADDR                            '; then
		ok "header as libbpf-tools 0.26"
	else notok "header: '$(head -1 "$out")'"; fi
	awk -v p="$hpid" '$1 == p && $2 == "listens" { print $3, $4, $5, $6, $7 }' "$out" > "$W/got"
	nall=$(awk -v p="$hpid" '$1 == p' "$out" | wc -l)
	if cmp -s "$W/got" "$W/want" && [ "$nall" = "$(wc -l < "$W/want")" ] && [ "$(wc -l < "$W/want")" -ge $((N + 1)) ]; then
		ok "the $(wc -l < "$W/want") TCP listens in order, RET/BACKLOG/PROTO/PORT/ADDR as made, no UDP row"
	else notok "listens: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|') ($nall rows)"; fi
	row=$(awk -v p="$hpid" '$1 == p' "$out" | head -1)
	port=$(head -1 "$W/want" | cut -d' ' -f4)
	if printf '%s\n' "$row" | grep -Eq "^$hpid +listens {10}0   1       TCPv4 $port +127\.0\.0\.1 {23}\$"; then
		ok "row layout: libbpf-tools' widths (COMM 16, ADDR padded to 32)"
	else notok "row layout: '$row'"; fi
fi

# ---- 2: -t: the wall clock -------------------------------------------------------------
if run t '^TIME' -t; then
	rows=$(awk -v p="$hpid" '$2 == p' "$W/t.out")
	if head -1 "$W/t.out" | grep -q '^TIME(s)  PID     COMM' && [ "$(echo "$rows" | wc -l)" = "$(wc -l < "$W/want")" ] &&
		! echo "$rows" | grep -Evq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] '; then
		ok "-t: TIME(s) as HH:MM:SS on each of the $(wc -l < "$W/want") rows"
	else notok "-t: $(head -3 "$W/t.out" | tr '\n' '|')"; fi
fi

# ---- 3: JSON ---------------------------------------------------------------------------
if run j '' -j && python3 - "$W/j.out" "$W/want" "$hpid" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r["pid"] == int(sys.argv[3])]
want = [l.split(" ") for l in open(sys.argv[2]).read().splitlines()]
got = [[str(r["ret"]), str(r["backlog"]), r["proto"], str(r["port"]), r["addr"]] for r in rows]
assert got == want, (got, want)
assert all(r["comm"] == "listens" for r in rows), rows
PY
then ok "-j: JSON lines parse; the same listens with ret, backlog, proto, port, addr"
else notok "-j: $(head -c 400 "$W/j.out")"; fi

snoop_left
[ "$fails" = 0 ]
