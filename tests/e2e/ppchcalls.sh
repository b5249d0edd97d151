#!/bin/sh
# ppchcalls end to end: on this kernel the tracepoints bcc's ppchcalls
# reads (powerpc:hcall_entry/hcall_exit) must be absent from tracefs
# (ground truth), and then `ppchcalls -i 1` (bcc's smoke line) exits 1
# with one stderr line naming them and nothing on stdout; -h exits 0.
# Run as root from the repository root: sh tests/e2e/ppchcalls.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-ppchcalls.XXXXXX)
T=ppchcalls
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT
need_corebox

tfs=/sys/kernel/tracing
[ -d $tfs/events ] || tfs=/sys/kernel/debug/tracing
if [ -e $tfs/events/powerpc/hcall_entry ]; then
	notok "this kernel has powerpc:hcall_entry, which ppchcalls does not trace (corebox has no powerpc build)"
else
	"$CB" ppchcalls -i 1 > "$W/out" 2> "$W/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$W/out" ] && [ "$(wc -l < "$W/err")" = 1 ] &&
		grep -q '^ppchcalls: this kernel has no powerpc:hcall_entry/hcall_exit tracepoints' "$W/err"; then
		ok "no powerpc:hcall_entry here: -i 1 exits 1 with one line saying so"
	else
		notok "-i 1: status $rc, stdout $(head -c 200 "$W/out"), stderr $(head -c 300 "$W/err")"
	fi
fi
"$CB" ppchcalls -h > "$W/out" 2>&1 && grep -q '^Usage: ppchcalls ' "$W/out" && ok "-h: usage, exit 0" || notok "-h: $(head -c 200 "$W/out")"
[ "$fails" = 0 ]
