#!/bin/sh
# gethostlatency end to end: a helper (python, ctypes on glibc) waits for
# a go file, then calls getaddrinfo N times, gethostbyname N times and
# gethostbyname2 N times, each with a numeric name of its own
# ("127.7.X.Y": answered without DNS, unique to the call).  With -p HELPER
# exactly those 3N lookups must show, in order, with the helper's PID and
# COMM and a latency; the header and widths are libbpf-tools 0.26's; when
# Debian's libbpf-tools is installed its gethostlatency runs beside on the
# same calls and must print the same rows (TIME and LATms aside) under the
# same header; -l names the library; JSON lines carry the same; nothing
# stays loaded.  Run as root from the repository root: sh tests/e2e/gethostlatency.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-gethostlatency.XXXXXX)
T=gethostlatency
fails=0
TPID= HPID= OPID=
N=4
ORACLE=/usr/sbin/gethostlatency
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID $OPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox

cat > "$W/lookups.py" <<'PY'
import ctypes, os, socket, sys, time
n, go = int(sys.argv[1]), sys.argv[2]
libc = ctypes.CDLL("libc.so.6")
libc.gethostbyname.restype = ctypes.c_void_p
libc.gethostbyname2.restype = ctypes.c_void_p
tag = os.getpid() % 250
print("ready", os.getpid(), flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
for i in range(n):
    h = "127.7.%d.%d" % (tag, i + 1)
    socket.getaddrinfo(h, None); print("want", h, flush=True)
for i in range(n):
    h = "127.8.%d.%d" % (tag, i + 1)
    assert libc.gethostbyname(h.encode()); print("want", h, flush=True)
for i in range(n):
    h = "127.9.%d.%d" % (tag, i + 1)
    assert libc.gethostbyname2(h.encode(), socket.AF_INET); print("want", h, flush=True)
print("done", flush=True)
PY

# run LABEL ARGS...: the helper ready, the tool (and the oracle, for "plain"), go, stop
run() {
	label=$1
	shift
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/lookups.py" $N "$W/go" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$(awk '/^ready/ { print $2 }' "$W/helper")
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo PID;; esac)" gethostlatency -p "$hpid" "$@" ||
		{ kill -KILL $HPID; HPID=; return 1; }
	if [ "$label" = plain ] && [ -x "$ORACLE" ]; then
		"$ORACLE" -p "$hpid" > "$W/oracle.out" 2> "$W/oracle.err" &
		OPID=$!
		# (its header waits in stdio's buffer: wait for its six uprobe links)
		i=0
		while [ "$(cat /proc/$OPID/fdinfo/* 2>/dev/null | grep -c '^link_id:')" -lt 6 ] && [ $i -lt 100 ]; do
			sleep 0.1
			i=$((i + 1))
		done
		[ $i -lt 100 ] || echo "# the oracle did not attach: $(head -c 200 "$W/oracle.err")"
	fi
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	sleep 0.3
	if [ -n "$OPID" ]; then kill -INT "$OPID"; wait "$OPID" 2>/dev/null; OPID=; fi
	snoop_stop "$label"
}

want() { awk -v p="$hpid" '/^want / { print p, "python3", $2 }' "$W/helper"; }

# ---- 1: the lookups, in order ----------------------------------------------------------------
if run plain; then
	out=$W/plain.out
	want > "$W/want"
	awk 'NR > 1 && $4 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ { print $2, $3, $5 }' "$out" > "$W/got"
	if [ "$(wc -l < "$W/want")" = $((3 * N)) ] && cmp -s "$W/want" "$W/got" && [ "$(wc -l < "$out")" = $((3 * N + 1)) ]; then
		ok "-p: the $N getaddrinfo, $N gethostbyname and $N gethostbyname2 calls in order with their names"
	else notok "lookups: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|')"; fi
	if [ "$(head -1 "$out")" = "TIME     PID     COMM             LATms      HOST" ]; then ok "header as libbpf-tools 0.26"
	else notok "header: '$(head -1 "$out")'"; fi
	row=$(sed -n 2p "$out")
	set -- $row
	if [ "$row" = "$(printf '%-8s %-7d %-16s %-10s %s' "$1" "$hpid" python3 "$4" "$5")" ] &&
		echo "$1" | grep -Eq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9]$'; then
		ok "row byte for byte as libbpf-tools' printf"
	else notok "row: '$row'"; fi
	if [ -s "$W/oracle.out" ]; then
		awk '{ $1 = ""; if (NR > 1) $4 = "" } 1' "$W/oracle.out" > "$W/o.cmp"
		awk '{ $1 = ""; if (NR > 1) $4 = "" } 1' "$out" > "$W/c.cmp"
		if cmp -s "$W/o.cmp" "$W/c.cmp" && [ "$(head -1 "$W/oracle.out")" = "$(head -1 "$out")" ]; then
			ok "the same $((3 * N)) rows and header as Debian's libbpf-tools gethostlatency beside it (TIME, LATms aside)"
		else notok "vs libbpf-tools: $(diff "$W/o.cmp" "$W/c.cmp" | head -6 | tr '\n' '|')"; fi
	else echo "# $ORACLE not installed or silent: no side-by-side comparison"; fi
fi

# ---- 2: -l: the library named ------------------------------------------------------------
LIBC=$(python3 -c 'import ctypes.util, os; print(os.path.realpath("/lib/x86_64-linux-gnu/libc.so.6") if os.path.exists("/lib/x86_64-linux-gnu/libc.so.6") else "")')
[ -n "$LIBC" ] || LIBC=$(ls /lib/*-linux-gnu/libc.so.6 2>/dev/null | head -1)
if [ -n "$LIBC" ] && run lib -l "$LIBC"; then
	want > "$W/want"
	awk 'NR > 1 { print $2, $3, $5 }' "$W/lib.out" > "$W/got"
	if cmp -s "$W/want" "$W/got"; then ok "-l $LIBC: the same lookups"
	else notok "-l: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|')"; fi
fi
"$CB" gethostlatency -l /nonexistent/libc.so > "$W/u.out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q 'Invalid libc: /nonexistent/libc.so' "$W/u.out"; then ok "-l a missing file: refused, status 2"
else notok "-l missing: status $rc: $(cat "$W/u.out")"; fi

# ---- 3: JSON ----------------------------------------------------------------------------------
if run j -j; then
	want > "$W/want"
	if python3 - "$W/j.out" > "$W/got" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    assert e["lat_ms"] >= 0
    print(e["pid"], e["comm"], e["host"])
PY
	then
		if cmp -s "$W/want" "$W/got"; then ok "-j: the same $((3 * N)) lookups as JSON lines"
		else notok "-j: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|')"; fi
	else notok "-j: not JSON: $(head -c 300 "$W/j.out")"; fi
fi

snoop_left
[ "$fails" = 0 ]
