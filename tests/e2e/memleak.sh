#!/bin/sh
# memleak end to end: a helper leaks exactly K allocations of LEAK bytes
# from cbx_leak_marker() and frees all N allocations of FREED bytes made
# by cbx_freed_marker().  memleak -p must report "K*LEAK bytes in K
# allocations from stack" with cbx_leak_marker among the frames, and
# nothing from cbx_freed_marker; -c must start the helper itself and do
# the same; -a lists the K addresses; --combined-only agrees; JSON
# parses and carries the same numbers; kernel mode (and the seed's
# "memleak.py -o 10 60 1") reports; SIGINT exits 0; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/memleak.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-memleak.XXXXXX)
K=37
LEAK=4321
N=200
FREED=1234
T=memleak
fails=0
HPID= TPID=
. tests/e2e/lib.sh
. tests/e2e/helpers/mem.sh

bg_traps

need_corebox
mem_build cbx_leak
bpf_count_build
bpf_snapshot before

hstart() { # start the helper, waiting for SIGUSR1
	: > "$W/helper.out"
	"$W/cbx_leak" $K $LEAK $N $FREED > "$W/helper.out" 2>&1 &
	HPID=$!
	wait_for "$W/helper.out" '^ready' 50 || { notok "helper did not start"; return 1; }
}
hstop() { kill -KILL "$HPID" 2>/dev/null; wait "$HPID" 2>/dev/null; HPID=; }

# check LABEL: the leak (and only it) in the last report of $W/LABEL.out
check() {
	want="$((K * LEAK)) bytes in $K allocations from stack"
	last=$(awk '/^\[[0-9]+:[0-9]+:[0-9]+\] Top [0-9]+ stacks with outstanding allocations:$/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }' "$W/$1.out")
	if printf '%s' "$last" | grep -qx "$want" &&
		printf '%s' "$last" | grep -A3 -x "$want" | grep -Eq '^	[0-9]+ \[<[0-9a-f]{16}>\] cbx_leak_marker\+0x[0-9a-f]+ \[.*cbx_leak\]$'; then
		ok "$1: '$want' from cbx_leak_marker"
	else
		notok "$1: no '$want' from cbx_leak_marker in the last report: $(printf '%s' "$last" | head -c 700)"
	fi
	if grep -q cbx_freed_marker "$W/$1.out" || grep -q "^$((N * FREED)) bytes" "$W/$1.out"; then
		notok "$1: the freed allocations are reported"
	else
		ok "$1: nothing from cbx_freed_marker (all $N freed)"
	fi
}

