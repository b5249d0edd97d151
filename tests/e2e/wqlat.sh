#!/bin/sh
# wqlat end to end: a loop device over a plain file (no direct I/O, so
# every request goes through the device's own workqueue "loopN"); the
# test makes K O_DIRECT reads of it, one dd process each, so each finds
# the device's worker idle and queues its work once (reads back to back
# can find the work still pending from the previous one, and share its
# run).  `wqlat -W -w loopN --json --prom F 3 1` must
# count exactly K in one histogram labeled wqname=loopN (and the
# Prometheus file the same count); the text run (-W -w, SIGINT) must show
# the "wqname = loopN" section in bcc's layout with rows adding up to K;
# without -W no section line; -N says nsecs; a -w name of 24 bytes is a
# usage error; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/wqlat.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-wqlat.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-wqlat.XXXXXX)
T=wqlat
K=40
fails=0
LA= TPID= HPID=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$LA" ] && losetup -d "$LA" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
bpf_snapshot before
truncate -s 8M "$W/disk" && LA=$(losetup --find --show "$W/disk") || { notok "losetup failed (no loop device support?)"; exit 1; }
command -v udevadm >/dev/null 2>&1 && timeout 10 udevadm settle 2>/dev/null
WQ=loop${LA#/dev/loop}

reads() {
	i=0
	while [ $i -lt $K ]; do
		dd if="$LA" of=/dev/null bs=4096 count=1 skip=$i iflag=direct status=none || notok "dd from $LA failed"
		i=$((i + 1))
	done
}

# the sum of the counts in the text histogram(s) of FILE
text_sum() { awk -F: '/ -> / { split($2, c, " "); s += c[1] } END { print s + 0 }' "$1"; }

# JSON and Prometheus (each exact count gets a second try: on a busy
# machine a worker can still be finishing when the next read comes)
for try in 1 2; do
	tool_start j '^Tracing work queue' "$T" -W -w "$WQ" --json --prom "$W/prom" 3 1 || break
	reads
	reap "$TPID" 100
	TPID=
	got=$(python3 - "$W/j.out" "$WQ" "$W/prom" << 'PY'
import json, sys
h = [x for l in open(sys.argv[1]) for x in json.loads(l).get("latency", [])]
n = sum(b["count"] for x in h for b in x["buckets"])
prom = [l for l in open(sys.argv[3]) if l.startswith("corebox_wqlat_latency_seconds_count{")]
names = sorted(set(x.get("wqname") for x in h))
print(n, names == [sys.argv[2]] and all(x["unit"] == "usecs" for x in h),
      prom == ['corebox_wqlat_latency_seconds_count{wqname="%s"} %d\n' % (sys.argv[2], n)])
PY
)
	[ "$got" = "$K True True" ] && break
done
[ "$rc" = 0 ] && ok "--json 3 1: exit 0" || notok "--json 3 1: status $rc"
if [ "$got" = "$K True True" ]; then ok "-W -w $WQ: $K work items of $K reads, one histogram, Prometheus count $K"
else notok "-W -w $WQ: got '$got' (count, labels, prom) for $K reads: $(head -c 600 "$W/j.out")"; fi

for try in 1 2; do
	tool_start t '^Tracing work queue' "$T" -W -w "$WQ" || break
	reads
	sleep 0.3
	snoop_stop "-W -w $WQ"
	[ "$(text_sum "$W/t.out")" = $K ] && break
done
n=$(text_sum "$W/t.out")
if [ "$n" = $K ] && grep -qx "wqname = $WQ" "$W/t.out" && grep -q '^     usecs               : count     distribution$' "$W/t.out" &&
	grep -q '^         0 -> 1          : [0-9]' "$W/t.out"; then
	ok "text: section 'wqname = $WQ', bcc's header and rows, $n counted"
else
	notok "text: counted $n of $K: $(head -c 600 "$W/t.out")"
fi

if tool_start n '^Tracing work queue' "$T" -N -w "$WQ"; then
	reads
	sleep 0.3
	snoop_stop "-N -w $WQ"
	if grep -q '^     nsecs  ' "$W/n.out" && ! grep -q '^wqname' "$W/n.out" && [ "$(text_sum "$W/n.out")" -ge 1 ] && [ "$(text_sum "$W/n.out")" -le $K ]; then
		ok "-N: nsecs, no section without -W"
	else
		notok "-N -w: $(head -c 600 "$W/n.out")"
	fi
fi

usage_exit2 "-w with a 24-byte name" "$T" -w abcdefghijklmnopqrstuvwx
usage_exit2 "three positionals" "$T" 1 1 1
snoop_left
[ "$fails" = 0 ]
