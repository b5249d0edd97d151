#!/bin/sh
# loads end to end: `loads -v 1 3` prints three "HH:MM:SS load averages:
# a.bcd e.fgh i.jkl" lines; each equals, within rounding (0.01: the file
# has two decimals), the /proc/loadavg the test reads every 0.1 s
# meanwhile; -v names the source (the kernel's avenrun through BPF, or
# /proc/loadavg without CONFIG_KALLSYMS_ALL); --json/--prom agree with the
# values; SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/loads.sh
set -u
T=loads
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# sample /proc/loadavg every 0.1 s into $W/la until killed
( while :; do cut -d' ' -f1-3 /proc/loadavg; sleep 0.1; done ) > "$W/la" &
SPID=$!
timeout 15 "$CB" loads -v 1 3 > "$W/out" 2> "$W/err"
rc=$?
kill "$SPID"
wait "$SPID" 2>/dev/null
SPID=
src=$(sed -n 's/^loads: //p' "$W/err" | head -1)
[ $rc = 0 ] && ok "-v 1 3: exit 0 ($src)" || notok "-v 1 3: status $rc: $(cat "$W/err")"
grep -q '^Reading load averages... Hit Ctrl-C to end.$' "$W/out" && ok "banner" || notok "banner: $(head -1 "$W/out")"
res=$(python3 - "$W/out" "$W/la" <<'PY'
import re, sys
lines = [l for l in open(sys.argv[1]) if " load averages: " in l]
seen = {tuple(map(float, l.split())) for l in open(sys.argv[2]) if l.strip()}
bad = []
for l in lines:
    m = re.match(r'^\d\d:\d\d:\d\d load averages: (\d+\.\d{3}) (\d+\.\d{3}) (\d+\.\d{3})$', l.rstrip('\n'))
    if not m:
        bad.append("format: %r" % l)
        continue
    v = tuple(map(float, m.groups()))
    if not any(all(abs(a - b) <= 0.0101 for a, b in zip(v, s)) for s in seen):
        bad.append("%s matches no /proc/loadavg of %s" % (v, sorted(seen)))
if len(lines) != 3:
    bad.append("%d lines" % len(lines))
print(("bad " + "; ".join(bad)) if bad else "ok 3 lines, each equal to /proc/loadavg (%s) within rounding" % (sorted(seen)[0],))
PY
)
case $res in ok*) ok "${res#ok }" ;; *) notok "${res#bad }" ;; esac

if tool_start '^Reading load averages' --json --prom "$W/prom"; then
	sleep 1.5
	snoop_stop "--json --prom"
	n=$(json_lines "$W/out")
	case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
	jl=$(tail -1 "$W/out" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["load1"])')
	pl=$(prom_value "$W/prom" corebox_loads_load1)
	if python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-9)' "${jl:-x}" "${pl:-y}" 2>/dev/null; then
		ok "Prometheus load1 = JSON ($pl)"
	else
		notok "Prometheus load1 '$pl' vs JSON '$jl'"
	fi
fi
exits_2 "interval 0" loads 0
# without avenrun in kallsyms loads holds no BPF at all: check what it held, if anything
touch "$W/ours"
"$W/bpf_count" > "$W/after"
left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
[ -z "$left" ] && ok "nothing of loads left loaded ($(grep -c . "$W/ours") ids held)" || notok "left loaded: $left"
[ $fails = 0 ]
