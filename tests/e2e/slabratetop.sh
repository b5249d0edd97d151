#!/bin/sh
# slabratetop end to end: a helper (python) waits for a go file, then
# opens K IPv4 and K6 IPv6 UDP sockets (each one object of the slab caches
# "UDP" and "UDPv6", allocated in the helper's socket() call).  With -p
# HELPER the rows of those caches must add up over the reports to K and
# K6 allocations and, where /sys/kernel/slab tells the caches' object
# size, to K and K6 times it in BYTES; the loadavg line and header are
# libbpf-tools 0.26's; -C leaves the screen clear out, its absence puts it
# first; -r 1 -s count keeps one row; COUNT ends it with status 0; JSON
# documents and --prom carry the same; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/slabratetop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-slabratetop.XXXXXX)
T=slabratetop
fails=0
TPID= HPID=
K=37 K6=23
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox

cat > "$W/socks.py" <<'PY'
import os, socket, sys, time
k, k6, go = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
print("ready", os.getpid(), flush=True)
for _ in range(400):
    if os.path.exists(go): break
    time.sleep(0.05)
else:
    sys.exit("no go file")
keep = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(k)]
keep += [socket.socket(socket.AF_INET6, socket.SOCK_DGRAM) for _ in range(k6)]
print("done", flush=True)
time.sleep(0.2)
PY

# run LABEL ARGS...: the helper ready, the tool on it (-p), go, two reports more, stop
run() {
	label=$1
	shift
	rm -f "$W/go" "$W/helper" # (the old one would be read before the child truncates it)
	python3 "$W/socks.py" $K $K6 "$W/go" > "$W/helper" 2>&1 &
	HPID=$!
	wait_for "$W/helper" '^ready' 50 || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$(awk '/^ready/ { print $2 }' "$W/helper")
	tool_start "$label" "$(case "$*" in *-j*) ;; *) echo loadavg;; esac)" slabratetop -p "$hpid" "$@" ||
		{ kill -KILL $HPID; HPID=; return 1; }
	: > "$W/go"
	wait_for "$W/helper" '^done' 100 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$HPID" 2>/dev/null
	HPID=
	if [ "$label" = count ]; then
		wait_pid "$TPID" 100 && wait "$TPID"
		rc=$? TPID=
		return $rc
	fi
	two_more "$W/$label.out" 'CACHE  *ALLOCS'
	snoop_stop "$label"
}

# sums FILE CACHE: "ALLOCS BYTES" of the cache's rows over the reports
sums() { awk -v c="$2" '$1 == c && NF == 3 { n += $2; b += $3 } END { print n + 0, b + 0 }' "$1"; }
size_of() { cat "/sys/kernel/slab/$1/slab_size" 2>/dev/null; }

# ---- 1: -C: the helper's sockets ----------------------------------------------------------------
if run plain -C 1; then
	out=$W/plain.out
	set -- $(sums "$out" UDP) $(sums "$out" UDPv6)
	s4=$(size_of UDP) s6=$(size_of UDPv6)
	if [ "$1" = $K ] && [ "$3" = $K6 ] &&
		{ [ -z "$s4" ] || [ "$2" = $((K * s4)) ]; } && { [ -z "$s6" ] || [ "$4" = $((K6 * s6)) ]; }; then
		ok "-p: UDP $1 allocs $2 bytes, UDPv6 $3 allocs $4 bytes for $K + $K6 sockets (object sizes ${s4:-?}/${s6:-?})"
	else notok "counts: UDP '$1 $2' UDPv6 '$3 $4' (want $K x ${s4:-?}, $K6 x ${s6:-?}): $(grep -E '^UDP' "$out" | tr '\n' '|')"; fi
	if grep -Eq '^[0-9]{2}:[0-9]{2}:[0-9]{2} loadavg: [0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+$' "$out" &&
		[ "$(grep -cxF 'CACHE                            ALLOCS      BYTES' "$out")" -ge 3 ] &&
		! grep -q "$(printf '\033')" "$out"; then
		ok "-C: loadavg line and libbpf-tools 0.26's header each interval, no screen clear"
	else notok "layout: $(head -4 "$out" | tr '\n' '|')"; fi
	row=$(grep '^UDP ' "$out" | head -1)
	if [ "$row" = "$(printf '%-32s %6d %10d' UDP "$(echo "$row" | awk '{ print $2 }')" "$(echo "$row" | awk '{ print $3 }')")" ]; then
		ok "row widths as libbpf-tools (32, 6, 10)"
	else notok "row: '$row'"; fi
fi

# ---- 2: -r 1 -s count: one row, the most allocations; the clear first without -C -------------------
if run rows -r 1 -s count 1; then
	out=$W/rows.out
	clears=$(grep -c "$(printf '\033')\\[H$(printf '\033')\\[2J" "$out")
	maxrows=$(awk '/^CACHE / { n = 0; next } NF == 3 && $2 ~ /^[0-9]+$/ { n++; if (n > m) m = n } END { print m + 0 }' "$out")
	if [ "$clears" -ge 3 ] && [ "$maxrows" = 1 ]; then ok "-r 1 -s count: one row a report; without -C each report starts with the clear"
	else notok "-r 1: $clears clears, up to $maxrows rows"; fi
fi

# ---- 3: COUNT ends it; JSON; --prom ------------------------------------------------------------------
if run count -j --prom "$W/t.prom" 2 3; then
	if python3 - "$W/count.out" $K $K6 <<'PY'
import json, sys
k, k6 = int(sys.argv[2]), int(sys.argv[3])
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert len(docs) == 3, len(docs)
rows = [r for d in docs for r in d.get("caches", [])]
assert sum(r["allocs"] for r in rows if r["cache"] == "UDP") == k, rows
assert sum(r["allocs"] for r in rows if r["cache"] == "UDPv6") == k6, rows
PY
	then ok "-j 2 3: three documents, exit 0, UDP $K and UDPv6 $K6 allocations"
	else notok "-j: $(head -c 500 "$W/count.out")"; fi
	if grep -qx "corebox_slabratetop_allocs_total{cache=\"UDP\"} $K" "$W/t.prom"; then
		ok "--prom: corebox_slabratetop_allocs_total{cache=\"UDP\"} $K"
	else notok "--prom: $(grep -F UDP "$W/t.prom" | head -3 | tr '\n' '|')"; fi
else notok "-j 2 3: did not end with status 0: $(cat "$W/count.err")"; fi

snoop_left
[ "$fails" = 0 ]
