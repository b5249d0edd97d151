#!/bin/sh
# compactsnoop and extfrag end to end.
#   compactsnoop: a shell whose PID the test knows writes
#     /proc/sys/vm/compact_memory; the kernel compacts every populated zone
#     of every node (one line each in /proc/buddyinfo): exactly that many
#     events from that PID, each naming its node and zone, with -K the
#     kernel stack through the sysctl handler; JSON the same.  A THP-backed
#     allocation may add direct compaction (not asserted: memory here is
#     rarely fragmented enough).
#   extfrag -I: the fragmentation index of every zone and order equals the
#     kernel's formula applied to /proc/buddyinfo read at the same moment
#     (a read before and after that agree); JSON carries the nr_free it
#     used and equals the text; tracing mode reports and writes a valid
#     Prometheus file.
# SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/memcompact.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-memcompact.XXXXXX)
T=memcompact
fails=0
TPID=
. tests/e2e/lib.sh
. tests/e2e/helpers/mem.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
bpf_count_build
bpf_snapshot before
ZONES=$(grep -c '^Node' /proc/buddyinfo)

compact() { # the writer's pid into $W/writer
	sh -c 'echo $$ > "$1"; echo 1 > /proc/sys/vm/compact_memory' sh "$W/writer"
	cat "$W/writer"
}

# 1. compactsnoop, text with -T and -K
if [ ! -w /proc/sys/vm/compact_memory ]; then
	notok "compactsnoop: /proc/sys/vm/compact_memory is missing (kernel without CONFIG_COMPACTION)"
elif tool_start cs '^TIME(s) ' compactsnoop -T -K; then
	writer=$(compact)
	sleep 0.5
	tstop cs 30
	c=$(awk -v p="$writer" '$2 == "sh" && $3 == p && $4 ~ /^[0-9]+$/ && $5 ~ /^ZONE_/ && $6 == -1 && $7 == "SYNC"' "$W/cs.out" | wc -l)
	if [ "$c" = "$ZONES" ]; then ok "compactsnoop: $ZONES events (one per populated zone) from the writer, pid $writer"
	else notok "compactsnoop: $c events from pid $writer (want $ZONES): $(head -c 600 "$W/cs.out")"; fi
	if grep -q '^	.*compact_node' "$W/cs.out" || grep -q '^	.*sysctl_compaction_handler' "$W/cs.out"; then
		ok "compactsnoop -K: kernel stacks through the compaction sysctl"
	else
		notok "compactsnoop -K: no compact_node frame: $(head -c 400 "$W/cs.out")"
	fi
	if head -1 "$W/cs.out" | grep -Eq '^TIME\(s\)        COMM           PID    NODE ZONE         ORDER MODE      LAT\(ms\)           STATUS$'; then
		ok "compactsnoop: bcc's header"
	else
		notok "compactsnoop header: $(head -1 "$W/cs.out")"
	fi
