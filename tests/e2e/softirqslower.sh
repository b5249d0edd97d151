#!/bin/sh
# softirqslower end to end: a process pinned to one CPU streams N x 64 KiB
# over a loopback TCP connection, which runs the NET_RX softirq in its own
# context.  `softirqslower -c CPU 1` must show that: "softirq runtime"
# rows of net_rx under the process's comm on that CPU (at least N/20;
# every row on that CPU and at least 1 us); a threshold of 10 s shows none
# of them; -c of another CPU none of the process's; libbpf-tools' banner,
# header and widths (upstream's, after Debian's 0.26, which has no such
# tool); -j lines parse with the same fields; bad arguments exit 2;
# nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/softirqslower.sh
set -u
T=softirqslower
N=2000
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# run LABEL ARGS...: the tool over the stream from a process on $WCPU
run() {
	label=$1
	shift
	tool_start t '^Tracing softirq latency' "$T" "$@" || return 1
	taskset -c "$WCPU" python3 tests/e2e/helpers/lo_stream.py $N > "$W/h.out" 2>&1 ||
		notok "$label: the stream failed: $(head -c 200 "$W/h.out")"
	sleep 0.3
	snoop_stop "$label"
}

# mine FILE: the process's text rows "STAGE SOFTIRQ LAT CPU"
mine() { awk '$NF == "cbx_softirq" { print ($2 == "softirq" ? "runtime" : "raise"), $(NF-3), $(NF-2), $(NF-1) }' "$1"; }

# ---- 1: -c WCPU 1 ----------------------------------------------------------------------
if run "-c $WCPU 1" -c "$WCPU" 1; then
	if [ "$(sed -n 1p "$W/t.out")" = "Tracing softirq latency higher than 1 us... Hit Ctrl-C to end." ] &&
		[ "$(sed -n 2p "$W/t.out")" = "TIME     STAGE                SOFTIRQ  LAT(us)        CPU    COMM            " ]; then
		ok "libbpf-tools' banner and header"
	else notok "banner/header: $(head -2 "$W/t.out" | tr '\n' '|')"; fi
	n=$(mine "$W/t.out" | awk -v c="$WCPU" '$1 == "runtime" && $2 == "net_rx" && $3 >= 1 && $4 == c' | wc -l)
	if [ "$n" -ge $((N / 20)) ]; then ok "$n net_rx runs under the streaming process on CPU $WCPU"
	else notok "$n net_rx runs of the stream ($N writes): $(grep cbx_softirq "$W/t.out" | head -3 | tr '\n' '|')"; fi
	bad=$(awk -v c="$WCPU" 'NR > 2 && $(NF-1) != c' "$W/t.out" | head -2)
	if [ -z "$bad" ]; then ok "-c $WCPU: every row on CPU $WCPU"
	else notok "-c $WCPU: '$bad'"; fi
	if awk 'NR > 2' "$W/t.out" | awk '{ exit !(length($0) == 8 + 1 + 20 + 1 + 8 + 1 + 14 + 1 + 6 + 1 + 16) }' &&
		grep -Eq '^[0-9:]{8} softirq runtime      net_rx   [0-9]+ +[0-9]+ +cbx_softirq +$' "$W/t.out"; then
		ok "row widths as libbpf-tools (8 20 8 14 6 16)"
	else notok "row layout: '$(sed -n 3p "$W/t.out")'"; fi
fi

# ---- 2: a threshold above every run; another CPU -----------------------------------------
if run "10 s threshold" -c "$WCPU" 10000000; then
	if [ -z "$(mine "$W/t.out")" ]; then ok "10000000 us: none of the stream's softirqs"
	else notok "10000000 us: $(mine "$W/t.out" | head -3 | tr '\n' '|')"; fi
fi
if [ "$WCPU" -gt 0 ] && run "-c 0" -c 0 1; then
	if [ -z "$(mine "$W/t.out")" ] && [ -z "$(awk 'NR > 2 && $(NF-1) != 0' "$W/t.out")" ]; then
		ok "-c 0: only CPU 0's rows, none of the stream's on CPU $WCPU"
	else notok "-c 0: $(mine "$W/t.out" | head -3 | tr '\n' '|')"; fi
fi

# ---- 3: JSON -----------------------------------------------------------------------------
if run "-j" -j -c "$WCPU" 1 && python3 - "$W/t.out" "$WCPU" $N <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
cpu, n = int(sys.argv[2]), int(sys.argv[3])
mine = [r for r in rows if r["comm"] == "cbx_softirq" and r["softirq"] == "net_rx" and r["stage"] == "softirq runtime"]
assert len(mine) >= n // 20, len(mine)
assert all(r["cpu"] == cpu and r["lat_us"] >= 1 and "time" in r for r in rows), rows[:3]
PY
then ok "-j: JSON lines with stage, softirq, lat_us, cpu, comm; the stream's net_rx runs"
else notok "-j: $(head -c 400 "$W/t.out")"; fi

# ---- 4: usage ----------------------------------------------------------------------------
exits_2 "min_us 0" softirqslower 0
exits_2 "-c not a number" softirqslower -c x
exits_2 "two positionals" softirqslower 10 20

snoop_left
[ "$fails" = 0 ]
