#!/bin/sh
# bpftrace -v as Debian's bpftrace 0.17 prints it (its outputs recorded
# here, CI has no bpftrace): "INFO: node count: N" (0.17's AST), then for
# each program as it is attached its id and the verifier's stats line on
# stdout and "Attaching PROBE" on stderr, in 0.17's order (BEGIN, the
# blocks, the kinds it attaches in reverse last to first, END when it
# runs).  Ground truth: the ids and "processed K insns" a running
# bpftrace printed are the programs it holds (/proc/PID/fdinfo: prog_id,
# verified_insns), one per attach point the test wrote; the calls and the
# exit code of the command it ran (-c); stdout without -v unchanged.
# Run as root from the repository root: sh tests/e2e/bpftrace_verbose.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-btv.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-btv.XXXXXX)
T=bpftrace_verbose
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT

need_corebox
build_helper bt_work
BT="$CB bpftrace"

# what differs between runs and programs: the ids and the verifier's numbers
norm() {
	sed -E 's/^Program ID: [0-9]+$/Program ID: N/; s/^processed [0-9]+ insns \(limit 1000000\) max_states_per_insn [0-9]+ total_states [0-9]+ peak_states [0-9]+ mark_read [0-9]+$/processed K/'
}
# one program's lines on stdout (the trailing blank after "log:" is 0.17's)
blk() { printf '\nProgram ID: N\n\nThe verifier log: \nprocessed K\n\n'; }
att() { printf 'Attaching %s\n' "$1"; }

# 1. the layout, stdout and stderr together and apart: BEGIN, one block
# on two tracepoints (two programs, the block's name on each), interval,
# END after BEGIN's output; 0.17's text with its numbers normalized
P1='BEGIN { printf("hi\n"); } tracepoint:syscalls:sys_enter_getpid, tracepoint:syscalls:sys_enter_getppid /comm == "cbx-no-such"/ { printf("x\n"); } interval:ms:100 { exit(); } END { printf("bye\n"); }'
TP2=tracepoint:syscalls:sys_enter_getpid,tracepoint:syscalls:sys_enter_getppid
{
	echo "INFO: node count: 25"
	echo "Attaching 5 probes..."
	blk; att BEGIN; blk; att $TP2; blk; att $TP2; blk; att interval:ms:100
	echo hi
	blk; att END
	printf 'bye\n\n\n'
} > "$W/p1.want"
{
	echo "Attaching 5 probes..."
	blk; blk; blk; blk
	echo hi
	blk
	printf 'bye\n\n\n'
} > "$W/p1.want_out"
{ echo "INFO: node count: 25"; att BEGIN; att $TP2; att $TP2; att interval:ms:100; att END; } > "$W/p1.want_err"
timeout 20 $BT -v -e "$P1" > "$W/p1.all" 2>&1
rc=$?
norm < "$W/p1.all" > "$W/p1.got"
if [ $rc = 0 ] && cmp -s "$W/p1.want" "$W/p1.got"; then
	ok "-v: BEGIN, two tracepoints of one block, interval, END: 0.17's lines in its order"
else
	notok "-v layout (rc $rc): $(diff "$W/p1.want" "$W/p1.got" | head -20)"
fi
timeout 20 $BT -v -e "$P1" > "$W/p1.out" 2> "$W/p1.err"
rc=$?
if [ $rc = 0 ] && norm < "$W/p1.out" | cmp -s "$W/p1.want_out" - && cmp -s "$W/p1.want_err" "$W/p1.err"; then
	ok "-v: ids and verifier logs on stdout, node count and Attaching lines on stderr"
else
	notok "-v streams (rc $rc): $(norm < "$W/p1.out" | diff "$W/p1.want_out" - | head -10) $(diff "$W/p1.want_err" "$W/p1.err" | head -10)"
fi
# without -v: 0.17's stdout, nothing on stderr
printf 'Attaching 5 probes...\nhi\nbye\n\n\n' > "$W/p1.want_plain"
timeout 20 $BT -e "$P1" > "$W/p1.plain" 2> "$W/p1.plain_err"
rc=$?
if [ $rc = 0 ] && cmp -s "$W/p1.want_plain" "$W/p1.plain" && [ ! -s "$W/p1.plain_err" ]; then
	ok "without -v: stdout as before, stderr empty"
else
	notok "without -v (rc $rc): $(cat "$W/p1.plain" "$W/p1.plain_err")"
fi

# 2. 0.17's attach order: profile and interval in program order, then
# software, uprobe and uretprobe last to first (BIN: the test's binary)
BIN=$W/bt_work
P2='profile:hz:99 /comm == "cbx-none"/ { printf("p\n"); } software:faults:100 /comm == "cbx-none"/ { printf("s\n"); } uprobe:'$BIN':cbx_bt_target { printf("u\n"); } uretprobe:'$BIN':cbx_bt_target { printf("r\n"); } interval:ms:100 { exit(); }'
{
	echo "INFO: node count: 33"
	echo "Attaching 5 probes..."
	blk; att profile:hz:99; blk; att interval:ms:100; blk; att "uretprobe:$BIN:cbx_bt_target"
	blk; att "uprobe:$BIN:cbx_bt_target"; blk; att software:faults:100
	printf '\n\n'
} > "$W/p2.want"
timeout 20 $BT -v -e "$P2" > "$W/p2.all" 2>&1
rc=$?
if [ $rc = 0 ] && norm < "$W/p2.all" | cmp -s "$W/p2.want" -; then
	ok "-v: profile, interval, then software, uretprobe, uprobe as 0.17 attaches them"
