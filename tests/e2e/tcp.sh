#!/bin/sh
# The TCP tools end to end (tcplife, tcpconnect, tcpconnlat, tcpstates,
# tcpretrans) on connections between two network namespaces this test
# makes (a veth pair; the addresses exist only inside them), so nothing
# else on the machine can be mistaken for them.  A helper (tcp_pair)
# serves and makes K connections that send known byte counts and prints
# each client's local port and the kernel's retransmit count for it
# (TCP_INFO tcpi_total_retrans); the tools run at the same time, in the
# root namespace, and must show exactly those connections: ports, PIDs,
# bytes, the state sequence, the connect latency lines, and -- with a
# packet-loss rule in the server's namespace (nftables numgen, else an
# iptables statistic match, else tc netem: whichever this host has) --
# retransmits equal to the kernel's count, per event and per flow (-c).
# JSON and Prometheus output are checked too; SIGINT status 0; nothing left.
# Needs root, ip (iproute2); nft or iptables or tc for the loss part.
# Run from the repository root: sh tests/e2e/tcp.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcp.XXXXXX)
T=tcp
fails=0
TPID=
ME=$$
NSA=cbxA$ME NSB=cbxB$ME VA=cbxa$ME VB=cbxb$ME
NET=10.$((200 + ME % 50)).$((ME / 50 % 250)).
A=${NET}1 B=${NET}2
A6=fd00:cb0e:$(printf %x $((ME % 65536)))::1 B6=fd00:cb0e:$(printf %x $((ME % 65536)))::2
PORT=$((20000 + ME % 20000))
K=3 BYTES=100000 REPLY=3000
PIDS=
. tests/e2e/lib.sh

cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
	ip netns del "$NSA" 2>/dev/null
	ip netns del "$NSB" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

command -v ip >/dev/null 2>&1 || { echo "not ok - tcp: no ip command (apt-get install iproute2; make deps)"; exit 1; }
build_helper bpf_count
build_helper tcp_pair
need_corebox
bpf_snapshot before

# ---- the two namespaces ---------------------------------------------------------
if ! { ip netns add "$NSA" && ip netns add "$NSB" &&
	ip link add "$VA" type veth peer name "$VB" &&
	ip link set "$VA" netns "$NSA" && ip link set "$VB" netns "$NSB" &&
	ip -n "$NSA" addr add "$A/24" dev "$VA" && ip -n "$NSB" addr add "$B/24" dev "$VB" &&
	ip -n "$NSA" -6 addr add "$A6/64" dev "$VA" nodad && ip -n "$NSB" -6 addr add "$B6/64" dev "$VB" nodad &&
	ip -n "$NSA" link set "$VA" up && ip -n "$NSB" link set "$VB" up &&
	ip -n "$NSA" link set lo up && ip -n "$NSB" link set lo up; } 2> "$W/ip.err"; then
	echo "not ok - tcp: cannot set up the network namespaces: $(head -c 300 "$W/ip.err")"
	exit 1
fi
ok "namespaces $NSA ($A, $A6) and $NSB ($B, $B6) joined by a veth pair"

# tool NAME OUT ARGS...: start corebox NAME in the background; ready when
# the process holds BPF links of its own (JSON prints no header); its pid
# is added to PIDS and its BPF ids to $W/ours
tool() {
	name=$1 out=$2
	shift 2
	: > "$out"
	"$CB" "$name" "$@" > "$out" 2> "$out.err" &
	p=$!
	PIDS="$PIDS $p"
	i=0
	while [ $i -lt 150 ] && ! grep -qs '^link_id:' /proc/"$p"/fdinfo/*; do
		kill -0 "$p" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	if ! grep -qs '^link_id:' /proc/"$p"/fdinfo/*; then
		echo "not ok - $name: did not start: $(head -c 300 "$out.err")"
		fails=$((fails + 1))
		return 1
	fi
	sleep 0.1 # all of its links
	for f in /proc/"$p"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*/prog /p; s/^link_id:[[:space:]]*/link /p' "$f" 2>/dev/null
	done | sort -u >> "$W/ours"
	return 0
}
# stop_all: SIGINT every tool, expect status 0 within 2 s each
stop_all() {
	for p in $PIDS; do kill -INT "$p" 2>/dev/null; done
	for p in $PIDS; do
		if wait_exit "$p" 20; then
			wait "$p"; rc=$?
			[ $rc = 0 ] || { echo "not ok - tcp: a tool (pid $p) exited with status $rc after SIGINT"; fails=$((fails + 1)); }
		else
			echo "not ok - tcp: a tool (pid $p) still running 2 s after SIGINT"; fails=$((fails + 1))
			kill -KILL "$p"; wait "$p" 2>/dev/null
		fi
	done
	PIDS=
}