# two_more_reports LABEL PATTERN: until $W/LABEL.out has two more lines
# matching PATTERN (a report's first) than now, bounded (5 s)
two_more_reports() {
	n=$(grep -c "$2" "$W/$1.out")
	i=0
	while [ $i -lt 50 ]; do
		[ "$(grep -c "$2" "$W/$1.out")" -ge $((n + 2)) ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# 1. -p PID, a report every second
if hstart; then
	if tool_start pid 'Attaching to pid' memleak -p "$HPID" -o 0 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50 || notok "pid: helper did not finish"
		two_more_reports pid 'Top .* stacks'
		tstop pid 50
		check pid
		if grep -q "^Attaching to pid $HPID, Ctrl+C to quit.\$" "$W/pid.out"; then ok "pid: banner"; else notok "pid: banner: $(head -2 "$W/pid.out")"; fi
	fi
	hstop
fi

# 1b. the links: programs with the same code (the allocators' returns:
# malloc, calloc, realloc, valloc, memalign... all record the returned
# address the same way) share one uprobe_multi link (6.6+), which detaches
# in one grace period; each uprobe on a link of its own would hold as many
# links as uprobes.  Older kernels: one perf uprobe link each.
if hstart; then
	if tool_start links 'Attaching to pid' memleak -p "$HPID" 1; then
		for f in /proc/$TPID/fdinfo/*; do
			grep -q '^link_id:' "$f" 2>/dev/null && cat "$f"
		done > "$W/links.fdinfo"
		tstop links 50
		nlinks=$(grep -c '^link_id:' "$W/links.fdinfo")
		nmulti=$(grep -Ec '^link_type:[[:space:]]*u(ret)?probe_multi' "$W/links.fdinfo")
		nprobes=$(awk '/^uprobe_cnt:/ { n += $2 } END { print n + 0 }' "$W/links.fdinfo")
		most=$(awk '/^uprobe_cnt:/ && $2 > m { m = $2 } END { print m + 0 }' "$W/links.fdinfo")
		major=$(uname -r | cut -d. -f1) minor=$(uname -r | cut -d. -f2 | sed 's/[^0-9].*//')
		if [ "$major" -gt 6 ] || { [ "$major" = 6 ] && [ "$minor" -ge 6 ]; }; then
			if [ "$nlinks" -gt 0 ] && [ "$nmulti" = "$nlinks" ] && [ "$nprobes" -gt "$nlinks" ] && [ "$most" -ge 2 ]; then
				ok "links: $nprobes uprobes in $nlinks uprobe_multi links (up to $most on one)"
			else notok "links: $nlinks links, $nmulti uprobe_multi, $nprobes uprobes in them, at most $most on one"; fi
		elif [ "$nlinks" -ge 2 ]; then ok "links: $nlinks perf uprobe links (kernel before uprobe_multi)"
		else notok "links: $nlinks links"; fi
	fi
	hstop
fi

# 2. -a: every leaked address listed under the stack
if hstart; then
	if tool_start alloc 'Attaching to pid' memleak -a -p "$HPID" -o 0 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50
		two_more_reports alloc 'Top .* stacks'
		tstop alloc 50
		c=$(awk '/^\[/ { n = 0 } /^	addr = 0x[0-9a-f]+ size = '$LEAK'$/ { n++ } END { print n + 0 }' "$W/alloc.out")
		if [ "$c" = $K ]; then ok "-a: $K 'addr = ... size = $LEAK' lines"; else notok "-a: $c address lines for $LEAK bytes (want $K)"; fi
	fi
	hstop
fi

# 3. --combined-only: the same totals from the per-stack sums
if hstart; then
	if tool_start combined 'Attaching to pid' memleak --combined-only -p "$HPID" 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50
		two_more_reports combined 'Top .* stacks'
		tstop combined 50
		check combined
	fi
	hstop
fi

# 4. -c COMMAND: memleak starts the helper (which then leaks at once)
if tool_start command 'Attaching to pid' memleak -c "$W/cbx_leak $K $LEAK $N $FREED now" -o 0 1 4; then
	cpid=$(sed -n 's/^Attaching to pid \([0-9]*\),.*/\1/p' "$W/command.out")
	twait command 150
	check command
	if [ -n "$cpid" ] && ! kill -0 "$cpid" 2>/dev/null; then ok "-c: the command (pid $cpid) was stopped and reaped"
	else notok "-c: command pid '$cpid' still there"; kill -KILL "$cpid" 2>/dev/null; fi
fi

# 5. JSON: one report per interval with the stack's bytes, count, frames
if hstart; then
	if tool_start json "" memleak -j -p "$HPID" -o 0 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50
		two_more_reports json '^{'
		tstop json 50
		json_ok json
		if python3 -c 'import json,sys
K, L = int(sys.argv[2]), int(sys.argv[3])
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
hit = [s for d in docs for s in d.get("stacks", []) if s["bytes"] == K * L and s["allocations"] == K
       and any("cbx_leak_marker" in f for f in s["frames"])]
sys.exit(0 if hit else 1)' "$W/json.out" $K $LEAK; then
			ok "-j: a stack with bytes $((K * LEAK)), allocations $K, frame cbx_leak_marker"
		else
			notok "-j: no such stack: $(tail -c 600 "$W/json.out")"
		fi
	fi
	hstop
fi

# 5b. -t: every call the helper makes, in libbpf-tools' trace messages:
# K entries and exits of LEAK bytes (K distinct results), N of FREED
# bytes, and N frees of FREED bytes each of an address the alloc line just
# before returned; -t -j: the same calls as JSON events
if hstart; then
	if tool_start trace 'Attaching to pid' memleak -t -p "$HPID" 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50
		sleep 0.5
		tstop trace 50
		got=$(awk -v L=$LEAK -v F=$FREED '
			$0 == "alloc entered, size = " L { le++ }
			$0 == "alloc entered, size = " F { fe++ }
			$1 $2 == "allocexited," && $5 == L "," { lx++; seen[$8] = 1 }
			$1 $2 == "allocexited," && $5 == F "," { fx++; last = $8 }
			$1 $2 == "freeentered," && $8 == F { fr++; if ($5 == last ",") paired++ }
			END { n = 0; for (a in seen) n++; printf "%d %d %d %d %d %d %d", le, lx, n, fe, fx, fr, paired }' "$W/trace.out")
		if [ "$got" = "$K $K $K $N $N $N $N" ]; then
			ok "-t: $K allocs of $LEAK (distinct results), $N allocs of $FREED each freed at the address returned"
		else
			notok "-t: entered/exited/distinct $LEAK, entered/exited/freed/paired $FREED: '$got': $(head -5 "$W/trace.out" | tr '\n' '|')"
		fi
	fi
	hstop
fi
if hstart; then
	if tool_start tjson 'Attaching to pid' memleak -t -j -p "$HPID" 1; then
		kill -USR1 "$HPID"
		wait_for "$W/helper.out" '^done' 50
		sleep 0.5
		tstop tjson 50
		got=$(python3 -c 'import json, sys
pid, L, F = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
c = {}
for l in open(sys.argv[1]):
    o = json.loads(l)
    if "event" in o and o["pid"] == pid and o["size"] in (L, F):
        k = "%s/%d" % (o["event"], o["size"])
        c[k] = c.get(k, 0) + 1
print(" ".join("%s=%d" % kv for kv in sorted(c.items())))' "$W/tjson.out" "$HPID" $LEAK $FREED 2>&1)
		want="alloc_enter/$FREED=$N alloc_enter/$LEAK=$K alloc_exit/$FREED=$N alloc_exit/$LEAK=$K free/$FREED=$N"
		if [ "$got" = "$want" ]; then ok "-t -j: $want"
		else notok "-t -j: '$got', want '$want'"; fi
	fi
	hstop
fi

# 6. kernel allocators, and the seed's command line through a bcc-style name
ln -sf "$(cd "$(dirname "$CB")" && pwd)/$(basename "$CB")" "$W/memleak.py"
CBSAVE=$CB
CB=$W/memleak.py
if tool_start seed 'Attaching to kernel allocators, Ctrl+C to quit.' -o 10 60 1; then
	sleep 1
	tstop seed 50
	if grep -Eq '^\[[0-9]+:[0-9]+:[0-9]+\] Top [0-9]+ stacks with outstanding allocations:$' "$W/seed.out" &&
		grep -Eq '^[0-9]+ bytes in [0-9]+ allocations from stack$' "$W/seed.out" &&
		grep -Eq '^	0 \[<ffff[0-9a-f]{12}>\] [a-zA-Z_]' "$W/seed.out"; then
		ok "memleak.py -o 10 60 1 (kernel, Ctrl-C after 1 s): a report with kernel stacks"
	else
		notok "memleak.py -o 10 60 1: $(head -c 500 "$W/seed.out")"
	fi
fi
CB=$CBSAVE

# 7. bad input
usage_exit2 "-p with -c" memleak -p 1 -c true
usage_exit2 "-z > -Z" memleak -z 10 -Z 5
usage_exit2 "bad --sort" memleak --sort name
"$CB" memleak -O /nonexistent/libfoo.so -p $$ 1 1 > "$W/bad.out" 2>&1
rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$W/bad.out")" -le 2 ]; then ok "missing -O object: one line, status 1"
else notok "missing -O object: status $rc: $(head -c 300 "$W/bad.out")"; fi

snoop_left
[ "$fails" = 0 ]
