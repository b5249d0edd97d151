#!/bin/sh
# Kernels without BTF, end to end:
#  - `corebox btf min /sys/kernel/btf/vmlinux -o MIN` writes a minimal BTF of
#    a few KB (size printed);
#  - every tool (corebox --list) loads, attaches and exits 0 on SIGINT with
#    --btf MIN, also when the kernel "has no BTF" (COREBOX_SYSFS_BTF=
#    /nonexistent hides /sys/kernel/btf: tp_btf then falls back to raw_tp);
#  - execsnoop --btf MIN reports a marked exec with the right PID and PPID
#    (task->real_parent->tgid: the relocated offsets are right), and so do
#    --btf with a raw copy of the kernel BTF and with an ELF file holding it
#    in .BTF;
#  - a truncated BTF file is a one-line error naming the file; no kernel
#    BTF and no --btf says what to pass; --btf /nonexistent names the file.
# Run as root from the repository root: sh tests/e2e/btf_min.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-btfmin.XXXXXX)
fails=0
TPID=
ME=$$

ok() { echo "ok - btf_min: $*"; }
notok() { echo "not ok - btf_min: $*"; fails=$((fails + 1)); }

L1= L2=
cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	for l in $L1 $L2; do kill -TERM "$l" 2>/dev/null; wait "$l" 2>/dev/null; done
	rm -rf "$W" "/tmp/cbxm_$ME"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ -x "$CB" ] || { echo "not ok - btf_min: $CB not built"; exit 1; }
if [ ! -r /sys/kernel/btf/vmlinux ]; then
	echo "ok - btf_min: skipped (no /sys/kernel/btf/vmlinux to minimize)"
	exit 0
fi