# connections K [GAP_MS] [ADDR]: the server in B, K clients in A, one after
# the other; $W/clients gets "PID lport=L sent=S received=R retrans=T"
connections() {
	: > "$W/server"
	ip netns exec "$NSB" "$W/tcp_pair" server "${3:-$B}" $PORT "$1" $REPLY > "$W/server" 2>&1 &
	sp=$!
	wait_for "$W/server" ready 50 || { echo "not ok - tcp: server did not start"; fails=$((fails + 1)); return 1; }
	: > "$W/clients"
	i=0
	while [ $i -lt "$1" ]; do
		ip netns exec "$NSA" "$W/tcp_pair" client "${3:-$B}" $PORT $BYTES ${2:-0} > "$W/c.out" 2>&1 &
		cp=$!
		wait "$cp"
		echo "$cp $(cat "$W/c.out")" >> "$W/clients"
		i=$((i + 1))
	done
	wait "$sp"
	sleep 0.5 # the last FIN/ACKs and state changes
}

kb() { awk -v b="$1" 'BEGIN { printf "%.2f", b / 1024 }'; }

# ---- 1: tcplife, tcpconnect, tcpconnlat, tcpstates on K connections ------------------------
tool tcplife "$W/life" -D $PORT
tool tcplife "$W/life4" -4 -L $PORT
tool tcpconnect "$W/conn" -s -P $PORT
tool tcpconnect "$W/connc" -c -P $PORT --prom "$W/conn.prom"
tool tcpconnlat "$W/lat" -L
tool tcpstates "$W/states" -L $PORT
tool tcpstates "$W/statesD" -D $PORT
tool tcplife "$W/lifej" -j
tool tcpconnect "$W/connj" -j -P $PORT
tool tcpconnlat "$W/latj" -j
tool tcpstates "$W/statesj" -j -D $PORT
connections $K
stop_all
[ "$(wc -l < "$W/clients")" = $K ] || notok "only $(wc -l < "$W/clients") of $K clients ran: $(cat "$W/clients" "$W/server" | head -c 300)"

T=tcplife
n=0
while read -r cpid rest; do
	lport=$(echo "$rest" | sed 's/.*lport=\([0-9]*\).*/\1/')
	# PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS
	line=$(awk -v p="$lport" '$4 == p' "$W/life")
	set -- $line
	if [ "$1" = "$cpid" ] && [ "$2" = tcp_pair ] && [ "$3" = "$A" ] && [ "$5" = "$B" ] && [ "$6" = $PORT ] &&
		[ "$7" = "$(kb $BYTES)" ] && [ "$8" = "$(kb $REPLY)" ]; then
		n=$((n + 1))
	else
		notok "client pid $cpid lport $lport: '$line' (want PID $cpid tcp_pair $A $lport $B $PORT $(kb $BYTES) $(kb $REPLY))"
	fi
done < "$W/clients"
[ $n = $K ] && ok "-D $PORT: the $K client sessions with PID, ports, TX_KB $(kb $BYTES), RX_KB $(kb $REPLY)"
if [ "$(tail -n +2 "$W/life" | wc -l)" = $K ]; then ok "-D $PORT: nothing else (the server sides have local port $PORT)"
else notok "-D: $(tail -n +2 "$W/life" | wc -l) sessions, want $K"; fi
srv=$(awk -v p=$PORT -v b="$B" '$3 == b && $4 == p' "$W/life4" | awk -v t="$(kb $REPLY)" -v r="$(kb $BYTES)" '$7 == t && $8 == r' | wc -l)
if [ "$srv" = $K ] && [ "$(tail -n +2 "$W/life4" | wc -l)" = $K ]; then ok "-4 -L $PORT: the $K server sides (TX $(kb $REPLY), RX $(kb $BYTES))"
else notok "-4 -L: $srv server sessions of $(tail -n +2 "$W/life4" | wc -l), want $K: $(head -3 "$W/life4" | tr '\n' '|')"; fi
if python3 - "$W/lifej" "$W/clients" $BYTES $REPLY <<'PY'
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
by = {r["lport"]: r for r in rows}
for line in open(sys.argv[2]):
    pid, rest = line.split(" ", 1)
    lport = int(re.search(r"lport=(\d+)", rest).group(1))
    r = by[lport]
    assert r["pid"] == int(pid) and r["ip"] == 4, r
    # bytes_acked/bytes_received count the SYN and FIN sequence numbers too
    assert int(sys.argv[3]) <= r["tx_bytes"] <= int(sys.argv[3]) + 2, r
    assert int(sys.argv[4]) <= r["rx_bytes"] <= int(sys.argv[4]) + 2, r
