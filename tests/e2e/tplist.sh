#!/bin/sh
# tplist end to end: the kernel's tracepoints, one line each, exactly the
# event directories of tracefs (a glob keeps its matches; -v adds a
# tracepoint's fields as its format file has them, without common_ and
# __data_loc ones); the USDT probes of a helper built with sys/sdt.h (two
# alpha sites with two arguments, one beta site without): by file (-l)
# and by process (-p) as bcc prints them, -v with their counts; a filter
# that matches nothing is refused.
# Run as root from the repository root: sh tests/e2e/tplist.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-tplist.XXXXXX)
T=tplist
fails=0
HPID=
. tests/e2e/lib.sh

cleanup() {
	[ -z "$HPID" ] || kill -KILL "$HPID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
EV=/sys/kernel/tracing/events
[ -d $EV ] || EV=/sys/kernel/debug/tracing/events

# ---- 1: tracepoints ----------------------------------------------------------------------
$CB tplist > "$W/all" 2> "$W/err" || notok "tplist: exit status $?: $(cat "$W/err")"
(cd $EV && for d in */*/; do d=${d%/}; echo "${d%%/*}:${d#*/}"; done) | sort > "$W/want"
if sort "$W/all" | cmp -s - "$W/want" && [ "$(wc -l < "$W/want")" -gt 100 ]; then
	ok "every one of the $(wc -l < "$W/want") tracepoints of $EV, once"
else notok "tracepoints: $(sort "$W/all" | diff - "$W/want" | head -5 | tr '\n' '|')"; fi
$CB tplist 'sched:sched_process_*' | sort > "$W/got"
grep '^sched:sched_process_' "$W/want" > "$W/want_s"
if cmp -s "$W/got" "$W/want_s" && [ -s "$W/got" ]; then ok "a glob keeps its $(wc -l < "$W/got") matches"
else notok "glob: $(tr '\n' '|' < "$W/got")"; fi
# the fields as the format file has them, by another reading of it
sed -n 's/^\tfield:\([^;]*\);.*/\1/p' $EV/sched/sched_switch/format | grep -v ' common_' | grep -v __data_loc |
	sed 's/^/    /; s/$/;/' > "$W/want_v"
$CB tplist -v sched:sched_switch > "$W/got_v"
if [ "$(head -1 "$W/got_v")" = sched:sched_switch ] && tail -n +2 "$W/got_v" | cmp -s - "$W/want_v" &&
	grep -q 'char prev_comm\[16\];' "$W/got_v"; then ok "-v: sched_switch's $(wc -l < "$W/want_v") fields as '    TYPE NAME;'"
else notok "-v: $(tr '\n' '|' < "$W/got_v")"; fi
if $CB tplist -v sched:sched_process_exec | grep -q filename; then notok "-v shows a __data_loc field"
else ok "-v leaves out __data_loc fields (sched_process_exec's filename)"; fi

if $CB tplist 'no_such:tracepoint*' > "$W/nm.out" 2> "$W/nm.err"; then notok "a filter matching nothing: exit 0"
elif [ ! -s "$W/nm.out" ] && grep -q "no tracepoint matches 'no_such:tracepoint\*'" "$W/nm.err"; then
	ok "a filter matching no tracepoint is refused (exit 1, one line on stderr)"
else notok "no match: $(cat "$W/nm.out" "$W/nm.err")"; fi

# ---- 2: USDT probes ------------------------------------------------------------------------
if ! [ -f /usr/include/sys/sdt.h ] && ! ls /usr/include/*/sys/sdt.h > /dev/null 2>&1; then
	notok "no sys/sdt.h (systemtap-sdt-dev: tests/install-deps.sh)"
	exit 1
fi
build_helper bpf_count
build_helper cbx_usdt
H=$W/cbx_usdt
got=$($CB tplist -l "$H")
if [ "$got" = "$H cbxtp:alpha
$H cbxtp:beta" ]; then ok "-l: alpha, beta (each name once, in note order)"
else notok "-l: '$got'"; fi
got=$($CB tplist -l "$H" 'cbxtp:b*')
if [ "$got" = "$H cbxtp:beta" ]; then ok "-l with a glob: beta alone"
else notok "-l glob: '$got'"; fi
got=$($CB tplist -v -l "$H")
if [ "$got" = "$H cbxtp:alpha [sema 0x0]
  2 location(s)
  2 argument(s)
$H cbxtp:beta [sema 0x0]
  1 location(s)
  0 argument(s)" ]; then ok "-v -l: locations and arguments counted"
else notok "-v -l: '$got'"; fi
if ! $CB tplist -l "$H" 'cbxtp:gamma' > /dev/null 2> "$W/g.err" && grep -q "no USDT probe matches 'cbxtp:gamma'" "$W/g.err"; then
	ok "-l with a filter matching no probe is refused"
else notok "-l no match: $(cat "$W/g.err")"; fi
if $CB tplist -l "$W/none" > /dev/null 2>&1; then notok "-l of a missing file: exit 0"
else ok "-l of a missing file fails"; fi
if [ -z "$($CB tplist -l "$W/bpf_count")" ]; then ok "-l of a binary without probes: nothing"
else notok "-l bpf_count: $($CB tplist -l "$W/bpf_count")"; fi

helper_start "$W/helper" "$H" || notok "helper not ready: $(cat "$W/helper")"
got=$($CB tplist -p "$HPID" 'cbxtp:*')
if [ "$got" = "$H cbxtp:alpha
$H cbxtp:beta" ]; then ok "-p: the probes of the process's executable, by its mapped path"
else notok "-p: '$got'"; fi
kill -USR1 "$HPID"
wait_for "$W/helper" '^done' 50 || notok "helper did not finish"
wait "$HPID" 2>/dev/null
HPID=
[ "$fails" = 0 ]
