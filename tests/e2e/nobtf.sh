#!/bin/sh
# Kernels without BTF and no --btf (COREBOX_SYSFS_BTF=/nonexistent hides
# /sys/kernel/btf), end to end:
#  - tools whose programs read only tracepoint records relocate them
#    against the tracepoint format files: the e2e scripts of sigsnoop
#    (signal_generate, a flavored record type, and the syscall records),
#    statsnoop (syscall records), capable (cap_capable), futexctn and
#    hardirqs (its perf tracepoint pair, the handler name a __data_loc) pass
#    unchanged, each on the events it causes itself, and so do runqlat,
#    cpudist and offcputime (their programs on the sched records);
#  - wakeuptime (sched_switch/sched_waking records): a reader blocked 1 s
#    on a pipe, woken by the writer's pipe_write;
#  - a tool that reads kernel structs says so in one line naming the
#    field, that the kernel has no BTF, and --btf (exit 1, no crash).
# Run as root from the repository root: sh tests/e2e/nobtf.sh
set -u
T=nobtf
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-nobtf.XXXXXX)
fails=0
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
. tests/e2e/lib.sh
need_corebox
export COREBOX_SYSFS_BTF=/nonexistent

# the formats really stand in for BTF (--verbose says where types came from)
timeout -s INT 2 "$CB" sigsnoop --verbose > /dev/null 2> "$W/v"
if grep -q "no kernel BTF: 3 of 3 record types from tracepoint formats" "$W/v"; then
	ok "sigsnoop's 3 record types come from the tracepoint formats"
else
	notok "sigsnoop --verbose: $(grep -i btf "$W/v" | head -3)"
fi

for s in sigsnoop statsnoop capable futexctn hardirqs runqlat cpudist offcputime; do
	sh "tests/e2e/$s.sh" > "$W/$s.log" 2>&1
	rc=$?
	n=$(grep -c '^ok' "$W/$s.log")
	bad=$(grep '^not ok' "$W/$s.log" | head -3)
	if [ "$rc" = 0 ] && [ "$n" -gt 0 ] && [ -z "$bad" ]; then
		ok "tests/e2e/$s.sh without kernel BTF: $n checks passed"
	else
		notok "tests/e2e/$s.sh without kernel BTF: exit $rc, $n passed; $bad"
	fi
done

# wakeuptime -f: "WAKER;...pipe_write...;try_to_wake_up;READER US"
"$CB" wakeuptime --stack-storage-size 16384 -f 4 > "$W/wt" 2> "$W/wt.err" &
WPID=$!
sleep 1.5
cp "$(command -v cat)" "$W/cbxnobtfrd"
(sleep 1; echo x) | "$W/cbxnobtfrd" > /dev/null
wait $WPID
line=$(grep 'pipe_write;.*;try_to_wake_up;cbxnobtfrd [0-9]*$' "$W/wt" | sort -t' ' -k2 -n | tail -1)
us=${line##* }
if [ -n "$us" ] && [ "$us" -ge 900000 ] && [ "$us" -le 3000000 ]; then
	ok "wakeuptime: the reader woken by pipe_write after $us us (slept 1 s)"
else
	notok "wakeuptime: no pipe_write wakeup of cbxnobtfrd near 1 s: '$line' $(head -c 200 "$W/wt.err")"
fi

# reads outside tracepoint records: one line naming the field and --btf
# (runqlat --pidnss, runqslower -p: what their record paths cannot know)
for t in "execsnoop|task_struct::real_parent" "tcpsynbl|sock___synbl::sk_max_ack_backlog" \
	"runqlat --pidnss|--pidnss" "runqslower -p 1|-p reads task_struct" \
	"offcputime -u|-u/-k read task_struct" "wakeuptime -u|-u reads task_struct"; do
	args=${t%%|*} needle=${t#*|}
	timeout 10 "$CB" $args > /dev/null 2> "$W/e"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l < "$W/e")" = 1 ] && grep -q -- "$needle" "$W/e" && grep -q "has no BTF" "$W/e" &&
	   grep -q -- "--btf FILE" "$W/e"; then
		ok "$args: $(cat "$W/e")"
	else
		notok "$args: exit $rc: $(head -3 "$W/e")"
	fi
done

[ "$fails" = 0 ]
