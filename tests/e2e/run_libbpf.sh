#!/bin/sh
# corebox run with libbpf-tools-style objects (tests/run/rqlat.bpf.c,
# biolat.bpf.c, mech.bpf.c: this repository's own, written the way
# libbpf-tools write theirs).  Ground truth is what the test makes:
#  - rqlat: two helpers A and B each sleep N times; with --set
#    targ_tgid=A, `counts` holds A only (>= N switches in) and every
#    decoded event (typed from the code: the heap map's value) names A;
#    one program per hook (tp_btf, or raw_tp with COREBOX_DISABLE=tp_btf):
#    3 BPF links held; the 0-entry maps and the stack map got defaults;
#    --set of a bool, an enum and a char array shows in the .rodata dump.
#  - biolat: K O_DIRECT reads on loop device A and K on B; with --set
#    targ_dev=A only A is counted and --event-type event decodes one
#    record per read with its sector (all K sectors seen); without
#    --event-type the records are hex, not a kernel struct of their size.
#  - mech: fentry/kprobe variants the kernel may lack are skipped with one
#    line each (or the best one attached), --strict makes that an error,
#    a usdt program loads unattached.
#  - bad --set/--only/--map/--event-type: one line, exit 2.
# Every wait is bounded.  Run as root from the repository root.
set -u
CB=${COREBOX:-./corebox}
B=build/test/run
W=$(mktemp -d /var/tmp/cbx-runlib.XXXXXX 2>/dev/null || mktemp -d /tmp/cbx-runlib.XXXXXX)
N=40
K=64
T=run_libbpf
fails=0
TPID= HA= HB= LA= LB=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HA $HB; do kill -KILL "$p" 2>/dev/null; done
	[ -n "$LA" ] && losetup -d "$LA" 2>/dev/null
	[ -n "$LB" ] && losetup -d "$LB" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
if ! sh tests/run/gen.sh $B > "$W/gen.out" 2>&1; then
	notok "tests/run/gen.sh failed: $(head -c 600 "$W/gen.out")"
	exit 1
fi
build_helper dio_read

# helper NAME: start a copy of getppid_n named NAME (its comm) that naps
# N times on SIGUSR1; sets HPID
helper() {
	cp "$B/getppid_n" "$W/$1" && chmod 755 "$W/$1"
	"$W/$1" $N nap > "$W/$1.out" 2>&1 &
	HPID=$!
	wait_for "$W/$1.out" '^ready' 50 || notok "helper $1 did not start"
}

# start NAME ARGS...: corebox run in the background (TPID) until "Running"
start() {
	name=$1
	shift
	rm -f "$W/$name.out"
	: > "$W/$name.out"
	"$CB" run "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	if ! wait_for "$W/$name.out" '^Running ' 150; then
		notok "$name: corebox run did not start: $(head -c 600 "$W/$name.err")"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		TPID=
		return 1
	fi
	return 0
}

# stop NAME: SIGINT, exit status 0 expected
stop() {
	kill -INT "$TPID"
	reap "$TPID" 50
	TPID=
	[ "$rc" = 0 ] || notok "$1: exit status $rc after SIGINT: $(head -c 300 "$W/$1.err")"
}

