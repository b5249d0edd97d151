#!/bin/sh
# bcc's tool smoke test on corebox: every command line of bcc's
# tests/python/test_tools_smoke.py (iovisor/bcc, the 2025-11 version:
# __kmalloc_noprof targets), written out below as a corebox applet
# invocation, run and judged by bcc's own exit-code rules:
#   D  run_with_duration: `timeout -s KILL 10s CMD` must exit 0 (the tool
#      ends by itself: interval and count, or a duration)
#   I  run_with_int: `timeout -s INT -k 5s Ns CMD` must give 124 (the
#      tool ran until SIGINT, then exited within 5 s)
#   E  the same, where bcc allows an early exit with status 0 too
#   K  run_with_int(kill=True): SIGKILL instead of SIGINT (killsnoop);
#      bcc accepts 124 or 137
# bcc waits 5 s (15 for vfscount) before the signal; here it is $SMOKE_INT
# seconds (default 2) and at least 1 s after the tool holds a BPF program
# (waited for up to 15 s), and for I/E/K lines a pass also needs the tool
# to have held one before the signal (so a tool that attached nothing
# does not pass).
# (env --default-signal: a background job of sh starts with SIGINT
# ignored, which bcc's foreground run does not.)
# Each line ends as one of:
#   ok - bcc_smoke: CMD                                   passed bcc's rule
#   ok - bcc_smoke: CMD # SKIP kernel lacks: WHY          refused in one
#        line (stderr, status 1) naming what this kernel lacks
#   ok - bcc_smoke: CMD # SKIP missing applet NAME        not in corebox
#        --list (SMOKE_STRICT=1 makes these "not ok")
#   not ok - bcc_smoke: CMD: WHY                          anything else
# and a last line gives the four counts.  The lines run in $SMOKE_LANES
# lanes at once (default 6): they only read kernel state, each attaching
# its own programs, so they cannot change each other's exit status; a
# line mostly waits (its interval, or the time before the signal: about
# 3.7 s of CPU for all 76), so 6 lanes take 22 s where 3 took 40.
# bcc's own skips are kept out of the count: the lines it leaves commented
# out or empty (cachetop, dbslower, dbstat, deadlock, llcstat,
# mysqld_qslower, uflow, ugc, xfsdist, xfsslower, zfsdist, zfsslower).
# bcc runs btrfs/f2fs/nfs lines only when that module is loaded; here they
# run always (corebox's *slower tools trace syscalls, no module needed).
# Run as root from the repository root: sh tests/e2e/bcc_smoke.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-bccsmoke.XXXXXX)
T=bcc_smoke
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT
trap 'exit 1' INT TERM
need_corebox

TI=${SMOKE_INT:-2}
LANES=${SMOKE_LANES:-6}
ME=$$ # bcc passes its own (python) pid to tplist -p, ucalls, uthreads, cobjnew

# KIND, then the command line; @PID@ is this script's pid.  In bcc's
# order, its test name after '#' where it is not the tool's name.
cat > "$W/table" << 'EOF'
D argdist -v -C 'p::do_sys_open()' -n 1 -i 1
I bashreadline
I bindsnoop
D biolatency 1 1
I biosnoop
D biotop 1 1
I biotop                                 # test_bitesize runs biotop.py
D bpflist
D btrfsdist 1 1
E btrfsslower
D cachestat 1 1
I capable
D cpudist 1 1
D cpuunclaimed 1 1
I compactsnoop
I dcsnoop
D dcstat 1 1
I drsnoop
I execsnoop
D ext4dist 1 1
I ext4slower
E f2fsslower
I filelife
I fileslower
D filetop 1 1
I funccount __kmalloc_noprof -i 1
I funclatency __kmalloc_noprof -i 1
I funcslower __kmalloc_noprof
I gethostlatency
D hardirqs 1 1
K killsnoop
I klockstat
I mdflush
D memleak 1 1
I mountsnoop
I nfsslower
D nfsdist 1 1
D offcputime 1
D offwaketime 1
I oomkill
I opensnoop
I pidpersec
I ppchcalls -i 1                         # shadowed in bcc by a second test_syscount
D profile 1
D runqlat 1 1
D runqlen 1 1
I shmsnoop
I sofdsnoop
D slabratetop 1 1
D softirqs 1 1
I softirqslower
I solisten
I sslsniff
I stackcount __kmalloc_noprof -i 1
I statsnoop
I syncsnoop
I syscount -i 1
I tcpaccept
I tcpconnect
I tcpconnlat
I tcplife
I tcpretrans
I tcpdrop
D tcptop 1 1
D tcpcong 1 1
D tplist -p @PID@
I trace do_sys_open
I ttysnoop /dev/console
I ucalls -l none -S @PID@                # lib/ucalls.py
I uobjnew -l c @PID@                     # cobjnew.sh = lib/uobjnew.py -l c
D ustat 1 1                              # lib/ustat.py
I uthreads @PID@                         # lib/uthreads.py
I vfscount
D vfsstat 1 1
D wakeuptime 1
E wqlat 1 1
EOF

"$CB" --list > "$W/applets" 2>/dev/null || { notok "corebox --list failed"; exit 1; }

