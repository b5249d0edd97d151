#!/bin/sh
# Dynamic tracing end to end (trace, funccount, stackcount, argdist,
# funclatency): a helper calls uniquely named functions exactly N times,
# fires a USDT probe M times, mallocs 12345 bytes 5 times and sleeps 20 ms
# 3 times; the tools must see exactly that.  Plus the syscall shortcuts
# and tracepoints on the live kernel (a kernel address passed to read(2)
# is read as user memory: nothing of the kernel's printed), and probe
# parse and type errors (exit 2 with a caret).  Every wait is bounded.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-dyntrace.XXXXXX)
T=dyntrace
N=123
M=7
fails=0
HPID= TPID=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT INT TERM
need_corebox
build_helper cbx_dyn -O2 -fno-omit-frame-pointer
build_helper kaddr_read
H=$W/cbx_dyn

# run NAME HEADER TOOL ARGS...: start the helper, the tool (output in
# $W/NAME.out), wait for HEADER, let the helper run, stop the tool.
run() {
	name=$1 hdr=$2
	shift 2
	helper_start "$W/$name.helper" "$H" $N $M || { notok "$name: helper did not start"; return 1; }
	e2e_begin "$name" "$hdr" 150 "$@" || return 1
	helper_finish "$name" 50
	return 0
}

count_of() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# funccount: uprobes on both functions (N each), USDT probe (M)
if run fc_u 'Tracing' funccount -p @PID@ "$H:cbx_dyn_*"; then
	c1=$(count_of "$W/fc_u.out" cbx_dyn_outer) c2=$(count_of "$W/fc_u.out" cbx_dyn_inner)
	if [ "$c1" = $N ] && [ "$c2" = $N ]; then ok "funccount uprobes: $N calls of each function"
	else notok "funccount uprobes: outer=$c1 inner=$c2, want $N: $(cat "$W/fc_u.out" | tr '\n' '|')"; fi
	grep -q 'Detaching...' "$W/fc_u.out" && ok "funccount prints Detaching..." || notok "funccount: no Detaching..."
fi
if [ -n "$(readelf -n "$H" 2>/dev/null | grep stapsdt)" ]; then
	if run fc_usdt 'Tracing' funccount "u:$H:tick"; then
		c=$(count_of "$W/fc_usdt.out" tick)
		if [ "$c" = $M ]; then ok "funccount USDT: $M firings"; else notok "funccount USDT: $c, want $M: $(tr '\n' '|' < "$W/fc_usdt.out")"; fi
	fi
	if run tr_usdt 'PID' trace -p @PID@ "u:$H:tick \"i=%d v=%d\", arg1, arg2"; then
		c=$(grep -c ' tick  *i=[0-9]* v=4242$' "$W/tr_usdt.out")
		if [ "$c" = $M ]; then ok "trace USDT arguments: $M lines with v=4242"; else notok "trace USDT: $c lines: $(head -5 "$W/tr_usdt.out" | tr '\n' '|')"; fi
	fi
else
	notok "the helper has no USDT notes (systemtap-sdt-dev missing: tests/install-deps.sh)"
fi

# trace: each call's arguments and its string argument
if run tr_u 'PID' trace -p @PID@ "$H:cbx_dyn_inner \"%d %s\", arg1, arg2"; then
	c=$(grep -c 'cbx_dyn_inner  *[0-9]* cbx-unique-string$' "$W/tr_u.out")
	last=$(grep 'cbx_dyn_inner' "$W/tr_u.out" | tail -1 | awk '{print $(NF-1)}')
	if [ "$c" = $N ] && [ "$last" = $((N - 1)) ]; then ok "trace uprobe: $N lines, last arg1 $((N - 1)), string argument"
	else notok "trace uprobe: $c lines (last arg1 '$last'): $(head -3 "$W/tr_u.out" | tr '\n' '|')"; fi
