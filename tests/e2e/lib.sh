# Helpers the end-to-end scripts share (POSIX sh).  A script sets
#   T     its name, as in "ok - T: ..." lines
#   W     its work directory
#   CB    the corebox binary
#   fails 0
# and then sources this file: . tests/e2e/lib.sh
# It sets CC (gcc, else cc).

CC=${CC:-gcc}
command -v "$CC" >/dev/null 2>&1 || CC=cc

ok() { echo "ok - $T: $*"; }
notok() { echo "not ok - $T: $*"; fails=$((fails + 1)); }

# need_corebox: stop (status 1) unless $CB is built
need_corebox() {
	[ -x "$CB" ] || { echo "not ok - $T: $CB not built"; exit 1; }
}

# build_helper NAME [CFLAGS...]: tests/e2e/helpers/NAME.c -> $W/NAME
# (CFLAGS default -O2); stop (status 1) when it does not build.
# Compiled once per source, CC and CFLAGS into $E2E_HELPERS (tests/run.sh
# empties it first) and copied from there: the e2e part built the same
# helpers ~130 times (bpf_count in nearly every script), 0.15 s of
# compiler each.  A new copy each time: a test may rely on its own inode.
E2E_HELPERS=${COREBOX_E2E_HELPERS:-build/test/e2e-helpers}
build_helper() {
	h=$1
	shift
	[ $# -gt 0 ] || set -- -O2
	bh_src=tests/e2e/helpers/$h.c
	bh_bin=$E2E_HELPERS/$h.$(echo "$CC $*" | cksum | cut -d' ' -f1)
	bh_fresh=0
	if [ "$bh_bin" -nt "$bh_src" ]; then
		bh_fresh=1
		for bh_h in tests/e2e/helpers/*.h; do
			[ "$bh_h" -nt "$bh_bin" ] && bh_fresh=0
		done
	fi
	if [ $bh_fresh = 1 ] && cp "$bh_bin" "$W/$h" 2>/dev/null; then
		return 0
	fi
	if ! $CC "$@" -o "$W/$h" "$bh_src"; then
		echo "not ok - $T: cannot build $bh_src"
		exit 1
	fi
	# (another test may fill the same entry: a whole file or none)
	mkdir -p "$E2E_HELPERS" 2>/dev/null && cp "$W/$h" "$bh_bin.$$" 2>/dev/null &&
		mv -f "$bh_bin.$$" "$bh_bin" 2>/dev/null
	rm -f "$bh_bin.$$"
	return 0
}

# python3 through pyenv's shim costs 0.3 s a start (a bash script that
# runs `pyenv exec`; the e2e part starts python3 some 200 times): the
# interpreter the shim picks here, found once per run (a link in
# $E2E_HELPERS), goes first in PATH, for the scripts and their children
case $(command -v python3 2>/dev/null) in
*/shims/python3)
	py_dir=$E2E_HELPERS/python3-bin
	case $py_dir in /*) ;; *) py_dir=$PWD/$py_dir ;; esac
	if [ ! -x "$py_dir/python3" ]; then
		py=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
		if [ -n "$py" ] && [ -x "$py" ] && mkdir -p "$py_dir" 2>/dev/null; then
			# (another test may make the same link: the whole link or none)
			ln -sf "$py" "$py_dir/python3.$$" && mv -f "$py_dir/python3.$$" "$py_dir/python3"
		fi
	fi
	[ -x "$py_dir/python3" ] && PATH=$py_dir:$PATH && export PATH
	;;
esac

# first_line RC LINE WHAT: ok WHAT when the last run ($out, $rc) exited
# RC with LINE as its first line (an error's words)
first_line() {
	if [ "$rc" = "$1" ] && [ "$(echo "$out" | head -1)" = "$2" ]; then ok "$3"; else notok "$3 (rc $rc): $out"; fi
}
wait_for() { # FILE PATTERN TENTHS: until a line matches (bounded)
	i=0
	while [ "$i" -lt "$3" ]; do
		grep -q -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

wait_pid() { # PID TENTHS: 0 when it ended in time
	i=0
	while kill -0 "$1" 2>/dev/null && [ "$i" -lt "$2" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	! kill -0 "$1" 2>/dev/null
}

wait_exit() { # PID TENTHS: 0 once the process is gone (bounded)
	i=0
	while [ "$i" -lt "$2" ]; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# reap PID TENTHS: wait for a child (killed after TENTHS); rc = its exit
# status, or "timeout"
reap() {
	if wait_pid "$1" "$2"; then
		wait "$1"; rc=$?
	else
		kill -KILL "$1"; wait "$1" 2>/dev/null; rc=timeout
	fi
}

# within A B PCT: |A - B| <= B * PCT / 100
within() {
	d=$(( $1 - $2 ))
	[ "$d" -lt 0 ] && d=$(( -d ))
	[ $(( d * 100 )) -le $(( $2 * $3 )) ]
}

# bpf_snapshot NAME: the BPF programs and links loaded now (helper
# bpf_count, built into $W), sorted, into $W/NAME
bpf_snapshot() { "$W/bpf_count" | sort > "$W/$1"; }

# bpf_new NAME ERE: the lines of $W/NAME that are not in $W/before and match ERE
bpf_new() { grep -vxF -f "$W/before" "$W/$1" | grep -E "$2"; }

# bpf_ids PID: "prog ID", "map ID" and "link ID" of every BPF object PID
# holds a file descriptor of (its /proc/PID/fdinfo), sorted; what a test
# records while a tool runs to check after it exited that all are gone
bpf_ids() {
	for f in /proc/"$1"/fdinfo/*; do
		sed -n 's/^prog_id:[[:space:]]*/prog /p; s/^map_id:[[:space:]]*/map /p; s/^link_id:[[:space:]]*/link /p' "$f" 2>/dev/null
	done | sort -u
}

