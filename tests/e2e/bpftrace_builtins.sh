#!/bin/sh
# bpftrace builtins, options and output, against what the test itself
# made: strncmp and buf() over the K opens of a path it chose, the stack
# arguments of a call it compiled (sarg0/sarg1), print() of values it
# passed, a cleared count, -k warnings of the keys it never stored,
# --include of a header it wrote, -l of a process it started, the NUMA
# nodes the kernel lists, and 0.17's words for the errors it provoked.
# Run as root from the repository root: sh tests/e2e/bpftrace_builtins.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-btb.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-btb.XXXXXX)
T=bpftrace_builtins
K=6
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT

need_corebox
build_helper bt_work
cp "$W/bt_work" "$W/cbxbt"
BT="$CB bpftrace"

# strncmp(comm, ...) picks the workload's K opens of its unique path;
# buf(args->filename, 8) shows that path's first 8 bytes (%r, %rx, %rh)
P="$W/q$$-unique-open"
out=$(timeout 20 $BT -e 'tracepoint:syscalls:sys_enter_openat /strncmp(comm, "cbxbtZZ", 5) == 0 && strncmp(comm, "cbxbx", 5) != 0 && strncmp(str(args->filename), "'"$P"'", 60) == 0/ { @opens = count(); printf("%r|%rx|%rh\n", buf(args->filename + '${#W}', 8), buf(args->filename + '${#W}', 8), buf(args->filename + '${#W}', 8)); }' -c "$W/cbxbt open $P $K" 2>&1)
head8=$(printf %s "$P" | cut -c$((${#W} + 1))-$((${#W} + 8)))
hx=$(printf %s "$head8" | od -An -tx1 | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
rx=$(echo "$hx" | sed 's/\([0-9a-f][0-9a-f]\)/\\x\1/g; s/ //g')
if echo "$out" | grep -qx "@opens: $K" && [ "$(echo "$out" | grep -cxF "$head8|$rx|$hx")" = "$K" ]; then
	ok "strncmp(comm) picked $K opens; buf() as %r, %rx, %rh"
else
	notok "strncmp/buf: want $K x '$head8|$rx|$hx': $out"
fi

# sarg0, sarg1: the 7th and 8th int arguments on x86_64 (the stack ones),
# the 9th and 10th on arm64, of a call of 0, 1, 2, 4 ... 256
if $CC -O0 -g -o "$W/stack_args" tests/bt/testprogs/stack_args.c; then
	case $(uname -m) in x86_64) want="32 64" ;; aarch64) want="128 256" ;; *) want="" ;; esac
	out=$(timeout 20 $BT -e "uprobe:$W/stack_args:too_many_args { printf(\"S %d %d\\n\", sarg0, sarg1); }" -c "$W/stack_args" 2>&1)
	if [ -z "$want" ] || echo "$out" | grep -qx "S $want"; then ok "sarg0 sarg1: $want"; else notok "sarg (want $want): $out"; fi
else
	notok "cannot build tests/bt/testprogs/stack_args.c"
fi

# print(VALUE) of the test's numbers and text; -f json "value" records
out=$(timeout 20 $BT -e 'BEGIN { $x = $1 * 2; print($x); print(str($2)); print(1 + 2 * 3); exit(); }' 21 "word-$$" 2>&1)
if [ "$(echo "$out" | sed -n '2,4p' | tr '\n' ' ')" = "42 word-$$ 7 " ]; then ok "print(VALUE)"; else notok "print: $out"; fi
out=$(timeout 20 $BT -q -f json -e 'BEGIN { print($1); print(str($2)); exit(); }' 5 "a b" 2>&1)
if [ "$(echo "$out" | head -2 | tr '\n' '|')" = '{"type": "value", "data": 5}|{"type": "value", "data": "a b"}|' ]; then
	ok "-q -f json: value records, no attached_probes"
else
	notok "json print: $out"
fi

# a cleared count map without keys prints 0; a keyed one a blank line;
# nothing runs after exit()
out=$(timeout 20 $BT -e 'BEGIN { @ = count(); @ = count(); @a[1] = count(); clear(@); clear(@a); @b++; exit(); @b++; }' 2>&1)
if [ "$(echo "$out" | tr '\n' '|')" = "Attaching 1 probe...|||@: 0||@b: 1|" ]; then
	ok "cleared count: '@: 0'; exit() ends the block"
else
	notok "cleared count: $(echo "$out" | od -c | head)"
fi

# pton: the addresses the test wrote, back through ntop
out=$(timeout 20 $BT -e 'BEGIN { printf("%s %s %s\n", ntop(2, pton("10.1.2.3")), ntop(pton("fe80::7")), ntop(pton("192.168.0.255"))); exit(); }' 2>&1)
if echo "$out" | grep -qx "10.1.2.3 fe80::7 192.168.0.255"; then ok "pton"; else notok "pton: $out"; fi

# numaid: one of the nodes the kernel lists online
out=$(timeout 20 $BT -e 'i:ms:10 { printf("N %d\n", numaid); exit(); }' 2>&1)
n=$(echo "$out" | sed -n 's/^N //p')
online=$(cat /sys/devices/system/node/online 2>/dev/null || echo 0)
if [ -n "$n" ] && echo ",$online," | tr '-' ',' | grep -q ",$n,"; then ok "numaid $n (online: $online)"; else notok "numaid: '$n' (online $online): $out"; fi

# -k: the delete of a key never stored warns with the kernel's -ENOENT;
# -kk: so does the lookup of one
out=$(timeout 20 $BT -k -e 'BEGIN { @[1] = 1; delete(@[2]); exit(); }' 2>&1)
if printf '%s\n' "$out" | grep -qx "stdin:1:19-31: WARNING: Failed to map_delete_elem: No such file or directory (-2)"; then
	ok "-k: map_delete_elem -2"
else
	notok "-k: $out"
fi
out=$(timeout 20 $BT -kk -e 'BEGIN { @[1] = 1; printf("%d\n", @[2]); exit(); }' 2>&1)
if printf '%s\n' "$out" | grep -qx "stdin:1:34-38: WARNING: Failed to map_lookup_elem: 0" && printf '%s\n' "$out" | grep -qx 0; then ok "-kk: map_lookup_elem"; else notok "-kk: $out"; fi

# --include FILE -I DIR: the header's constants, and its include's
mkdir -p "$W/inc/sub"
printf '#include "sub/n.h"\n#define CBX_MAGIC 4200\n#define CBX_ALIAS CBX_MAGIC\n' > "$W/inc/cbx.h"
printf '#define CBX_NESTED (42)\n' > "$W/inc/sub/n.h"
out=$(timeout 20 $BT -I "$W/inc" --include cbx.h -e 'BEGIN { printf("%d\n", CBX_ALIAS + CBX_NESTED); exit(); }' 2>&1)
if echo "$out" | grep -qx 4242; then ok "--include, -I: #define constants"; else notok "--include: $out"; fi

# macaddr(): the bytes complex_struct stored (b = 5 4 3 2, c = 1 2 ...),
# from a char[6] member, a pointer, as a key, a value and in a tuple;
# uaddr(): the globals uprobe_test holds, built position-independent and
# not
if $CC -O0 -g -o "$W/complex_struct" tests/bt/testprogs/complex_struct.c &&
	$CC -O0 -g -o "$W/uprobe_test" tests/bt/testprogs/uprobe_test.c &&
	$CC -O0 -g -no-pie -o "$W/uprobe_test_np" tests/bt/testprogs/uprobe_test.c; then
	out=$(timeout 20 $BT -e 'struct M { const char *p; char mac[6]; }; u:'"$W"'/complex_struct:func { $s = (struct M *)arg0; printf("P: %s %s\n", macaddr($s->mac), macaddr((uint8 *)$s + 8)); @[macaddr($s->mac)] = 1; @v = macaddr($s->mac); @t = (7, macaddr($s->mac)); exit(); }' -c "$W/complex_struct" 2>&1)
	if echo "$out" | grep -qx "P: 05:04:03:02:01:02 05:04:03:02:01:02" && echo "$out" | grep -qx "@\[05:04:03:02:01:02\]: 1" &&
		echo "$out" | grep -qx "@v: 05:04:03:02:01:02" && echo "$out" | grep -qx "@t: (7, 05:04:03:02:01:02)"; then
		ok "macaddr()"
	else
		notok "macaddr: $out"
	fi
	out=$($BT -e 'struct M { char mac[4]; }; u:'"$W"'/complex_struct:func { print(macaddr(((struct M *)arg0)->mac)); }' 2>&1)
	if echo "$out" | grep -q "ERROR: macaddr() argument must be 6 bytes in size"; then ok "macaddr() of 4 bytes: error"; else notok "macaddr size: $out"; fi
	for b in uprobe_test uprobe_test_np; do
		out=$(timeout 20 $BT -e 'uprobe:'"$W/$b"':function1 { printf("0x%lx -- 0x%lx %d %d\n", *uaddr("GLOBAL_A"), *uaddr("GLOBAL_C"), *uaddr("GLOBAL_D"), sizeof(*uaddr("GLOBAL_D"))); exit(); }' -c "$W/$b" 2>&1)
		if echo "$out" | grep -qx "0x55555555 -- 0x33333333 8 1"; then ok "uaddr() in $b"; else notok "uaddr $b: $out"; fi
	done
	out=$($BT -e 'BEGIN { printf("%p\n", uaddr("GLOBAL_A")); }' 2>&1)
	if echo "$out" | grep -q 'ERROR: uaddr can not be used with "BEGIN" probes'; then ok "uaddr() in BEGIN: error"; else notok "uaddr BEGIN: $out"; fi
	out=$($BT -e 'u:'"$W"'/uprobe_test:function1 { printf("%p\n", uaddr("CBX_NONE")); }' 2>&1)
	if echo "$out" | grep -q "ERROR: Could not resolve symbol: $W/uprobe_test:CBX_NONE"; then ok "uaddr() of a missing symbol: error"; else notok "uaddr missing: $out"; fi
else
	notok "cannot build tests/bt/testprogs (complex_struct, uprobe_test)"
fi

# strcontains(): the K opens of the test's unique path among all opens
P="$W/sc$$-unique"
out=$(timeout 20 $BT -e 'tracepoint:syscalls:sys_enter_openat /strcontains(str(args->filename), "sc'$$'-uniq")/ { @opens = count(); }' -c "$W/cbxbt open $P $K" 2>&1)
if echo "$out" | grep -qx "@opens: $K"; then ok "strcontains() picked $K opens"; else notok "strcontains (want $K): $out"; fi

# cgroup_path(): a cgroup the test made under the cgroup2 mount, by its
# inode
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -n "$cg" ] && mkdir -p "$cg/cbx-bt$$/sub" 2>/dev/null; then
	out=$(timeout 20 $BT -e 'BEGIN { print(cgroup_path($1, "unified")); exit(); }' "$(stat -c %i "$cg/cbx-bt$$/sub")" 2>&1)
	rmdir "$cg/cbx-bt$$/sub" "$cg/cbx-bt$$"
	if echo "$out" | grep -qx "unified:/cbx-bt$$/sub"; then ok "cgroup_path() of the test's cgroup"; else notok "cgroup_path: $out"; fi
else
	ok "cgroup_path # SKIP no cgroup2 mount to make a cgroup in"
fi

# array == and != by contents: a copy of x equals x, x differs from its
# reversed copy d; a pointer key prints in hex (the number the test gave)
if $CC -O0 -g -o "$W/array_access" tests/bt/testprogs/array_access.c; then
	out=$(timeout 20 $BT -e 'struct A { int x[4]; } u:'"$W"'/array_access:test_arrays { $a = (struct A *)arg0; $d = (struct A *)arg1; $v = $a->x; @m = $d->x; printf("A %d %d %d %d %d\n", $a->x == $v, $a->x != $d->x, $a->x == $d->x, @m == $d->x, @m != $v); exit(); }' -c "$W/array_access" 2>&1)
	if echo "$out" | grep -qx "A 1 1 0 1 1"; then ok "array == and != by contents"; else notok "array compare: $out"; fi
else
	notok "cannot build tests/bt/testprogs/array_access.c"
fi
out=$(timeout 20 $BT -e 'BEGIN { @[(int32 *)$1, 5] = 1; exit(); }' 4660 2>&1)
if echo "$out" | grep -qx "@\[0x1234, 5\]: 1"; then ok "a pointer key in hex"; else notok "pointer key: $out"; fi

# #include: a header the test wrote is found in -I DIR; one nobody wrote
# stops the program with 0.17's (clang's) words, exit 1
out=$(timeout 20 $BT -I "$W/inc" -e '#include <cbx.h>
BEGIN { printf("inc ok\n"); exit(); }' 2>&1)
if echo "$out" | grep -qx "inc ok"; then ok "#include of an existing header"; else notok "#include existing: $out"; fi
out=$(timeout 20 $BT -e '#define X 1
#include <cbx-none-'$$'/no.h>
BEGIN { exit(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "definitions.h:3:10: fatal error: 'cbx-none-$$/no.h' file not found" ]; then
	ok "#include of a missing header: file not found"
else
	notok "#include missing (rc $rc): $out"
fi

# a kernel header nobody installed: the kernel's BTF answers (the task
# struct's size), and -v says so
out=$(timeout 20 $BT -v -e '#include <linux/cbx-none-'$$'.h>
BEGIN { printf("btf %d\n", sizeof(struct task_struct) > 1000); exit(); }' 2> "$W/inc.err")
if echo "$out" | grep -qx "btf 1" && grep -qx "bpftrace: #include <linux/cbx-none-$$.h>: not on this system, not needed; its types come from the kernel's BTF" "$W/inc.err"; then
	ok "#include of a kernel header not installed: BTF answers, -v says so"
else
	notok "#include kernel header from BTF: $out $(cat "$W/inc.err")"
fi

# $N in attach points: the parameters the test gave
out=$(timeout 20 $BT -e 'i:ms:$1 { printf("%s\n", probe); exit(); } BEG$2 { printf("b\n"); }' 7 IN 2>&1)
if printf '%s\n' "$out" | grep -qx "interval:ms:7" && printf '%s\n' "$out" | grep -qx b; then ok "\$N in attach points"; else notok "attach \$N: $out"; fi

# the program from standard input
out=$(echo 'BEGIN { printf("stdin %d\n", 7); exit(); }' | timeout 20 $BT - 2>&1)
if echo "$out" | grep -qx "stdin 7"; then ok "program from '-'"; else notok "stdin: $out"; fi

# SIGUSR1: the maps now, and again at exit
$BT -e 'BEGIN { @usr = 77; } interval:s:3 { exit(); }' > "$W/usr1.out" 2>&1 &
p=$!
sleep 1
kill -USR1 $p
wait $p
if [ "$(grep -cx '@usr: 77' "$W/usr1.out")" = 2 ]; then ok "SIGUSR1 prints the maps"; else notok "SIGUSR1: $(cat "$W/usr1.out")"; fi

# -l: software events; -l -p PID: the process's own function
out=$($BT -l 'software:*' 2>&1)
if echo "$out" | grep -qx "software:cpu-clock:" && ! echo "$out" | grep -qv "^software:"; then ok "-l software:*"; else notok "-l software: $out"; fi
# software:/hardware: probes checked in 0.17's order and words (a count of
# 0 or * is the event's default); a hardware event runs where the CPUs
# have counters (the N calls' instructions are counted), else one line
# says what is missing, exit 1
bad=0
for c in 'software:faults:x=stoull' 'software=software probe type requires 1 or 2 arguments' \
	'hardware:cycles:1:2=hardware probe type requires 1 or 2 arguments' \
	'software:fault*=wildcards are not allowed for hardware probe type' \
	'hardware:bogus=bogus is not a hardware probe' 'software:bogus:3=bogus is not a software probe'; do
	ap=${c%%=*}
	out=$($BT -e "$ap { exit(); }" 2>&1)
	[ $? = 1 ] && [ "$(echo "$out" | head -1)" = "stdin:1:1-$((${#ap} + 1)): ERROR: ${c#*=}" ] || { bad=1; notok "$ap: $out"; }
done
out=$($BT -e 'software:faults:0 { exit(); } software:cs:* { exit(); } interval:s:5 { exit(); }' 2>&1); rc=$?
[ $rc = 0 ] && [ "$(echo "$out" | head -1)" = "Attaching 3 probes..." ] || { bad=1; notok "software counts 0 and *: rc $rc $out"; }
[ $bad = 0 ] && ok "software:/hardware: attach points: 0.17's checks and words"
out=$($BT -e 'h:instructions:100000 /pid == cpid/ { @ = count(); }' -c "$W/cbxbt calls 20000" 2>&1); rc=$?
if ls /sys/bus/event_source/devices | grep -qx -e cpu -e 'armv[78]_.*' -e cpu_core; then
	if [ $rc = 0 ] && [ "$(echo "$out" | awk '/^@: / { print ($2 > 0) }')" = 1 ]; then ok "hardware:instructions counted the helper's calls"; else notok "hardware:instructions: rc $rc $out"; fi
elif [ $rc = 1 ] && [ "$out" = "ERROR: hardware:instructions:100000: this machine's CPUs have no hardware counter for it (perf_event_open: No such file or directory); software: and profile: probes need none" ]; then
	ok "hardware: no PMU here: one line, exit 1"
else
	notok "hardware: without a PMU: rc $rc $out"
fi
"$W/cbxbt" calls 1 4000 &
p=$!
sleep 0.5
out=$($BT -l 'uprobe:*' -p $p 2>&1)
kill $p 2>/dev/null
wait $p 2>/dev/null
if echo "$out" | grep -qx "uprobe:/proc/$p/root$(readlink -f "$W/cbxbt"):cbx_bt_target"; then ok "-l -p PID: the process's function under /proc/PID/root"; else notok "-l -p: $(echo "$out" | head -5)"; fi

# --info: what the kernel said (tracefs is there: tracepoints yes)
out=$($BT --info 2>&1)
if echo "$out" | grep -qx "  tracepoint: yes" && echo "$out" | grep -qE "^  Loop support: (yes|no)$" &&
	echo "$out" | grep -qx "  hash: yes"; then
	ok "--info"
else
	notok "--info: $out"
fi

# 0.17's words: printf types, -p, a missing file, -f
out=$($BT -e 'BEGIN { printf("%d\n", "a"); }' 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -qx 'stdin:1:9-28: ERROR: printf: %d specifier expects a value of type integer (string supplied)'; then
	ok "printf type error"
else
	notok "printf type (rc $rc): $out"
fi
out=$($BT -e 'BEGIN { printf("%r\n", 1); }' 2>&1)
if echo "$out" | grep -q 'ERROR: printf: %r specifier expects a value of type buffer (integer supplied)'; then ok "%r type error"; else notok "%r: $out"; fi
out=$($BT -p 12a file.bt 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: pid '12a' is not a valid decimal number" ]; then ok "-p 12a"; else notok "-p (rc $rc): $out"; fi
out=$($BT "$W/none.bt" 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: failed to open file '$W/none.bt': No such file or directory" ]; then ok "missing file"; else notok "missing file (rc $rc): $out"; fi
out=$($BT -f jsonx -e 'BEGIN { exit(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && echo "$out" | grep -qx 'ERROR: Invalid output format "jsonx"'; then ok "-f jsonx"; else notok "-f (rc $rc): $out"; fi

[ $fails = 0 ]
