#!/bin/sh
# tcpdrop end to end: in a network namespace this test makes, an nft rule
# on the output hook drops every other data segment a client sends to
# 127.0.0.1:PORT (and counts them); TCP sends them again, so the transfer
# completes.  The tool, in the root namespace, must show exactly as many
# drops to 127.0.0.1:PORT as the rule's counter (bcc's header and row
# layout, state ESTABLISHED, flags PSH|ACK, the kernel stack through
# nf_hook_slow, tab-indented, a blank line after); -6 shows none of them,
# --pid-netns of a process in that namespace all, of one outside none;
# JSON carries the reason NETFILTER_DROP (the server's own drops of
# segments it had already received have other reasons) and the stack; SIGINT status 0;
# nothing stays loaded.  Needs root, ip (iproute2) and nft.
# Run from the repository root: sh tests/e2e/tcpdrop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcpdrop.XXXXXX)
T=tcpdrop
fails=0
TPID= SPID=
NS=cbxd$$
PORT=$((20000 + $$ % 20000))
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $SPID; do kill -KILL "$p" 2>/dev/null; done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
netns_nft "$NS" output - tcp dport $PORT 'tcp flags & (syn | fin | rst) == 0' \
	meta length gt 100 numgen inc mod 2 == 0 counter drop
# a process that stays in the namespace, for --pid-netns
ip netns exec "$NS" sleep 600 &
SPID=$!

cat > "$W/xfer.py" <<'PY'
import socket, sys, threading
port = int(sys.argv[1])
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(1); s.settimeout(20)
got = []
def serve():
    c, _ = s.accept(); c.settimeout(20); n = 0
    while n < 8000:
        d = c.recv(10000)
        if not d: break
        n += len(d)
    got.append(n)
t = threading.Thread(target=serve); t.start()
c = socket.create_connection(("127.0.0.1", port), timeout=20)
c.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
for i in range(8):
    c.sendall(b"x" * 1000)
t.join(); c.close(); s.close()
print("received", got[0])
PY
# drops: the rule's counter so far
drops() { ip netns exec "$NS" nft list chain inet cbx out | sed -n 's/.*counter packets \([0-9]*\).*/\1/p'; }

# run LABEL BANNER ARGS...: the tool, one transfer, SIGINT; $W/LABEL.out,
# and in $W/LABEL.n the drops the rule made during the transfer
run() {
	label=$1 banner=$2
	shift 2
	tool_start "$label" "$banner" tcpdrop "$@" || return 1
	before=$(drops)
	ip netns exec "$NS" python3 "$W/xfer.py" $PORT > "$W/xfer" 2>&1
	grep -q '^received 8000' "$W/xfer" || notok "$label: transfer failed: $(cat "$W/xfer")"
	echo $(($(drops) - before)) > "$W/$label.n"
	sleep 0.5
	snoop_stop "$label"
}
# rows FILE: the rows of our drops (to 127.0.0.1:PORT)
rows() { grep -E "^[0-9:]{8} [0-9]+ +4  127\.0\.0\.1:[0-9]+ +> 127\.0\.0\.1:$PORT " "$1"; }
# nfrows FILE: how many of them the nft rule made (their stack passes
# nf_hook_slow; the server may also drop a retransmitted segment it had
# already received, a drop of its own with another stack)
nfrows() {
	awk -v p=":$PORT " '/^[0-9]/ { cur = index($0, "> 127.0.0.1" p) > 0; next }
		cur && /^\tnf_hook_slow\+/ { n++; cur = 0 } END { print n + 0 }' "$1"
}

# ---- 1: every drop the rule made, bcc's layout, the stack ------------------------------------
if run plain '^TIME'; then
	out=$W/plain.out n=$(cat "$W/plain.n")
	if [ "$(head -1 "$out")" = 'TIME     PID     IP SADDR:SPORT          > DADDR:DPORT          STATE (FLAGS)' ]; then
		ok "header as bcc's"
	else notok "header: '$(head -1 "$out")'"; fi
	got=$(nfrows "$out")
	if [ "$n" -ge 1 ] && [ "$got" = "$n" ]; then ok "$got drops by the nft rule shown, its counter says $n"
	else notok "$got drops shown, the rule made $n: $(head -c 600 "$out" | tr '\n' '|')"; fi
	if rows "$out" | head -1 | grep -Eq "^[0-2][0-9]:[0-5][0-9]:[0-6][0-9] [0-9]+ {1,7}4  127\.0\.0\.1:[0-9]+ {1,15}> 127\.0\.0\.1:$PORT {1,15}ESTABLISHED \(PSH\|ACK\)\$"; then
		ok "row: widths as bcc's, ESTABLISHED (PSH|ACK)"
	else notok "row: '$(rows "$out" | head -1)'"; fi
	# the stack after our first row: tab-indented frames through nf_hook_slow, then a blank line
	awk -v p=":$PORT " 'f && /^$/ { exit } f { print } index($0, p) && !f { f = 1 }' "$out" > "$W/stack"
	if [ -s "$W/stack" ] && ! grep -qv '^	[A-Za-z_.0-9]*+0x[0-9a-f]*$' "$W/stack" && grep -q '^	nf_hook_slow+' "$W/stack"; then
		ok "kernel stack: $(wc -l < "$W/stack") frames as name+0xoff, through nf_hook_slow"
	else notok "stack: $(head -8 "$W/stack" | tr '\n' '|')"; fi
fi

# ---- 2: -6: not these IPv4 drops ---------------------------------------------------------------
if run v6 '^TIME' -6; then
	if [ "$(cat "$W/v6.n")" -ge 1 ] && [ "$(rows "$W/v6.out" | wc -l)" = 0 ]; then ok "-6: none of the $(cat "$W/v6.n") IPv4 drops"
	else notok "-6: $(head -c 300 "$W/v6.out" | tr '\n' '|')"; fi
fi

# ---- 3: --pid-netns: the namespace's drops, or none -----------------------------------------------
if run nsin '^TIME' --pid-netns $SPID; then
	if [ "$(cat "$W/nsin.n")" -ge 1 ] && [ "$(nfrows "$W/nsin.out")" = "$(cat "$W/nsin.n")" ]; then ok "--pid-netns (inside): all $(cat "$W/nsin.n") drops"
	else notok "--pid-netns inside: $(nfrows "$W/nsin.out") of $(cat "$W/nsin.n")"; fi
fi
if run nsout '^TIME' --pid-netns $$; then
	if [ "$(rows "$W/nsout.out" | wc -l)" = 0 ]; then ok "--pid-netns (outside): none of the namespace's drops"
	else notok "--pid-netns outside: $(rows "$W/nsout.out" | wc -l) rows"; fi
fi

# ---- 4: JSON -------------------------------------------------------------------------------------
if run j '' -j && python3 - "$W/j.out" $PORT "$(cat "$W/j.n")" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
ours = [r for r in rows if r["daddr"] == "127.0.0.1" and r["dport"] == int(sys.argv[2]) and r["reason"] == "NETFILTER_DROP"]
assert len(ours) == int(sys.argv[3]) and ours, (len(ours), sys.argv[3])
for r in ours:
    assert r["reason"] == "NETFILTER_DROP" and r["state"] == "ESTABLISHED" and r["flags"] == "PSH|ACK", r
    assert r["ip"] == 4 and r["saddr"] == "127.0.0.1" and any(f.startswith("nf_hook_slow+") for f in r["stack"]), r
PY
then ok "-j: each drop with reason NETFILTER_DROP, addresses, ports and its stack"
else notok "-j: $(head -c 400 "$W/j.out")"; fi

snoop_left
[ "$fails" = 0 ]