PY
then ok "-j: JSON lines; exact byte counts (tx_bytes/rx_bytes, within the SYN and FIN)"; else notok "-j: $(head -c 300 "$W/lifej")"; fi

T=tcpconnect
n=0
while read -r cpid rest; do
	lport=$(echo "$rest" | sed 's/.*lport=\([0-9]*\).*/\1/')
	# PID COMM IP SADDR DADDR SPORT DPORT
	if awk -v p="$cpid" -v a="$A" -v b="$B" -v l="$lport" -v d=$PORT \
		'$1 == p && $2 == "tcp_pair" && $3 == 4 && $4 == a && $5 == b && $6 == l && $7 == d' "$W/conn" | grep -q .; then
		n=$((n + 1))
	else
		notok "connect of pid $cpid (sport $lport) missing: $(head -4 "$W/conn" | tr '\n' '|')"
	fi
done < "$W/clients"
if [ $n = $K ] && [ "$(tail -n +2 "$W/conn" | wc -l)" = $K ]; then ok "-s -P $PORT: exactly the $K connects with PID, addresses, SPORT and DPORT"
else notok "-s -P: $n of $K, $(tail -n +2 "$W/conn" | wc -l) lines"; fi
if [ "$(head -1 "$W/conn")" = 'PID    COMM         IP SADDR            DADDR            SPORT DPORT' ]; then ok "header (libbpf-tools 0.26: COMM 12 wide)"; else notok "header: '$(head -1 "$W/conn")'"; fi
if awk -v a="$A" -v b="$B" -v d=$PORT -v k=$K '$1 == a && $2 == b && $3 == d && $4 == k' "$W/connc" | grep -q . &&
	grep -q "^corebox_tcpconnect_connects_total{laddr=\"$A\",raddr=\"$B\",rport=\"$PORT\"} $K\$" "$W/conn.prom"; then
	ok "-c: $A -> $B:$PORT counted $K; --prom counter $K"
	if [ -z "$(head -1 "$W/connc")" ] && sed -n 2p "$W/connc" | grep -q '^LADDR ' && grep -q '^Tracing connect' "$W/connc.err"; then
		ok "-c: stdout is a blank line and the counts (banner on stderr), as libbpf-tools"
	else notok "-c stdout: $(head -2 "$W/connc" | tr '\n' '|')"; fi
else notok "-c: $(cat "$W/connc" | tr '\n' '|') prom: $(grep -v '^#' "$W/conn.prom" 2>/dev/null | tr '\n' '|')"; fi

# jsoncheck FILE: every client connection in JSON (pid, ports), and the
# states of each client socket (tcpstates)
jsoncheck() {
	python3 - "$1" "$W/clients" "$2" "$A" "$B" $PORT <<'PY'
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
kind, a, b, port = sys.argv[3], sys.argv[4], sys.argv[5], int(sys.argv[6])
for line in open(sys.argv[2]):
    pid, rest = line.split(" ", 1)
    lport = int(re.search(r"lport=(\d+)", rest).group(1))
    if kind == "connect":
        m = [r for r in rows if r["pid"] == int(pid) and r["sport"] == lport]
        assert len(m) == 1 and m[0]["saddr"] == a and m[0]["daddr"] == b and m[0]["dport"] == port, m
    elif kind == "connlat":
        m = [r for r in rows if r["pid"] == int(pid)]
        assert len(m) == 1 and m[0]["dport"] == port and m[0]["lat_ms"] > 0 and m[0]["ip"] == 4, m
    else:
        m = [(r["oldstate"], r["newstate"]) for r in rows if r["lport"] == lport]
        assert ("SYN_SENT", "ESTABLISHED") in m and ("FIN_WAIT2", "CLOSE") in m, m
PY
}
T=tcpconnect
if jsoncheck "$W/connj" connect; then ok "-j: each connect once, with pid, addresses and ports"; else notok "-j: $(head -c 300 "$W/connj")"; fi
T=tcpstates
if jsoncheck "$W/statesj" states; then ok "-j: the client sockets' transitions"; else notok "-j: $(head -c 300 "$W/statesj")"; fi
T=tcpconnlat
if jsoncheck "$W/latj" connlat; then ok "-j: each connect's latency"; else notok "-j: $(head -c 300 "$W/latj")"; fi
n=0
while read -r cpid rest; do
	lport=$(echo "$rest" | sed 's/.*lport=\([0-9]*\).*/\1/')
	# PID COMM IP SADDR LPORT DADDR DPORT LAT(ms)
	if awk -v p="$cpid" -v a="$A" -v b="$B" -v l="$lport" -v d=$PORT \
		'$1 == p && $2 == "tcp_pair" && $4 == a && $5 == l && $6 == b && $7 == d && $8 > 0' "$W/lat" | grep -q .; then
		n=$((n + 1))
	fi
