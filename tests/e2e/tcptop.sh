#!/bin/sh
# tcptop end to end: a helper (python) listens on 127.0.0.1:PORT (and
# ::1:PORT6), waits for a go file, then its client sends exactly SEND
# bytes to the server process, which answers with exactly RECV bytes.
# The tool, filtered to our ports by the rows' addresses, must show for
# the client RX_KB = RECV/1024 and TX_KB = SEND/1024 and the reverse for
# the server (summed over the reports, sizes whole kilobytes); -p the
# client's PID shows its row only; IPv6 rows come under libbpf-tools'
# second header, 51 wide; -r 1 -s sent/received keep the right row;
# without -C each report starts with the screen clear; COUNT ends it
# with status 0; JSON documents carry the exact bytes; --prom writes the
# counters; -4 -6 together is refused; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/tcptop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcptop.XXXXXX)
T=tcptop
fails=0
TPID= HPID=
ME=$$
PORT=$((30000 + ME % 15000))
SEND=$((300 * 1024)) RECV=$((200 * 1024))
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
bpf_snapshot before

cat > "$W/xfer.py" <<'PY'
import os, socket, sys, time
# xfer.py FAMILY PORT SEND RECV GO: the server (a child) reads SEND bytes and answers RECV bytes
fam = socket.AF_INET6 if sys.argv[1] == "6" else socket.AF_INET
host = "::1" if fam == socket.AF_INET6 else "127.0.0.1"
port, send, recv, go = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
s = socket.socket(fam)
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind((host, port)); s.listen(1)
def readn(c, n):
    got = 0
    while got < n:
        d = c.recv(65536)
        if not d: break
        got += len(d)
    return got
child = os.fork()
if child == 0:
    c, _ = s.accept()
    readn(c, send); c.sendall(b"y" * recv); c.recv(1); os._exit(0)
