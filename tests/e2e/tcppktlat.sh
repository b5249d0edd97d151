#!/bin/sh
# tcppktlat end to end: a helper (python) makes K request/reply round
# trips over 127.0.0.1:PORT in lock step (each side reads every message
# before the next one is sent), server and client in two processes.  Each
# read of a segment with data is one event: with -l PORT exactly K rows
# of the server (PID, TID, LPORT PORT, RPORT the client's port), with -r
# PORT exactly K of the client; a minimum of 10 s shows none; the header
# and widths are libbpf-tools' (-w: 26-wide addresses); -T adds the
# clock; JSON lines carry the same; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/tcppktlat.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcppktlat.XXXXXX)
T=tcppktlat
fails=0
TPID= HPID=
ME=$$
PORT=$((30000 + ME % 15000))
K=20
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox

cat > "$W/pingpong.py" <<'PY'
import os, socket, sys, time
port, k, go = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(1)
def readn(c, n):
    b = b""
    while len(b) < n:
        d = c.recv(n - len(b))
        if not d: sys.exit("short read")
        b += d
    return b
child = os.fork()
if child == 0:
    c, _ = s.accept()
    for i in range(k):
        c.sendall(readn(c, 8))
    c.recv(1); os._exit(0)
print("ready", os.getpid(), child, flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
c = socket.socket(); c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
c.connect(("127.0.0.1", port))
print("cport", c.getsockname()[1], flush=True)
for i in range(k):
    c.sendall(b"ping%04d" % i); assert readn(c, 8) == b"ping%04d" % i
c.close(); os.waitpid(child, 0)
print("done", flush=True)
PY

# run LABEL ARGS...: the helper ready, the tool, go, stop
run() {
	label=$1
	shift
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/pingpong.py" $PORT $K "$W/go" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	cpid=$(awk '/^ready/ { print $2 }' "$W/helper") spid=$(awk '/^ready/ { print $3 }' "$W/helper")
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo PID;; esac)" tcppktlat "$@" ||
		{ kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	cport=$(awk '/^cport/ { print $2 }' "$W/helper")
	sleep 0.3
	snoop_stop "$label"
}

# ---- 1: -l PORT: the server's K reads ----------------------------------------------------
if run server -l $PORT; then
	out=$W/server.out
	n=$(awk -v p="$spid" -v port=$PORT -v c="$cport" '$1 == p && $2 == p && $3 == "python3" && $4 == "127.0.0.1" &&
		$5 == port && $6 == "127.0.0.1" && $7 == c && $8 ~ /^[0-9]+\.[0-9][0-9]$/' "$out" | wc -l)
	all=$(awk 'NR > 1' "$out" | wc -l)
	if [ "$n" = $K ] && [ "$all" = $K ]; then ok "-l $PORT: $K reads of the server ($spid), LPORT $PORT RPORT $cport"
	else notok "-l: $n of $all rows match, want $K: $(head -4 "$out" | tr '\n' '|')"; fi
	if [ "$(head -1 "$out")" = "PID     TID     COMM             LADDR           LPORT RADDR           RPORT MS" ]; then
		ok "header as libbpf-tools"
	else notok "header: '$(head -1 "$out")'"; fi
	row=$(sed -n 2p "$out")
	ms=${row##* }
	if [ "$row" = "$(printf '%-7d %-7d %-16s %-15s %-5d %-15s %-5d %s' "$spid" "$spid" python3 127.0.0.1 $PORT 127.0.0.1 "$cport" "$ms")" ]; then
		ok "row byte for byte as libbpf-tools' printf"
	else notok "row: '$row'"; fi
fi

# ---- 2: -r PORT -w -T: the client's K reads ------------------------------------------------
if run client -r $PORT -w -T; then
	out=$W/client.out
	n=$(awk -v p="$cpid" -v port=$PORT -v c="$cport" '$1 ~ /^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$/ && $2 == p &&
		$6 == c && $8 == port' "$out" | wc -l)
	all=$(awk 'NR > 1' "$out" | wc -l)
	if [ "$n" = $K ] && [ "$all" = $K ] &&
		[ "$(head -1 "$out")" = "TIME(s)  PID     TID     COMM             LADDR                      LPORT RADDR                      RPORT MS" ]; then
		ok "-r $PORT -w -T: $K reads of the client, 26-wide addresses, the clock first"
	else notok "-r: $n of $all rows, want $K: $(head -3 "$out" | tr '\n' '|')"; fi
fi

# ---- 3: a minimum no read reaches ----------------------------------------------------------
if run min -l $PORT 10000000; then
	if [ "$(wc -l < "$W/min.out")" = 1 ]; then ok "minimum 10 s: header only"
	else notok "minimum: $(head -3 "$W/min.out" | tr '\n' '|')"; fi
fi

# ---- 4: JSON --------------------------------------------------------------------------------
if run j -j -l $PORT; then
	if python3 - "$W/j.out" $K $PORT "$cport" "$spid" <<'PY'
import json, sys
k, port, cport, spid = map(int, sys.argv[2:])
ev = [json.loads(l) for l in open(sys.argv[1])]
assert len(ev) == k, len(ev)
assert all(e["lport"] == port and e["rport"] == cport and e["pid"] == spid and e["ms"] >= 0 for e in ev), ev[0]
PY
	then ok "-j: the $K reads as JSON lines"
	else notok "-j: $(head -c 300 "$W/j.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
