#!/bin/sh
# oomkill, drsnoop and vmscan end to end, with a memory cgroup (v2 where
# its memory controller can be enabled, else v1's; see helpers/mem.sh):
#   oomkill:  a helper touching 64 MiB in a cgroup limited to 8 MiB is
#             OOM-killed: the line names its PID and comm as the victim
#             (and as the trigger: it allocated); JSON the same;
#   drsnoop -M, vmscan: a helper writing and reading a 48 MiB file in a
#             cgroup limited to 16 MiB makes the kernel reclaim its page
#             cache: drsnoop -M shows memcg reclaim events of its TID,
#             vmscan's memory cgroup reclaim time is > 0 (JSON), and its
#             Prometheus counters equal the JSON reports' sums.
# Global direct reclaim needs pressure on the whole machine: make vmtest
# checks that in a small VM.  SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/memreclaim.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cb-memreclaim.XXXXXX 2>/dev/null || mktemp -d /tmp/cb-memreclaim.XXXXXX)
T=memreclaim
fails=0
HPID= TPID= CG=
. tests/e2e/lib.sh
. tests/e2e/helpers/mem.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	memcg_remove
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
mem_build cbx_hog
bpf_count_build
bpf_snapshot before

if ! memcg_create cbx_oom_$$ 8388608; then
	notok "no memory cgroup controller (v1 or v2) to limit a test process"
	exit 1
fi
echo "# memory cgroup: $CGKIND $CG"

# 1. oomkill: the hog over its limit
for mode in text json; do
	args=
	[ $mode = json ] && args=-j
	if tool_start oom$mode 'Tracing OOM kills' oomkill $args; then
		: > "$W/hog.out"
		memcg_run "$W/cbx_hog" anon 64 > "$W/hog.out" 2>&1
		hog=$(sed -n 's/^start //p' "$W/hog.out")
		wait_for "$W/oom$mode.out" 'kill\|victim' 30
		tstop oom$mode 30
		if [ $mode = text ]; then
			if grep -Eq "^[0-9:]{8} Triggered by PID $hog \\(\"cbx_hog\"\\), OOM kill of PID $hog \\(\"cbx_hog\"\\), [0-9]+ pages( RSS)?, loadavg: [0-9.]+ [0-9.]+ [0-9.]+ [0-9]+/[0-9]+ [0-9]+\$" "$W/oomtext.out"; then
				ok "oomkill: the kill of cbx_hog (pid $hog) with trigger, victim, pages, loadavg"
			else
				notok "oomkill: no line for pid $hog: $(head -c 500 "$W/oomtext.out")"
			fi
		else
			json_ok oomjson
			if python3 -c 'import json,sys
p = int(sys.argv[2])
sys.exit(0 if any(e["victim_pid"] == p and e["victim_comm"] == "cbx_hog" and e["trigger_pid"] == p
                  for l in open(sys.argv[1]) if l.strip() for e in [json.loads(l)]) else 1)' "$W/oomjson.out" "$hog"; then
				ok "oomkill -j: victim $hog cbx_hog"
			else
				notok "oomkill -j: $(head -c 400 "$W/oomjson.out")"
			fi
		fi
	fi
done
memcg_remove

# 2. drsnoop -M and vmscan: memory cgroup reclaim of page cache
memcg_create cbx_rec_$$ 16777216 || { notok "cannot create the reclaim cgroup"; exit 1; }
if tool_start dr 'Tracing direct and memcg reclaim' drsnoop -M; then
	: > "$W/hog.out"
	memcg_run "$W/cbx_hog" cache "$W/cache.file" 48 > "$W/hog.out" 2>&1
	hog=$(sed -n 's/^start //p' "$W/hog.out")
	sleep 0.3
	tstop dr 30
	c=$(awk -v t="$hog" '$2 == "cbx_hog" && $3 == t && $NF == "memcg"' "$W/dr.out" | wc -l)
	if [ "$c" -gt 0 ]; then ok "drsnoop -M: $c memcg reclaim events of cbx_hog (tid $hog)"
	else notok "drsnoop -M: none for tid $hog: $(head -c 400 "$W/dr.out")"; fi
	if head -2 "$W/dr.out" | grep -Eq '^TIME     COMM             TID     LAT\(ms\) PAGES TYPE$'; then ok "drsnoop: header"
	else notok "drsnoop header: $(head -2 "$W/dr.out")"; fi
fi
rm -f "$W/cache.file"
if tool_start vm '' vmscan -j --prom "$W/vm.prom" 1; then
	memcg_run "$W/cbx_hog" cache "$W/cache.file" 48 > "$W/hog.out" 2>&1
	sleep 1.3
	tstop vm 30
	json_ok vm
	prom_ok "$W/vm.prom" vmscan
	r=$(python3 - "$W/vm.out" "$W/vm.prom" <<'EOF'
import json, re, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
rows = [d for d in docs if "memcg_reclaim_ns" in d]
memcg = sum(d["memcg_reclaim_ns"] for d in rows)
kswapd = sum(d["kswapd_wakeups"] for d in rows)
prom = {}
for l in open(sys.argv[2]):
    m = re.match(r'^(corebox_vmscan_\w+) (\S+)$', l)
    if m:
        prom[m.group(1)] = float(m.group(2))
ok = memcg > 0 and abs(prom.get("corebox_vmscan_memcg_reclaim_seconds_total", -1) - memcg / 1e9) < 1e-6 \
     and prom.get("corebox_vmscan_kswapd_wakeups_total", -1) == kswapd
print("ok" if ok else "memcg_ns=%d prom=%s" % (memcg, prom))
EOF
)
	if [ "$r" = ok ]; then ok "vmscan: memory cgroup reclaim time > 0; Prometheus counters = JSON sums"
	else notok "vmscan: $r"; fi
fi
rm -f "$W/cache.file"
if tool_start vmt '^TIME  ' vmscan 1 2; then
	twait vmt 50
	if head -2 "$W/vmt.out" | tail -1 | grep -Eq '^TIME         S-SLABms  D-RECLAIMms  M-RECLAIMms KSWAPD WRITEPAGE$' &&
		[ "$(grep -Ec '^[0-9:]{8}   +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' "$W/vmt.out")" = 2 ]; then
		ok "vmscan 1 2: the book's header and two rows"
	else
		notok "vmscan text: $(head -c 400 "$W/vmt.out")"
	fi
fi
memcg_remove

snoop_left
[ "$fails" = 0 ]
