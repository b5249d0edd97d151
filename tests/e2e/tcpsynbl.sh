#!/bin/sh
# tcpsynbl end to end: in a network namespace this test makes, a listener
# with backlog 7 on 127.0.0.1 gets K=5 connections and one with backlog 12
# on ::1 gets 3, none accepted, so the handshakes found 0..K-1 and 0..2
# connections waiting: the tool must print "backlog_max = 7" with slots
# 0 -> 1: 2, 2 -> 3: 2, 4 -> 7: 1 and "backlog_max = 12" with 2, 1
# (libbpf-tools 0.26's banner and layout); -4 only the first, -6 only the
# second; "1 2" two reports and exit 0; JSON the same counts; SIGINT
# status 0; nothing stays loaded.  Needs root and ip (iproute2).
# Run from the repository root: sh tests/e2e/tcpsynbl.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcpsynbl.XXXXXX)
T=tcpsynbl
fails=0
TPID=
NS=cbxs$$
PORT=$((20000 + $$ % 20000))
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v ip >/dev/null 2>&1 || { echo "not ok - $T: no ip command (make deps)"; exit 1; }
build_helper bpf_count
need_corebox
ip netns add "$NS" && ip -n "$NS" link set lo up || { echo "not ok - $T: cannot make the namespace"; exit 1; }

cat > "$W/fill.py" <<'PY'
import socket, sys
port = int(sys.argv[1])
keep = []
for fam, addr, backlog, k in ((socket.AF_INET, "127.0.0.1", 7, 5), (socket.AF_INET6, "::1", 12, 3)):
    s = socket.socket(fam)
    s.bind((addr, port)); s.listen(backlog)
    keep.append(s)
    for _ in range(k):
        keep.append(socket.create_connection((addr, port), timeout=10))
print("done")
PY
fill() { ip netns exec "$NS" python3 "$W/fill.py" $PORT > "$W/fill" 2>&1 && grep -q done "$W/fill" || notok "fill: $(cat "$W/fill")"; }

# run LABEL BANNER ARGS...: the tool, the connections, SIGINT; $W/LABEL.out
run() {
	label=$1 banner=$2
	shift 2
	tool_start "$label" "$banner" tcpsynbl "$@" || return 1
	fill
	sleep 0.3
	snoop_stop "$label"
}
# hist FILE MAX: the non-zero slots of that histogram as "low-high:count ..."
hist() {
	awk -v m="backlog_max = $2" '$0 == m { f = 1; next } /^backlog_max/ { f = 0 }
		f && $2 == "->" && $5 > 0 { printf "%s-%s:%s ", $1, $3, $5 }' "$1"
}
WANT7="0-1:2 2-3:2 4-7:1 " WANT12="0-1:2 2-3:1 "

if run all '^Tracing'; then
	out=$W/all.out
	if [ "$(head -1 "$out")" = "Tracing SYN backlog size. Ctrl-C to end." ] && [ -z "$(sed -n 2p "$out")" ] &&
		grep -qx '     backlog             : count    distribution' "$out"; then
		ok "banner and histogram header as libbpf-tools 0.26"
	else notok "layout: $(head -4 "$out" | tr '\n' '|')"; fi
	if [ "$(hist "$out" 7)" = "$WANT7" ] && [ "$(hist "$out" 12)" = "$WANT12" ]; then
		ok "backlog_max = 7: 5 handshakes at backlog 0..4; backlog_max = 12: 3 at 0..2"
	else notok "histograms: 7: '$(hist "$out" 7)' 12: '$(hist "$out" 12)'"; fi
fi
if run v4 '^Tracing' -4; then
	if [ "$(hist "$W/v4.out" 7)" = "$WANT7" ] && [ -z "$(hist "$W/v4.out" 12)" ]; then ok "-4: the IPv4 listener only"
	else notok "-4: $(tr '\n' '|' < "$W/v4.out")"; fi
fi
if run v6 '^Tracing' -6; then
	if [ -z "$(hist "$W/v6.out" 7)" ] && [ "$(hist "$W/v6.out" 12)" = "$WANT12" ]; then ok "-6: the IPv6 listener only"
	else notok "-6: $(tr '\n' '|' < "$W/v6.out")"; fi
fi

"$CB" tcpsynbl -T 1 2 > "$W/iv.out" 2> "$W/iv.err" &
ipid=$!
if wait_pid $ipid 60 && wait $ipid; then
	if [ "$(grep -Ec '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$' "$W/iv.out")" = 2 ]; then ok "-T 1 2: two time-stamped reports, exit 0"
	else notok "-T 1 2: $(tr '\n' '|' < "$W/iv.out")"; fi
else notok "1 2: did not end with status 0 in 6 s: $(cat "$W/iv.err")"; kill -KILL $ipid 2>/dev/null; fi

if run j '' -j && python3 - "$W/j.out" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
h = {x["backlog_max"]: [b["count"] for b in x["buckets"] if b["count"]] for d in docs for x in d.get("backlog", [])}
assert h.get("7") == [2, 2, 1] and h.get("12") == [2, 1], h
PY
then ok "-j: the same histograms, labelled backlog_max"
else notok "-j: $(head -c 400 "$W/j.out")"; fi

snoop_left
[ "$fails" = 0 ]