wait_for() { # FILE PATTERN TENTHS
	i=0
	while [ "$i" -lt "$3" ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# stop: SIGINT the tool, wait up to 10 s; sets rc (124 when it hung)
stop() {
	kill -INT "$TPID" 2>/dev/null
	i=0
	while kill -0 "$TPID" 2>/dev/null && [ "$i" -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	if kill -0 "$TPID" 2>/dev/null; then
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		rc=124
	else
		wait "$TPID"
		rc=$?
	fi
	TPID=
}

# ---- corebox btf min ---------------------------------------------------------
MIN=$W/min.btf
if "$CB" btf min /sys/kernel/btf/vmlinux -o "$MIN" 2> "$W/min.err"; then
	size=$(stat -c %s "$MIN")
	full=$(stat -c %s /sys/kernel/btf/vmlinux 2>/dev/null || echo 0)
	echo "# $(cat "$W/min.err")"
	# (the types every applet relocates against: 420 for 77 objects, 16 KB,
	# growing with the applets; the kernel's own is megabytes)
	if [ "$size" -gt 0 ] && [ "$size" -lt 32768 ] && grep -q "$size bytes" "$W/min.err"; then
		ok "minimal BTF: $size bytes (kernel BTF: $full bytes), size printed"
	else
		notok "minimal BTF size $size (want under 32 KiB, printed): $(cat "$W/min.err")"
	fi
else
	notok "corebox btf min failed: $(cat "$W/min.err")"
	exit 1
fi
if "$CB" btf dump "$MIN" > "$W/min.h" 2> "$W/dump.err" && grep -q 'struct task_struct {' "$W/min.h"; then
	ok "the minimal BTF dumps as C (struct task_struct with $(sed -n '/^struct task_struct {/,/^};/p' "$W/min.h" | grep -vc -e 'long: ' -e 'int: ' -e '__pad') lines kept)"
else
	notok "btf dump of the minimal BTF: $(head -c 300 "$W/dump.err")"
fi
if "$CB" btf min /sys/kernel/btf/vmlinux 2> "$W/usage.err"; [ $? = 2 ] && grep -q -- "-o" "$W/usage.err"; then
	ok "btf min without -o: usage error"
else
	notok "btf min without -o: $(head -c 200 "$W/usage.err")"
fi

# ---- every tool with --btf MIN ------------------------------------------------
# ready: the tool is running and can take its SIGINT.  A tool loads and
# attaches before its first line (banner, header or the first interval),
# and catches SIGINT from before that line on; a background job of this
# non-interactive shell starts with SIGINT ignored, so a SIGINT sent before
# the tool caught it would be lost.  Ready: exited; or SIGINT caught and
# some output written; or SIGINT caught and 1.5 s gone (a tool silent until
# its report, like futexctn).  Gives up after 20 s (a stop then times out).
sigint_caught() {
	m=$(sed -n 's/^SigCgt:[[:space:]]*//p' "/proc/$TPID/status" 2>/dev/null)
	[ -n "$m" ] && [ $((0x$m & 2)) != 0 ]
}
wait_ready() {
	i=0
	while kill -0 "$TPID" 2>/dev/null && [ "$i" -lt 400 ]; do
		if sigint_caught; then
			[ -s "$O.out" ] || [ -s "$O.err" ] || [ "$i" -ge 30 ] && return 0
		fi
		sleep 0.05
		i=$((i + 1))
	done
}
# run_tool LABEL TOOL ARGS...: run until ready, then SIGINT; must exit 0
# with nothing on stderr but the tools' stack-storage warnings and their
# lost-events line (a busy machine's firehose: statsnoop, opensnoop).
# Its files: $O.out, $O.err (one pair per lane).
O=$W/tool
run_tool() {
	label=$1
	shift
	: > "$O.out"
	: > "$O.err"
	"$CB" "$@" > "$O.out" 2> "$O.err" &
	TPID=$!
	wait_ready
	if ! kill -0 "$TPID" 2>/dev/null; then
		wait "$TPID"
		rc=$?
		TPID=
	else
		stop
	fi
	# stderr may carry what libbpf-tools prints there: a banner, the tool's
	# own notes ("cachestat: HITS ... shown as '-'"); with exit 0 those are
	# not failures, anything else is
	bad=$(grep -v -e '^WARNING: .*stack' -e "^$1: lost [0-9]* events" -e '^$' "$O.err" | head -3)
	[ "$rc" = 0 ] && bad=$(echo "$bad" | grep -v -e '^Tracing ' -e "^$1: " | grep -v '^$')
	if [ "$rc" = 0 ] && [ -z "$bad" ]; then
		ok "$label: $* loads, attaches, exits 0"
	elif [ "$rc" = 1 ] && [ "$(wc -l < "$O.err")" = 1 ] && grep -q "this kernel offers no way to trace" "$O.err"; then
		ok "$label: $1: this kernel has no way in (no kprobes, no fentry): one line, exit 1"
	elif [ "$rc" = 1 ] && [ "$(wc -l < "$O.err")" = 1 ] && [ ! -e /sys/bus/event_source/devices/kprobe ] &&
		grep -q "no kprobes" "$O.err"; then
		ok "$label: $1: only kernel functions lead in, and this kernel has no kprobes nor fentry: one line, exit 1"
	elif [ "$rc" = 1 ] && [ "$(wc -l < "$O.err")" = 1 ] && [ ! -e /sys/devices/system/cpu/cpu0/cpufreq ] &&
		grep -q "^cpufreq: cannot read CPU 0's frequency" "$O.err"; then
		ok "$label: cpufreq: this machine has no cpufreq driver: one line, exit 1"
	elif [ "$rc" = 1 ] && grep -q 'offers no hardware cache events' "$O.err"; then
		ok "$label: $* loads; no PMU here for its hardware events (exit 1, as it should)"
	else
		notok "$label: $* exit $rc: $(echo "$bad" | tr '\n' ' ' | head -c 400)"
	fi
}
# the tools that generate their programs need a probe to trace; tools whose
# default is a firehose (every system call of the machine) run in a summary
# mode here: lost events would be noise on stderr
probe_args() {
	case $1 in
	trace | funccount | stackcount) echo 't:syscalls:sys_enter_getppid' ;;
	funclatency) echo 'c:getppid' ;;
	argdist) echo '-C p:c:getppid()' ;;
	fsslower | fsdist) echo '-t ext4' ;;
	funcslower) echo 'c:getppid' ;;
	ttysnoop) echo /dev/console ;;
	bpftrace) echo '-e tracepoint:syscalls:sys_enter_getppid{@=count();}' ;; # no blank: split as one word
	systrace) echo -s ;;
	uthreads) echo $$ ;; # the threads this shell starts (a pid is required)
	# the language tools need a pid: this shell's syscalls, its mallocs
	ucalls | javacalls | perlcalls | phpcalls | pythoncalls | rubycalls | tclcalls) echo "-l none -S $$" ;;
	uobjnew | cobjnew | javaobjnew | rubyobjnew | tclobjnew) echo "-l c $$" ;;
	esac
}
# javagc traces a JVM's libjvm.so (-p PID is required): tests/e2e/javagc.sh
# runs it against a stand-in libjvm; here it is named as a skip
echo "ok - btf_min: javagc # SKIP it needs a JVM's PID (javagc.sh covers it with a stand-in libjvm.so)"
# ksnoop prints the prototypes of the functions it traces, which a
# minimized BTF does not have: ksnoop.sh and the VM checks cover it
echo "ok - btf_min: ksnoop # SKIP it needs the traced functions' prototypes, which a minimized BTF lacks"
# The two passes run side by side, each in two lanes (subshells with their
# own files and TPID), four at once: the first pass takes the first half
# of the tools in one lane and the second half in another, the second pass
# the same halves each in the reverse order, so that no two lanes run the
# same tool at the same time more than once: each tool's run is mostly
# waiting (for its banner, for its exit: 7.6 s of CPU in 38 s), so four
# lanes take about half the time of two.
# ppchcalls refuses in one line on every architecture but powerpc
echo "ok - btf_min: ppchcalls # SKIP PowerPC only (ppchcalls.sh checks its one-line refusal here)"
TOOLS=$("$CB" --list | grep -vx -e javagc -e ksnoop -e ppchcalls)
lane() { # N LABEL SYSFS_BTF TOOLS...: run_tool each with --btf MIN (and
	# COREBOX_SYSFS_BTF=SYSFS_BTF unless "-"); the results in $W/lane.N
	n=$1 label=$2 sysfs=$3
	shift 3
	(
		O=$W/tool$n TPID=
		[ "$sysfs" = - ] || export COREBOX_SYSFS_BTF="$sysfs"
		trap '[ -z "$TPID" ] || kill -KILL "$TPID" 2>/dev/null' EXIT
		trap 'exit 1' INT TERM
		for t in "$@"; do
			run_tool "$label" "$t" --btf "$MIN" $(probe_args "$t")
		done
	) > "$W/lane.$n" 2>&1 &
}
half=$((($(echo "$TOOLS" | wc -l) + 1) / 2))
FIRST=$(echo "$TOOLS" | head -n $half)
SECOND=$(echo "$TOOLS" | tail -n +$((half + 1)))
# shellcheck disable=SC2086
lane 1 "min BTF" - $FIRST
L1=$!
# shellcheck disable=SC2086
lane 2 "min BTF" - $SECOND
L2=$!
# shellcheck disable=SC2086
lane 3 "min BTF, kernel without BTF" /nonexistent $(echo "$FIRST" | tac)
L3=$!
# shellcheck disable=SC2086
lane 4 "min BTF, kernel without BTF" /nonexistent $(echo "$SECOND" | tac)
L4=$!
wait $L1 $L2 $L3 $L4
cat "$W/lane.1" "$W/lane.2" "$W/lane.3" "$W/lane.4"
fails=$((fails + $(cat "$W/lane.1" "$W/lane.2" "$W/lane.3" "$W/lane.4" | grep -c '^not ok')))

