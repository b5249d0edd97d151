#!/bin/sh
# bpftrace end to end, against what the test itself did (bt_work.c):
# N calls of a uniquely named function counted by a uprobe one-liner, K
# opens of a unique path printed with str(args->filename), A + B reads of
# known sizes on fd 99 as hist/lhist with the exact bucket counts and a
# tuple key, END printing after exit() from interval, -f json parsed, a
# $1 parameter, an error with its caret; -c runs the workload after the
# probes are attached and ends the trace with it.
# Run as root from the repository root: sh tests/e2e/bpftrace.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-bt.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-bt.XXXXXX)
T=bpftrace
N=37
K=5
A=7
B=3
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT

need_corebox
build_helper bpf_count
build_helper bt_work
bpf_snapshot before
cp "$W/bt_work" "$W/cbxbt"
BT="$CB bpftrace"

# uprobe: N calls
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:cbx_bt_target { @calls = count(); }" -c "$W/cbxbt calls $N" 2>&1)
if echo "$out" | grep -qx "@calls: $N"; then ok "uprobe counted $N calls"; else notok "uprobe: $out"; fi

# @[ustack] names the helper's function while it is alive when the map is
# printed: exit() comes from interval while it sleeps, and the -c command
# is a shell whose SIGTERM (0.17 ends the -c command when tracing ends)
# leaves the helper it started running
printf '#!/bin/sh\n"%s" calls %s 5000 &\necho $! > "%s"\nwait\n' "$W/cbxbt" "$N" "$W/us.pid" > "$W/us.sh"
chmod +x "$W/us.sh"
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:cbx_bt_target { @[ustack] = count(); } interval:ms:1500 { exit(); }" -c "$W/us.sh" 2>&1)
[ -s "$W/us.pid" ] && kill "$(cat "$W/us.pid")" 2>/dev/null
if echo "$out" | grep -qx "    cbx_bt_target+0" && echo "$out" | grep -qx "]: $N"; then
	ok "@[ustack]: cbx_bt_target+0, $N calls"
else
	notok "ustack: $out"
fi
# the -c command itself is ended before the maps print: its frames are
# addresses, as 0.17 prints them
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:cbx_bt_target { @[ustack] = count(); } interval:ms:1500 { exit(); }" -c "$W/cbxbt calls $N 5000" 2>&1)
if echo "$out" | grep -Eqx "    0x[0-9a-f]+" && ! echo "$out" | grep -q "cbx_bt_target+" && echo "$out" | grep -qx "]: $N"; then
	ok "@[ustack] of the ended -c command: addresses, $N calls"
else
	notok "ustack of the -c command: $out"
fi

# -l lists tracepoints as tracepoint:CAT:NAME
out=$($BT -l 'tracepoint:syscalls:sys_enter_openat*' 2>&1)
if echo "$out" | grep -qx "tracepoint:syscalls:sys_enter_openat" && ! echo "$out" | grep -qv "^tracepoint:syscalls:sys_enter_openat"; then
	ok "-l lists sys_enter_openat"
else
	notok "-l: $out"
fi

# -l uprobe:BIN:PATTERN lists the helper's one cbx_bt_* function; -l
# kfunc:/kprobe: list vfs_read as the kernel's BTF / symbols hold it
out=$($BT -l "uprobe:$W/cbxbt:cbx_bt_*" 2>&1)
if [ "$out" = "uprobe:$W/cbxbt:cbx_bt_target" ]; then ok "-l uprobe:BIN:cbx_bt_*"; else notok "-l uprobe: $out"; fi
out=$($BT -l 'kfunc:vfs_rea*' 2>&1)
if [ -r /sys/kernel/btf/vmlinux ] && echo "$out" | grep -qx "kfunc:vfs_read" && ! echo "$out" | grep -qv "^kfunc:vfs_rea"; then
	ok "-l kfunc:vfs_rea* from BTF"
else
	notok "-l kfunc: $out"