fi
# signed arithmetic: C's division and remainder of negative numbers
if run tr_div 'PID' trace -p @PID@ "$H:cbx_dyn_inner(int x, const char *s) (x == 5) \"%d %d %d %d %d\", (x - 12) / 4, (x - 12) % 4, -x / 2, x / -2, (x - 12) >> 1"; then
	if grep -q ' cbx_dyn_inner  *-1 -3 -2 -2 -4$' "$W/tr_div.out"; then ok "trace: signed / % >> of negative values as in C"
	else notok "signed arithmetic: $(tail -2 "$W/tr_div.out" | tr '\n' '|') $(head -c 200 "$W/tr_div.err")"; fi
fi
# trace filter on a return value
if run tr_r 'PID' trace -p @PID@ "r:$H:cbx_dyn_outer (retval == 20) \"ret %d\", retval"; then
	c=$(grep -c 'ret 20$' "$W/tr_r.out")
	# outer(i) = i + 17 + 1: 20 for i = 2 only
	if [ "$c" = 1 ]; then ok "trace uretprobe with a filter on retval: 1 line"; else notok "trace retval filter: $c lines"; fi
fi

# argdist: the histogram holds exactly the malloc sizes passed (5 x 12345)
if helper_start "$W/ad.helper" "$H" $N $M; then
	"$CB" argdist -p $HPID -i 2 -n 1 -C 'p:c:malloc(size_t size):size_t:size:size==12345' > "$W/ad.out" 2> "$W/ad.err" &
	TPID=$!
	sleep 1
	kill -USR1 $HPID
	reap "$TPID" 100; TPID=
	if grep -q '^	5  *size = 12345$' "$W/ad.out"; then ok "argdist -C: 5 mallocs of 12345 bytes"
	else notok "argdist: $(tr '\n' '|' < "$W/ad.out") $(head -c 300 "$W/ad.err")"; fi
fi
helper_stop

# funclatency: 3 calls of a 20 ms sleeper land in 16384 us or above (in
# 16384..32767 on a quiet host: a loaded one wakes the sleeper later,
# never sooner), in libbpf-tools 0.26's layout (its banner, "usec : count
# distribution", "Exiting trace of ..."; no avg line)
# fl_row FILE: the counts of the last report's rows from 16384 us up;
# fl_rows FILE: that for every report, one a line; fl_all FILE: all counts summed
fl_rows() { awk '/usec *: count/ { if (n++) print s; s = 0 } $2 == "->" && $4 == ":" && $1 >= 16384 { s += $5 } END { if (n) print s }' "$1"; }
fl_row() { fl_rows "$1" | tail -1; }
fl_all() { awk '$2 == "->" && $4 == ":" { s += $5 } END { print s + 0 }' "$1"; }
if run fl 'Tracing' funclatency -u -p @PID@ "$H:cbx_dyn_sleep"; then
	row=$(fl_row "$W/fl.out") all=$(fl_all "$W/fl.out")
	if [ "$row" = 3 ] && [ "$all" = 3 ]; then ok "funclatency: 3 latencies from 16384 usec up, none below"
	else notok "funclatency: row '$row' all '$all': $(tr '\n' '|' < "$W/fl.out")"; fi
	if [ "$(head -1 "$W/fl.out")" = "Tracing $H:cbx_dyn_sleep.  Hit Ctrl-C to exit" ] &&
		grep -qx '     usec                : count    distribution' "$W/fl.out" &&
		[ "$(tail -1 "$W/fl.out")" = "Exiting trace of $H:cbx_dyn_sleep" ] && ! grep -q '^avg' "$W/fl.out"; then
		ok "funclatency: libbpf-tools 0.26 layout (banner, usec header, Exiting trace of)"
	else notok "funclatency layout: $(head -3 "$W/fl.out" | tr '\n' '|') ... $(tail -1 "$W/fl.out")"; fi
fi
# -p PID :FUNC: the function in the binary of PID
if run fl_own 'Tracing' funclatency -u -p @PID@ :cbx_dyn_sleep; then
	row=$(fl_row "$W/fl_own.out")
	[ "$row" = 3 ] && ok "funclatency -p PID :cbx_dyn_sleep: the PID's own binary, 3 latencies" ||
		notok "funclatency -p PID :FUNC: row '$row': $(head -c 300 "$W/fl_own.out") $(head -c 200 "$W/fl_own.err")"