# ---- execsnoop: the relocated offsets are right -------------------------------
PROG=/tmp/cbxm_$ME
COMM=$(basename "$PROG" | cut -c1-15)
cp /bin/true "$PROG" && chmod 755 "$PROG"

# marked LABEL ARGS...: execsnoop ARGS must show our exec with PID and PPID
marked() {
	label=$1
	shift
	rm -f "$W/ex.out"
	: > "$W/ex.out"
	"$CB" execsnoop "$@" > "$W/ex.out" 2> "$W/ex.err" &
	TPID=$!
	if ! wait_for "$W/ex.out" PCOMM 150; then
		notok "$label: execsnoop $* printed no header: $(head -c 300 "$W/ex.err" | tr '\n' ' ')"
		stop
		return
	fi
	"$PROG" --marker "$ME" &
	CPID=$!
	wait "$CPID"
	wait_for "$W/ex.out" "$ME" 30
	sleep 0.2
	stop
	line=$(awk -v c="$COMM" -v p="$CPID" '$1 == c && $2 == p' "$W/ex.out")
	set -- $line
	if [ -n "$line" ] && [ "$3" = "$ME" ] && [ "$4" = 0 ] && [ "$rc" = 0 ]; then
		ok "$label: marked exec seen with PID $CPID and PPID $ME"
	else
		notok "$label: expected '$COMM $CPID $ME 0 ...', got '$line' (exit $rc; $(head -c 200 "$W/ex.err"))"
	fi
}
marked "min BTF" --btf "$MIN"
COREBOX_SYSFS_BTF=/nonexistent marked "min BTF, kernel without BTF" --btf "$MIN"
COREBOX_BTF=$MIN marked "COREBOX_BTF=min BTF"