fi
out=$($BT -l 'k:vfs_rea*' 2>&1)
if grep -q " [tT] vfs_read$" /proc/kallsyms && echo "$out" | grep -qx "kprobe:vfs_read" && ! echo "$out" | grep -qv "^kprobe:vfs_rea"; then
	ok "-l kprobe:vfs_rea*"
else
	notok "-l kprobe: $out"
fi

# -l with -p: the process's executable only, named under /proc/PID/root
# as 0.17 names it (its libraries are not listed)
"$W/cbxbt" calls 0 5000 &
lp=$!
sleep 0.2
out=$($BT -l -p $lp 'uprobe:cbx_bt_*' 2>&1)
all=$($BT -l -p $lp 2>&1)
kill $lp 2>/dev/null
wait $lp 2>/dev/null
if [ "$out" = "uprobe:/proc/$lp/root$(readlink -f "$W/cbxbt"):cbx_bt_target" ] && ! echo "$all" | grep -q "libc"; then
	ok "-l -p: the executable's functions under /proc/PID/root"
else
	notok "-l -p: $out / $(echo "$all" | grep -c libc) libc lines"
fi

# probe and func are never cut (0.17 keeps them whole): a uprobe name of
# 100+ bytes, past BPFTRACE_STRLEN's 64, as a map key and in printf
LD=$W/$(printf 'd%.0s' $(seq 1 64))
mkdir -p "$LD" && cp "$W/cbxbt" "$LD/cbxbt"
out=$(timeout 20 $BT -e "uprobe:$LD/cbxbt:cbx_bt_target { @[probe] = count(); printf(\"%s\\n\", probe); }" -c "$LD/cbxbt calls $N" 2>&1)
if echo "$out" | grep -qx "@\[uprobe:$LD/cbxbt:cbx_bt_target\]: $N" &&
	[ "$(echo "$out" | grep -cx "uprobe:$LD/cbxbt:cbx_bt_target")" = $N ]; then
	ok "probe: a $((${#LD} + 27))-byte name whole, $N times"
else
	notok "long probe name: $out"
fi

# A function its binary lacks is left out, as 0.17 does (threadsnoop.bt
# names pthread_create in glibc 2.34+'s empty libpthread): a warning on
# stderr, the other probe of the block counts the N calls; with nothing
# else to attach it is the error; a missing binary is 0.17's error
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:cbx_bt_nosuch, uprobe:$W/cbxbt:cbx_bt_target { @calls = count(); }" \
	-c "$W/cbxbt calls $N" 2> "$W/drop.err"); rc=$?
if [ $rc = 0 ] && [ "$(printf '%s\n' "$out" | grep -v '^$')" = "$(printf 'Attaching 1 probe...\n@calls: %s' $N)" ] &&
	grep -q "^stdin:1:1-[0-9]*: WARNING: no function in $W/cbxbt matches 'cbx_bt_nosuch'\$" "$W/drop.err"; then
	ok "uprobe on a function the binary lacks: warned and left out, the other counted $N calls"
else
	notok "uprobe left out (rc $rc): $out $(cat "$W/drop.err")"
fi
out=$($BT -e "uprobe:$W/cbxbt:cbx_bt_nosuch { exit(); }" 2>&1); rc=$?
if [ $rc = 1 ] && echo "$out" | head -1 | grep -q "^stdin:1:1-[0-9]*: ERROR: no function in $W/cbxbt matches 'cbx_bt_nosuch'\$"; then
	ok "uprobe on a function the binary lacks, nothing else: the error"
else
	notok "uprobe matching nothing alone (rc $rc): $out"
fi
out=$($BT -e "uprobe:$W/nosuchbin:f { exit(); } BEGIN { exit(); }" 2>&1); rc=$?
first_line 1 "stdin:1:1-$((${#W} + 20)): ERROR: uprobe target file '$W/nosuchbin' does not exist or is not executable" \
	"uprobe on a missing binary: 0.17's error"

