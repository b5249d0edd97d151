#!/bin/sh
# loads end to end: `loads -v 1 3` prints three "HH:MM:SS load averages:
# a.bcd e.fgh i.jkl" lines; each equals, within rounding (0.01: the file
# has two decimals), the /proc/loadavg the test reads every 0.1 s
# meanwhile; -v names the source (the kernel's avenrun through BPF, or
# /proc/loadavg without CONFIG_KALLSYMS_ALL), the one the test expects
# from /proc/kallsyms; --json/--prom agree with the values; SIGINT exits 0.
# With avenrun in kallsyms the running tool must hold a BPF program and
# its maps (their ids read from its /proc/PID/fdinfo) and none may be left
# after it exited; without, it must hold no BPF object at all, and the
# leak check is a SKIP.
# Run as root from the repository root: sh tests/e2e/loads.sh
set -u
T=loads
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# sample /proc/loadavg every 0.1 s into $W/la until killed
( while :; do cut -d' ' -f1-3 /proc/loadavg; sleep 0.1; done ) > "$W/la" &
SPID=$!
timeout 15 "$CB" loads -v 1 3 > "$W/t.out" 2> "$W/t.err"
rc=$?
kill "$SPID"
wait "$SPID" 2>/dev/null
SPID=
src=$(sed -n 's/^loads: //p' "$W/t.err" | head -1)
[ $rc = 0 ] && ok "-v 1 3: exit 0 ($src)" || notok "-v 1 3: status $rc: $(cat "$W/t.err")"
# the source loads must pick: avenrun with BPF when kallsyms has its address
if grep -Eq '^[0-9a-f]+ [a-zA-Z] avenrun$' /proc/kallsyms && ! grep -q '^0* [a-zA-Z] avenrun$' /proc/kallsyms; then
	avenrun=1 want="reading the kernel's avenrun with BPF"
else
	avenrun= want="avenrun is not in /proc/kallsyms"
fi
case $src in
"$want"*) ok "-v names the source /proc/kallsyms implies: $want" ;;
*) notok "-v: '$src', expected '$want...'" ;;
esac
grep -q '^Reading load averages... Hit Ctrl-C to end.$' "$W/t.out" && ok "banner" || notok "banner: $(head -1 "$W/t.out")"
res=$(python3 - "$W/t.out" "$W/la" <<'PY'
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

if tool_start t '^Reading load averages' "$T" --json --prom "$W/prom"; then
	sleep 1.5
	snoop_stop "--json --prom"
	n=$(json_lines "$W/t.out")
	case $n in bad*|0) notok "JSON: $n" ;; *) ok "$n JSON documents parse" ;; esac
	jl=$(tail -1 "$W/t.out" | python3 -c 'import json,sys; print(json.loads(sys.stdin.read())["load1"])')
	pl=$(prom_value "$W/prom" corebox_loads_load1)
	if python3 -c 'import sys; sys.exit(abs(float(sys.argv[1]) - float(sys.argv[2])) > 1e-9)' "${jl:-x}" "${pl:-y}" 2>/dev/null; then
		ok "Prometheus load1 = JSON ($pl)"
	else
		notok "Prometheus load1 '$pl' vs JSON '$jl'"
	fi
fi
exits_2 "interval 0" loads 0
# the BPF objects the running tool held (tool_start recorded them) are gone
if [ -n "$avenrun" ]; then
	snoop_left
	grep -q '^map ' "$W/ours" && ok "the running tool held its maps too" || notok "no BPF map ids recorded from the running tool"
else
	touch "$W/ours"
	if [ ! -s "$W/ours" ]; then
		ok "avenrun not in /proc/kallsyms: the running tool held no BPF object (it reads /proc/loadavg)"
	else
		notok "avenrun not in /proc/kallsyms, yet the running tool held $(tr '\n' ' ' < "$W/ours")"
	fi
	ok "nothing of loads left loaded after exit # SKIP avenrun not in /proc/kallsyms: loads loads no BPF here"
fi
[ $fails = 0 ]
