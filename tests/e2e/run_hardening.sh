#!/bin/sh
# Bad input to corebox's loader, BTF and run paths gets a prompt one-line
# error, never a hang, a huge allocation, a wrong diagnosis or raw bytes
# on the terminal:
#  - a FIFO given as BTF or as an object (COREBOX_BTF, --btf, btf dump,
#    btf min, run) fails at once, saying it is a FIFO;
#  - run /dev/urandom is refused as a character device before reading;
#  - out of file descriptors (prlimit --nofile) says so and how to raise
#    the limit, never "rejected by the verifier";
#  - a map of 0x7fffffff entries is refused by name and size before
#    BPF_MAP_CREATE (--map NAME=N makes it load);
#  - a section name holding ESC[2J and a newline is quoted escaped;
#  - tracefs mounted by corebox is unmounted at exit (in a private mount
#    namespace, where the test unmounts it first).
# Run as root from the repository root: sh tests/e2e/run_hardening.sh
set -u
CB=${COREBOX:-./corebox}
B=build/test/run
W=$(mktemp -d /tmp/cbx-harden.XXXXXX)
T=run_hardening
fails=0
. tests/e2e/lib.sh

cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
if ! sh tests/run/gen.sh $B > "$W/gen.out" 2>&1; then
	notok "tests/run/gen.sh failed: $(head -c 600 "$W/gen.out")"
	exit 1
fi
ESC=$(printf '\033')

# fast_err LABEL WANT CMD...: CMD must exit 1 by itself (within 3 s: a hang
# is killed and reported), print one stderr line matching WANT, no raw ESC
fast_err() {
	label=$1 want=$2
	shift 2
	timeout 3 "$@" > "$W/f.out" 2> "$W/f.err"
	rc=$?
	if [ $rc = 124 ]; then
		notok "$label: still running after 3 s (killed)"
	elif [ $rc = 1 ] && [ "$(wc -l < "$W/f.err")" = 1 ] && grep -q -- "$want" "$W/f.err" &&
		! grep -q "$ESC" "$W/f.err" "$W/f.out"; then
		ok "$label: exit 1 at once: $(cat "$W/f.err")"
	else
		notok "$label: exit $rc: $(head -c 400 "$W/f.err" | cat -A)"
	fi
}

# ---- 1. FIFOs -----------------------------------------------------------
mkfifo "$W/fifo"
fast_err "COREBOX_BTF=FIFO opensnoop" "is a FIFO, not a regular file" env COREBOX_BTF="$W/fifo" "$CB" opensnoop -d 1
fast_err "opensnoop --btf FIFO" "is a FIFO, not a regular file" "$CB" opensnoop --btf "$W/fifo" -d 1
fast_err "btf dump FIFO" "is a FIFO" "$CB" btf dump "$W/fifo"
fast_err "btf min FIFO" "is a FIFO" "$CB" btf min "$W/fifo" -o "$W/min.btf"
if [ -r /sys/kernel/btf/vmlinux ]; then
	fast_err "btf min KERNEL FIFO-as-object" "is a FIFO" "$CB" btf min /sys/kernel/btf/vmlinux -o "$W/min.btf" "$W/fifo"
fi
fast_err "run FIFO" "is a FIFO" "$CB" run "$W/fifo"
fast_err "run OBJ --btf FIFO" "is a FIFO" "$CB" run "$B/counts.bpf.o" --dry-run --btf "$W/fifo"

# ---- 2. devices ----------------------------------------------------------
fast_err "run /dev/urandom" "/dev/urandom is a character device, not a regular file" "$CB" run /dev/urandom
fast_err "run a directory" "is a directory" "$CB" run "$W"