# bpf_left ERE: the programs/links matching ERE that are loaded now and
# were not before, once they stop changing: the kernel frees the program
# of a closed raw tracepoint link up to about a second later (RCU), so
# ask again for up to 3 s while something is left
bpf_left() {
	i=0
	while :; do
		bpf_snapshot after
		l=$(bpf_new after "$1")
		[ -z "$l" ] || [ $i -ge 30 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "$l"
}

# wait_attached [N]: until N (default 1) more sched_switch links than in
# $W/before exist (10 s)
wait_attached() {
	i=0
	while [ "$i" -lt 100 ]; do
		bpf_snapshot now
		n=$(grep -vxF -f "$W/before" "$W/now" | grep -c '^link [0-9]* [0-9]* sched_switch')
		[ "$n" -ge "${1:-1}" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# ---- running a tool in the background -----------------------------------------

# tool_start LABEL BANNER ARGS...: run `corebox ARGS` (with ${CBX_ENV:-} in
# its environment) in the background (TPID), stdout in $W/LABEL.out,
# stderr in $W/LABEL.err; wait (15 s) until a line of either matches
# BANNER (JSON runs print it on stderr), or, with BANNER empty (-j: no
# banner), until the tool holds BPF links and their number stopped
# growing; then add the ids of the BPF programs, maps and links it holds
# to $W/ours (bpf_ids; snoop_left checks they are gone after it exits).
# 1 after a "not ok" when it was not ready in time.
tool_start() {
	label=$1 ready=$2
	shift 2
	# empty the files first: the child truncates them only after the fork,
	# so the wait below could otherwise see the previous run's banner
	rm -f "$W/$label.out" "$W/$label.err"
	: > "$W/$label.out"
	: > "$W/$label.err"
	env ${CBX_ENV:-} "$CB" "$@" > "$W/$label.out" 2> "$W/$label.err" &
	TPID=$!
	got=
	if [ -n "$ready" ]; then
		i=0
		while [ $i -lt 150 ]; do
			if grep -q -- "$ready" "$W/$label.out" "$W/$label.err" 2>/dev/null; then got=1; break; fi
			kill -0 "$TPID" 2>/dev/null || break
			sleep 0.1
			i=$((i + 1))
		done
		# (a tool that printed its banner and exited at once: still ready)
		[ -n "$got" ] || ! grep -q -- "$ready" "$W/$label.out" "$W/$label.err" 2>/dev/null || got=1
	else
		i=0 last=0
		while [ $i -lt 150 ] && kill -0 "$TPID" 2>/dev/null; do
			n=$(cat /proc/"$TPID"/fdinfo/* 2>/dev/null | grep -c '^link_id:')
			if [ "$n" -gt 0 ] && [ "$n" = "$last" ]; then got=1; break; fi
			last=$n
			sleep 0.2
			i=$((i + 2))
		done
	fi
	if [ -z "$got" ]; then
		notok "$label: not ready within 15 s ($*): $(head -c 400 "$W/$label.err" | tr '\n' ' ')"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		TPID=
		return 1
	fi
	bpf_ids "$TPID" >> "$W/ours"
	return 0
}

# snoop_stop LABEL: SIGINT, expect exit status 0 within 2 s.
snoop_stop() {
	kill -INT "$TPID" 2>/dev/null
	i=0
	while kill -0 "$TPID" 2>/dev/null && [ "$i" -lt 20 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 "$TPID" 2>/dev/null; then
		notok "$1: still running 2 s after SIGINT"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		TPID=
		return
	fi
	wait "$TPID"
	rc=$?
	TPID=
	if [ "$rc" = 0 ]; then ok "$1: exits 0 within 2 s of SIGINT"; else notok "$1: exit status $rc after SIGINT"; fi
}

# snoop_left: every program, map and link id the tool instances held (from
# their /proc/PID/fdinfo while running) must be gone after they exited.
snoop_left() {
	touch "$W/ours"
	i=0
	while :; do # (see bpf_left: programs go a little after their links)
		"$W/bpf_count" > "$W/after" || notok "bpf_count failed"
		left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
		[ -z "$left" ] || [ $i -ge 30 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	nprog=$(sort -u "$W/ours" | grep -c '^prog ')
	nlink=$(sort -u "$W/ours" | grep -c '^link ')
	nmap=$(sort -u "$W/ours" | grep -c '^map ')
	if [ "$nprog" -gt 0 ]; then ok "the running tool held $nprog BPF programs, $nmap maps and $nlink links"
	else notok "no BPF program ids found in /proc/PID/fdinfo of the running tool"; fi
	left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
	# the kernel may free them a little later: links on syscall tracepoints
	# (faultable since 6.13) wait for an RCU tasks trace grace period
	i=0
	while [ -n "$left" ] && [ "$i" -lt 50 ]; do
		sleep 0.1
		"$W/bpf_count" > "$W/after" || break
		left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
		i=$((i + 1))
	done
	if [ -z "$left" ]; then ok "no $T BPF program, map or link left loaded after exit"
	else notok "left loaded after exit: $(echo "$left" | tr '\n' '|')"; fi
}

# ---- bpftrace in the background ---------------------------------------------

# bt_until_attached OUT ARGS...: `corebox bpftrace ARGS` in the background
# (BTPID), its output in OUT, until its "Attaching" line (bounded: 10 s):
# it prints that after BEGIN, once the probes are in and SIGINT/SIGUSR1
# are handled, so an event or a signal sent then is not missed
bt_until_attached() {
	bta_out=$1
	shift
	"$CB" bpftrace "$@" > "$bta_out" 2>&1 &
	BTPID=$!
	wait_for "$bta_out" '^Attaching' 100
}

# bt_reap TENTHS: 0 when BTPID exits within TENTHS; else 1, and it is killed
bt_reap() {
	wait_exit "$BTPID" "$1" && return 0
	kill -KILL "$BTPID" 2>/dev/null
	return 1
}

# ---- corebox bpftrace beside 0.17, case by case -------------------------------
# (bpftrace_oracle.sh runs 0.17 beside it; bpftrace_sign.sh has 0.17's
# output recorded)

# bt_cases_begin: after T is set and this file sourced: CB, fails, the work
# directory W (removed at exit), corebox built; n=0 cases so far
bt_cases_begin() {
	CB=${COREBOX:-./corebox}
	fails=0
	W=$(mktemp -d "/tmp/cbx-$T.XXXXXX")
	trap 'rm -rf "$W"' EXIT
	need_corebox
	n=0
}

# bt_same LABEL PROG: ok LABEL when corebox's output ($W/got) is 0.17's
# ($W/want) byte for byte; else notok "LABEL: PROG" and the diff's first lines
bt_same() {
	if cmp -s "$W/want" "$W/got"; then
		ok "$1"
	else
		notok "$1: $2"
		diff "$W/want" "$W/got" | head -10 | sed 's/^/#   /'
	fi
}

# bt_replay FILE: each case of FILE run once and compared with what
# bpftrace 0.17 gave, recorded there: "=== PROG" (or "===j PROG": -f json;
# PROG may end in a tab and the positional parameters), then 0.17's
# stderr, its stdout, "rc N".  comm is the running binary's name: 0.17's
# recorded as COMM, corebox's made COMM here.
bt_replay() {
	prog=
	while IFS= read -r line; do
		case $line in
		'=== '* | '===j '*)
			bt_replay_one
			fmt=; case $line in '===j '*) fmt="-f json"; esac
			prog=${line#===}; prog=${prog#j}; prog=${prog# }; : > "$W/want" ;;
		*) printf '%s\n' "$line" >> "$W/want" ;;
		esac
	done < "$1"
	bt_replay_one
	echo "# $n cases"
}
bt_replay_one() {
	[ -n "${prog:-}" ] || return 0
	n=$((n + 1))
	params=
	case $prog in *"	"*) params=${prog#*"	"} prog=${prog%%"	"*}; esac
	# shellcheck disable=SC2086 # fmt and the parameters are words
	timeout 20 $CB bpftrace $fmt -e "$prog" $params > "$W/out" 2> "$W/err"
	echo "rc $?" >> "$W/out"
	cat "$W/err" "$W/out" | sed 's/corebox/COMM/g' > "$W/got"
	bt_same "case $n" "$fmt $prog${params:+ (parameters $params)}"
}

# ---- stack tools (profile, offcputime, wakeuptime/offwaketime) ---------------

# after_sigint PID: the tool, sent SIGINT, must exit with status 0 within 5 s
after_sigint() {
	if wait_pid "$1" 50; then
		wait "$1"; rc=$?
		if [ "$rc" = 0 ]; then ok "exits 0 within 5 s of SIGINT"; else notok "status $rc after SIGINT"; fi
	else
		notok "still running 5 s after SIGINT"
		kill -KILL "$1"; wait "$1" 2>/dev/null
	fi
}

# usage_exit2 LABEL ARGS...: corebox ARGS must exit with status 2
usage_exit2() {
	label=$1
	shift
	"$CB" "$@" > /dev/null 2>&1
	rc=$?
	if [ "$rc" = 2 ]; then ok "$label: exit 2"; else notok "$label: exit $rc"; fi
}

# svg_valid FILE LABEL: 0 when FILE was written and (with python3) parses
# as XML; else notok "LABEL: no file written" / "LABEL: not XML" and 1
svg_valid() {
	if [ ! -s "$1" ]; then
		notok "$2: no file written"
		return 1
	fi
	if command -v python3 >/dev/null 2>&1 &&
		! python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" 2>/dev/null; then
		notok "$2: not XML"
		return 1
	fi
	return 0
}

# mem/net helpers

# bg_traps: for scripts whose tool ($TPID) and helper ($HPID) run in the
# background: at exit kill both and remove $W (kept with KEEP=1);
# INT/TERM exit 1 (through the EXIT trap).
bg_cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
bg_traps() {
	trap bg_cleanup EXIT
	trap 'exit 1' INT TERM
}

# bpf_count_build: tests/e2e/helpers/bpf_count.c -> $W/bpf_count (what
# bpf_snapshot runs); stop (status 1) after a "not ok" when it does not build
bpf_count_build() {
	( build_helper bpf_count ) > /dev/null || { notok "cannot build bpf_count"; exit 1; }
}

# ---- dyntrace/stack helpers ----------------------------------------------------
# (the workload helper's start, stop and "work, then SIGINT the tool" steps
# that tests/e2e/dyntrace.sh and dyntrace_tp.sh repeat for every tool run)

# helper_start OUT CMD...: run a workload helper in the background (HPID),
# its output in OUT; 0 once it prints "ready" (bounded: 5 s)
helper_start() {
	hs_out=$1
	shift
	: > "$hs_out"
	"$@" > "$hs_out" 2>&1 &
	HPID=$!
	wait_for "$hs_out" '^ready' 50
}

# helper_stop: end the helper helper_start started
helper_stop() {
	kill -TERM "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
}

# e2e_begin NAME HEADER TENTHS ARGS...: after helper_start, `corebox ARGS`
# (@PID@ in them: the helper's pid; ${CBX_ENV:-} in its environment) in the
# background (TPID), its output in $W/NAME.out and .err, until a line of
# it matches HEADER (on stderr with -j, where the banners go then), within
# TENTHS.  1 after a notok, the tool and the helper killed, when it did not
# come.  helper_finish NAME then lets the helper work and stops the tool.
e2e_begin() {
	eb_name=$1 eb_hdr=$2 eb_tenths=$3
	shift 3
	for a in "$@"; do
		shift
		[ "$a" = @PID@ ] && a=${HPID:-}
		set -- "$@" "$a"
	done
	env ${CBX_ENV:-} "$CB" "$@" > "$W/$eb_name.out" 2> "$W/$eb_name.err" &
	TPID=$!
	eb_hf=$W/$eb_name.out
	case " $* " in *" -j "*) eb_hf=$W/$eb_name.err ;; esac
	wait_for "$eb_hf" "$eb_hdr" "$eb_tenths" && return 0
	notok "$eb_name: no header: $(head -c 400 "$W/$eb_name.err")"
	kill -KILL "$TPID" ${HPID:-} 2>/dev/null
	wait "$TPID" ${HPID:-} 2>/dev/null
	TPID= HPID=
	return 1
}

# helper_finish NAME TENTHS: let the helper work (SIGUSR1, then its "done"
# line in $W/NAME.helper, bounded), SIGINT the tool (TPID) and reap it:
# its exit status in $W/NAME.rc ("timeout" when it still runs TENTHS after
# SIGINT); then stop the helper.  HELPER_US: microseconds from SIGUSR1 to
# the "done" line seen (at least the time the helper worked)
helper_finish() {
	hf0=$(date +%s%N)
	kill -USR1 "$HPID"
	wait_for "$W/$1.helper" '^done' 100 || notok "$1: helper did not finish"
	HELPER_US=$((($(date +%s%N) - hf0) / 1000))
	sleep 0.3
	kill -INT "$TPID"
	reap "$TPID" "$2"
	echo "$rc" > "$W/$1.rc"
	TPID=
	helper_stop
}

# cgroup2_dir NAME: a new directory NAME at the top of the cgroup2 mount:
# the mount in CG2, the directory in TOP (the caller removes it); exits
# after a notok when there is no writable cgroup2 mount
cgroup2_dir() {
	CG2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
	if [ -z "$CG2" ] || ! mkdir "$CG2/$1" 2>/dev/null; then
		notok "no writable cgroup v2 mount (have: $CG2)"
		exit 1
	fi
	TOP=$CG2/$1
}

# netns_nft NS HOOK MTU|- RULE...: a network namespace NS (lo up, with MTU
# unless -) whose table inet cbx has a chain on HOOK (input or output,
# named in or out) holding RULE (nft's words); exits after a "not ok" when
# ip or nft is missing or a step fails.  The caller deletes NS.
netns_nft() {
	nn_ns=$1 nn_hook=$2 nn_mtu=$3
	shift 3
	[ "$nn_mtu" = - ] && nn_mtu=
	for c in ip nft; do
		command -v $c >/dev/null 2>&1 || { echo "not ok - $T: no $c command (make deps)"; exit 1; }
	done
	if ! { ip netns add "$nn_ns" && ip -n "$nn_ns" link set lo up ${nn_mtu:+mtu $nn_mtu} &&
		ip netns exec "$nn_ns" nft add table inet cbx &&
		ip netns exec "$nn_ns" nft add chain inet cbx "${nn_hook%put}" "{ type filter hook $nn_hook priority 0; }" &&
		ip netns exec "$nn_ns" nft add rule inet cbx "${nn_hook%put}" "$@"; } 2> "$W/ns.err"; then
		echo "not ok - $T: cannot set up the namespace and its nft rule: $(head -c 300 "$W/ns.err")"
		exit 1
	fi
}

# threads_begin: the thread tools' start (uthreads, threadsnoop, exitsnoop):
# the bpf_count and threads helpers built, corebox there, the BPF objects
# loaded now recorded (bpf_snapshot before)
threads_begin() {
	build_helper bpf_count
	build_helper threads -O2 -pthread
	need_corebox
	bpf_snapshot before
}

# block/fs helpers
# The block and file system tools' tests work on loop devices they make
# in $W; these set them up and take them down the same way everywhere.

# loop_disks MB NAME...: for each NAME a file $W/disk.NAME of MB MiB of
# zeros on a loop device (direct I/O where the kernel allows), stored in
# the variable NAME (e.g. LA) as soon as it exists, so a cleanup that
# calls blkfs_cleanup detaches it; then lets udev's probing settle.
# Exits after a notok when a step fails.
loop_disks() {
	mb=$1
	shift
	for v in "$@"; do
		dd if=/dev/zero of="$W/disk.$v" bs=1M count="$mb" status=none || { notok "cannot create $W/disk.$v"; exit 1; }
		dev=$(losetup --find --show --direct-io=on "$W/disk.$v" 2>/dev/null || losetup --find --show "$W/disk.$v")
		[ -n "$dev" ] || { notok "losetup failed (no loop device support?)"; exit 1; }
		eval "$v=\$dev"
	done
	command -v udevadm >/dev/null 2>&1 && timeout 10 udevadm settle 2>/dev/null
	sleep 0.5
}

# ext4_mount SIZE: an ext4 file system (4 KiB blocks) of SIZE (truncate's
# syntax) in $W/ext4.img on a loop device (LE), mounted on MNT=$W/mnt.
# Exits after a notok when a step fails.
ext4_mount() {
	command -v mkfs.ext4 >/dev/null 2>&1 || { notok "mkfs.ext4 missing (e2fsprogs; make deps)"; exit 1; }
	truncate -s "$1" "$W/ext4.img" && mkfs.ext4 -q -F -b 4096 "$W/ext4.img" || { notok "mkfs.ext4 failed"; exit 1; }
	LE=$(losetup --find --show "$W/ext4.img") || { notok "losetup failed"; exit 1; }
	mkdir -p "$W/mnt"
	mount -t ext4 "$LE" "$W/mnt" || { notok "cannot mount the ext4 image"; exit 1; }
	MNT=$W/mnt
}

# blkfs_cleanup: for the EXIT trap: kill the tool (TPID) and helper
# (HPID), unmount MNT, detach the loop devices LA, LB and LE, remove $W
# unless KEEP is set.  Unset or empty variables are skipped.
blkfs_cleanup() {
	[ -n "${TPID:-}" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "${HPID:-}" ] && kill -KILL "$HPID" 2>/dev/null
	[ -n "${MNT:-}" ] && umount "$MNT" 2>/dev/null
	for dev in "${LA:-}" "${LB:-}" "${LE:-}"; do
		[ -n "$dev" ] && losetup -d "$dev" 2>/dev/null
	done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}

# two_more FILE PATTERN: until FILE has two more lines matching PATTERN
# (each report's header) than now, bounded (5 s): two reports of a
# top-style tool, the first of which may have begun before the call
two_more() {
	tm_n=$(grep -c "$2" "$1")
	i=0
	while [ $i -lt 50 ] && [ "$(grep -c "$2" "$1")" -lt $((tm_n + 2)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