print("ready", os.getpid(), child, flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
c = socket.socket(fam); c.connect((host, port))
c.sendall(b"x" * send)
got = readn(c, recv)
c.close(); os.waitpid(child, 0)
print("done", got, flush=True)
PY

# run LABEL BANNER FAMILY ARGS...: helper ready, the tool (ARGS), go, the
# transfer, wait for two more reports and stop (or wait for the COUNT end
# when ARGS end it: LABEL "count")
run() {
	label=$1 banner=$2 fam=$3
	shift 3
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/xfer.py" "$fam" $PORT $SEND $RECV "$W/go" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	cpid=$(awk '/^ready/ { print $2 }' "$W/helper") spid=$(awk '/^ready/ { print $3 }' "$W/helper")
	args=$(echo "$@" | sed "s/CLIENT/$cpid/")
	# shellcheck disable=SC2086
	tool_start "$label" "$banner" tcptop $args || { kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: transfer failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	if [ "$label" = count ]; then
		wait_pid "$TPID" 100 && wait "$TPID"
		rc=$? TPID=
		return $rc
	fi
	# two more reports (each starts with the header; the first came before
	# the transfer: the banner), bounded (5 s)
	n0=$(grep -c 'PID  *COMM' "$W/$label.out")
	i=0
	while [ $i -lt 50 ] && [ "$(grep -c 'PID  *COMM' "$W/$label.out")" -lt $((n0 + 2)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	snoop_stop "$label"
}

# sums FILE ADDR:PORT-PATTERN COLUMN: the rows whose LADDR (3) matches, RX_KB TX_KB summed
sums() {
	awk -v a="$2" '$3 == a { rx += $5; tx += $6; n++ } END { print rx + 0, tx + 0 }' "$1"
}
# the client's local address (its ephemeral port) as the server's row shows it
client_addr() { awk -v a="$2" '$3 == a { print $4; exit }' "$1"; }

KS=$((SEND / 1024)) KR=$((RECV / 1024))
# sums over reports: a transfer split across two reports loses at most 1 KB to each floor
near() { [ "$1" -le "$2" ] && [ "$1" -ge $(($2 - 1)) ]; }

# ---- 1: -C, the counts of both ends --------------------------------------------------
if run plain 'loadavg' 4 -C 1; then
	out=$W/plain.out
	caddr=$(client_addr "$out" "127.0.0.1:$PORT")
	set -- $(sums "$out" "127.0.0.1:$PORT") $(sums "$out" "$caddr")
	if [ -n "$caddr" ] && near "$1" $KS && near "$2" $KR && near "$3" $KR && near "$4" $KS; then
		ok "server RX/TX $1/$2 KB, client $3/$4 KB for $SEND/$RECV bytes"
	else notok "counts: server '$1 $2' client '$caddr' '$3 $4' (want $KS $KR): $(grep -F ":$PORT" "$out" | head -4 | tr '\n' '|')"; fi
	if grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: [0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+$' "$out" &&
		[ "$(grep -cxF 'PID    COMM         LADDR                 RADDR                  RX_KB  TX_KB' "$out")" -ge 3 ] &&
		! grep -q "$(printf '\033')" "$out"; then
		ok "-C: loadavg line and libbpf-tools 0.26's header each interval, no screen clear"
	else notok "layout: $(head -4 "$out" | tr '\n' '|')"; fi
	row=$(awk -v a="127.0.0.1:$PORT" '$3 == a' "$out" | head -1)
	if printf '%s\n' "$row" | grep -Eq "^$spid +python3 {6}127\\.0\\.0\\.1:$PORT {1,}127\\.0\\.0\\.1:[0-9]+ +[ 0-9]{6} [ 0-9]{6}\$" &&
		[ "$(printf '%s\n' "$row" | cut -c1-7)" = "$(printf '%-6s ' "$spid")" ] &&
		[ "$(printf '%s\n' "$row" | cut -c21-42)" = "$(printf '%-21s ' "127.0.0.1:$PORT")" ]; then
		ok "row widths as libbpf-tools (PID 6, COMM 12, LADDR/RADDR 21, KB 6)"
	else notok "row: '$row'"; fi
fi

# ---- 2: -p the client: its row alone; -S: no summary line ----------------------------
if run pid 'PID' 4 -C -S -p CLIENT 1; then
	out=$W/pid.out
	others=$(awk -v p="$cpid" '$1 ~ /^[0-9]+$/ && $1 != p' "$out" | wc -l)
	mine=$(awk -v p="$cpid" -v port=":$PORT" '$1 == p && index($4, port)' "$out" | wc -l)
	if [ "$others" = 0 ] && [ "$mine" -ge 1 ] && ! grep -q loadavg "$out"; then
		ok "-p $cpid -S: the client's row only, no loadavg line"
	else notok "-p: $others other rows, $mine of the client: $(head -c 400 "$out" | tr '\n' '|')"; fi
fi

# ---- 3: IPv6: the second header and 51-wide addresses --------------------------------
if run v6 'loadavg' 6 -C -6 1; then
	out=$W/v6.out
	row=$(awk -v a="::1:$PORT" '$3 == a' "$out" | head -1)
	set -- $(sums "$out" "::1:$PORT")
	if grep -qxF "PID    COMM         LADDR6                                              RADDR6                                               RX_KB  TX_KB" "$out" &&
		[ "$(printf '%s\n' "$row" | cut -c21-72)" = "$(printf '%-51s ' "::1:$PORT")" ] &&
		near "$1" $KS && near "$2" $KR && ! grep -F ' 127.0.0.1:' "$out" | grep -q .; then
		ok "-6: IPv6 header, 51-wide addresses, server $1/$2 KB, no IPv4 row"
	else notok "-6: '$row' $1 $2: $(head -c 600 "$out" | tr '\n' '|')"; fi
fi

# ---- 4: -r 1 -s: the one row kept is the largest by the key; no -C: the clear ----------
if run rows 'loadavg' 4 -r 1 -s received -p CLIENT 1; then
	out=$W/rows.out
	clears=$(grep -c "$(printf '\033')\\[H$(printf '\033')\\[2J" "$out")
	maxrows=$(awk '/^PID / { n = 0; next } $1 ~ /^[0-9]+$/ { n++; if (n > m) m = n } END { print m + 0 }' "$out")
	if [ "$clears" -ge 3 ] && [ "$maxrows" = 1 ]; then ok "-r 1: one row a report; without -C each report starts with the clear"
	else notok "-r 1: $clears clears, up to $maxrows rows"; fi
fi

# ---- 5: COUNT ends it; JSON with the exact bytes ---------------------------------------
if run count '' 4 -j 2 3; then
	if python3 - "$W/count.out" $PORT $SEND $RECV <<'PY'
import json, sys
port, send, recv = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(docs) == 3, len(docs)
rows = [r for d in docs for r in d.get("rows", [])]
srv = [r for r in rows if r["laddr"] == "127.0.0.1" and r["lport"] == port]
cli = [r for r in rows if r["raddr"] == "127.0.0.1" and r["rport"] == port]
assert sum(r["rx_bytes"] for r in srv) == send and sum(r["tx_bytes"] for r in srv) == recv, srv
assert sum(r["rx_bytes"] for r in cli) == recv and sum(r["tx_bytes"] for r in cli) == send, cli
assert all(r["comm"] == "python3" and isinstance(r["pid"], int) for r in srv + cli)
PY
	then ok "-j 2 3: three documents, exit 0, exact bytes: server rx $SEND tx $RECV, client the reverse"
	else notok "-j: $(head -c 600 "$W/count.out")"; fi
else notok "-j 2 3: did not end with status 0: $(cat "$W/count.err")"; fi

# ---- 6: --prom: the counters -------------------------------------------------------------
if run prom 'loadavg' 4 -C --prom "$W/t.prom" 1; then
	if grep -E "^corebox_tcptop_rx_bytes_total\\{.*laddr=\"127\\.0\\.0\\.1\",lport=\"$PORT\".*\\} $SEND\$" "$W/t.prom" | grep -q . &&
		grep -E "^corebox_tcptop_tx_bytes_total\\{.*laddr=\"127\\.0\\.0\\.1\",lport=\"$PORT\".*\\} $RECV\$" "$W/t.prom" | grep -q .; then
		ok "--prom: rx_bytes $SEND and tx_bytes $RECV counters for the server's connection"
	else notok "--prom: $(grep -F "$PORT" "$W/t.prom" | head -4 | tr '\n' '|')"; fi
fi

# ---- 7: usage errors ----------------------------------------------------------------------
"$CB" tcptop -4 -6 > "$W/u.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'Only one --ipvX option' "$W/u.out"; then ok "-4 -6: refused, status 2"
else notok "-4 -6: status $rc: $(cat "$W/u.out")"; fi
"$CB" tcptop -s bogus > "$W/u.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'invalid sort method: bogus' "$W/u.out"; then ok "-s bogus: refused, status 2"
else notok "-s bogus: status $rc: $(cat "$W/u.out")"; fi

snoop_left
[ "$fails" = 0 ]