done < "$W/clients"
if [ $n = $K ]; then ok "-L: the $K connects, with LPORT and a latency"
else notok "-L: $n of $K: $(grep tcp_pair "$W/lat" | head -3 | tr '\n' '|')"; fi

T=tcpstates
# one socket's transitions: SKADDR PID COMM LADDR LPORT RADDR RPORT OLD -> NEW MS;
# a socket address is reused by later connections: from the row that
# starts this connection (START: "SYN_SENT ESTABLISHED" with LPORT, or
# "LISTEN SYN_RECV" with RPORT = the client's port) back one row for
# CLOSE -> SYN_SENT, forward to the socket's CLOSE
states_of() { # FILE COL PORT OLD NEW
	awk -v c="$2" -v p="$3" -v o="$4" -v n="$5" '
		{ sk[NR] = $1; tr[NR] = $8 ">" $10 }
		!at && $c == p && $8 == o && $10 == n { at = NR }
		END {
			if (!at) exit
			s = sk[at]
			if (o == "SYN_SENT")
				for (i = at - 1; i > 0; i--) if (sk[i] == s) { printf "%s ", tr[i]; break }
			for (i = at; i <= NR; i++) if (sk[i] == s) { printf "%s ", tr[i]; if (tr[i] ~ />CLOSE$/) break }
		}' "$1"
}
lport=$(head -1 "$W/clients" | sed 's/.*lport=\([0-9]*\).*/\1/')
seq=$(states_of "$W/statesD" 5 "$lport" SYN_SENT ESTABLISHED)
want="CLOSE>SYN_SENT SYN_SENT>ESTABLISHED ESTABLISHED>FIN_WAIT1 FIN_WAIT1>FIN_WAIT2 FIN_WAIT2>CLOSE "
if [ "$seq" = "$want" ]; then ok "-D $PORT: the client socket's states: $want"
else notok "-D: client socket of port $lport: '$seq', want '$want'"; fi
seq=$(states_of "$W/states" 7 "$lport" LISTEN SYN_RECV)
want="LISTEN>SYN_RECV SYN_RECV>ESTABLISHED ESTABLISHED>CLOSE_WAIT CLOSE_WAIT>LAST_ACK LAST_ACK>CLOSE "
if [ "$seq" = "$want" ]; then ok "-L $PORT: the server socket's states: $want"
else notok "-L: server socket for client port $lport: '$seq', want '$want'"; fi
n=$(awk -v a="$A" -v b="$B" 'NR > 1 && !(($4 == a || $4 == b) && ($6 == a || $6 == b || $6 == "0.0.0.0"))' "$W/statesD" "$W/states" | grep -vc '^SKADDR')
if [ "$n" = 0 ]; then ok "-L/-D: no other sockets"; else notok "-L/-D: $n lines of other sockets"; fi

# ---- 2: IPv6, -4/-6 filters ---------------------------------------------------------------
T=tcplife
tool tcplife "$W/l6" -6 -w -D $PORT
tool tcplife "$W/l4" -4 -D $PORT
tool tcpconnect "$W/c6" -P $PORT
connections 1 0 "$B6"
stop_all
set -- $(tail -n +2 "$W/l6" | head -1)
if [ "$3" = "$A6" ] && [ "$5" = "$B6" ] && [ "$6" = $PORT ] && [ "$(tail -n +2 "$W/l4" | wc -l)" = 0 ]; then
	ok "-6 -w: the IPv6 session ($A6 -> $B6), and -4 shows none"
else notok "-6: '$*'; -4 lines: $(tail -n +2 "$W/l4" | wc -l)"; fi
if [ "$(head -1 "$W/l6")" = "$(printf '%-7s %-16s %-26s %-5s %-26s %-5s %-6s %-6s %s' PID COMM LADDR LPORT RADDR RPORT TX_KB RX_KB MS)" ]; then
	ok "-w header: addresses 26 wide (libbpf-tools 0.26)"