fi
if [ -w /proc/sys/vm/compact_memory ] && tool_start csj '' compactsnoop -j; then
	writer=$(compact)
	sleep 0.5
	tstop csj 30
	json_ok csj
	c=$(python3 -c 'import json,sys
print(sum(1 for l in open(sys.argv[1]) if l.strip() for e in [json.loads(l)]
          if e["pid"] == int(sys.argv[2]) and e["zone"].startswith("ZONE_") and e["status"]))' "$W/csj.out" "$writer" 2>&1)
	if [ "$c" = "$ZONES" ]; then ok "compactsnoop -j: $ZONES events of pid $writer"; else notok "compactsnoop -j: '$c' (want $ZONES)"; fi
fi

# 1b. compactsnoop -e: bcc's extended columns; MIN/LOW/HIGH are the zone's
#     watermarks in /proc/zoneinfo, FRAGIDX -1.000 for these whole-zone
#     compactions (order -1: the kernel computes no index for them)
if [ -w /proc/sys/vm/compact_memory ] && tool_start cse '^COMM ' compactsnoop -e; then
	writer=$(compact)
	sleep 0.5
	tstop cse 30
	if head -1 "$W/cse.out" | grep -Eq '^COMM +PID +NODE ZONE +ORDER MODE    FRAGIDX  MIN      LOW      HIGH     FREE       LAT\(ms\) +STATUS$'; then
		ok "compactsnoop -e: bcc's extended header"
	else notok "compactsnoop -e header: '$(head -1 "$W/cse.out")'"; fi
	r=$(python3 - "$W/cse.out" "$writer" <<'EOF2'
import re, sys
zi, cur = {}, None
for l in open("/proc/zoneinfo"):
    m = re.match(r"Node (\d+), zone +(\S+)", l)
    if m: cur = (m.group(1), "ZONE_" + m.group(2).upper()); zi[cur] = {}; continue
    m = re.match(r"\s+(min|low|high)\s+(\d+)$", l)
    if m and cur: zi[cur][m.group(1)] = m.group(2)
good = bad = 0
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 13 or f[1] != sys.argv[2]: continue
    w = zi.get((f[2], f[3]), {})
    if f[6] == "-1.000" and [f[7], f[8], f[9]] == [w.get("min"), w.get("low"), w.get("high")] and int(f[10]) > 0: good += 1
    else: bad += 1; print("bad:", l.strip(), w, file=sys.stderr)
print(good, bad)
EOF2
)
	if [ "$r" = "$ZONES 0" ]; then ok "compactsnoop -e: $ZONES events, FRAGIDX -1.000, MIN/LOW/HIGH = /proc/zoneinfo, FREE > 0"
	else notok "compactsnoop -e: good/bad '$r' (want $ZONES 0): $(head -c 400 "$W/cse.out")"; fi
fi

# 2. extfrag -I against the formula, on a quiet moment of /proc/buddyinfo
try=0 done=
while [ $try -lt 10 ] && [ -z "$done" ]; do
	cat /proc/buddyinfo > "$W/b1"
	"$CB" extfrag -I > "$W/fi.out" 2> "$W/fi.err"
	"$CB" extfrag -I -j > "$W/fij.out" 2>> "$W/fi.err"
	cat /proc/buddyinfo > "$W/b2"
	cmp -s "$W/b1" "$W/b2" && done=1
	try=$((try + 1))
done
if [ -z "$done" ]; then
	notok "extfrag: /proc/buddyinfo never stayed still across two reads (10 tries)"
else
	r=$(python3 - "$W/b1" "$W/fi.out" "$W/fij.out" <<'EOF'
import json, sys
def index(free, o):
    total = sum(free); pages = sum(n << k for k, n in enumerate(free))
    suitable = sum(n << (k - o) for k, n in enumerate(free) if k >= o)
    if not total: return 0
    if suitable: return -1000
    return 1000 - (1000 + pages * 1000 // (1 << o)) // total
def fmt(i):  # C's "%2d.%03d" of i / 1000 and i % 1000 (truncating)
    q = int(i / 1000)
    return "%2d.%03d" % (q, i - q * 1000)
want, errs = [], []
for line in open(sys.argv[1]):
    head, nums = line.split("zone")[0], line.split()[4:]
    node, zone = int(line.split()[1].rstrip(",")), line.split()[3]
    free = [int(x) for x in nums]
    idx = [index(free, o) for o in range(len(free))]
    want.append(("Node %d, zone %8s " % (node, zone)) + "".join(fmt(i) + " " for i in idx))
got = [l.rstrip("\n") for l in open(sys.argv[2]) if l.startswith("Node")]
if got != want:
    errs.append("text: %r != %r" % (got[:2], want[:2]))
doc = json.loads(open(sys.argv[3]).read())
for e in doc["fragindex"]:
    free = None
    for line in open(sys.argv[1]):
        f = line.split()
        if int(f[1].rstrip(",")) == e["node"] and f[3] == e["zone"]:
            free = [int(x) for x in f[4:]]
    if free is None or free[e["order"]] != e["nr_free"] or abs(index(free, e["order"]) / 1000 - e["index"]) > 1e-9:
        errs.append("json: %r" % e)
print("ok" if not errs else "; ".join(errs)[:600])
EOF
)
	if [ "$r" = ok ]; then ok "extfrag -I: text and JSON equal the kernel's formula on /proc/buddyinfo ($ZONES zones)"
	else notok "extfrag -I: $r"; fi
fi

# 3. extfrag tracing: a report per interval, JSON, Prometheus
if tool_start ef '^Tracing page allocation fallbacks' extfrag -s -i 1; then
	wait_for "$W/ef.out" '^Fragmentation index' 50 # (the first report, at 1 s)
	tstop ef 30
	if grep -Eq '^\[[0-9:]{8}\]$' "$W/ef.out" && grep -q '^Fragmentation index (as extfrag/extfrag_index, from /proc/buddyinfo):$' "$W/ef.out"; then
		ok "extfrag -i 1: reports with the index"
	else
		notok "extfrag -i 1: $(head -c 400 "$W/ef.out")"
	fi
fi
if tool_start efj '' extfrag -j --prom "$W/ef.prom" -i 1; then
	wait_for "$W/efj.out" '^{' 50 # (the first report, at 1 s)
	tstop efj 30
	json_ok efj
	prom_ok "$W/ef.prom" extfrag
	if grep -q '^corebox_extfrag_index{node="0",zone="[A-Za-z0-9]*",order="0"} ' "$W/ef.prom"; then ok "extfrag --prom: index gauges by node, zone, order"
	else notok "extfrag --prom: $(head -c 300 "$W/ef.prom")"; fi
fi
if tool_start efd '^Tracing page allocation fallbacks' extfrag -d 1; then twait efd 40; fi

usage_exit2 "compactsnoop bad pid" compactsnoop -p 0x
usage_exit2 "extfrag bad interval" extfrag -i 0

snoop_left
[ "$fails" = 0 ]
