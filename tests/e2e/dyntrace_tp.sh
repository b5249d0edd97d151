#!/bin/sh
# Dynamic tracing on tracepoints: syscall events go through one
# raw_syscalls program per direction that tail-calls the probe's program
# by syscall number; other tracepoints attach as raw tracepoints.  A helper
# makes exactly NF failing and NO succeeding access() syscalls; the tools
# must count exactly that, exit promptly on SIGINT even with all ~360
# syscall events traced, and leave nothing loaded.  Every wait is bounded.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-dyntp.XXXXXX)
T=dyntrace_tp
NF=1234
NO=66
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
build_helper sysloop
build_helper bpf_count
: > "$W/ours"

# run NAME HEADER TOOL ARGS...: the helper, then the tool (@PID@ = the
# helper's pid) until HEADER; the helper's syscalls; SIGINT.  The tool's
# output is in $W/NAME.out, its exit status in $W/NAME.rc ("timeout" when
# it is still running 10 s after SIGINT).
run() {
	name=$1 hdr=$2
	shift 2
	helper_start "$W/$name.helper" "$W/sysloop" $NF $NO || { notok "$name: helper did not start"; return 1; }
	e2e_begin "$name" "$hdr" 200 "$@" || return 1
	bpf_ids "$TPID" >> "$W/ours"
	helper_finish "$name" 100
	return 0
}

count_of() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

# every syscall entry event at once: exact count, prompt exit
if run all 'Tracing' funccount -p @PID@ 't:syscalls:sys_enter_*'; then
	nf=$(sed -n 's/^Tracing \([0-9]*\) functions.*/\1/p' "$W/all.out")
	c=$(count_of "$W/all.out" syscalls:sys_enter_access)
	[ "${nf:-0}" -gt 200 ] && ok "funccount 't:syscalls:sys_enter_*': $nf events traced" || notok "only '$nf' syscall events traced"
	[ "$c" = $((NF + NO)) ] && ok "funccount 't:syscalls:sys_enter_*': access counted $c times" ||
		notok "sys_enter_access: '$c', want $((NF + NO)): $(tr '\n' '|' < "$W/all.out" | head -c 600)"
	[ "$(cat "$W/all.rc")" = 0 ] && ok "funccount on all syscall events exits 0 within 10 s of SIGINT" ||
		notok "funccount on all syscall events after SIGINT: $(cat "$W/all.rc")"
fi
# the exit side (the number comes from the saved registers)
if run exit 'Tracing' funccount -p @PID@ 't:syscalls:sys_exit_acc*'; then
	c=$(count_of "$W/exit.out" syscalls:sys_exit_access)
	[ "$c" = $((NF + NO)) ] && ok "funccount sys_exit_access: $c" || notok "sys_exit_access: '$c': $(tr '\n' '|' < "$W/exit.out")"
fi
# trace: arguments from the saved registers, return values, two probes on
# one syscall (a second dispatch layer); fewer calls: every one is a
# record in the ring buffer
NF=300 NO=20
if run targ 'PID' trace -p @PID@ 'sys_access "%s", arg1' 'r::sys_access (retval < 0) "ret %d", retval' 'sys_access (arg2 == 0) "mode 0"'; then
	a=$(grep -c ' sys_access  *mode 0$' "$W/targ.out")
	b=$(grep -c ' sys_access  */nonexistent/corebox-e2e-sysloop$' "$W/targ.out")
	c=$(grep -c ' sys_access  */$' "$W/targ.out")
	d=$(grep -c ' sys_access  *ret -2$' "$W/targ.out")
	if [ "$a" = $((NF + NO)) ] && [ "$b" = $NF ] && [ "$c" = $NO ] && [ "$d" = $NF ]; then
		ok "trace sys_access: $NF + $NO paths, $NF returns of -2, both entry probes fire"
	else
		notok "trace sys_access: mode0 $a, failing $b, ok $c, ret -2 $d: $(head -4 "$W/targ.out" | tr '\n' '|') $(head -c 300 "$W/targ.err")"
	fi
fi
# tracepoint fields of syscall events
if run tfield 'PID' trace -p @PID@ 't:syscalls:sys_exit_access (args->ret == 0) "%d %d", args->ret, args->__syscall_nr'; then
	c=$(grep -c ' sys_exit_access  *0 [0-9][0-9]*$' "$W/tfield.out")
	[ "$c" = $NO ] && ok "trace args->ret of sys_exit_access: $NO" || notok "args->ret: $c: $(head -3 "$W/tfield.out" | tr '\n' '|')"
fi
NF=1234 NO=66
# the perf tracepoint fallback when raw tracepoints are refused
CBX_ENV=COREBOX_DISABLE=raw_tp
if run perf 'Tracing' funccount -p @PID@ 't:syscalls:sys_enter_access'; then
	c=$(count_of "$W/perf.out" syscalls:sys_enter_access)
	[ "$c" = $((NF + NO)) ] && ok "perf tracepoint fallback (COREBOX_DISABLE=raw_tp): $c" || notok "fallback: '$c'"
fi
CBX_ENV=

# another tracepoint as a raw tracepoint: exec of a uniquely named program
cp /bin/true "$W/cbx-tp-exec"
"$CB" trace -n cbx-tp-exec t:sched:sched_process_exec > "$W/ex.out" 2> "$W/ex.err" &
TPID=$!
if wait_for "$W/ex.out" PID 150; then
	"$W/cbx-tp-exec"; "$W/cbx-tp-exec"
	sleep 0.3
	kill -INT $TPID
	reap $TPID 100
	TPID=
	c=$(grep -c ' cbx-tp-exec  *sched_process_exec' "$W/ex.out")
	[ "$c" = 2 ] && [ "$rc" = 0 ] && ok "trace t:sched:sched_process_exec (raw tracepoint): 2 execs" ||
		notok "sched_process_exec: $c lines, rc $rc: $(tr '\n' '|' < "$W/ex.out")"
else
	notok "trace sched_process_exec: no header: $(head -c 300 "$W/ex.err")"; kill -KILL $TPID; wait $TPID 2>/dev/null; TPID=
fi

"$W/bpf_count" > "$W/after" || notok "bpf_count failed"
n=$(grep -c '^link ' "$W/ours")
left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
if [ "$n" -gt 0 ] && [ -z "$left" ]; then ok "no program or link left loaded ($n links seen while running)"
else notok "left loaded: $(echo "$left" | tr '\n' '|') ($n links seen)"; fi
exit $((fails > 0))