# holds_bpf PID...: 0 when one of them has a BPF program open
holds_bpf() {
	for p in "$@"; do
		grep -qs '^prog_id:' /proc/"$p"/fdinfo/* && return 0
	done
	return 1
}

# one_line FILE: its first line, control bytes out, at most 400 bytes
one_line() { head -n 1 "$1" | tr -d '\000-\037\177' | cut -c 1-400; }

# kernel_lacks FILE: 0 when the tool's stderr is a one-line refusal that
# names a kernel mechanism it cannot have here
kernel_lacks() {
	[ "$(wc -l < "$1")" -le 2 ] || return 1
	grep -qiE 'this kernel|no kprobes|no fentry|kernel (has|offers) no|needs? (fentry|kprobes?|a hardware|the [a-z0-9_]+ module)|not compiled in|hardware PMU' "$1" || return 1
	# a refusal for want of kprobes must be true: the kprobe PMU (4.17+)
	# or tracefs's kprobe_events is what a kernel with them offers
	if grep -qiE 'no kprobes|neither fentry nor a kprobe' "$1" &&
		{ [ -e /sys/bus/event_source/devices/kprobe ] || [ -e /sys/kernel/tracing/kprobe_events ] ||
			[ -e /sys/kernel/debug/tracing/kprobe_events ]; }; then
		echo "(the kernel has kprobes)" >> "$1"
		return 1
	fi
	return 0
}

# run_line N KIND CMD...: run one line, its verdict into $W/N.res as
# "pass", "lacks WHY", "missing", or "fail WHY"
run_line() {
	n=$1 kind=$2
	shift 2
	err=$W/$n.err
	if ! grep -qxF "$1" "$W/applets"; then
		echo missing > "$W/$n.res"
		return
	fi
	if [ "$kind" = D ]; then
		timeout -s KILL 10s "$CB" "$@" > /dev/null 2> "$err"
		rc=$?
		if [ "$rc" = 0 ]; then echo pass > "$W/$n.res"; return; fi
		why="exit status $rc (bcc's run_with_duration wants 0)"
		[ "$rc" = 137 ] && why="still running after 10 s (killed)"
	else
		sig=INT
		[ "$kind" = K ] && sig=KILL
		# bcc's `timeout -s SIG -k 5s Ns`, with the signal sent here: $TI s
		# after the start, and not before the tool has held a BPF program
		# for 1 s (waited for up to 15 s: a start slowed down by a busy
		# machine is not cut short); 124 when it was still running at the
		# signal and exited within 5 s of it, 137 when it was killed
		env --default-signal=INT "$CB" "$@" > /dev/null 2> "$err" &
		tp=$!
		i=0 held=
		while [ $i -lt 150 ] && kill -0 $tp 2>/dev/null; do
			if [ -z "$held" ] && holds_bpf $tp; then
				held=$i
			fi
			[ -n "$held" ] && [ $i -ge $((TI * 10)) ] && [ $i -ge $((held + 10)) ] && break
			sleep 0.1
			i=$((i + 1))
		done
		if kill -0 $tp 2>/dev/null; then
			kill -$sig $tp 2>/dev/null
			if wait_pid $tp 50; then
				wait $tp 2>/dev/null
				rc=124
			else
				kill -KILL $tp 2>/dev/null
				wait $tp 2>/dev/null
				rc=137
			fi
			[ "$kind" = K ] && rc=137
		else
			wait $tp 2>/dev/null # (no "Killed" note from sh for killsnoop's line)
			rc=$?
		fi
		case "$kind:$rc" in
		*:124 | K:137 | E:0)
			if [ "$rc" = 0 ] || [ -n "$held" ]; then echo pass > "$W/$n.res"; return; fi
			why="held no BPF program in the 15 s before the signal (not tracing when it came)" ;;
		*:137) why="still running 5 s after SIGINT (killed)" ;;
		*:0) why="exited 0 before the signal (bcc's run_with_int wants it still running)" ;;
		*) why="exit status $rc before the signal" ;;
		esac
	fi
	if [ "$rc" = 1 ] && kernel_lacks "$err"; then
		echo "lacks $(one_line "$err")" > "$W/$n.res"
	else
		[ -s "$err" ] && why="$why: $(one_line "$err")"
		grep -q '^(the kernel has kprobes)$' "$err" && why="$why (but this kernel has kprobes)"
		echo "fail $why" > "$W/$n.res"
	fi
}

# number the lines, drop the comments, fill in the pid
sed -e 's/[[:space:]]*#.*//' -e "s/@PID@/$ME/g" "$W/table" | grep . | awk '{ print NR " " $0 }' > "$W/lines"
total=$(wc -l < "$W/lines")

# lane L: lines L, L+LANES, ... one after another
lane=0
while [ $lane -lt "$LANES" ]; do
	(
		awk -v l=$lane -v n="$LANES" '(NR - 1) % n == l' "$W/lines" |
			while read -r line; do
				eval "set -- $line"
				run_line "$@" < /dev/null
			done
	) &
	lane=$((lane + 1))
done
wait

pass=0 lacks=0 missing=0 failed=0
while read -r n kind cmd; do
	res=$(cat "$W/$n.res" 2>/dev/null || echo "fail no verdict")
	case "$res" in
	pass) ok "$cmd"; pass=$((pass + 1)) ;;
	lacks*) echo "ok - $T: $cmd # SKIP kernel lacks: ${res#lacks }"; lacks=$((lacks + 1)) ;;
	missing)
		app=${cmd%% *}
		if [ -n "${SMOKE_STRICT:-}" ]; then notok "$cmd: missing applet $app"
		else echo "ok - $T: $cmd # SKIP missing applet $app (not in corebox --list)"; fi
		missing=$((missing + 1)) ;;
	*) notok "$cmd: ${res#fail }"; failed=$((failed + 1)) ;;
	esac
done < "$W/lines"
echo "# $T: $total command lines: $pass pass, $lacks kernel lacks, $missing missing applet, $failed fail"
[ "$fails" = 0 ]
