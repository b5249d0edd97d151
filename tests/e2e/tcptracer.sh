#!/bin/sh
# tcptracer end to end: a helper (python, one process) listens on
# 127.0.0.1:PORT, waits for a go file, then K times connects to itself,
# accepts, and closes both ends (one accepted socket is dup'ed first: its
# first close is not the last reference and must report nothing, its
# second must; another's client end is shut down for writing, read to its
# end by the other, before the closes); then one IPv6 connection on ::1 whose sockets are closed
# by the process's exit.  With -p HELPER the tool must print exactly:
# per connection C (client port -> PORT), A (PORT -> client port) and an
# X for each end, with the ports the helper saw; the IPv6 pair with IP 6;
# libbpf-tools 0.26's header and widths; -t/-U add TIME(s)/UID; -u UID
# keeps only a helper run under that uid; JSON lines carry the same
# events; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/tcptracer.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcptracer.XXXXXX)
T=tcptracer
fails=0
TPID= HPID=
ME=$$
PORT=$((30000 + ME % 15000))
K=5
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
chmod 755 "$W" # the helper run as another uid looks for its go file here

cat > "$W/conns.py" <<'PY'
import os, socket, sys, time
port, k, go, uid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
if uid >= 0:
    os.setgid(uid); os.setuid(uid)
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(k + 1)
s6 = socket.socket(socket.AF_INET6); s6.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s6.bind(("::1", port)); s6.listen(1)
print("ready", os.getpid(), flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
for i in range(k):
    c = socket.socket(); c.connect(("127.0.0.1", port))
    a, _ = s.accept()
    print("conn", c.getsockname()[1], flush=True)
    if i == 0:
        d = a.dup(); a.close(); time.sleep(0.1); a = d
    if i == 1: # the client end leaves ESTABLISHED (FIN_WAIT2) before its close()
        c.shutdown(socket.SHUT_WR); a.recv(1); time.sleep(0.05)
    c.close(); a.close()
c = socket.socket(socket.AF_INET6); c.connect(("::1", port)); a, _ = s6.accept()
print("conn6", c.getsockname()[1], flush=True)
print("done", flush=True)
os._exit(0)
PY

# run LABEL UID ARGS...: the helper (as UID, -1: root) ready, the tool, go, stop
run() {
	label=$1 huid=$2
	shift 2
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/conns.py" $PORT $K "$W/go" "$huid" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$(awk '/^ready/ { print $2 }' "$W/helper")
	args=$(echo "$@" | sed "s/HELPER/$hpid/")
	# shellcheck disable=SC2086
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo PID;; esac)" tcptracer $args || { kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.5
	snoop_stop "$label"
}

# want: the rows the helper's connections must give, "T IP SPORT DPORT" sorted
want() {
	awk -v p=$PORT '/^conn / { print "C 4", $2, p; print "A 4", p, $2; print "X 4", $2, p; print "X 4", p, $2 }
		/^conn6 / { print "C 6", $2, p; print "A 6", p, $2; print "X 6", $2, p; print "X 6", p, $2 }' "$W/helper" | sort
}

# ---- 1: -p: exactly the helper's connections ------------------------------------------
if run plain -1 -p HELPER; then
	out=$W/plain.out
	want > "$W/want"
	awk -v p="$hpid" '$2 == p { print $1, $4, $7, $8 }' "$out" | sort > "$W/got"
	n=$(awk '$2 ~ /^[0-9]+$/' "$out" | wc -l)
	if [ "$(wc -l < "$W/want")" = $((4 * K + 4)) ] && cmp -s "$W/want" "$W/got" && [ "$n" = $((4 * K + 4)) ]; then
		ok "-p: $K IPv4 and 1 IPv6 connection: C, A and one X per end each, nothing else (dup'ed fd: one X)"
	else notok "events: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|') ($n rows)"; fi
	if [ "$(head -1 "$out")" = "T PID    COMM         IP SADDR            DADDR            SPORT DPORT" ]; then
		ok "header as libbpf-tools 0.26"
	else notok "header: '$(head -1 "$out")'"; fi
	row=$(grep '^C ' "$out" | head -1)
	cport=$(awk '/^conn / { print $2; exit }' "$W/helper")
	if [ "$row" = "$(printf 'C %-6d %-12.12s %-2d %-16s %-16s %-4d %-4d' "$hpid" python3 4 127.0.0.1 127.0.0.1 "$cport" $PORT)" ]; then
		ok "C row byte for byte as libbpf-tools' printf"
	else notok "C row: '$row'"; fi
	if awk '$1 == "C" { c = NR } $1 == "A" && !a { a = NR } END { exit !(c && a) }' "$out" &&
		[ "$(awk '$1 == "C" { print NR; exit }' "$out")" -lt "$(awk '$1 == "A" { print NR; exit }' "$out")" ]; then
		ok "the first connect before its accept"
	else notok "order: $(head -4 "$out" | tr '\n' '|')"; fi
fi

# ---- 2: -t -U -u: another uid ------------------------------------------------------------
if run uid 65534 -t -U -u 65534; then
	out=$W/uid.out
	want > "$W/want"
	awk '$3 ~ /^[A-Z]$/ && $2 == 65534 { print $3, $6, $9, $10 }' "$out" | sort > "$W/got"
	others=$(awk 'NR > 1 && $2 != 65534' "$out" | wc -l)
	if head -1 "$out" | grep -qx 'TIME(s)  UID   T PID    COMM         IP SADDR            DADDR            SPORT DPORT' &&
		cmp -s "$W/want" "$W/got" && [ "$others" = 0 ] && awk 'NR > 1 && $1 !~ /^[0-9]+\.[0-9][0-9][0-9]$/ { exit 1 }' "$out"; then
		ok "-t -U -u 65534: TIME(s) and UID columns, the helper's $(wc -l < "$W/got") events only"
	else notok "-u: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|') others $others: $(head -3 "$out" | tr '\n' '|')"; fi
fi

# ---- 3: JSON --------------------------------------------------------------------------------
if run j -1 -j -p HELPER; then
	want > "$W/want"
	if python3 - "$W/j.out" > "$W/got" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    print(e["type"], e["ip"], e["sport"], e["dport"])
PY
	then
		sort -o "$W/got" "$W/got"
		if cmp -s "$W/want" "$W/got"; then ok "-j: the same $(wc -l < "$W/got") events as JSON lines"
		else notok "-j: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|')"; fi
	else notok "-j: not JSON: $(head -c 300 "$W/j.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