# raw BTF file and an ELF file with .BTF
cp /sys/kernel/btf/vmlinux "$W/raw.btf"
marked "raw BTF file" --btf "$W/raw.btf"
if printf 'int cbx_tiny;\n' | ${CC:-gcc} -c -x c -o "$W/tiny.o" - &&
   llvm-objcopy --add-section .BTF="$W/raw.btf" "$W/tiny.o" "$W/vmlinux.elf" 2> "$W/objcopy.err"; then
	marked "ELF file with .BTF" --btf "$W/vmlinux.elf"
else
	notok "cannot make an ELF with .BTF: $(head -c 200 "$W/objcopy.err")"
fi

# ---- errors ----------------------------------------------------------------------
head -c 100000 "$W/raw.btf" > "$W/trunc.btf"
"$CB" execsnoop --btf "$W/trunc.btf" > /dev/null 2> "$W/e1"
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l < "$W/e1")" = 1 ] && grep -q "$W/trunc.btf" "$W/e1"; then
	ok "truncated BTF: one line naming the file: $(cat "$W/e1")"
else
	notok "truncated BTF: exit $rc: $(cat "$W/e1")"
fi
# (offwaketime reads task_struct; tools that read only tracepoint records run
# without BTF: tests/e2e/nobtf.sh)
COREBOX_SYSFS_BTF=/nonexistent timeout 20 "$CB" offwaketime > /dev/null 2> "$W/e2"
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l < "$W/e2")" = 1 ] && grep -q -- "--btf FILE" "$W/e2"; then
	ok "no kernel BTF, no --btf: $(cat "$W/e2")"
else
	notok "no kernel BTF, no --btf: exit $rc: $(cat "$W/e2")"
fi
"$CB" execsnoop --btf /nonexistent > /dev/null 2> "$W/e3"
rc=$?
if [ "$rc" = 1 ] && [ "$(wc -l < "$W/e3")" = 1 ] && grep -q "/nonexistent" "$W/e3"; then
	ok "--btf /nonexistent: $(cat "$W/e3")"
else
	notok "--btf /nonexistent: exit $rc: $(cat "$W/e3")"
fi

[ "$fails" = 0 ]