# '?' is no wildcard in 0.17: its lexer ends the attach point there and
# the parser refuses the '?' token, in -e and in -l alike (status 1)
out=$($BT -e "BEGIN { exit(); } uprobe:$W/cbxbt:cbx_bt_targe? { exit(); }" 2>&1); rc=$?
c2=$((19 + 7 + ${#W} + 20))
first_line 1 "stdin:1:19-$c2: ERROR: syntax error, unexpected ?, expecting {" "uprobe pattern with '?': 0.17's syntax error"
out=$($BT -l 'uprobe:libc:mallo?' 2>&1); rc=$?
first_line 1 "stdin:1:1-19: ERROR: syntax error, unexpected ?, expecting {" "-l with '?': 0.17's syntax error"

# uprobe wildcards as 0.17 expands them: every symbol name (two aliases
# of one address are two probes), and the names of the binary's separate
# debug file (a static function only its .gnu_debuglink file names)
cat > "$W/cbxal.c" <<'EOF'
#include <stdlib.h>
__attribute__((noinline, used)) static int cbx_al_static(int i) { return i * 3; }
__attribute__((noinline)) int cbx_al_one(int i) { return cbx_al_static(i) + 1; }
int cbx_al_two(int i) __attribute__((alias("cbx_al_one")));
int main(int argc, char **argv)
{
	volatile int s = 0;

	for (int i = 0, n = argc > 1 ? atoi(argv[1]) : 0; i < n; i++)
		s += cbx_al_one(i);
	return 0;
}
EOF
if $CC -O2 -g -rdynamic -o "$W/cbxal" "$W/cbxal.c" && objcopy --only-keep-debug "$W/cbxal" "$W/cbxal.debug" &&
	strip "$W/cbxal" && objcopy --add-gnu-debuglink="$W/cbxal.debug" "$W/cbxal"; then
	out=$($BT -l "uprobe:$W/cbxal:cbx_al*" 2>&1)
	want=$(printf 'uprobe:%s:cbx_al_one\nuprobe:%s:cbx_al_static\nuprobe:%s:cbx_al_two' "$W/cbxal" "$W/cbxal" "$W/cbxal")
	if [ "$out" = "$want" ]; then ok "-l: aliases and the debug file's static function, sorted"; else notok "-l aliases: $out"; fi
	out=$(timeout 20 $BT -e "uprobe:$W/cbxal:cbx_al* { @[probe] = count(); }" -c "$W/cbxal $N" 2>&1)
	if echo "$out" | grep -qx "Attaching 3 probes..." && [ "$(echo "$out" | grep -c "^@\[uprobe:$W/cbxal:cbx_al_[a-z]*\]: $N\$")" = 3 ]; then
		ok "3 probes (2 aliases, 1 from the debug file), $N calls each"
	else
		notok "aliases attach: $out"
	fi
else
	notok "cannot build the alias/debug-file helper"
fi

# printf with str(args->filename): K opens of a unique path
P="$W/unique-open-$$"
out=$(timeout 20 $BT -e 'tracepoint:syscalls:sys_enter_openat /comm == "cbxbt"/ { printf("open %s\n", str(args->filename)); }' -c "$W/cbxbt open $P $K" 2>&1)
got=$(echo "$out" | grep -cxF "open $P")
if [ "$got" = "$K" ]; then ok "printf str(args->filename): $K opens"; else notok "opens: $got of $K: $out"; fi

# hist, lhist, tuple keys: A reads of 100 bytes, B of 5000
PROG='tracepoint:syscalls:sys_enter_read /comm == "cbxbt" && args->fd == 99/ { @h = hist(args->count); @l = lhist(args.count, 0, 10000, 1000); @t[comm, args->fd] = count(); }'
out=$(timeout 20 $BT -e "$PROG" -c "$W/cbxbt read $A 100 $B 5000" 2>&1)
echo "$out" > "$W/hist.out"
bar=$(printf '@%.0s' $(seq 52))
bar3=$(printf '@%.0s' $(seq $((B * 52 / A))))
if grep -qxF "[64, 128)              $A |$bar|" "$W/hist.out" &&
	grep -qxE "\[4K, 8K\) +$B \|$bar3 *\|" "$W/hist.out" &&
	[ "$(grep -c '^\[' "$W/hist.out")" = $((7 + 6)) ]; then
	ok "hist: $A in [64, 128), $B in [4K, 8K)"
else
	notok "hist: $out"
fi
if grep -qE "^\[0, 1000\) +$A \|" "$W/hist.out" && grep -qE "^\[5000, 6000\) +$B \|" "$W/hist.out"; then
	ok "lhist: $A in [0, 1000), $B in [5000, 6000)"
else
	notok "lhist: $out"
fi
if grep -qx "@t\[cbxbt, 99\]: $((A + B))" "$W/hist.out"; then ok "tuple key [comm, fd]"; else notok "tuple: $out"; fi

# the program's own struct declarations (C layout, bitfields, arrays):
# members through a pointer, struct and array values in maps, keys and
# tuples, pointer arithmetic by the struct's size; the one call's values
# are the ones this test handed to the helper (7, -5, "abc")
R='struct R { int m; short n; char name[8]; int arr[3]; unsigned lo:4, hi:8; long big; }'
P='struct P { int m; short n; char name[8]; int arr[3]; }'
out=$(timeout 20 $BT -e "$R $P uprobe:$W/cbxbt:cbxrec_take { \$r = (struct R *)arg0; printf(\"%d %d %s %d %d %d %d\\n\", \$r->m, \$r->n, \$r->name, \$r->arr[2], \$r->lo, \$r->hi, sizeof(struct R)); @s = *(struct P *)arg0; @k[((struct P *)arg0)->arr] = count(); \$v = *(struct P *)arg0; @t = (\$v.m, \$v.name, (int8)-3, \$r->big, \$v.arr[1]); @p = (struct R *)arg0; @p += 2; @d = (uint64)@p - arg0; }" -c "$W/cbxbt struct 7 -5 abc" 2>&1)
if echo "$out" | grep -qx "7 -5 abc 2 7 251 40" && echo "$out" | grep -qxF "@s: { .m = 7, .n = -5, .name = abc, .arr = [7,-5,2] }" &&
	echo "$out" | grep -qxF "@k[[7,-5,2]]: 1" && echo "$out" | grep -qxF "@t: (7, abc, -3, 7000, -5)" && echo "$out" | grep -qx "@d: 80"; then
	ok "struct declarations: members, bitfields, struct/array values, tuples, pointer arithmetic"
else
	notok "struct declarations: $out"
fi

# a declaration redefining a kernel struct the probes use (curtask's
# task_struct) makes 0.17 take no type from BTF: a kernel struct member
# by value is then clang's error, in clang's words, status 1; the same
# declaration unused by the probes takes thread_info from BTF and runs
out=$(timeout 20 $BT -e 'struct task_struct { struct thread_info x; } BEGIN { printf("%d\n", curtask->x.status); }' 2>&1); rc=$?
want=$(printf '%s\n%s' "definitions.h:2:41: error: field has incomplete type 'struct thread_info'" \
	"definitions.h:2:29: note: forward declaration of 'struct thread_info'")
if [ $rc = 1 ] && [ "$out" = "$want" ]; then ok "redefined task_struct: clang's incomplete type error"; else notok "redefinition (rc $rc): $out"; fi
out=$(timeout 20 $BT -e 'struct task_struct { struct thread_info x; } BEGIN { exit(); }' 2>&1); rc=$?
if [ $rc = 0 ] && [ "$(echo "$out" | head -1)" = "Attaching 1 probe..." ]; then ok "the same declaration, unused: runs"; else notok "unused redefinition (rc $rc): $out"; fi

# -f json, parsed
timeout 20 $BT -f json -e "$PROG" -c "$W/cbxbt read $A 100 $B 5000" > "$W/json.out" 2>&1
if python3 - "$W/json.out" $A $B <<'PY'
import json, sys
a, b = int(sys.argv[2]), int(sys.argv[3])
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
hist = [d["data"]["@h"] for d in docs if d["type"] == "hist" and "@h" in d["data"]][0]
buckets = {(x["min"], x["max"]): x["count"] for x in hist if x["count"]}
assert buckets == {(64, 127): a, (4096, 8191): b}, buckets
tup = [d["data"]["@t"] for d in docs if d["type"] == "map" and "@t" in d["data"]][0]
assert tup == {"cbxbt,99": a + b}, tup
assert [d for d in docs if d["type"] == "attached_probes"][0]["data"]["probes"] == 1
PY
then ok "-f json: hist and map parsed"; else notok "-f json: $(cat "$W/json.out")"; fi

# exit() from interval, END printing, $1
out=$(timeout 20 $BT -e 'BEGIN { @s = $1; } interval:ms:200 { exit(); } END { printf("end %d\n", @s + 1); }' 41 2>&1)
rc=$?
if [ $rc = 0 ] && echo "$out" | grep -qx "end 42" && echo "$out" | grep -qx "@s: 41"; then
	ok "exit() from interval, END printf, \$1"
else
	notok "exit/END/\$1 (rc $rc): $out"
fi

# has_key (bpftrace 0.21+; 0.17 has none): the keys this program stored
out=$(timeout 20 $BT -e 'BEGIN { @m[1, "a"] = 5; printf("%d %d %d\n", has_key(@m, 1, "a"), has_key(@m, 1, "b"), has_key(@m, 2, "a")); exit(); }' 2>&1)
if echo "$out" | grep -qx "1 0 0"; then ok "has_key: the stored key only"; else notok "has_key: $out"; fi

# system(): refused without --unsafe (0.17's message, status 1); with it
# the command runs once per event: it creates the file the test names
out=$(timeout 20 $BT -e "BEGIN { system(\"touch $W/sys-%d\", 7); exit(); }" 2>&1)
rc=$?
if [ $rc = 1 ] && [ ! -e "$W/sys-7" ] &&
	echo "$out" | grep -qx "stdin:1:9-.*: ERROR: system() is an unsafe function being used in safe mode"; then
	ok "system() refused without --unsafe"
else
	notok "system() safe mode (rc $rc): $out"
fi
out=$(timeout 20 $BT --unsafe -e "BEGIN { system(\"touch $W/sys-%d; echo made\", 7); exit(); }" 2>&1)
if [ -e "$W/sys-7" ] && echo "$out" | grep -qx made; then ok "system() with --unsafe ran the command"; else notok "system(): $out"; fi

# rawtracepoint: the one exec of the workload, its task pointer (arg0);
# a name no category has is refused
out=$(timeout 20 $BT -e 'rawtracepoint:sched_process_exec /comm == "cbxbt"/ { @execs = count(); @task = arg0 != 0; }' -c "$W/cbxbt calls 1" 2>&1)
if echo "$out" | grep -qx "@execs: 1" && echo "$out" | grep -qx "@task: 1"; then ok "rawtracepoint: 1 exec, arg0"; else notok "rawtracepoint: $out"; fi
out=$(timeout 20 $BT -e 'rawtracepoint:cbx_no_such_event { @ = count(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -q "ERROR: no tracepoint named cbx_no_such_event"; then ok "rawtracepoint: unknown name refused"; else notok "rawtracepoint unknown (rc $rc): $out"; fi

# signal(): with --unsafe the traced sleep (a copy named cbxsleep) is
# killed at its nanosleep: its shell sees status 137 (128 + SIGKILL)
cp "$(command -v sleep)" "$W/cbxsleep"
# (-c splits at spaces without a shell, as 0.17: the shell lines go in a file)
printf '%s/cbxsleep 8; echo status $?\n' "$W" > "$W/sleep.sh"
out=$(timeout 30 $BT --unsafe -e 't:syscalls:sys_enter_nanosleep, t:syscalls:sys_enter_clock_nanosleep /comm == "cbxsleep"/ { signal("SIGKILL"); }' -c "sh $W/sleep.sh" 2>&1)
if echo "$out" | grep -qx "status 137"; then ok "signal(\"SIGKILL\") killed the traced sleep"; else notok "signal(): $out"; fi

# usdt: the helper's two cbxtp:alpha sites (arguments argc and 7, then
# swapped) and its one beta, fired once each after the ready/go handshake
build_helper cbx_usdt
printf '%s/cbx_usdt a b c & p=$!; sleep 1; kill -USR1 $p; wait $p\n' "$W" > "$W/usdt.sh"
out=$(timeout 30 $BT -e "usdt:$W/cbx_usdt:alpha { printf(\"%s %d %d\\n\", probe, arg0, arg1); } usdt:$W/cbx_usdt:cbxtp:beta { @[probe] = count(); }" \
	-c "sh $W/usdt.sh" 2>&1)
if echo "$out" | grep -qx "Attaching 3 probes..." && echo "$out" | grep -qx "usdt:$W/cbx_usdt:cbxtp:alpha 4 7" &&
	echo "$out" | grep -qx "usdt:$W/cbx_usdt:cbxtp:alpha 7 4" && echo "$out" | grep -qx "@\[usdt:$W/cbx_usdt:cbxtp:beta\]: 1"; then
	ok "usdt: both alpha sites with their arguments, beta once"
else
	notok "usdt: $out"
fi

# -l usdt:BIN:[PROVIDER:]PATTERN: the helper's two probes, each once
# (alpha has two sites), any provider when none is given; a probe the
# binary lacks is left out beside another block, as 0.17 leaves it out
out=$($BT -l "usdt:$W/cbx_usdt:*" 2>&1)$(echo; $BT -l "usdt:$W/cbx_usdt:cbxtp:b*" 2>&1)$(echo; $BT -l "U:$W/cbx_usdt:al*" 2>&1)
want=$(printf 'usdt:%s:cbxtp:alpha\nusdt:%s:cbxtp:beta\nusdt:%s:cbxtp:beta\nusdt:%s:cbxtp:alpha' "$W/cbx_usdt" "$W/cbx_usdt" "$W/cbx_usdt" "$W/cbx_usdt")
if [ "$out" = "$want" ]; then ok "-l usdt: the helper's probes by pattern"; else notok "-l usdt: $out"; fi
out=$($BT -l "usdt:$W/nosuch:*" 2>&1); rc=$?
first_line 1 "stdin:1:1-$((${#W} + 15)): ERROR: usdt target file '$W/nosuch' does not exist or is not executable" \
	"-l usdt: a missing binary: 0.17's error"
out=$($BT -l "usdt:$W/cbx_usdt" 2>&1); rc=$?
first_line 1 "stdin:1:1-$((${#W} + 15)): ERROR: usdt probe type requires 2 or 3 arguments" "-l usdt: no pattern: 0.17's error"
out=$($BT -e "usdt:$W/cbx_usdt:cbxtp:gamma { exit(); } BEGIN { printf(\"begun\\n\"); exit(); }" 2> "$W/ug.err"); rc=$?
if [ $rc = 0 ] && echo "$out" | grep -qx begun && grep -q "WARNING: no USDT probe in $W/cbx_usdt matches 'gamma'" "$W/ug.err"; then
	ok "usdt probe the binary lacks: warned and left out"
else
	notok "usdt probe left out (rc $rc): $out $(cat "$W/ug.err")"
fi

# cat(FMT, ...): the file this test wrote, its name formatted
echo "cat-ground-$$" > "$W/cat-7.txt"
out=$(timeout 20 $BT -e "BEGIN { cat(\"$W/cat-%d.%s\", 7, \"txt\"); exit(); }" 2>&1)
if echo "$out" | grep -qx "cat-ground-$$"; then ok "cat with a format"; else notok "cat format: $out"; fi

# -o FILE: the output there, nothing on stdout
out=$(timeout 20 $BT -o "$W/o.txt" -e 'BEGIN { printf("to file %d\n", 7); exit(); }' 2>&1)
if [ -z "$out" ] && grep -qx "to file 7" "$W/o.txt" && grep -qx "Attaching 1 probe..." "$W/o.txt"; then
	ok "-o FILE"
else
	notok "-o: '$out' $(cat "$W/o.txt" 2>&1)"
fi

# a script file with a #! line, $1 as a string
cat > "$W/hello.bt" <<'BT'
#!/usr/bin/env bpftrace
// comment
BEGIN { printf("hello %s\n", str($1)); exit(); }
BT
out=$(timeout 20 $BT "$W/hello.bt" world 2>&1)
if echo "$out" | grep -qx "hello world"; then ok "script file with #!, str(\$1)"; else notok "script: $out"; fi

# a bad program: bpftrace's error layout, status 1
out=$(timeout 20 $BT -e 'BEGIN { foo(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$(echo "$out" | head -1)" = "stdin:1:9-12: ERROR: Unknown function: foo" ] &&
	[ "$(echo "$out" | sed -n 3p)" = "        ~~~" ]; then
	ok "unknown function: error with caret"
else
	notok "error (rc $rc): $out"
fi
# `$x -= 1` and `$x++` read $x: undeclared, 0.17's error at the variable
out=$(timeout 20 $BT -e 'BEGIN { $y = 1; $x -= 1; }' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$(echo "$out" | head -1)" = "stdin:1:17-19: ERROR: Undefined or undeclared variable: \$x" ]; then
	ok "compound assignment to an undeclared variable: 0.17's error"
else
	notok "\$x -= 1 (rc $rc): $out"
fi

# uprobe:BIN:ADDRESS (the function's address as nm prints it), FUNC+0 and
# "FUNC"+0 count the N calls; the address probe is named by its address
# in decimal, as 0.17; offsets inside or past the function and an address
# in no function are refused with 0.17's words, exit 1
hex=$(nm "$W/cbxbt" | awk '$3 == "cbx_bt_target" { print $1 }')
size=$(nm -S "$W/cbxbt" | awk '$4 == "cbx_bt_target" { print $2 }')
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:0x$hex { @[probe] = count(); }" -c "$W/cbxbt calls $N" 2>&1)
if echo "$out" | grep -qx "@\[uprobe:$W/cbxbt:$((0x$hex))\]: $N"; then ok "uprobe:BIN:0x$hex counted $N calls"; else notok "uprobe address: $out"; fi
out=$(timeout 20 $BT -e "uprobe:$W/cbxbt:cbx_bt_target+0 { @a = count(); } uprobe:$W/cbxbt:\"cbx_bt_target\"+0 { @b = count(); }" -c "$W/cbxbt calls $N" 2>&1)
if echo "$out" | grep -qx "@a: $N" && echo "$out" | grep -qx "@b: $N"; then ok "FUNC+0 and \"FUNC\"+0 counted $N calls"; else notok "FUNC+0: $out"; fi
out=$($BT -e "uprobe:$W/cbxbt:cbx_bt_target+1000000 { exit(); }" 2>&1); rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: Offset outside the function bounds ('cbx_bt_target' size is $((0x$size)))" ]; then
	ok "FUNC+OFF past the function: refused"
else
	notok "FUNC+1000000 (rc $rc): $out"
fi
out=$($BT -e "uprobe:$W/cbxbt:0x$(printf %x $((0x$hex + 1))) { exit(); }" 2>&1); rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: Can't check if uprobe is in proper place (compiled without (k|u)probe offset support): $W/cbxbt:cbx_bt_target+1" ]; then
	ok "an address inside the function: refused"
else
	notok "ADDRESS+1 (rc $rc): $out"
fi
out=$($BT -e "uprobe:$W/cbxbt:10 { exit(); }" 2>&1); rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: Could not resolve address: $W/cbxbt:0xa" ]; then ok "an address in no function: refused"; else notok "address 10 (rc $rc): $out"; fi

# -kk: a read that fails (address 16) warns with the source range, in
# the output (stdout) where it happens, as 0.17; -k leaves reads alone
# (their value is 0 on failure)
$BT -kk -e 'BEGIN { @ = *(uint32*)16; printf("%s|\n", str(8)); exit(); }' > "$W/kk.out" 2> "$W/kk.err"; rc=$?
printf '%s\n' 'Attaching 1 probe...' 'stdin:1:13-14: WARNING: Failed to probe_read: Bad address (-14)' \
	'BEGIN { @ = *(uint32*)16; printf("%s|\n", str(8)); exit(); }' '            ~' \
	'stdin:1:43-49: WARNING: Failed to probe_read_str: Bad address (-14)' \
	'BEGIN { @ = *(uint32*)16; printf("%s|\n", str(8)); exit(); }' '                                          ~~~~~~' \
	'|' '' '' '@: 0' > "$W/kk.want"
if [ $rc = 0 ] && cmp -s "$W/kk.want" "$W/kk.out" && [ ! -s "$W/kk.err" ]; then
	ok "-kk: two failed reads, two warnings"
else
	notok "-kk (rc $rc): $(cat "$W/kk.err" "$W/kk.out")"
fi
out=$($BT -k -e 'BEGIN { @ = *(uint32*)16; exit(); }' 2>&1)
if ! echo "$out" | grep -q WARNING; then ok "-k: reads not checked"; else notok "-k: $out"; fi
# -kk: the first sum() and keyed count() find no element (their lookups
# warn under the call, as 0.17); a keyless count() does not (0.17 keeps
# it in an array); each runs once here
out=$($BT -kk -e 'BEGIN { @s = sum(3); @c = count(); @k[1] = count(); exit(); }' 2>&1)
if [ "$(echo "$out" | grep WARNING)" = "$(printf '%s\n%s' 'stdin:1:14-20: WARNING: Failed to map_lookup_elem: 0' \
	'stdin:1:44-51: WARNING: Failed to map_lookup_elem: 0')" ]; then
	ok "-kk: aggregation lookups that find nothing, under the call"
else
	notok "-kk aggregations: $out"
fi

# -V starts as 0.17's ("bpftrace v"); -h: the USAGE text on stderr, exit 0;
# a bad short option: the word and the USAGE text, exit 2
out=$($BT -V); rc=$?
case $out in "bpftrace v0.17.0 (corebox "*) [ $rc = 0 ] && ok "-V: $out" || notok "-V rc $rc";; *) notok "-V: $out";; esac
$BT -h > "$W/h.out" 2> "$W/h.err"; rc=$?
if [ $rc = 0 ] && [ ! -s "$W/h.out" ] && [ "$(head -1 "$W/h.err")" = "USAGE:" ] && grep -qx "OPTIONS:" "$W/h.err"; then
	ok "-h: USAGE on stderr"
else
	notok "-h (rc $rc): $(head -3 "$W/h.err")"
fi
$BT -idonotexist > /dev/null 2> "$W/bad.err"; rc=$?
if [ $rc = 2 ] && [ "$(head -2 "$W/bad.err")" = "bpftrace: invalid option -- 'i'
USAGE:" ]; then ok "bad option: named, then USAGE"; else notok "bad option (rc $rc): $(head -2 "$W/bad.err")"; fi

# SIGINT: END runs, the maps print, nothing stays loaded
bt_until_attached "$W/int.out" -e 'BEGIN { @b = 1; } END { printf("bye\n"); }'
kill -INT $BTPID
if bt_reap 50 && grep -qx bye "$W/int.out" && grep -qx "@b: 1" "$W/int.out"; then
	ok "SIGINT: END and the maps"
else
	notok "SIGINT: $(cat "$W/int.out")"
fi
bpf_snapshot after
if left=$(bpf_new after 'cbx_|bpftrace'); then notok "left loaded: $left"; else ok "nothing left loaded"; fi

[ $fails = 0 ]
