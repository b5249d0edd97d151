#!/bin/sh
# bpftrace's USDT and attach-point forms, against a helper whose probes the
# test knows (cbx_usdt: provider cbxtp, alpha at two sites, beta at one,
# each fired once after the ready/go handshake): -l by file and by -p,
# a '*' in the binary's name, an empty provider, quoted parts, no binary
# with -p (every file the process maps), a binary seen only in the
# process's own mount namespace; '[...]' in an attach point is literal
# (0.17); kretprobes 0.17 bans; x++ of a pointer gives the old pointer.
# Run as root from the repository root: sh tests/e2e/bpftrace_usdt.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /var/tmp/cbx-btu.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-btu.XXXXXX)
T=bpftrace_usdt
fails=0
HPID=
. tests/e2e/lib.sh
trap 'helper_stop; rm -rf "$W"' EXIT

need_corebox
build_helper bpf_count
build_helper cbx_usdt
bpf_snapshot before
BT="$CB bpftrace"
U=$W/cbx_usdt

# -l by file: one line per probe (alpha's two sites are one probe), sorted
out=$($BT -l "usdt:$U:*" 2>&1)
if [ "$out" = "usdt:$U:cbxtp:alpha
usdt:$U:cbxtp:beta" ]; then ok "-l usdt by file"; else notok "-l usdt: $out"; fi

# a '*' in the binary's name, an empty provider (any), quoted parts; the
# file-activation flag is taken (the kernel keeps semaphores)
printf '%s a b c & p=$!; sleep 1; kill -USR1 $p; wait $p\n' "$U" > "$W/go.sh"
out=$(timeout 30 $BT --usdt-file-activation -e "usdt:$W/cbx_usd*::alph* { @[probe] = count(); }
	usdt:$U:\"cbxtp\":\"beta\" { @b = count(); }" -c "sh $W/go.sh" 2>&1)
if echo "$out" | grep -qx "Attaching 3 probes..." && echo "$out" | grep -qx "@\[usdt:$U:cbxtp:alpha\]: 2" &&
	echo "$out" | grep -qx "@b: 1"; then
	ok "usdt: BIN*, empty provider, quoted parts"
else
	notok "usdt globs/quotes: $out"
fi

# -p and no binary: the probes of every file the process maps, named by
# /proc/PID/root; the one beta firing is the helper's
helper_start "$W/h1.out" "$U" a b
P=$HPID
out=$($BT -l -p "$P" 2>&1)
if echo "$out" | grep -qx "usdt:/proc/$P/root$U:cbxtp:beta" && echo "$out" | grep -qx "uprobe:/proc/$P/root$U:main"; then
	ok "-l -p: the process's functions and USDT probes"
else
	notok "-l -p: $out"
fi
bt_until_attached "$W/p.out" -p "$P" -e 'usdt::cbxtp:beta { printf("beta in %d\n", pid); exit(); }'
kill -USR1 "$P"
bt_reap 100
if grep -qx "beta in $P" "$W/p.out"; then ok "usdt::cbxtp:beta with -p"; else notok "usdt -p, no binary: $(cat "$W/p.out")"; fi
helper_stop

# a binary only its own mount namespace sees (a container's): reached
# through /proc/PID/root, for -l and for the probe
mkdir "$W/real" "$W/ns"
cp "$U" "$W/real/"
helper_start "$W/h2.out" unshare -m --propagation private sh -c "mount --bind '$W/real' '$W/ns' && exec '$W/ns/cbx_usdt' a"
P=$(sed -n 's/^ready //p' "$W/h2.out")
if [ -e "$W/ns/cbx_usdt" ] || [ -z "$P" ]; then
	notok "mount namespace set-up: $(cat "$W/h2.out")"
else
	out=$($BT -l 'usdt:*' -p "$P" 2>&1)
	if echo "$out" | grep -qx "usdt:/proc/$P/root$W/ns/cbx_usdt:cbxtp:alpha"; then ok "-l -p in another mount namespace"; else notok "-l -p ns: $out"; fi
	bt_until_attached "$W/ns.out" -p "$P" -e "usdt:$W/ns/cbx_usdt:cbxtp:beta { printf(\"ns beta %d\\n\", pid); exit(); }"
	kill -USR1 "$P"
	bt_reap 100
	if grep -qx "ns beta $P" "$W/ns.out"; then ok "usdt on a path of another mount namespace"; else notok "usdt ns: $(cat "$W/ns.out")"; fi
fi
helper_stop

# '[...]' is part of the name (0.17): sys_enter_read exists, sys_enter_rea[d] does not
tracefs=/sys/kernel/tracing
[ -d $tracefs/events ] || tracefs=/sys/kernel/debug/tracing
out=$($BT -l 'tracepoint:syscalls:sys_enter_rea[d]' 2>&1)
out2=$(timeout 10 $BT -e 'tracepoint:syscalls:sys_enter_rea[d] { exit(); }' 2>&1)
rc=$?
if [ -d $tracefs/events/syscalls/sys_enter_read ] && [ -z "$out" ] && [ $rc = 1 ] &&
	echo "$out2" | grep -q "ERROR: tracepoint not found: syscalls:sys_enter_rea\[d\]"; then
	ok "'[d]' in an attach point is literal"
else
	notok "brackets (rc $rc): $out $out2"
fi

# kretprobes 0.17 refuses, whatever the kernel has
out=$(timeout 10 $BT -e 'kretprobe:_raw_spin_lock { exit(); }' 2>&1)
rc=$?
if [ $rc = 1 ] && [ "$out" = "ERROR: error: kretprobe:_raw_spin_lock can't be used as it might lock up your system." ]; then
	ok "banned kretprobe refused"
else
	notok "banned kretprobe (rc $rc): $out"
fi

# a wrong number of parts: 0.17's words, under the attach point
out=$(timeout 10 $BT -e 'kretprobe:syscalls:sys_exit_nanosleep { exit(); }' 2>&1)
rc=$?
out2=$(timeout 10 $BT -e 'usdt:x { exit(); }' 2>&1)
if [ $rc = 1 ] && [ "$(echo "$out" | head -1)" = "stdin:1:1-38: ERROR: kretprobe probe type requires 1 argument" ] &&
	[ "$(echo "$out2" | head -1)" = "stdin:1:1-7: ERROR: usdt probe type requires 2 or 3 arguments" ]; then
	ok "probe type argument counts: 0.17's errors"
else
	notok "argument counts (rc $rc): $out $out2"
fi

# x++ / x-- of an int64 pointer: the old value, moved by 8
out=$(timeout 20 $BT -e 'BEGIN { $c = (int64 *)1000; $d = $c++; $e = $c--; printf("%d %d %d\n", (int64)$d, (int64)$e, (int64)$c); exit() }' 2>&1)
if echo "$out" | grep -qx "1000 1008 1000"; then ok "pointer x++ and x--"; else notok "pointer x++: $out"; fi

# --info says whether the kernel keeps USDT semaphores (uprobe ref_ctr_offset)
want=no
[ -e /sys/bus/event_source/devices/uprobe/format/ref_ctr_offset ] && want=yes
if $BT --info 2>&1 | grep -qx "  uprobe refcount (depends on Build:bcc bpf_attach_uprobe refcount): $want"; then
	ok "--info: uprobe refcount $want"
else
	notok "--info refcount: $($BT --info 2>&1 | grep refcount)"
fi

bpf_snapshot after
if left=$(bpf_new after 'cbx_|bpftrace'); then notok "left loaded: $left"; else ok "nothing left loaded"; fi

[ $fails = 0 ]
