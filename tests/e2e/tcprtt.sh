#!/bin/sh
# tcprtt end to end: a client in one network namespace makes N
# request/reply exchanges with a server in another (a veth pair this test
# makes, so the port and addresses are ours alone); the tool runs in the
# root namespace and must count, for -P PORT (the client's socket), at
# least N smoothed-RTT samples (one per reply it received) with every
# sample under 1 msec with -m (a veth round trip), and none for a port or
# address nobody used; -b / -B key the histogram by the client's and
# server's address, -e prints an [AVG] inside the histogram's range; the
# header lines and banner are libbpf-tools 0.26's; -i/-d report and end;
# JSON carries the same count; SIGINT status 0; nothing stays loaded.
# Needs root and ip (iproute2).  Run from the repository root: sh tests/e2e/tcprtt.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcprtt.XXXXXX)
T=tcprtt
fails=0
TPID=
ME=$$
NSA=cbxrA$ME NSB=cbxrB$ME VA=cbxra$ME VB=cbxrb$ME
NET=10.$((200 + ME % 50)).$((ME / 50 % 250)).
A=${NET}1 B=${NET}2
PORT=$((20000 + ME % 20000))
N=30
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v ip >/dev/null 2>&1 || { echo "not ok - $T: no ip command (apt-get install iproute2; make deps)"; exit 1; }
build_helper bpf_count
need_corebox

if ! { ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add "$VA" type veth peer name "$VB" &&
	ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
	ip -n "$NSA" addr add "$A/24" dev "$VA" && ip -n "$NSB" addr add "$B/24" dev "$VB" &&
	ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up; } 2> "$W/ip.err"; then
	echo "not ok - $T: cannot set up the network namespaces: $(head -c 300 "$W/ip.err")"
	exit 1
fi

# exchange: N request/reply round trips from A to B:PORT, one connection
cat > "$W/echo.py" <<'PY'
import socket, sys
role, addr, port, n = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if role == "server":
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((addr, port)); s.listen(1); s.settimeout(20)
    print("ready", flush=True)
    c, _ = s.accept(); c.settimeout(20)
    for _ in range(n):
        c.sendall(c.recv(16))
    c.recv(16)
else:
    c = socket.create_connection((addr, port), timeout=20)
    c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    for i in range(n):
        c.sendall(b"ping%02d" % i)
        assert c.recv(16) == b"ping%02d" % i
    print("done", flush=True)
PY
exchange() {
	ip netns exec "$NSB" python3 "$W/echo.py" server "$B" $PORT $N > "$W/server" 2>&1 &
	spid=$!
	wait_for "$W/server" '^ready' 50 || { notok "server not ready: $(cat "$W/server")"; return 1; }
	ip netns exec "$NSA" python3 "$W/echo.py" client "$B" $PORT $N > "$W/client" 2>&1
	wait "$spid"
	grep -q '^done' "$W/client" || { notok "client failed: $(cat "$W/client")"; return 1; }
}

# run LABEL BANNER ARGS...: the tool, the exchange, SIGINT; output in $W/LABEL.out
run() {
	label=$1 banner=$2
	shift 2
	tool_start "$label" "$banner" tcprtt "$@" || return 1
	exchange
	sleep 0.3
	snoop_stop "$label"
}

# counts FILE: the histogram's counts summed (the "N -> M : count" lines)
counts() { awk '$2 == "->" && $4 == ":" { n += $5 } END { print n + 0 }' "$1"; }

# ---- 1: the client's socket, -P PORT ---------------------------------------------------
if run rport '^Tracing' -P $PORT; then
	out=$W/rport.out
	c=$(counts "$out")
	if [ "$(head -1 "$out")" = "Tracing TCP RTT... Hit Ctrl-C to end." ] &&
		[ "$(sed -n 3p "$out")" = "All Addresses = ****** " ] &&
		sed -n 4p "$out" | grep -qx '     usecs               : count    distribution'; then
		ok "banner, 'All Addresses = ****** ' and the histogram header as libbpf-tools 0.26"
	else notok "layout: $(head -5 "$out" | tr '\n' '|')"; fi
	if [ "$c" -ge $N ] && [ "$c" -le $((N * 3)) ]; then ok "-P $PORT: $c RTT samples for the client's $N replies"
	else notok "-P $PORT: $c samples for $N replies: $(tr '\n' '|' < "$out")"; fi
