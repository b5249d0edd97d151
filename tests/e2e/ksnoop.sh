#!/bin/sh
# ksnoop end to end, as far as this machine allows (tracing needs fentry
# or kprobes: tests/vm/t_ksnoop.c checks the calls a child makes there).
# `ksnoop info` needs only BTF and /proc/kallsyms: its prototypes, for a
# fixed list of functions and a sample of the kernel's, must be byte for
# byte those of Debian's libbpf-tools 0.26 when it is installed (less the
# raw control byte 0.26 prints from memory past its 5 argument slots, and
# the functions 0.26 loops forever on: their prototypes name a type it
# cannot, which corebox shows as "?").  The argument specifications'
# errors must read as 0.26's (after "ksnoop: " where 0.26 starts with
# "Error: "); `trace` on this kernel refuses in one line.
# Run as root from the repository root: sh tests/e2e/ksnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-ksnoop.XXXXXX)
T=ksnoop
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT

need_corebox
[ -r /sys/kernel/btf/vmlinux ] || { echo "ok - $T # SKIP no kernel BTF"; exit 0; }

# a fixed list (several shapes: typedefs, pointers, no arguments, more
# than 5) and every 2000th text symbol of the kernel
{
	printf '%s\n' vfs_read vfs_write do_sys_openat2 ip_send_skb tcp_sendmsg udp_sendmsg schedule \
		do_filp_open tcp_v4_connect submit_bio wake_up_process do_send_sig_info vfs_fsync_range \
		tcp_v4_syn_recv_sock security_file_open __kmalloc_noprof kfree do_exit filp_close
	awk '$2 == "T" && !/\[/ && NR % 2000 == 0 { print $3 }' /proc/kallsyms
} > "$W/cands"
: > "$W/names"
: > "$W/ours"
while read -r f; do
	"$CB" ksnoop info "$f" > "$W/one" 2> /dev/null || continue
	grep -q '?' "$W/one" && continue # 0.26 would loop forever
	echo "$f" >> "$W/names"
	cat "$W/one" >> "$W/ours"
done < "$W/cands"
n=$(wc -l < "$W/names")
if [ "$n" -ge 19 ]; then ok "info: $n prototypes"
else notok "info: only $n of the $(wc -l < "$W/cands") functions have a prototype"; fi
if ! "$CB" ksnoop info vfs_read | grep -qx 'ssize_t vfs_read(struct file \*file, char \*buf, size_t count, loff_t \*pos);'; then
	notok "info vfs_read: $("$CB" ksnoop info vfs_read 2>&1)"
else ok "info vfs_read: ssize_t vfs_read(struct file *file, char *buf, size_t count, loff_t *pos);"; fi

ORACLE=/usr/sbin/ksnoop
if [ -x "$ORACLE" ]; then
	# shellcheck disable=SC2046
	timeout 20 "$ORACLE" info $(cat "$W/names") 2> "$W/oerr" | tr -d '\001-\011\013-\037' > "$W/theirs"
	if cmp -s "$W/ours" "$W/theirs"; then ok "info: $n prototypes byte for byte as libbpf-tools 0.26's"
	else notok "info differs from 0.26's: $(diff "$W/ours" "$W/theirs" | head -5)"; fi
	for spec in nosuchfunc 'vfs_read(x)' 'vfs_read(file->nope)' 'vfs_read(count->x)' 'vfs_read(count >> 5)' \
		'vfs_read(count == 5, return)' 'vfs_read(count=5)' 'vfs_read(file->f_mode > 1, count)'; do
		"$CB" ksnoop info "$spec" > "$W/o1" 2>&1
		timeout 5 "$ORACLE" info "$spec" 2>&1 | sed 's/^Error: /ksnoop: /' > "$W/t1"
		if cmp -s "$W/o1" "$W/t1"; then ok "info '$spec': as 0.26 ($(head -c 60 "$W/o1"))"
		else notok "info '$spec': $(cat "$W/o1") / 0.26: $(cat "$W/t1")"; fi
	done
else
	echo "ok - $T: info as libbpf-tools 0.26's # SKIP libbpf-tools not installed"
fi

"$CB" ksnoop info nosuchfunc > /dev/null 2>&1
rc=$?
[ $rc = 1 ] && ok "unknown function: status 1" || notok "unknown function: status $rc"
"$CB" ksnoop info 'vfs_read(' > /dev/null 2>&1
rc=$?
[ $rc = 2 ] && ok "bad specification: status 2" || notok "bad specification: status $rc"

if [ -e /sys/kernel/tracing/kprobe_events ] || [ -e /sys/kernel/debug/tracing/kprobe_events ]; then
	echo "# this kernel has kprobes: the refusal case does not apply"
else
	"$CB" ksnoop trace vfs_read > "$W/out" 2> "$W/err"
	rc=$?
	if [ $rc = 1 ] && [ ! -s "$W/out" ] && [ "$(wc -l < "$W/err")" = 1 ] &&
		grep -q '^ksnoop: cannot trace vfs_read: .*kprobes' "$W/err"; then
		ok "no kprobes, no fentry: status 1, one line on stderr ($(cat "$W/err"))"
	else notok "trace here: status $rc: $(cat "$W/out" "$W/err" | head -c 400)"; fi
fi
[ "$fails" = 0 ]
