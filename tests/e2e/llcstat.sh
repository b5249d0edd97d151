#!/bin/sh
# llcstat end to end.  Whether the kernel offers hardware cache events is
# asked independently (helpers/llc_pmu.c probe opens the same perf event).
# Without a hardware PMU (this machine, qemu TCG, CI): `llcstat 1` prints
# exactly the one line naming that error, exits 1 and leaves nothing
# loaded; the live report is then a SKIP ("no hardware PMU").  With one:
# a process the test runs (llc_pmu stream: 64 MiB walked a cache line at a
# time) appears under its pid and name with nonzero references, beside
# the header and totals line.  The report's arithmetic on a recorded
# sample set (--replay): samples generated here, the expected report
# computed here (per {pid, cpu} or {pid, tid, cpu} sums, hit %, totals)
# and compared byte for byte, with -t too; JSON and Prometheus agree.
# Run as root from the repository root: sh tests/e2e/llcstat.sh
set -u
T=llcstat
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# 1. the live path
build_helper llc_pmu
pmu=$("$W/llc_pmu" probe)
case $pmu in
yes)
	"$W/llc_pmu" stream 4 > "$W/stream" &
	HPID=$!
	wait_for "$W/stream" '^pid ' 50
	spid=$(sed -n 's/^pid //p' "$W/stream")
	timeout 20 "$CB" llcstat -c 100 2 > "$W/live" 2> "$W/err"
	rc=$?
	reap "$HPID" 50
	HPID=
	refs=$(awk -v p="${spid:-x}" '$1 == p && $2 == "llc_pmu" { s += $4 } END { print s + 0 }' "$W/live")
	if [ $rc = 0 ] && grep -q '^PID      NAME             CPU     REFERENCE         MISS    HIT%$' "$W/live" &&
		grep -q '^Total References: [0-9]* Total Misses: [0-9]* Hit Rate: [0-9.]*%$' "$W/live"; then
		ok "live: header and totals"
	else
		notok "live: status $rc: $(head -c 300 "$W/live") $(cat "$W/err")"
	fi
	if [ "$refs" -gt 0 ]; then
		ok "live: the process the test ran (llc_pmu, pid $spid) has $refs references"
	else
		notok "live: no references for llc_pmu (pid ${spid:-?}): $(grep -c . "$W/live") lines"
	fi
	;;
no\ *)
	timeout 20 "$CB" llcstat 1 > "$W/live" 2> "$W/err"
	rc=$?
	want="llcstat: the kernel offers no hardware cache events (perf_event_open: ${pmu#no }): llcstat needs a CPU performance monitoring unit (bare metal, or a VM with a virtual PMU)"
	if [ $rc = 1 ] && [ "$(cat "$W/err")" = "$want" ] && [ ! -s "$W/live" ]; then
		ok "no PMU: exit 1, exactly one line: $want"
	else
		notok "no PMU: status $rc, stderr '$(cat "$W/err")' (want '$want'), stdout '$(head -c 200 "$W/live")'"
	fi
	ok "live report # SKIP no hardware PMU"
	;;
*) notok "llc_pmu probe: '$pmu'" ;;
esac
"$W/bpf_count" > "$W/after"
if [ -z "$(grep -vxF -f "$W/before" "$W/after" | grep -E '^(prog|link) [0-9]+ .*(on_cache|llcstat)')" ]; then
	ok "nothing of llcstat left loaded"
else
	notok "left loaded: $(grep -vxF -f "$W/before" "$W/after" | grep -E 'on_cache|llcstat')"
fi

# 2. a recorded sample set: llcstat's report on it must be the one computed here
python3 - "$W" <<'PY'
import random, sys
w = sys.argv[1]
random.seed(7)
samples = []
for i in range(400):
    pid = random.choice([101, 202, 303, 4040])
    tid = pid + random.choice([0, 0, 1, 2])
    cpu = random.choice([0, 1, 3])
    kind = random.choice(["ref", "ref", "ref", "miss"])
    samples.append((kind, cpu, pid, tid, random.choice([100, 100, 1000]), "comm%d" % pid))
open(w + "/samples", "w").write("# recorded samples\n" + "".join("%s %d %d %d %d %s\n" % s for s in samples))
for per_thread in (0, 1):
    rows = {}
    for kind, cpu, pid, tid, period, comm in samples:
        k = (pid, tid if per_thread else pid, cpu)
        r = rows.setdefault(k, [0, 0, comm])
        r[0 if kind == "ref" else 1] += period
        r[2] = comm
    out = ["%-8s " % "PID" + ("%-8s " % "TID" if per_thread else "") +
           "%-16s %-4s %12s %12s %7s" % ("NAME", "CPU", "REFERENCE", "MISS", "HIT%")]
    tr = tm = 0
    for (pid, tid, cpu) in sorted(rows):
        ref, miss, comm = rows[(pid, tid, cpu)]
        hit = ref - miss if ref > miss else 0
        out.append("%-8u " % pid + ("%-8u " % tid if per_thread else "") +
                   "%-16s %-4u %12u %12u %6.2f%%" % (comm, cpu, ref, miss, hit * 1.0 / ref * 100 if ref else 0))
        tr += ref; tm += miss
    th = tr - tm if tr > tm else 0
    out.append("Total References: %d Total Misses: %d Hit Rate: %.2f%%" % (tr, tm, th * 1.0 / tr * 100 if tr else 0))
    open(w + "/expect%d" % per_thread, "w").write("\n".join(out) + "\n")
PY
for t in 0 1; do
	flag=
	[ $t = 1 ] && flag=-t
	"$CB" llcstat $flag --replay "$W/samples" > "$W/rep$t" 2>&1
	rc=$?
	sed 1d "$W/rep$t" > "$W/got$t"
	if [ $rc = 0 ] && head -1 "$W/rep$t" | grep -q '^Running for 10 seconds or Hit Ctrl-C to end.$' && cmp -s "$W/got$t" "$W/expect$t"; then
		ok "--replay $flag: the report equals the one computed from the samples ($(($(wc -l < "$W/got$t") - 2)) rows)"
	else
		notok "--replay $flag: status $rc; diff: $(diff "$W/expect$t" "$W/got$t" | head -5 | tr '\n' '|')"
	fi
done
"$CB" llcstat --replay "$W/samples" --json --prom "$W/prom" > "$W/json" 2> /dev/null
n=$(json_lines "$W/json")
case $n in bad*|0) notok "JSON: $n" ;; *) ok "--replay --json: $n JSON document parses" ;; esac
same=$(python3 - "$W/json" "$W/prom" "$W/expect0" <<'PY'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
refs = sum(r["references"] for r in d["llcstat"])
prom = sum(float(l.split()[-1]) for l in open(sys.argv[2]) if l.startswith("corebox_llcstat_references_total{"))
total = int(open(sys.argv[3]).read().splitlines()[-1].split()[2])
print("yes %d" % refs if refs == prom == total else "no: json %d prom %d report %d" % (refs, prom, total))
PY
)
case $same in yes*) ok "JSON, Prometheus and the report agree on ${same#yes } references" ;; *) notok "$same" ;; esac
printf 'bogus line\n' > "$W/bad"
"$CB" llcstat --replay "$W/bad" > /dev/null 2> "$W/err"
rc=$?
[ $rc = 1 ] && grep -q 'expected "ref|miss CPU PID TID PERIOD COMM"' "$W/err" && ok "--replay: a bad line is refused, exit 1" ||
	notok "--replay bad line: status $rc: $(cat "$W/err")"
exits_2 "two positionals" llcstat 1 2
[ $fails = 0 ]