else
	notok "-v order (rc $rc): $(norm < "$W/p2.all" | diff "$W/p2.want" - | head -20)"
fi

# 3. the ids and instruction counts printed are those of the programs the
# running bpftrace holds, one for each of the 3 attach points written
# (its interval ends it if the test cannot)
$BT -v -e 'tracepoint:syscalls:sys_enter_getpid /comm == "cbx-none"/ { @ = count(); } uprobe:'$BIN':cbx_bt_target { @u = count(); } interval:s:30 { exit(); }' > "$W/live.out" 2> "$W/live.err" &
LP=$!
i=0
while [ $i -lt 150 ] && [ "$(grep -c '^Attaching ' "$W/live.err" 2>/dev/null)" != 3 ]; do
	sleep 0.1
	i=$((i + 1))
done
printed=$(awk '/^Program ID: /{id=$3} /^processed [0-9]+ insns/{print id, $2}' "$W/live.out" | sort)
held=$(for f in /proc/$LP/fdinfo/*; do
	awk '/^prog_id:/{id=$2} /^verified_insns:/{k=$2} END{if (id != "" && k != "") print id, k}' "$f" 2>/dev/null
done | sort -u)
missing=$(echo "$printed" | grep -vxF "$held")
n=$(echo "$printed" | grep -c '^[0-9][0-9]* [1-9][0-9]*$')
if [ "$n" = 3 ] && [ -z "$missing" ]; then
	ok "-v: 3 attach points, 3 programs; ids and 'processed K insns' are what the process holds (fdinfo)"
else
	notok "-v ids: printed '$printed', held '$held', missing '$missing'"
fi
kill -INT $LP 2>/dev/null
wait $LP

# 4. -c: how the command ended, after the maps (as 0.17: only when it
# ended by itself); its 3 calls counted
out=$(timeout 20 $BT -v -c "$BIN calls 3" -e 'uprobe:'$BIN':cbx_bt_target { @ = count(); }' 2>/dev/null)
if [ "$(printf '%s\n' "$out" | tail -2)" = "@: 3
Child exited with code: 0" ]; then
	ok "-v -c: the 3 calls, then 'Child exited with code: 0'"
else
	notok "-v -c: $out"
fi
out=$(timeout 20 $BT -v -c "$BIN bad-arg" -e 'BEGIN { }' 2>/dev/null)
if printf '%s\n' "$out" | tail -1 | grep -qx 'Child exited with code: 2'; then ok "-v -c: exit code 2"; else notok "-v -c exit 2: $out"; fi
$BT -v -c "$BIN calls 1 20000" -e 'interval:s:30 { exit(); }' > "$W/sig.out" 2>/dev/null &
SP=$!
i=0
while [ $i -lt 150 ] && ! grep -q '^The verifier log' "$W/sig.out" 2>/dev/null; do
	sleep 0.1
	i=$((i + 1))
done
kid=$(pgrep -P $SP -x bt_work | head -1)
[ -n "$kid" ] && kill -KILL "$kid"
wait $SP
if [ -n "$kid" ] && tail -1 "$W/sig.out" | grep -qx 'Child terminated by signal: 9'; then
	ok "-v -c: the command killed (SIGKILL by the test): 'Child terminated by signal: 9'"
else
	notok "-v -c killed (child '$kid'): $(tail -3 "$W/sig.out")"
fi

# 5. -q keeps the program lines, drops the Attaching N line; -o takes the
# output, the program lines stay on stdout; -d with -v: 0.17's refusal
out=$(timeout 20 $BT -v -q -e 'BEGIN { printf("q\n"); exit(); }' 2>/dev/null | norm)
if [ "$out" = "$(blk; echo q)" ]; then ok "-v -q"; else notok "-v -q: $out"; fi
out=$(timeout 20 $BT -v -o "$W/o.txt" -e 'BEGIN { printf("o\n"); exit(); }' 2>/dev/null | norm)
if [ "$out" = "$(blk)" ] && [ "$(head -2 "$W/o.txt")" = "Attaching 1 probe...
o" ]; then
	ok "-v -o FILE: the output in FILE, the program lines on stdout"
else
	notok "-v -o: '$out' / $(cat "$W/o.txt")"
fi
out=$($BT -v -d -e 'BEGIN { exit(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: USAGE: Use either -v or -d." ]; then ok "-v -d refused as 0.17"; else notok "-v -d (rc $rc): $out"; fi

# 6. node counts 0.17 printed for programs that take other shapes in
# corebox's tree (a->f, x += e, a ternary statement, -1, sizeof(TYPE))
while IFS='	' read -r want prog; do
	got=$(timeout 20 $BT -v -e "$prog" 2>&1 >/dev/null | sed -n 's/^INFO: node count: //p')
	if [ "$got" = "$want" ]; then ok "node count $want: $prog"; else notok "node count '$got', 0.17: $want: $prog"; fi
done <<'EOF'
13	tracepoint:syscalls:sys_enter_openat { @ = str(args->filename); } BEGIN { exit(); }
27	BEGIN { @x = 1; @x -= 1; @x *= 2; --@x; ++@x; @x--; exit(); }
8	BEGIN { 1 ? exit() : exit(); }
18	BEGIN { @x = - 1; @y = 2 - 1; @z = 2 -1; exit(); }
9	BEGIN { @ = sizeof(struct task_struct); exit(); }
20	BEGIN { @x[kstack] = count(); @y[kstack(3)] = count(); @z[ustack(perf, 3)] = count(); exit(); }
EOF

[ $fails = 0 ]
