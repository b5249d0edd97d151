#!/bin/sh
# bindsnoop end to end: a helper (python) waits for a go file, then binds
# sockets with known options: TCP 127.0.0.1:PORT with SO_REUSEADDR and
# IP_FREEBIND; UDP ::1:PORT+1 with SO_REUSEPORT and SO_BINDTODEVICE lo;
# TCP 127.0.0.1:0 with IP_TRANSPARENT and IP_BIND_ADDRESS_NO_PORT (no port
# given out); TCP 127.0.0.1:0 (the kernel picks a port); then a bind to
# PORT again that fails with EADDRINUSE; and it writes down what it
# expects.  With -p HELPER the rows must be exactly those (RET, PROTO,
# OPTS as "FTNRr", IF = lo's index, PORT, ADDR), the failed one only with
# -x; -P keeps the one port; -t adds the clock; the header and widths are
# libbpf-tools 0.26's; JSON lines carry the same; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/bindsnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-bindsnoop.XXXXXX)
T=bindsnoop
fails=0
TPID= HPID=
ME=$$
PORT=$((30000 + ME % 15000))
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
LO=$(cat /sys/class/net/lo/ifindex)

cat > "$W/binds.py" <<'PY'
import os, socket, sys, time
port, go, lo = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])
SOL_IP, IP_FREEBIND, IP_TRANSPARENT, IP_BIND_ADDRESS_NO_PORT = 0, 15, 19, 24
print("ready", os.getpid(), flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
want = []
a = socket.socket(); a.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
a.setsockopt(SOL_IP, IP_FREEBIND, 1); a.bind(("127.0.0.1", port))
want.append("0 TCP F..R. 0 %d 127.0.0.1" % port)
b = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); b.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
b.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"lo"); b.bind(("::1", port + 1))
want.append("0 UDP ....r %d %d ::1" % (lo, port + 1))
c = socket.socket(); c.setsockopt(SOL_IP, IP_TRANSPARENT, 1); c.setsockopt(SOL_IP, IP_BIND_ADDRESS_NO_PORT, 1)
c.bind(("127.0.0.1", 0))
want.append("0 TCP .TN.. 0 0 127.0.0.1")
d = socket.socket(); d.bind(("127.0.0.1", 0))
want.append("0 TCP ..... 0 %d 127.0.0.1" % d.getsockname()[1])
e = socket.socket()
try:
    e.bind(("127.0.0.1", port)); sys.exit("second bind to the port worked")
except OSError as x:
    want.append("-%d TCP ..... 0 0 0.0.0.0 failed" % x.errno)
for w in want: print("want", w, flush=True)
print("done", flush=True)
PY

# run LABEL ARGS...: the helper ready, the tool on it, go, stop
run() {
	label=$1
	shift
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/binds.py" $PORT "$W/go" "$LO" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$(awk '/^ready/ { print $2 }' "$W/helper")
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo PID;; esac)" bindsnoop -p "$hpid" "$@" ||
		{ kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	snoop_stop "$label"
}

# want [all]: the expected "RET PROTO OPTS IF PORT ADDR" lines (with the failed bind: all)
want() {
	if [ "${1:-}" = all ]; then awk '/^want / { print $2, $3, $4, $5, $6, $7 }' "$W/helper"
	else awk '/^want / && $8 != "failed" { print $2, $3, $4, $5, $6, $7 }' "$W/helper"; fi
}

# ---- 1: the binds, in order ---------------------------------------------------------------
if run plain; then
	out=$W/plain.out
	want > "$W/want"
	awk -v p="$hpid" '$1 == p { print $3, $4, $5, $6, $7, $8 }' "$out" > "$W/got"
	if [ "$(wc -l < "$W/want")" = 4 ] && cmp -s "$W/want" "$W/got"; then
		ok "-p: the 4 binds in order, RET/PROTO/OPTS/IF/PORT/ADDR as made (F..R., ....r on lo, .TN.. port 0), no failed one"
	else notok "binds: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|')"; fi
	if [ "$(head -1 "$out")" = "PID     COMM             RET PROTO OPTS  IF   PORT  ADDR                                            " ]; then
		ok "header as libbpf-tools 0.26"
	else notok "header: '$(head -1 "$out")'"; fi
	row=$(awk -v p="$hpid" '$1 == p' "$out" | head -1)
	if [ "$row" = "$(printf '%-7d %-16s %-3d %-5s %-5s %-4d %-5d %-48s' "$hpid" python3 0 TCP F..R. 0 $PORT 127.0.0.1)" ]; then
		ok "row byte for byte as libbpf-tools' printf"
	else notok "row: '$row'"; fi
fi

# ---- 2: -x: the failed bind too; -t ---------------------------------------------------------
if run failed -x -t; then
	out=$W/failed.out
	want all > "$W/want"
	awk -v p="$hpid" '$2 == p { print $4, $5, $6, $7, $8, $9 }' "$out" > "$W/got"
	if cmp -s "$W/want" "$W/got" && head -1 "$out" | grep -q '^TIME(s)  PID     COMM' &&
		awk 'NR > 1 && $1 !~ /^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$/ { exit 1 }' "$out"; then
		ok "-x -t: the failed bind (EADDRINUSE) as well, HH:MM:SS first"
	else notok "-x: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|')"; fi
fi

# ---- 3: -P: the one port --------------------------------------------------------------------
if run port -P $((PORT + 1)); then
	got=$(awk -v p="$hpid" '$1 == p { print $3, $4, $5, $6, $7, $8 }' "$W/port.out")
	if [ "$got" = "$(want | sed -n 2p)" ]; then ok "-P $((PORT + 1)): the UDP bind only"
	else notok "-P: '$got'"; fi
fi

# ---- 4: JSON --------------------------------------------------------------------------------
if run j -j -x; then
	want all > "$W/want"
	if python3 - "$W/j.out" > "$W/got" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    print(e["ret"], e["proto"], e["opts"], e["if"], e["port"], e["addr"])
PY
	then
		if cmp -s "$W/want" "$W/got"; then ok "-j -x: the same 5 binds as JSON lines"
		else notok "-j: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|')"; fi
	else notok "-j: not JSON: $(head -c 300 "$W/j.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
