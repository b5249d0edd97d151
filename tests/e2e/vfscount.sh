#!/bin/sh
# vfscount end to end.  Where the kernel has neither kprobes nor fentry
# (function calls have no stable event), the tool must refuse in one line
# on stderr, saying why and what works instead, exit 1, print nothing on
# stdout and leave nothing loaded.  Where it has one, a helper makes NW
# writes, NR preads and NF fsyncs while vfscount runs; at SIGINT bcc's
# table (ADDR FUNC COUNT, fewest first) must count at least those calls of
# vfs_write, vfs_read and vfs_fsync (system wide), and -j the same.
# Run as root from the repository root: sh tests/e2e/vfscount.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-vfscount.XXXXXX)
T=vfscount
fails=0
TPID= HPID=
NW=300 NR=200 NF=5
. tests/e2e/lib.sh
bg_traps
build_helper bpf_count
build_helper cbx_vfsops
need_corebox
bpf_snapshot before

"$CB" vfscount 1 > "$W/probe.out" 2> "$W/probe.err"
rc=$?
if [ $rc = 1 ] && grep -q 'no kprobes and refuses fentry' "$W/probe.err"; then
	if [ "$(wc -l < "$W/probe.err")" = 1 ] && [ ! -s "$W/probe.out" ] && grep -q 'vfsstat counts' "$W/probe.err"; then
		ok "no kprobes or fentry here: one line on stderr naming what is missing and vfsstat, exit 1, no stdout"
	else notok "refusal: '$(cat "$W/probe.err")' stdout '$(head -c 100 "$W/probe.out")'"; fi
	bpf_snapshot after
	if [ -z "$(bpf_new after '^(prog|link) ')" ]; then ok "nothing left loaded"
	else notok "left loaded: $(bpf_new after '^(prog|link) ' | head -3)"; fi
	[ "$fails" = 0 ]
	exit
fi

run() {
	label=$1
	shift
	helper_start "$W/helper" "$W/cbx_vfsops" "$W" $NW $NR $NF 0 0 0 || { notok "helper not ready"; return 1; }
	tool_start "$label" "Tracing" vfscount "$@" || { helper_stop; return 1; }
	kill -USR1 "$HPID"
	wait_for "$W/helper" '^done' 100 || notok "helper failed"
	wait "$HPID" 2>/dev/null
	HPID=
	snoop_stop "$label"
}
if run text; then
	o=$W/text.out
	if [ "$(head -1 "$o")" = "Tracing... Ctrl-C to end." ] && [ "$(sed -n 3p "$o")" = "ADDR             FUNC                          COUNT" ] &&
		awk 'NR > 3 { if ($3 < last) bad = 1; last = $3 } END { exit bad }' "$o" &&
		awk -v r=$NR -v w=$NW -v f=$NF '$2 == "vfs_read" && $3 >= r { n++ } $2 == "vfs_write" && $3 >= w { n++ }
			$2 == "vfs_fsync" && $3 >= f { n++ } END { exit n != 3 }' "$o"; then
		ok "bcc's table, fewest first; vfs_read/vfs_write/vfs_fsync at least the helper's"
	else notok "table: $(head -8 "$o" | tr '\n' '|')"; fi
fi
snoop_left
[ "$fails" = 0 ]
