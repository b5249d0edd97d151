#!/bin/sh
# Dynamic tracing end to end (trace, funccount, stackcount, argdist,
# funclatency): a helper calls uniquely named functions exactly N times,
# fires a USDT probe M times, mallocs 12345 bytes 5 times and sleeps 20 ms
# 3 times; the tools must see exactly that.  Plus the syscall shortcuts
# and tracepoints on the live kernel, and probe parse errors (exit 2 with a
# caret).  Every wait is bounded.
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
	rm -rf "$W"
}
trap cleanup EXIT INT TERM
need_corebox
build_helper cbx_dyn -O2 -fno-omit-frame-pointer
H=$W/cbx_dyn

# run NAME HEADER TOOL ARGS...: start the helper, the tool (output in
# $W/NAME.out), wait for HEADER, let the helper run, stop the tool.
run() {
	name=$1 hdr=$2
	shift 2
	: > "$W/$name.helper"
	"$H" $N $M > "$W/$name.helper" 2>&1 &
	HPID=$!
	wait_for "$W/$name.helper" '^ready' 50 || { notok "$name: helper did not start"; return 1; }
	for a in "$@"; do
		shift
		[ "$a" = @PID@ ] && a=$HPID
		set -- "$@" "$a"
	done
	"$CB" "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	if ! wait_for "$W/$name.out" "$hdr" 150; then
		notok "$name: no header: $(head -c 400 "$W/$name.err")"
		kill -KILL "$TPID" "$HPID" 2>/dev/null; wait "$TPID" "$HPID" 2>/dev/null; TPID= HPID=
		return 1
	fi
	kill -USR1 "$HPID"
	wait_for "$W/$name.helper" '^done' 100 || notok "$name: helper did not finish"
	sleep 0.3
	kill -INT "$TPID"
	if wait_exit "$TPID" 50; then wait "$TPID"; echo $? > "$W/$name.rc"; else
		echo timeout > "$W/$name.rc"; kill -KILL "$TPID"; wait "$TPID" 2>/dev/null; fi
	TPID=
	kill -TERM "$HPID" 2>/dev/null; wait "$HPID" 2>/dev/null; HPID=
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
# trace filter on a return value
if run tr_r 'PID' trace -p @PID@ "r:$H:cbx_dyn_outer (retval == 20) \"ret %d\", retval"; then
	c=$(grep -c 'ret 20$' "$W/tr_r.out")
	# outer(i) = i + 17 + 1: 20 for i = 2 only
	if [ "$c" = 1 ]; then ok "trace uretprobe with a filter on retval: 1 line"; else notok "trace retval filter: $c lines"; fi
fi

# argdist: the histogram holds exactly the malloc sizes passed (5 x 12345)
"$H" $N $M > "$W/ad.helper" 2>&1 &
HPID=$!
if wait_for "$W/ad.helper" '^ready' 50; then
	"$CB" argdist -p $HPID -i 2 -n 1 -C 'p:c:malloc(size_t size):size_t:size:size==12345' > "$W/ad.out" 2> "$W/ad.err" &
	TPID=$!
	sleep 1
	kill -USR1 $HPID
	wait_exit "$TPID" 100 || kill -KILL "$TPID"
	wait "$TPID" 2>/dev/null; TPID=
	if grep -q '^	5  *size = 12345$' "$W/ad.out"; then ok "argdist -C: 5 mallocs of 12345 bytes"
	else notok "argdist: $(tr '\n' '|' < "$W/ad.out") $(head -c 300 "$W/ad.err")"; fi
fi
kill -TERM "$HPID" 2>/dev/null; wait "$HPID" 2>/dev/null; HPID=

# funclatency: 3 calls of a 20 ms sleeper land in 16384..32767 us
if run fl 'Tracing' funclatency -u -p @PID@ "$H:cbx_dyn_sleep"; then
	row=$(grep '16384 -> 32767' "$W/fl.out" | awk '{print $5}')
	cnt=$(grep '^avg' "$W/fl.out" | sed 's/.*count: //')
	if [ "$row" = 3 ] && [ "$cnt" = 3 ]; then ok "funclatency: 3 latencies in 16384 -> 32767 usecs"
	else notok "funclatency: row '$row' count '$cnt': $(tr '\n' '|' < "$W/fl.out")"; fi
fi

# stackcount: folded user stacks main;outer;inner with N
"$H" $N $M > "$W/sc.helper" 2>&1 &
HPID=$!
if wait_for "$W/sc.helper" '^ready' 50; then
	"$CB" stackcount -f -U -p $HPID "$H:cbx_dyn_inner" > "$W/sc.out" 2> "$W/sc.err" &
	TPID=$!
	sleep 1.5
	kill -USR1 $HPID
	wait_for "$W/sc.helper" '^done' 100
	sleep 0.3
	kill -INT $TPID
	wait_exit "$TPID" 50 || kill -KILL "$TPID"
	wait "$TPID" 2>/dev/null; TPID=
	if grep -q ";main;cbx_dyn_outer;cbx_dyn_inner $N\$" "$W/sc.out"; then ok "stackcount -f: main;cbx_dyn_outer;cbx_dyn_inner $N"
	else notok "stackcount: $(tr '\n' '|' < "$W/sc.out") $(head -c 300 "$W/sc.err")"; fi
fi
kill -TERM "$HPID" 2>/dev/null; wait "$HPID" 2>/dev/null; HPID=

# live kernel: syscall shortcuts and tracepoints with workloads we cause
tk() { # NAME HEADER ARGS...: run a kernel-probe tool, then the workload $WORK
	name=$1 hdr=$2
	shift 2
	"$CB" "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	if ! wait_for "$W/$name.out" "$hdr" 150; then
		notok "$name: no header: $(head -c 400 "$W/$name.err")"; kill -KILL $TPID; wait $TPID 2>/dev/null; TPID=; return 1
	fi
	sh -c "$WORK"
	sleep 0.3
	kill -INT $TPID
	wait_exit "$TPID" 50 || kill -KILL "$TPID"
	wait "$TPID" 2>/dev/null; TPID=
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
WORK="dd if=/dev/zero of=/dev/null bs=54321 count=3 2>/dev/null"
if tk rd 'PID' trace 'sys_read (arg3 > 50000) "read %d bytes", arg3'; then
	c=$(grep -c ' dd  .*read 54321 bytes$' "$W/rd.out")
	[ "$c" = 3 ] && ok "trace sys_read filter: 3 reads of 54321 bytes" || notok "sys_read: $c: $(tail -3 "$W/rd.out" | tr '\n' '|')"
fi
WORK="$W/cbx-uniq-exec"
if tk fcs 'Tracing' funccount 't:syscalls:sys_enter_exec*'; then
	c=$(count_of "$W/fcs.out" syscalls:sys_enter_execve)
	[ -n "$c" ] && [ "$c" -ge 1 ] && ok "funccount 't:syscalls:sys_enter_exec*': execve counted ($c)" || notok "funccount syscalls: $(tr '\n' '|' < "$W/fcs.out")"
fi

# probe errors: one line, the text, a caret; exit 2
"$CB" trace 'sys_read (arg3 > ) "x"' > /dev/null 2> "$W/perr"; rc=$?
if [ $rc = 2 ] && grep -q '^  *\^$' "$W/perr"; then ok "bad predicate: exit 2 with a caret"; else notok "bad predicate: rc $rc: $(tr '\n' '|' < "$W/perr")"; fi
"$CB" funccount 'a:b:c:d' > /dev/null 2>&1; rc=$?
[ $rc = 2 ] && ok "bad pattern: exit 2" || notok "bad pattern: rc $rc"
"$CB" trace 'cbx_no_such_kernel_function_xyz' > /dev/null 2> "$W/nf"; rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$W/nf")" = 1 ] && ok "unknown kernel function: one line, exit 1" || notok "unknown function: rc $rc $(cat "$W/nf")"
exit $((fails > 0))