fi

# ---- 2: -m, -b: milliseconds, keyed by the local address --------------------------------
if run mb '^Tracing' -m -b -P $PORT; then
	out=$W/mb.out
	if [ "$(grep -c 'Address' "$out")" = 1 ] && grep -qx "Local Address = $A " "$out" &&
		grep -q '^     msecs ' "$out" &&
		[ "$(awk '$1 == 0 && $2 == "->" && $3 == 1 { print $5 }' "$out")" = "$(counts "$out")" ] &&
		[ "$(counts "$out")" -ge $N ]; then
		ok "-m -b: one histogram 'Local Address = $A', all $(counts "$out") samples in 0 -> 1 msecs"
	else notok "-m -b: $(tr '\n' '|' < "$out")"; fi
fi

# ---- 3: -B, -e: by the remote address, the average -------------------------------------
if run be '^Tracing' -B -e -p $PORT; then
	out=$W/be.out
	line=$(grep 'Address' "$out")
	avg=$(echo "$line" | sed -n 's/.*\[AVG \([0-9]*\)\]$/\1/p')
	lo=$(awk '$2 == "->" && $5 > 0 { print $1; exit }' "$out")
	hi=$(awk '$2 == "->" && $5 > 0 { h = $3 } END { print h }' "$out")
	if [ "$(grep -c 'Address' "$out")" = 1 ] && [ "${line%%\[*}" = "Remote Address = $A " ] &&
		[ -n "$avg" ] && [ "$avg" -ge "$lo" ] && [ "$avg" -le "$hi" ] && [ "$(counts "$out")" -ge $N ]; then
		ok "-p $PORT -B -e: the server's socket, '$line' within $lo..$hi usecs"
	else notok "-B -e: $(tr '\n' '|' < "$out")"; fi
fi

# ---- 4: filters that match nothing of ours: another port, another address ----------------
if run none '^Tracing' -P $((PORT + 1)) -a "$B"; then
	if ! grep -q 'Address' "$W/none.out"; then ok "-P $((PORT + 1)) -a $B: no histogram"
	else notok "filters: $(tr '\n' '|' < "$W/none.out")"; fi
fi
if run addr '^Tracing' -a "$A" -A "$B" -P $PORT; then
	if [ "$(counts "$W/addr.out")" -ge $N ]; then ok "-a $A -A $B: the client's samples"
	else notok "-a -A: $(tr '\n' '|' < "$W/addr.out")"; fi
fi
if "$CB" tcprtt -a 10.0.0.1 -A ::1 > "$W/mix.out" 2>&1; then notok "-a IPv4 -A IPv6 accepted"
elif grep -q 'not permitted to filter by both IPv4 and IPv6' "$W/mix.out"; then ok "-a IPv4 -A IPv6 refused as libbpf-tools"
else notok "-a IPv4 -A IPv6: $(cat "$W/mix.out")"; fi

# ---- 5: -i/-d: reports and the end ---------------------------------------------------------
"$CB" tcprtt -i 1 -d 2 -T -P $PORT > "$W/id.out" 2> "$W/id.err" &
ipid=$!
if wait_pid $ipid 60 && wait $ipid; then
	if [ "$(head -1 "$W/id.out")" = "Tracing TCP RTT for 2 secs." ] &&
		[ "$(grep -Ec '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$' "$W/id.out")" = 2 ]; then
		ok "-i 1 -d 2 -T: banner, two time-stamped reports, exit 0"
	else notok "-i -d: $(tr '\n' '|' < "$W/id.out")"; fi
else notok "-i 1 -d 2: did not end with status 0 in 6 s: $(cat "$W/id.err")"; kill -KILL $ipid 2>/dev/null; fi

# ---- 6: JSON ---------------------------------------------------------------------------------
if run j '' -j -b -P $PORT && python3 - "$W/j.out" "$A" $N <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
h = [x for d in docs for x in d.get("rtt", [])]
assert len(h) == 1 and h[0]["laddr"] == sys.argv[2] and h[0]["unit"] == "usecs", h
assert sum(b["count"] for b in h[0]["buckets"]) >= int(sys.argv[3]), h
PY
then ok "-j: one rtt histogram labelled laddr=$A with the samples"
else notok "-j: $(head -c 400 "$W/j.out")"; fi

snoop_left
[ "$fails" = 0 ]