fi
usage_exit2 "funclatency :FUNC without -p" funclatency :cbx_dyn_sleep
# -i 1 accumulates (0.26): the reports after the calls all still hold the 3
if helper_start "$W/fl_i.helper" "$H" $N $M; then
	"$CB" funclatency -u -i 1 -p "$HPID" "$H:cbx_dyn_sleep" > "$W/fl_i.out" 2> "$W/fl_i.err" &
	TPID=$!
	if wait_for "$W/fl_i.out" '^Tracing' 150; then
		kill -USR1 "$HPID"
		wait_for "$W/fl_i.helper" '^done' 100 || notok "fl_i: helper did not finish"
		# two more reports (their headings), bounded (5 s)
		n0=$(grep -c 'usec *: count' "$W/fl_i.out")
		i=0
		while [ $i -lt 50 ] && [ "$(grep -c 'usec *: count' "$W/fl_i.out")" -lt $((n0 + 2)) ]; do
			sleep 0.1
			i=$((i + 1))
		done
		kill -INT "$TPID"; reap "$TPID" 50; TPID=
		threes=$(fl_rows "$W/fl_i.out" | grep -c '^3$')
		if [ "$threes" -ge 2 ] && [ "$(fl_row "$W/fl_i.out")" = 3 ]; then ok "funclatency -i 1: $threes reports keep the 3 calls (accumulated, as 0.26)"
		else notok "funclatency -i: $threes reports with 3: $(fl_rows "$W/fl_i.out" | tr '\n' '|')"; fi
	else notok "fl_i: no banner: $(head -c 300 "$W/fl_i.err")"; kill -KILL "$TPID"; wait "$TPID" 2>/dev/null; TPID=; fi
	helper_stop
fi
# -c CG: the helper in cgroup A; a tool on A sees its 3 calls, one on the
# empty cgroup B none
CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
if [ -n "$CG2" ] && mkdir "$CG2/cbx_fl_a.$$" "$CG2/cbx_fl_b.$$" 2>/dev/null; then
	if helper_start "$W/fl_c.helper" "$H" $N $M && echo "$HPID" > "$CG2/cbx_fl_a.$$/cgroup.procs"; then
		"$CB" funclatency -u -c "$CG2/cbx_fl_a.$$" "$H:cbx_dyn_sleep" > "$W/fl_ca.out" 2> "$W/fl_ca.err" &
		TA=$!
		"$CB" funclatency -u -c "$CG2/cbx_fl_b.$$" "$H:cbx_dyn_sleep" > "$W/fl_cb.out" 2> "$W/fl_cb.err" &
		TB=$!
		if wait_for "$W/fl_ca.out" '^Tracing' 150 && wait_for "$W/fl_cb.out" '^Tracing' 150; then
			kill -USR1 "$HPID"
			wait_for "$W/fl_c.helper" '^done' 100 || notok "fl_c: helper did not finish"
			sleep 0.3
		fi
		kill -INT "$TA" "$TB"; reap "$TA" 50; reap "$TB" 50
		a=$(fl_row "$W/fl_ca.out") b=$(fl_all "$W/fl_cb.out")
		if [ "$a" = 3 ] && [ "$b" = 0 ]; then ok "funclatency -c CG: 3 calls in the helper's cgroup, 0 in an empty one"
		else notok "funclatency -c: '$a' / '$b': $(head -c 200 "$W/fl_ca.err") $(head -c 200 "$W/fl_cb.err")"; fi
		helper_stop
	fi
	rmdir "$CG2/cbx_fl_a.$$" "$CG2/cbx_fl_b.$$" 2>/dev/null
else
	echo "ok - $T: funclatency -c # SKIP no writable cgroup v2 mount"
fi

