#!/bin/sh
# tcpaccept end to end: a helper accepts N connections on one 127.0.0.1
# listener, one on a second, one on ::1 (accept and accept4 in turn), each
# made by itself; with -p HELPER exactly those accepts must be shown, in
# order, with IP/RADDR/RPORT/LADDR/LPORT as getpeername/getsockname gave
# them (bcc's header and widths); -P the second port keeps its one accept;
# -4 drops the IPv6 one, -6 keeps it alone; -T/-t add bcc's time columns;
# JSON lines parse and carry the same; -4 -6 together is a usage error;
# nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/tcpaccept.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcpaccept.XXXXXX)
T=tcpaccept
fails=0
TPID= HPID=
N=5
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper accepts
need_corebox

# run LABEL BANNER ARGS...: the helper (its second listener on $PORT2
# when set), the tool on it (-p), the accepts, stop the tool; the
# helper's accepts in $W/want, its ports in $W/ports ("P1 P2 P6")
run() {
	label=$1 banner=$2
	shift 2
	helper_start "$W/helper" "$W/accepts" $N ${PORT2:-} || { notok "$label: helper not ready: $(cat "$W/helper")"; return 1; }
	hpid=$HPID
	tool_start "$label" "$banner" tcpaccept -p "$hpid" "$@" || { helper_stop; return 1; }
	kill -USR1 "$hpid"
	wait_for "$W/helper" '^done' 50 || notok "$label: helper failed: $(cat "$W/helper")"
	wait "$hpid" 2>/dev/null
	HPID=
	sed -n '/^ready/d; /^done/d; /^ports/d; p' "$W/helper" > "$W/want"
	sed -n 's/^ports //p' "$W/helper" > "$W/ports"
	sleep 0.3
	snoop_stop "$label"
}

# rows LABEL: the helper's rows of a text run, from IP on
rows() { awk -v p="$hpid" '$1 == p && $2 == "accepts" { print $3, $4, $5, $6, $7 }' "$W/$1.out"; }

# ---- 1: the accepts ---------------------------------------------------------------------
if run plain '^PID'; then
	if head -1 "$W/plain.out" | grep -qx 'PID     COMM         IP RADDR            RPORT LADDR            LPORT'; then
		ok "header as bcc"
	else notok "header: '$(head -1 "$W/plain.out")'"; fi
	rows plain > "$W/got"
	nall=$(awk -v p="$hpid" '$1 == p' "$W/plain.out" | wc -l)
	if cmp -s "$W/got" "$W/want" && [ "$nall" = "$(wc -l < "$W/want")" ] && [ "$nall" -ge $((N + 1)) ]; then
		ok "the $nall accepts in order, addresses and ports as the helper saw them"
	else notok "accepts: $(diff "$W/want" "$W/got" | head -8 | tr '\n' '|') ($nall rows)"; fi
	row=$(awk -v p="$hpid" '$1 == p' "$W/plain.out" | head -1)
	set -- $(head -1 "$W/want")
	if printf '%s\n' "$row" | grep -Eq "^$hpid +accepts {6}4  127\.0\.0\.1 {8}$3 +127\.0\.0\.1 {8}$5 *\$"; then
		ok "row layout: bcc's widths"
	else notok "row layout: '$row'"; fi
fi

# ---- 2: filters ---------------------------------------------------------------------------
if run four '^PID' -4; then
	rows four > "$W/got"
	grep '^4 ' "$W/want" > "$W/want4"
	if cmp -s "$W/got" "$W/want4" && [ -s "$W/want4" ]; then ok "-4: the $(wc -l < "$W/want4") IPv4 accepts alone"
	else notok "-4: $(tr '\n' '|' < "$W/got")"; fi
fi
if run six '^PID' -6; then
	rows six > "$W/got"
	grep '^6 ' "$W/want" > "$W/want6"
	if cmp -s "$W/got" "$W/want6"; then ok "-6: the $(wc -l < "$W/want6") IPv6 accept(s) alone (none without ::1)"
	else notok "-6: $(tr '\n' '|' < "$W/got")"; fi
fi

# -P: a free port chosen here for the second listener
port2=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
if PORT2=$port2 run port '^PID' -P "$port2"; then
	rows port > "$W/got"
	awk -v p="$port2" '$5 == p' "$W/want" > "$W/wantp"
	if cmp -s "$W/got" "$W/wantp" && [ "$(wc -l < "$W/wantp")" = 1 ]; then ok "-P $port2: the second listener's one accept alone"
	else notok "-P: $(tr '\n' '|' < "$W/got") (want $(tr '\n' '|' < "$W/wantp"))"; fi
fi

# ---- 3: -T and -t ------------------------------------------------------------------------
if run times '^TIME' -T -t; then
	rows=$(awk -v p="$hpid" '$3 == p' "$W/times.out")
	if head -1 "$W/times.out" | grep -qx 'TIME     TIME(s)  PID     COMM         IP RADDR            RPORT LADDR            LPORT' &&
		[ "$(echo "$rows" | wc -l)" = "$(wc -l < "$W/want")" ] &&
		echo "$rows" | head -1 | grep -Eq '^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] 0\.000    [0-9]' &&
		! echo "$rows" | grep -Evq '^[0-9:]{8} [0-9]+\.[0-9]{3} +[0-9]' &&
		echo "$rows" | awk '$2 < last { bad = 1 } { last = $2 } END { exit bad }'; then
		ok "-T -t: HH:MM:SS and seconds from 0.000 (3 decimals, not decreasing), bcc's header"
	else notok "-T -t: $(head -3 "$W/times.out" | tr '\n' '|')"; fi
fi

# ---- 4: JSON -----------------------------------------------------------------------------
if run j '' -j && python3 - "$W/j.out" "$W/want" "$hpid" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
rows = [r for r in rows if r["pid"] == int(sys.argv[3])]
want = [l.split(" ") for l in open(sys.argv[2]).read().splitlines()]
got = [[str(r["ip"]), r["raddr"], str(r["rport"]), r["laddr"], str(r["lport"])] for r in rows]
assert got == want, (got, want)
assert all(r["comm"] == "accepts" for r in rows), rows
PY
then ok "-j: JSON lines parse; the same accepts with ip, raddr, rport, laddr, lport"
else notok "-j: $(head -c 400 "$W/j.out")"; fi

# ---- 5: -4 -6 ----------------------------------------------------------------------------
"$CB" tcpaccept -4 -6 > "$W/both.out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q 'mutually exclusive' "$W/both.out"; then ok "-4 -6: usage error (status 2)"
else notok "-4 -6: status $rc: $(head -c 200 "$W/both.out")"; fi

snoop_left
[ "$fails" = 0 ]