# links held by process $1 (BPF link fds in /proc/PID/fdinfo)
links_held() {
	grep -l '^link_id:' /proc/"$1"/fdinfo/* 2>/dev/null | wc -l
}

# ---- 1. rqlat: variants, knobs, defaults, typed events --------------------
C=cbxnap$$
helper "${C}A"; HA=$HPID
helper "${C}B"; HB=$HPID
A=$(awk '/^ready/ { print $2 }' "$W/${C}A.out")
if start rqlat "$B/rqlat.bpf.o" --set targ_tgid="$A" -v; then
	nl=$(links_held "$TPID")
	kill -USR1 "$HA" "$HB"
	wait_for "$W/${C}A.out" '^done' 100 || notok "rqlat: helper A did not finish"
	wait_for "$W/${C}B.out" '^done' 100 || notok "rqlat: helper B did not finish"
	sleep 0.3
	stop rqlat
	out=$W/rqlat.out
	if [ "$(grep -c ': tp_btf$' "$out")" = 3 ] && [ "$(grep -c ': not loaded: its tp_btf variant ' "$out")" = 3 ] && [ "$nl" = 3 ]; then
		ok "rqlat: one program per hook: 3 tp_btf attached, 3 raw_tp variants not loaded, 3 links held"
	else
		notok "rqlat: programs: $nl links; $(grep -E '^(sched|handle)' "$out" | tr '\n' '|')"
	fi
	got=$(awk '/^map counts / { m = 1; next } /^[^ ]/ { m = 0 } m' "$out")
	n=$(echo "$got" | awk -F': ' -v a="$A" '$1 == "  " a { print $2 }')
	if [ "$(echo "$got" | wc -l)" = 1 ] && [ -n "$n" ] && [ "$n" -ge $N ]; then
		ok "rqlat: --set targ_tgid=A: counts hold A only, $n >= $N switches in ($C""B filtered out)"
	else
		notok "rqlat: counts: '$(echo "$got" | tr '\n' '|')' (A=$A, want only A with >= $N)"
	fi
	ev=$(grep -c "^tgid=$A pid=$A delta=[0-9]* comm=${C}A stack_id=-*[0-9]* unit=USECS\$" "$out")
	other=$(grep '^tgid=' "$out" | grep -vc "^tgid=$A ")
	stk=$(grep "^tgid=$A " "$out" | grep -c 'stack_id=[0-9]')
	if [ "$ev" -ge $N ] && [ "$other" = 0 ] && [ "$stk" -gt 0 ]; then
		ok "rqlat: $ev events decoded by field name (tgid= pid= comm=${C}A unit=USECS), none of another process, stack ids from the defaulted stack map"
	else
		notok "rqlat: events of A: $ev (want >= $N), of others: $other, with a stack id: $stk: $(grep -m3 -v '^[a-z_]* (' "$out" | tr '\n' '|')"
	fi
	if grep -q 'map events: records are struct event (from the code)' "$W/rqlat.err"; then
		ok "rqlat: record type found in the code (the heap map's value passed to bpf_ringbuf_output)"
	else
		notok "rqlat: -v did not say the record type: $(head -c 400 "$W/rqlat.err")"
	fi
	if grep -q 'map start: max_entries 10240' "$W/rqlat.err" && grep -q 'map counts: max_entries 10240' "$W/rqlat.err" &&
		grep -q 'map stacks: value_size 1016' "$W/rqlat.err"; then
		ok "rqlat: maps declared with 0 entries got 10240, the stack map 127 frames (said with -v)"
	else
		notok "rqlat: defaults not said: $(head -c 400 "$W/rqlat.err")"
	fi
fi
kill -TERM "$HA" "$HB" 2>/dev/null
wait "$HA" "$HB" 2>/dev/null
HA= HB=

# raw_tp when the kernel cannot (or may not) attach tp_btf; every knob type
if start rqlat_raw "$B/rqlat.bpf.o" --set targ_ms=yes --set unit=MSECS --set targ_comm=cbx_run --set targ_tgid=1 \
	--map counts=77 --map stacks.value_size=800; then
	stop rqlat_raw
fi
if COREBOX_DISABLE=tp_btf "$CB" run "$B/rqlat.bpf.o" --dry-run > "$W/raw.out" 2>&1 &&
	[ "$(grep -Ec '^handle_sched_[a-z_]+ +raw_tp/[a-z_]+ +[0-9]+ +loaded$' "$W/raw.out")" = 3 ] &&
	[ "$(grep -c 'not loaded: its raw_tp variant handle_sched' "$W/raw.out")" = 3 ]; then
	ok "rqlat: COREBOX_DISABLE=tp_btf: the 3 raw_tp variants load, the tp_btf ones do not"
else
	notok "rqlat: COREBOX_DISABLE=tp_btf: $(head -c 600 "$W/raw.out")"
fi
o=$W/rqlat_raw.out
if grep -qx '  targ_ms=true' "$o" && grep -qx '  unit=MSECS' "$o" && grep -qx '  targ_comm=cbx_run' "$o" &&
	grep -qx '  targ_tgid=1' "$o"; then
	ok "--set: bool, enum name, char array and int knobs in the .rodata dump"
else
	notok "--set: .rodata: $(sed -n '/^\.rodata:/,/^\.bss/p' "$o" | tr '\n' '|')"
fi
"$CB" run "$B/rqlat.bpf.o" --dry-run --map counts=77 --map stacks.value_size=800 --map stacks=99 > "$W/sz.out" 2>&1
if grep -Eq '^counts +hash +4 +8 +77$' "$W/sz.out" && grep -Eq '^stacks +stack_trace +4 +800 +99$' "$W/sz.out"; then
	ok "--map NAME=N and NAME.value_size=N size maps"
else
	notok "--map: $(grep -E '^(counts|stacks) ' "$W/sz.out" | tr '\n' '|')"
fi

# ---- 2. biolat: a disk filter knob, --event-type --------------------------
attach_loop() { losetup --find --show --direct-io=on "$1" 2>/dev/null || losetup --find --show "$1"; }
dd if=/dev/zero of="$W/disk.a" bs=1M count=16 status=none && dd if=/dev/zero of="$W/disk.b" bs=1M count=16 status=none
LA=$(attach_loop "$W/disk.a")
LB=$(attach_loop "$W/disk.b")
if [ -z "$LA" ] || [ -z "$LB" ]; then
	notok "biolat: losetup failed (no loop devices?)"
else
	command -v udevadm >/dev/null 2>&1 && timeout 10 udevadm settle 2>/dev/null
	sleep 0.3
	dev() { echo $(( $(stat -c '0x%t' "$1") << 20 | $(stat -c '0x%T' "$1") )); }
	DA=$(dev "$LA")
	DB=$(dev "$LB")
	if start biolat "$B/biolat.bpf.o" --set targ_dev="$DA" --event-type event; then
		timeout 60 "$W/dio_read" "$LA" $K > /dev/null || notok "biolat: dio_read $LA failed"
		timeout 60 "$W/dio_read" "$LB" $K > /dev/null || notok "biolat: dio_read $LB failed"
		sleep 0.3
		stop biolat
		out=$W/biolat.out
		got=$(awk '/^map counts / { m = 1; next } /^[^ ]/ { m = 0 } m' "$out")
		n=$(echo "$got" | awk -F': ' -v d="$DA" '$1 == "  " d { print $2 }')
		if [ "$(echo "$got" | wc -l)" = 1 ] && [ -n "$n" ] && [ "$n" -ge $K ] && [ "$n" -lt $((2 * K)) ]; then
			ok "biolat: --set targ_dev=$DA ($LA): counts hold that disk only, $n requests for $K reads"
		else
			notok "biolat: counts '$(echo "$got" | tr '\n' '|')' (want only $DA with $K..$((2 * K - 1)))"
		fi
		miss=0 i=0
		while [ $i -lt $K ]; do
			grep -q "^dev=$DA bytes=4096 sector=$((i * 24)) delta_ns=[0-9]* comm=" "$out" || miss=$((miss + 1))
			i=$((i + 1))
		done
		if [ $miss = 0 ] && ! grep -q "^dev=$DB " "$out"; then
			ok "biolat: --event-type event: all $K reads decoded by field (dev= bytes=4096 sector=...), none of $LB"
		else
			notok "biolat: $miss of $K reads without an event; $(grep -m3 '^dev=' "$out" | tr '\n' '|')"
		fi
	fi
	if start biolat_hex "$B/biolat.bpf.o" --set targ_dev="$DA"; then
		timeout 60 "$W/dio_read" "$LA" 4 > /dev/null
		sleep 0.3
		stop biolat_hex
		hex=$(grep -Ec '^[0-9a-f]{8}( [0-9a-f]{8})+$' "$W/biolat_hex.out")
		if [ "$hex" -ge 4 ] && ! grep -q '^[a-z_]*=' "$W/biolat_hex.out"; then
			ok "biolat: a record the code gives no type is printed in hex ($hex), not as struct request of the same size"
		else
			notok "biolat: untyped records: $(grep -v ' (' "$W/biolat_hex.out" | head -5 | tr '\n' '|')"
		fi
	fi
fi

# ---- 3. mechanisms the kernel may lack; usdt -------------------------------
"$CB" run "$B/mech.bpf.o" -d 1 > "$W/mech.out" 2> "$W/mech.err"
rc=$?
if grep -qx 'read_fentry (fentry/vfs_read): fentry' "$W/mech.out"; then
	fentry=1
	want='read_kprobe (kprobe/vfs_read): not loaded: its fentry variant read_fentry is used'
else
	fentry=
	want='read_fentry (fentry/vfs_read): skipped: '
fi
if [ $rc = 0 ] && grep -q "^$want" "$W/mech.out" && grep -qx 'on_getppid (tracepoint/syscalls/sys_enter_getppid): tracepoint' "$W/mech.out" &&
	grep -qx 'on_usdt (usdt): loaded, not attached (USDT probes are not attached yet)' "$W/mech.out"; then
	ok "mech: ${fentry:+fentry attached, kprobe variant not loaded}${fentry:-fentry skipped with one line}; usdt loaded, not attached; exit 0"
else
	notok "mech: exit $rc: $(head -c 600 "$W/mech.out") $(head -c 300 "$W/mech.err")"
fi
if grep -q '^on_escape (tracepoint/syscalls/sys_enter_getppid\\x1b\[2J): skipped: ' "$W/mech.out" &&
	! grep -q "$(printf '\033')" "$W/mech.out" "$W/mech.err"; then
	ok "mech: a tracepoint that does not exist is skipped, its escape-laden name printed escaped"
else
	notok "mech: on_escape: $(grep on_escape "$W/mech.out" | cat -A | head -c 300)"
fi
"$CB" run "$B/mech.bpf.o" --strict -d 1 > "$W/strict.out" 2> "$W/strict.err"
rc=$?
if [ -n "$fentry" ]; then
	# a kernel with fentry: only the escaped tracepoint is missing
	[ $rc = 1 ] && ok "--strict: the missing tracepoint is an error (exit 1)" || notok "--strict: exit $rc"
elif [ $rc = 1 ] && [ "$(wc -l < "$W/strict.err")" = 1 ] && grep -q '^corebox run: program read_fentry (fentry/vfs_read): ' "$W/strict.err"; then
	ok "--strict: a program the kernel cannot attach is an error: $(cat "$W/strict.err")"
else
	notok "--strict: exit $rc: $(head -c 300 "$W/strict.err")"
fi
"$CB" run "$B/mech.bpf.o" --only on_getppid,on_usdt -d 1 > "$W/only.out" 2>&1
if grep -q '^Running .*: 1 program attached' "$W/only.out" && ! grep -q 'read_' "$W/only.out"; then
	ok "--only: only the named programs load"
else
	notok "--only: $(head -c 400 "$W/only.out")"
fi
"$CB" run "$B/mech.bpf.o" --skip on_escape,read_fentry,read_kprobe --strict -d 1 > "$W/skip.out" 2>&1
if grep -q '^Running .*: 1 program attached' "$W/skip.out"; then
	ok "--skip: skipped programs are not loaded (and --strict has nothing to refuse)"
else
	notok "--skip: $(head -c 400 "$W/skip.out")"
fi

# ---- 4. usage errors: one line (plus the --help hint), exit 2 --------------
usage_err() { # LABEL WANT ARGS...
	label=$1 want=$2
	shift 2
	"$CB" run "$@" > "$W/u.out" 2> "$W/u.err"
	rc=$?
	if [ $rc = 2 ] && grep -q -- "$want" "$W/u.err" && [ ! -s "$W/u.out" ] && [ "$(wc -l < "$W/u.err")" -le 2 ]; then
		ok "$label: exit 2, '$(head -1 "$W/u.err")'"
	else
		notok "$label: exit $rc: $(head -c 300 "$W/u.err")"
	fi
}
usage_err "--set with a bad number" "it is a 4-byte signed integer" "$B/rqlat.bpf.o" --dry-run --set targ_tgid=abc
usage_err "--set of an unknown variable" "no global variable 'nope'.*targ_tgid" "$B/rqlat.bpf.o" --dry-run --set nope=1
usage_err "--set of a too long string" "at most 15 characters" "$B/rqlat.bpf.o" --dry-run --set targ_comm=0123456789abcdefX
usage_err "--set of a bool" "it is a bool" "$B/rqlat.bpf.o" --dry-run --set targ_ms=maybe
usage_err "--set of an unknown enum name" "it is an enum" "$B/rqlat.bpf.o" --dry-run --set unit=HOURS
usage_err "--only an unknown program" "no program named 'nope'" "$B/rqlat.bpf.o" --dry-run --only nope
usage_err "--map an unknown map" "no map named 'nope'" "$B/rqlat.bpf.o" --dry-run --map nope=1
usage_err "--map a bad size" "invalid max_entries" "$B/rqlat.bpf.o" --dry-run --map counts=-1
usage_err "--event-type an unknown type" "no struct, union or typedef 'nope'" "$B/rqlat.bpf.o" -d 1 --event-type nope

[ "$fails" = 0 ]
