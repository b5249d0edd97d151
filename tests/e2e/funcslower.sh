#!/bin/sh
# funcslower end to end: the dynamic-tracing helper sleeps 20 ms in
# cbx_dyn_sleep exactly 3 times and calls cbx_dyn_inner (fast) N times.
# Above a 10 ms threshold funcslower must print exactly 3 rows, all for
# cbx_dyn_sleep with its argument 0x14 (20) and none for cbx_dyn_inner;
# with -u 0 every one of the N inner calls is a row, with its return
# value (x + 17, in hex) and a user stack through cbx_dyn_outer; -j gives
# 3 JSON events.  Plus usage errors (exit 2) and the one-line refusal of a
# kernel function where the kernel has neither kprobes nor fentry.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-funcslower.XXXXXX)
T=funcslower
N=40
M=2
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
H=$W/cbx_dyn

# run NAME HEADER ARGS...: helper, funcslower ARGS (@PID@: the helper's),
# wait for HEADER, let the helper run, SIGINT the tool
run() {
	name=$1 hdr=$2
	shift 2
	helper_start "$W/$name.helper" "$H" $N $M || { notok "$name: helper did not start"; return 1; }
	e2e_begin "$name" "$hdr" 150 funcslower "$@" || return 1
	helper_finish "$name" 50
	[ "$(cat "$W/$name.rc")" = 0 ] || notok "$name: exit status $(cat "$W/$name.rc") after SIGINT: $(head -c 300 "$W/$name.err")"
	return 0
}

if run slow 'LAT(ms)' -m 10 -a 1 -p @PID@ "$H:cbx_dyn_sleep" "$H:cbx_dyn_inner"; then
	s=$(grep -c "^cbx_dyn  *[0-9][0-9]*  *[0-9.]*  *0 $H:cbx_dyn_sleep 0x14\$" "$W/slow.out")
	i=$(grep -c 'cbx_dyn_inner' "$W/slow.out")
	rows=$(($(wc -l < "$W/slow.out") - 2))
	if [ "$s" = 3 ] && [ "$i" = 0 ] && [ "$rows" = 3 ]; then ok "-m 10: 3 rows for the 20 ms sleeper (arg 0x14), none for the fast function"
	else notok "-m 10: sleep rows $s, inner rows $i, rows $rows: $(tr '\n' '|' < "$W/slow.out")"; fi
	if [ "$(sed -n 1p "$W/slow.out")" = "Tracing function calls slower than 10 ms... Ctrl+C to quit." ] &&
		sed -n 2p "$W/slow.out" | grep -q '^COMM           PID    LAT(ms)             RVAL FUNC ARGS$'; then
		ok "bcc's banner and header"
	else notok "banner/header: $(head -2 "$W/slow.out" | tr '\n' '|')"; fi
fi

if run all 'LAT(us)' -u 0 -U -p @PID@ "$H:cbx_dyn_inner"; then
	c=$(grep -c " $H:cbx_dyn_inner \$" "$W/all.out")
	# inner(i) returns i + 17: the last call (i = N - 1) returns N + 16
	last=$(printf '%x' $((N + 16)))
	if [ "$c" = $N ] && grep -q " $last $H:cbx_dyn_inner \$" "$W/all.out"; then ok "-u 0: all $N calls, return value $last"
	else notok "-u 0: $c rows, want $N (last 0x$last): $(head -4 "$W/all.out" | tr '\n' '|')"; fi
	s=$(grep -c '^    cbx_dyn_outer$' "$W/all.out")
	if [ "$s" = $N ]; then ok "-U: every row's user stack goes through cbx_dyn_outer"
	else notok "-U: $s stacks with cbx_dyn_outer: $(head -6 "$W/all.out" | tr '\n' '|')"; fi
fi

if run json 'LAT(ms)' -j -m 10 -p @PID@ "$H:cbx_dyn_sleep"; then
	c=$(grep -c '"function":"[^"]*cbx_dyn_sleep"' "$W/json.out")
	if [ "$c" = 3 ] && [ "$(wc -l < "$W/json.out")" = 3 ]; then ok "-j: 3 JSON events"
	else notok "-j: $c events: $(head -c 300 "$W/json.out")"; fi
fi

"$CB" funcslower > /dev/null 2>&1; rc=$?
"$CB" funcslower -m x foo > /dev/null 2>&1; rc2=$?
"$CB" funcslower -m 1 -u 1 foo > /dev/null 2>&1; rc3=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ]; then ok "usage errors exit 2"; else notok "usage errors: $rc $rc2 $rc3"; fi
"$CB" funcslower -h | grep -q '^Usage: funcslower' && ok "-h" || notok "-h"
"$CB" funcslower -V | grep -q 'corebox' && ok "-V" || notok "-V"
# a kernel function: attached (until the SIGINT) or refused in one line
timeout -s INT 3 "$CB" funcslower vfs_read > /dev/null 2> "$W/k.err"; rc=$?
if [ $rc = 1 ] && [ "$(wc -l < "$W/k.err")" = 1 ] && grep -q 'kprobes' "$W/k.err"; then
	ok "kernel function without kprobes/fentry: one line, exit 1: $(cat "$W/k.err")"
elif [ $rc = 0 ]; then ok "kernel function vfs_read attached, clean exit on SIGINT"
else notok "kernel function: rc $rc: $(head -c 300 "$W/k.err")"; fi
exit $((fails > 0))
