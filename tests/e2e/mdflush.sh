#!/bin/sh
# mdflush end to end, as far as this machine allows.  md flushes have no
# tracepoint: the tool needs fentry or a kprobe on md_flush_request.  On a
# kernel without the md driver (no /proc/mdstat) or without kprobes and
# BPF trampolines it must refuse with status 1 and one line saying what
# is missing and what would work (before loading anything), print
# nothing on stdout; -h shows libbpf-tools' usage.  The flushes themselves
# are counted in make vmtest (tests/vm/t_mdflush.c): a RAID1 of two loop
# devices built with md's ioctls, K fsyncs on it, K lines of mdflush.
# Run as root from the repository root: sh tests/e2e/mdflush.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-mdflush.XXXXXX)
T=mdflush
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT

need_corebox
if [ -e /proc/mdstat ] && [ -e /sys/kernel/tracing/kprobe_events ]; then
	echo "# this kernel has md and kprobes: the refusal case does not apply (no array test yet)"
else
	"$CB" mdflush > "$W/out" 2> "$W/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$W/out" ] && [ "$(wc -l < "$W/err")" = 1 ] &&
		grep -q '^mdflush: md flushes have no tracepoint and this kernel offers neither fentry nor a kprobe on md_flush_request' "$W/err"; then
		ok "no md driver or no way in: status 1, one line on stderr, nothing on stdout"
	else notok "status $rc: $(cat "$W/out" "$W/err" | head -c 400)"; fi
fi
if "$CB" mdflush -h | head -1 | grep -qx 'Usage: mdflush \[-h\]'; then ok "-h: usage"
else notok "-h: $("$CB" mdflush -h 2>&1 | head -2)"; fi
[ "$fails" = 0 ]
