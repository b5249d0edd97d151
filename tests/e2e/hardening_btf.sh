#!/bin/sh
# A given --btf FILE is checked by every tool, also by those that never
# need kernel BTF (issue 22, item 8): loads, profile and `run OBJ
# --dry-run` with an object that has no CO-RE used to accept a missing
# file, a directory, a FIFO, /dev/zero or an empty file without a word.
# Each must now exit 1 at once with one line naming the file and what it
# is; a good --btf still runs.
# Run as root from the repository root: sh tests/e2e/hardening_btf.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-hbtf.XXXXXX)
T=hardening_btf
fails=0
. tests/e2e/lib.sh

cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
if ! sh tests/run/gen.sh "$W/run" > "$W/gen.out" 2>&1; then
	notok "tests/run/gen.sh failed: $(head -c 600 "$W/gen.out")"
	exit 1
fi
mkfifo "$W/fifo"
: > "$W/empty"

# refused LABEL WANT CMD...: exit 1 within 3 s, one stderr line matching WANT
refused() {
	label=$1 want=$2
	shift 2
	timeout 3 "$@" > "$W/out" 2> "$W/err"
	rc=$?
	if [ $rc = 124 ]; then
		notok "$label: still running after 3 s (killed)"
	elif [ $rc = 1 ] && [ "$(wc -l < "$W/err")" = 1 ] && grep -q -- "$want" "$W/err"; then
		ok "$label: exit 1: $(cat "$W/err")"
	else
		notok "$label: exit $rc: $(head -c 300 "$W/err")"
	fi
}

for bad in "$W/missing:No such file" "$W:is a directory" "$W/fifo:is a FIFO" \
	"/dev/zero:is a character device" "$W/empty:is empty"; do
	f=${bad%%:*} want=${bad#*:}
	refused "loads --btf $f" "$want" "$CB" loads --btf "$f" 1 1
	refused "profile --btf $f" "$want" "$CB" profile --btf "$f" 1
	refused "run mech.bpf.o --dry-run --btf $f" "$want" "$CB" run "$W/run/mech.bpf.o" --dry-run --btf "$f"
	refused "COREBOX_BTF=$f loads" "$want" env COREBOX_BTF="$f" "$CB" loads 1 1
done

# the check does not get in the way of a good file
if [ -r /sys/kernel/btf/vmlinux ]; then
	timeout 10 "$CB" run "$W/run/mech.bpf.o" --dry-run --btf /sys/kernel/btf/vmlinux > "$W/out" 2> "$W/err"
	rc=$?
	[ $rc = 0 ] && ok "run mech.bpf.o --dry-run --btf /sys/kernel/btf/vmlinux: exit 0" ||
		notok "run --dry-run with the kernel's BTF: exit $rc: $(head -c 300 "$W/err")"
	timeout 10 "$CB" loads --btf /sys/kernel/btf/vmlinux 1 1 > "$W/out" 2> "$W/err"
	rc=$?
	[ $rc = 0 ] && grep -q 'load averages:' "$W/out" && ok "loads --btf /sys/kernel/btf/vmlinux 1 1: a report" ||
		notok "loads with the kernel's BTF: exit $rc: $(head -c 300 "$W/err")"
fi

[ "$fails" = 0 ]