else notok "-w header: '$(head -1 "$W/l6")'"; fi
T=tcpconnect
if awk -v a="$A6" -v b="$B6" '$3 == 6 && $4 == a && $5 == b' "$W/c6" | grep -q .; then ok "IPv6 connect: IP 6, addresses"
else notok "IPv6 connect: $(cat "$W/c6" | tr '\n' '|')"; fi

# ---- 3: tcpretrans with packet loss in B ------------------------------------------------------
T=tcpretrans
loss=
if command -v nft >/dev/null 2>&1 &&
	ip netns exec "$NSB" nft add table inet cbx 2>/dev/null &&
	ip netns exec "$NSB" nft add chain inet cbx in '{ type filter hook input priority 0; }' &&
	ip netns exec "$NSB" nft add rule inet cbx in tcp dport $PORT 'tcp flags & (syn | fin | rst) == 0' meta length gt 100 numgen inc mod 4 == 0 drop; then
	loss="nftables numgen (every 4th data segment to the server dropped)"
elif command -v iptables >/dev/null 2>&1 &&
	ip netns exec "$NSB" iptables -A INPUT -p tcp --dport $PORT -m length --length 101:65535 -m statistic --mode nth --every 4 --packet 0 -j DROP 2>/dev/null; then
	loss="iptables statistic match (every 4th data segment to the server dropped)"
elif command -v tc >/dev/null 2>&1 && ip netns exec "$NSA" tc qdisc add dev "$VA" root netem loss 20% 2>/dev/null; then
	loss="tc netem (20% loss on the client's link)"
fi
if [ -z "$loss" ]; then
	notok "no way to drop packets here: no nft, iptables statistic match or netem (make deps installs nftables)"
else
	ok "packet loss by $loss"
	tool tcpretrans "$W/rt"
	tool tcpretrans "$W/rtc" -c --prom "$W/rt.prom"
	tool tcpretrans "$W/rtj" -j -4
	connections 2 10
	stop_all
	while read -r cpid rest; do
		lport=$(echo "$rest" | sed 's/.*lport=\([0-9]*\).*/\1/')
		want=$(echo "$rest" | sed 's/.*retrans=\([0-9]*\).*/\1/')
		# TIME PID IP LADDR:LPORT T> RADDR:RPORT STATE
		got=$(awk -v l="$A:$lport" -v r="$B:$PORT" '$4 == l && $5 == "R>" && $6 == r' "$W/rt" | wc -l)
		cnt=$(awk -v l="[$A]#$lport" -v r="[$B]#$PORT" '$1 == l && $2 == "<->" && $3 == r { print $4 }' "$W/rtc")
		pr=$(grep "^corebox_tcpretrans_retransmits_total{laddr=\"$A\",lport=\"$lport\",raddr=\"$B\",rport=\"$PORT\"} " "$W/rt.prom" | awk '{ print $2 }')
		js=$(python3 -c 'import json, sys; print(sum(1 for l in open(sys.argv[1]) if json.loads(l)["lport"] == int(sys.argv[2])))' "$W/rtj" "$lport")
		if [ "$want" -gt 0 ] && [ "$got" = "$want" ] && [ "$cnt" = "$want" ] && [ "$pr" = "$want" ] && [ "$js" = "$want" ]; then
			ok "flow $A:$lport -> $B:$PORT: $want retransmits (kernel's tcpi_total_retrans) = lines = -c count = --prom = JSON"
		else
			notok "flow $lport: kernel $want, lines $got, -c '$cnt', prom '$pr', json '$js': $(head -3 "$W/rt" | tr '\n' '|') $(cat "$W/rtc" | tr '\n' '|')"
		fi
	done < "$W/clients"
	if python3 - "$W/rt.prom" <<'PY'
import re, sys
names = set()
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line.startswith("# HELP ") or line.startswith("# TYPE "):
        names.add(line.split()[2])
        continue
    m = re.match(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? [0-9.eE+-]+$', line)
    assert m and m.group(1) in names, line
PY
	then ok "--prom: a valid exposition file"; else notok "--prom: invalid: $(head -c 300 "$W/rt.prom")"; fi
	if sed -n 2p "$W/rt" | grep -Eq '^TIME +PID +IP LADDR:LPORT +T> RADDR:RPORT +STATE$'; then ok "header (bcc)"
	else notok "header: $(sed -n 2p "$W/rt")"; fi
fi

T=tcp
snoop_left
[ "$fails" = 0 ]