# ---- 3. out of file descriptors -------------------------------------------
if command -v prlimit > /dev/null 2>&1; then
	# every limit of a command at once (a run that gets its descriptors
	# lasts its 1 s: 38 one after the other took 16 s), then judged in
	# order
	wrong= loadfail= k=0
	for cmd in "run $B/counts.bpf.o -d 1" "opensnoop -d 1"; do
		k=$((k + 1)) n=6
		while [ $n -le 24 ]; do
			# shellcheck disable=SC2086 # (CMD is words)
			( prlimit --nofile=$n "$CB" $cmd > /dev/null 2> "$W/fd.$n.$k.err" < /dev/null
			  echo $? > "$W/fd.$n.$k.rc" ) &
			n=$((n + 1))
		done
		wait
	done
	n=6
	while [ $n -le 24 ]; do
		k=0
		for cmd in "run $B/counts.bpf.o -d 1" "opensnoop -d 1"; do
			k=$((k + 1)) err=$W/fd.$n.$k.err
			rc=$(cat "$W/fd.$n.$k.rc")
			[ "$rc" = 0 ] && continue
			if grep -qi 'verifier\|rejected' "$err" || ! grep -q 'ulimit -n' "$err"; then
				wrong="$wrong [nofile=$n $cmd: $(head -c 300 "$err")]"
			fi
			grep -q 'cannot load program' "$err" && loadfail="$(head -1 "$err")"
		done
		n=$((n + 1))
	done
	if [ -z "$wrong" ] && [ -n "$loadfail" ]; then
		ok "out of file descriptors: said, with the limit, never 'rejected by the verifier': $loadfail"
	else
		notok "out of file descriptors:${wrong:- no failure at program load seen}"
	fi
else
	ok "out of file descriptors # SKIP no prlimit"
fi

# ---- 4. absurd map size -----------------------------------------------------
fast_err "max_entries 0x7fffffff" "map huge: 2147483647 entries .* over the limit of .*--map-mem-limit" "$CB" run "$B/hugemap.bpf.o"
"$CB" run "$B/hugemap.bpf.o" --map huge=16 --dry-run > "$W/h.out" 2>&1
if grep -Eq '^huge +array +4 +8 +16$' "$W/h.out"; then
	ok "--map huge=16 makes it load"
else
	notok "--map huge=16: $(head -c 300 "$W/h.out")"
fi
fast_err "--map-mem-limit 1M" "map huge: 1000000 entries .* about 7.6 MiB .* over the limit of 1.0 MiB" "$CB" run "$B/hugemap.bpf.o" --map huge=1000000 --map-mem-limit 1M --dry-run

# ---- 5. escapes --------------------------------------------------------------
fast_err "section name with ESC[2J and a newline" "unknown section name '\\\\x1b\[2Jevil\\\\x0a#include'" "$CB" run "$B/evil.bpf.o"

# ---- 6. tracefs is unmounted at exit -------------------------------------------
if command -v unshare > /dev/null 2>&1 && unshare -m --propagation private true 2>/dev/null; then
	unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2>/dev/null
		umount /sys/kernel/debug 2>/dev/null
		grep -c " /sys/kernel/tracing \| /sys/kernel/debug " /proc/self/mountinfo
		: > "$3/tr.out" # exists before the child opens it: the wait below reads it
		"$1" run "$2/ringbuf.bpf.o" > "$3/tr.out" 2>&1 &
		pid=$!
		i=0
		while [ $i -lt 100 ] && ! grep -q "^Running" "$3/tr.out"; do sleep 0.1; i=$((i + 1)); done
		grep -c "tracefs" /proc/$pid/mountinfo
		kill -INT $pid
		wait $pid
		echo "rc $?"
		grep -c " /sys/kernel/tracing \| /sys/kernel/debug " /proc/self/mountinfo
	' sh "$CB" "$B" "$W" > "$W/ns.out" 2>&1
	if [ "$(tr '\n' ' ' < "$W/ns.out")" = "0 1 rc 0 0 " ]; then
		ok "tracefs: mounted by corebox run while it runs (none before), unmounted at exit"
	else
		notok "tracefs: before/during/status/after: $(tr '\n' ' ' < "$W/ns.out") $(head -c 300 "$W/tr.out")"
	fi
else
	ok "tracefs: unmounted at exit # SKIP no unshare -m"
fi

[ "$fails" = 0 ]
