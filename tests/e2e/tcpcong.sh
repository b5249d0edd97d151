#!/bin/sh
# tcpcong end to end: in a network namespace this test makes (lo at MTU
# 1500), an nft rule on the input hook drops every 20th data segment
# arriving at 127.0.0.1:PORT; the sender saw them leave, so it goes
# through SACK recovery (congestion states disorder/recovery and back to
# open) while 2 MB cross.  Four instances watch the same transfer from
# the root namespace: `-R PORT -u --json --prom F` must show one flow,
# 127.0.0.1/CPORT (the client's port) -> 127.0.0.1/PORT, with at least
# 2 state changes (the rule dropped segments), Prometheus the same count;
# `-R PORT -d -u` histograms per state (names of the five states only)
# holding exactly as many durations as that flow's changes; `-R PORT`
# bcc's text header and one row; `-R OTHER` no flow.  SIGINT ends each
# with status 0; nothing stays loaded.  Needs root, ip and nft.
# Run from the repository root: sh tests/e2e/tcpcong.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tcpcong.XXXXXX)
T=tcpcong
fails=0
P1= P2= P3= P4= TPID=
NS=cbxg$$
PORT=$((20000 + $$ % 20000))
. tests/e2e/lib.sh

cleanup() {
	for p in $P1 $P2 $P3 $P4; do kill -KILL "$p" 2>/dev/null; done
	ip netns del "$NS" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
need_corebox
netns_nft "$NS" input 1500 tcp dport $PORT 'tcp flags & (syn | fin | rst) == 0' \
	meta length gt 100 numgen inc mod 20 == 0 counter drop

cat > "$W/xfer.py" << 'PY'
import socket, sys, threading
port, total = int(sys.argv[1]), 2000000
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(1); s.settimeout(30)
got = []
def serve():
    c, _ = s.accept(); c.settimeout(30); n = 0
    while n < total:
        d = c.recv(65536)
        if not d: break
        n += len(d)
    got.append(n)
t = threading.Thread(target=serve); t.start()
c = socket.create_connection(("127.0.0.1", port), timeout=30)
print(c.getsockname()[1], flush=True)  # the client's port, first line
for i in range(total // 10000):
    c.sendall(b"x" * 10000)
t.join(); c.close(); s.close()
print("received", got[0])
PY

bpf_snapshot before
tool_start j '^Tracing tcp congestion' "$T" -R $PORT -u --json --prom "$W/prom" && P1=$TPID
tool_start d '^Tracing tcp congestion' "$T" -R $PORT -d -u && P2=$TPID
tool_start t '^Tracing tcp congestion' "$T" -R $PORT && P3=$TPID
tool_start o '^Tracing tcp congestion' "$T" -R $((PORT + 1)) && P4=$TPID
ip netns exec "$NS" python3 "$W/xfer.py" $PORT > "$W/xfer.out" 2>&1 || notok "transfer failed: $(cat "$W/xfer.out")"
CPORT=$(head -n 1 "$W/xfer.out")
drops=$(ip netns exec "$NS" nft list chain inet cbx in | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
sleep 0.3
for v in P1 P2 P3 P4; do
	eval "TPID=\$$v"
	[ -n "$TPID" ] && snoop_stop "$v"
	eval "$v="
done
[ "${drops:-0}" -gt 0 ] && ok "the rule dropped $drops segments of 2 MB" || notok "the nft rule dropped nothing"

res=$(python3 - "$W/j.out" "$W/d.out" "$W/prom" "$CPORT" $PORT << 'PY'
import json, sys
flows = [r for l in open(sys.argv[1]) for r in json.loads(l).get("flows", [])]
want_l, want_r = "127.0.0.1/%s" % sys.argv[4], "127.0.0.1/%s" % sys.argv[5]
if len(flows) != 1 or flows[0]["local"] != want_l or flows[0]["remote"] != want_r:
    print("bad flows %r (want one %s -> %s)" % (flows, want_l, want_r)); sys.exit()
ch = flows[0]["changes"]
if ch < 2:
    print("bad only %d changes" % ch); sys.exit()
sec, n, names = None, 0, set()
for l in open(sys.argv[2]):
    if l.startswith("tcp_congest_state = "):
        names.add(l.split(" = ")[1].strip())
    elif " -> " in l:
        n += int(l.split(":")[1].split()[0])
if not names <= {"open", "disorder", "cwr", "recovery", "loss"} or n != ch:
    print("bad -d: sections %r, %d durations for %d changes" % (sorted(names), n, ch)); sys.exit()
prom = [l.split()[-1] for l in open(sys.argv[3]) if l.startswith("corebox_tcpcong_changes_total{")]
if prom != [str(ch)]:
    print("bad Prometheus changes %r, JSON %d" % (prom, ch)); sys.exit()
print("ok %d changes of %s -> %s; -d: %d durations in %s; Prometheus the same" % (ch, want_l, want_r, n, ",".join(sorted(names))))
PY
)
case $res in ok*) ok "${res#ok }" ;; *) notok "${res#bad }" ;; esac

hdr='LAddrPort            RAddrPort             Open_ms Dod_ms Rcov_ms Cwr_ms  Los_ms Chgs '
if grep -qxF "$hdr" "$W/t.out" && [ "$(grep -c "^127\.0\.0\.1/$CPORT  *127\.0\.0\.1/$PORT  *[0-9]" "$W/t.out")" = 1 ]; then
	ok "text: bcc's header, one row for the flow"
else
	notok "text: $(head -c 500 "$W/t.out")"
fi
if [ "$(grep -c . "$W/o.out")" = 1 ]; then ok "-R $((PORT + 1)): no flow"; else notok "-R $((PORT + 1)): $(head -c 300 "$W/o.out")"; fi
usage_exit2 "-L with a bad port" "$T" -L 70000
snoop_left
[ "$fails" = 0 ]