# stackcount: folded user stacks main;outer;inner with N
if helper_start "$W/sc.helper" "$H" $N $M; then
	"$CB" stackcount -f -U -p $HPID "$H:cbx_dyn_inner" > "$W/sc.out" 2> "$W/sc.err" &
	TPID=$!
	# (-f prints nothing before its end) attached: its links, no more
	# coming (bounded: 15 s)
	i=0 last=0
	while [ $i -lt 75 ] && kill -0 "$TPID" 2>/dev/null; do
		n=$(cat /proc/"$TPID"/fdinfo/* 2>/dev/null | grep -c '^link_id:')
		[ "$n" -gt 0 ] && [ "$n" = "$last" ] && break
		last=$n
		sleep 0.2
		i=$((i + 1))
	done
	helper_finish sc 50
	if grep -q ";main;cbx_dyn_outer;cbx_dyn_inner $N\$" "$W/sc.out"; then ok "stackcount -f: main;cbx_dyn_outer;cbx_dyn_inner $N"
	else notok "stackcount: $(tr '\n' '|' < "$W/sc.out") $(head -c 300 "$W/sc.err")"; fi
fi
helper_stop

# live kernel: syscall shortcuts and tracepoints with workloads we cause
tk() { # NAME HEADER ARGS...: run a kernel-probe tool, then the workload $WORK
	name=$1 hdr=$2
	shift 2
	"$CB" "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	hf=$W/$name.out
	case " $* " in *" -j "*) hf=$W/$name.err ;; esac # JSON: banners on stderr
	if ! wait_for "$hf" "$hdr" 150; then
		notok "$name: no header: $(head -c 400 "$W/$name.err")"; kill -KILL $TPID; wait $TPID 2>/dev/null; TPID=; return 1
	fi
	sh -c "$WORK"
	sleep 0.3
	kill -INT $TPID
	reap "$TPID" 50; TPID=
}
cp /bin/true "$W/cbx-uniq-exec"
WORK="$W/cbx-uniq-exec; $W/cbx-uniq-exec"
if tk ex 'PID' trace 'sys_execve "%s", arg1'; then
	c=$(grep -c "sys_execve  *$W/cbx-uniq-exec\$" "$W/ex.out")
	[ "$c" = 2 ] && ok "trace 'sys_execve \"%s\", arg1': 2 execs" || notok "sys_execve: $c: $(tail -3 "$W/ex.out" | tr '\n' '|')"
fi
if tk tpex 'PID' trace 't:syscalls:sys_enter_execve "-> %s", args->filename'; then
	c=$(grep -c "sys_enter_execve -> $W/cbx-uniq-exec\$" "$W/tpex.out")
	[ "$c" = 2 ] && ok "trace args->filename: 2 execs" || notok "args->filename: $c"
fi
# -B (bcc): STRCMP's literal is a C byte list; as bcc, its last element is
# not compared (it stands where a string's NUL is): the list spells
# "$W/cbx-uniq-exec" plus one more byte, which must not matter
BL="{$(printf '%s' "$W/cbx-uniq-exec" | od -An -v -tx1 | tr -s ' \n' '  ' | sed 's/^ //; s/ $//; s/ /,0x/g; s/^/0x/'),0x7a}"
if tk binc 'PID' trace -B "t:syscalls:sys_enter_execve (STRCMP(\"$BL\", args->filename)) \"B %s\", args->filename"; then
	c=$(grep -c "sys_enter_execve B $W/cbx-uniq-exec\$" "$W/binc.out") o=$(grep -c ' B ' "$W/binc.out")
	[ "$c" = 2 ] && [ "$o" = 2 ] && ok "trace -B: STRCMP with a byte list: the 2 execs, nothing else" || notok "trace -B: $c of 2 ($o lines): $(head -c 300 "$W/binc.err")"
fi
usage_or_1() { "$CB" "$@" > /dev/null 2>&1; echo $?; }
r=$(usage_or_1 trace -B 't:syscalls:sys_enter_execve (STRCMP("abc", args->filename))')
[ "$r" = 2 ] && ok "trace -B: a plain string is refused (exit 2)" || notok "trace -B plain string: exit $r"
WORK="dd if=/dev/zero of=/dev/null bs=54321 count=3 2>/dev/null"
if tk rd 'PID' trace 'sys_read (arg3 > 50000) "read %d bytes", arg3'; then
	c=$(grep -c ' dd  .*read 54321 bytes$' "$W/rd.out")
	[ "$c" = 3 ] && ok "trace sys_read filter: 3 reads of 54321 bytes" || notok "sys_read: $c: $(tail -3 "$W/rd.out" | tr '\n' '|')"
fi
# a syscall's pointer is user memory whatever its value: a process passing
# a kernel address (read-only data, which a kernel read would copy) must
# get nothing of the kernel's printed: %s empty, the loads 0
KADDR=$(awk '$2 == "R" && $1 != "0000000000000000" { print $1; exit }' /proc/kallsyms)
if [ -z "$KADDR" ]; then
	echo "ok - $T: kernel address as a syscall pointer # SKIP no read-only data symbol in /proc/kallsyms"
else
	WORK="$W/kaddr_read $KADDR"
	if tk ka 'PID' trace 'sys_read (arg1 == 4242) "%llx [%s] %llx %llx", arg2, arg2, *(u64 *)arg2, *(u64 *)(arg2 + 8)'; then
		if grep -q " kaddr_read  *sys_read  *$KADDR \[\] 0 0\$" "$W/ka.out"; then
			ok "trace: a kernel address passed to read(2) is read as user memory (nothing printed)"
		else notok "trace: kernel address as a syscall pointer: $(grep kaddr_read "$W/ka.out" | tr '\n' '|' | head -c 400)"; fi
	fi
fi
WORK="$W/cbx-uniq-exec"
if tk fcs 'Tracing' funccount 't:syscalls:sys_enter_exec*'; then
	c=$(count_of "$W/fcs.out" syscalls:sys_enter_execve)
	[ -n "$c" ] && [ "$c" -ge 1 ] && ok "funccount 't:syscalls:sys_enter_exec*': execve counted ($c)" || notok "funccount syscalls: $(tr '\n' '|' < "$W/fcs.out")"
fi

# JSON (-j) and Prometheus (--prom): the same ground truth
jq_check() { # FILE PYTHON-EXPR over docs (the parsed lines): prints the value
	python3 -c 'import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(eval(sys.argv[2]))' "$@" 2>&1
}
prom_of() { # FILE SERIES: the value of one series (promcheck must pass)
	python3 tests/e2e/promcheck.py "$1" > "$1.json" || { echo "invalid: $(cat "$1.json")"; return; }
	python3 -c 'import json, sys; print(int(json.load(open(sys.argv[1])).get(sys.argv[2], -1)))' "$1.json" "$2"
}
if run fc_j 'Tracing' funccount -j --prom "$W/fc.prom" -p @PID@ "$H:cbx_dyn_*"; then
	c=$(jq_check "$W/fc_j.out" 'sum(r["count"] for d in docs for r in d["functions"] if r["func"] == "cbx_dyn_inner")')
	[ "$c" = $N ] && ok "funccount -j: cbx_dyn_inner $N" || notok "funccount -j: '$c': $(head -c 300 "$W/fc_j.out")"
	c=$(prom_of "$W/fc.prom" 'corebox_funccount_count_total{func="cbx_dyn_outer"}')
	[ "$c" = $N ] && ok "funccount --prom: valid, cbx_dyn_outer $N" || notok "funccount --prom: '$c'"
fi
if run fc_p 'Tracing' funccount --prom "$W/fc2.prom" -p @PID@ "$H:cbx_dyn_*"; then
	t1=$(count_of "$W/fc_p.out" cbx_dyn_inner)
	c=$(prom_of "$W/fc2.prom" 'corebox_funccount_count_total{func="cbx_dyn_inner"}')
	[ "$c" = "$t1" ] && [ "$c" = $N ] && ok "funccount --prom equals the text count ($c)" || notok "funccount prom '$c' text '$t1'"
fi
if run tr_j 'TID' trace -j -p @PID@ "$H:cbx_dyn_inner \"%d %s\", arg1, arg2"; then
	c=$(jq_check "$W/tr_j.out" 'sum(1 for d in docs if d["func"] == "cbx_dyn_inner" and d["args"][1] == "cbx-unique-string" and d["msg"] == "%d cbx-unique-string" % d["args"][0])')
	l=$(jq_check "$W/tr_j.out" 'docs[-1]["args"][0]')
	[ "$c" = $N ] && [ "$l" = $((N - 1)) ] && ok "trace -j: $N events with msg and raw args" || notok "trace -j: '$c' '$l': $(head -c 300 "$W/tr_j.out") $(head -c 200 "$W/tr_j.err")"
fi
if run sc_j 'Tracing' stackcount -j --prom "$W/sc.prom" -U -p @PID@ "$H:cbx_dyn_inner"; then
	c=$(jq_check "$W/sc_j.out" 'sum(s["count"] for d in docs for s in d["stacks"] if s["user"][:3] == ["cbx_dyn_inner", "cbx_dyn_outer", "main"])')
	[ "$c" = $N ] && ok "stackcount -j: user stack inner<-outer<-main $N" || notok "stackcount -j: '$c': $(head -c 400 "$W/sc_j.out")"
	c=$(python3 tests/e2e/promcheck.py "$W/sc.prom" | python3 -c 'import json, sys; print(sum(int(v) for k, v in json.load(sys.stdin).items() if ";main;cbx_dyn_outer;cbx_dyn_inner\"" in k))')
	[ "$c" = $N ] && ok "stackcount --prom: valid, the stack counted $N" || notok "stackcount --prom: '$c'"
fi
if run fl_j 'Tracing' funclatency -j --prom "$W/fl.prom" -u -p @PID@ "$H:cbx_dyn_sleep"; then
	# the sum: at least the 3 sleeps, at most the time the helper worked
	c=$(jq_check "$W/fl_j.out" '[(h["count"], sum(b["count"] for b in h["buckets"] if b["low"] >= 16384), 60000 <= h["sum"] <= '"$HELPER_US"') for d in docs for h in d.get("latency", [])]')
	[ "$c" = "[(3, 3, True)]" ] && ok "funclatency -j: 3 calls from 16384 us up, sum 60 ms..the helper's $HELPER_US us" || notok "funclatency -j: $c: $(head -c 300 "$W/fl_j.out")"
	c=$(prom_of "$W/fl.prom" 'corebox_funclatency_latency_seconds_count{}')
	s=$(python3 tests/e2e/promcheck.py "$W/fl.prom" | python3 -c 'import json, sys; print(0.06 <= json.load(sys.stdin)["corebox_funclatency_latency_seconds_sum{}"] <= int(sys.argv[1]) / 1e6)' "$HELPER_US")
	[ "$c" = 3 ] && [ "$s" = True ] && ok "funclatency --prom: valid, count 3, _sum in seconds" || notok "funclatency --prom: count '$c' sum ok '$s'"
fi
if helper_start "$W/ad2.helper" "$H" $N $M; then
	"$CB" argdist -j --prom "$W/ad.prom" -p $HPID -i 2 -n 1 -C 'p:c:malloc(size_t size):size_t:size:size==12345' \
		-H 'p:c:malloc(size_t size):size_t:size:size==12345#sizes' > "$W/ad2.out" 2> "$W/ad2.err" &
	TPID=$!
	sleep 1
	kill -USR1 $HPID
	reap "$TPID" 100; TPID=
	c=$(jq_check "$W/ad2.out" '[(r["event"], r["count"]) for d in docs for r in d["counts"]] + [(h["count"], h["sum"]) for d in docs for h in d["values"]]')
	[ "$c" = "[('size = 12345', 5), (5, 61725)]" ] && ok "argdist -j: 5 x 12345 counted, histogram sum 61725" || notok "argdist -j: $c $(head -c 200 "$W/ad2.err")"
	c=$(prom_of "$W/ad.prom" 'corebox_argdist_values_sum{probe="sizes"}')
	e=$(prom_of "$W/ad.prom" 'corebox_argdist_count_total{event="size = 12345",probe="p:c:malloc(size_t size):size_t:size:size==12345"}')
	[ "$c" = 61725 ] && [ "$e" = 5 ] && ok "argdist --prom: valid, _sum 61725, count 5" || notok "argdist --prom: sum '$c' count '$e'"
fi
helper_stop

# probe errors: one line, the text, a caret; exit 2
"$CB" trace 'sys_read (arg3 > ) "x"' > /dev/null 2> "$W/perr"; rc=$?
if [ $rc = 2 ] && grep -q '^  *\^$' "$W/perr"; then ok "bad predicate: exit 2 with a caret"; else notok "bad predicate: rc $rc: $(tr '\n' '|' < "$W/perr")"; fi
"$CB" funccount 'a:b:c:d' > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "bad pattern: exit 2" || notok "bad pattern: rc $rc"
"$CB" trace 'cbx_no_such_kernel_function_xyz' > /dev/null 2> "$W/nf"; rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$W/nf")" = 1 ] && ok "unknown kernel function: one line, exit 1" || notok "unknown function: rc $rc $(cat "$W/nf")"
# a char array counted as a number was its address, which the verifier
# refused (pointer shifted): a type error with a caret, before loading
timeout 10 "$CB" argdist -d 1 -C 't:sched:sched_switch():int:args->next_comm' > /dev/null 2> "$W/aerr"; rc=$?
if [ $rc = 2 ] && grep -q 'next_comm is a char array.*char\*' "$W/aerr" && grep -q '^  *\^$' "$W/aerr"; then
	ok "argdist: a char array as int: type error with a caret, exit 2"
else notok "argdist: char array as int: rc $rc: $(tr '\n' '|' < "$W/aerr" | head -c 300)"; fi
# cast to an int it was still its address, shifted: refused before loading too
timeout 10 "$CB" argdist -d 1 -C 't:sched:sched_switch():int:(int)args->next_comm' > /dev/null 2> "$W/aerr"; rc=$?
if [ $rc = 2 ] && grep -q 'an array cast to a narrower integer' "$W/aerr" && grep -q '^  *\^$' "$W/aerr" && ! grep -q verifier "$W/aerr"; then
	ok "argdist: a char array cast to int: type error with a caret, exit 2"
else notok "argdist: char array cast to int: rc $rc: $(tr '\n' '|' < "$W/aerr" | head -c 300)"; fi
timeout 10 "$CB" argdist -d 1 -i 1 -C 't:sched:sched_switch():char*:args->next_comm' > "$W/acomm" 2> "$W/aerr"; rc=$?
if [ $rc = 0 ] && grep -q 'args->next_comm = [^ ]' "$W/acomm"; then ok "argdist: the char array as char*: counted as text"
else notok "argdist: char array as char*: rc $rc: $(head -c 300 "$W/aerr")"; fi
# a load failure names the tool once (out of descriptors when loading)
prlimit --nofile=4:4 "$CB" argdist -d 1 -C 't:sched:sched_switch():u64:args->prev_state' > /dev/null 2> "$W/aerr"; rc=$?
if [ $rc = 1 ] && grep -q '^argdist: cannot load' "$W/aerr" && ! grep -q 'argdist: argdist:' "$W/aerr"; then
	ok "argdist: a load error says 'argdist:' once"
else notok "argdist: load error: rc $rc: $(head -c 300 "$W/aerr")"; fi
# 32-bit ARM: a Thumb function (the corpus' arm32-exec.elf, read on any
# host) is refused in one sentence by every uprobe tool before attaching;
# a pattern that also matches an ARM function traces only that one
T32=tests/fuzz/corpus/elf/arm32-exec.elf
for c in "funccount $T32:cbx_thumb_fn" "trace $T32:cbx_thumb_fn" "stackcount $T32:cbx_thumb_fn" \
	"argdist -C p:$T32:cbx_thumb_fn()" "bpftrace -e uprobe:$T32:cbx_thumb_fn{}"; do
	timeout 10 "$CB" $c > /dev/null 2> "$W/th"; rc=$?
	if [ $rc = 1 ] && [ "$(wc -l < "$W/th")" = 1 ] && grep -q 'cbx_thumb_fn() is Thumb code.*-marm$' "$W/th"; then
		ok "${c%% *}: a Thumb function refused in one line, exit 1"
	else notok "${c%% *} on a Thumb function: rc $rc: $(head -c 300 "$W/th")"; fi
done
timeout 3 "$CB" funccount -d 1 "$T32:cbx_*" > "$W/th" 2>&1
if grep -q '^Tracing 1 functions' "$W/th"; then ok "funccount cbx_*: the ARM function only"
else notok "funccount cbx_* on arm32: $(head -c 300 "$W/th")"; fi
exit $((fails > 0))
