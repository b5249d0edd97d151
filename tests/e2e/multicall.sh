#!/bin/sh
# Multicall and user-error behaviour: corebox TOOL, links named TOOL
# (made by --install, hard and symbolic), --list, unknown tools and bad
# input (bogus flag, missing PID, unusable --btf file, no privileges):
# each a one-line error and the 0/1/2 exit convention, never a crash.
T=multicall
CB=./corebox
W=$(mktemp -d /tmp/cbx_multi.XXXXXX)
fails=0
. tests/e2e/lib.sh
need_corebox
trap 'rm -rf "$W"' EXIT

# run CMD...: capture stdout+stderr in $W/o, status in $rc
run() { "$@" > "$W/o" 2>&1; rc=$?; }
lines() { wc -l < "$W/o" | tr -d ' '; }

run "$CB" --list
n=$(lines)
if [ $rc = 0 ] && grep -qx execsnoop "$W/o" && grep -qx biolatency "$W/o" && ! grep -qx btf "$W/o"; then
	ok "--list prints $n tools (commands excluded)"
else notok "--list: rc=$rc $(head -3 "$W/o" | tr '\n' '|')"; fi

mkdir "$W/hard" "$W/soft"
run "$CB" --install "$W/hard"
[ $rc = 0 ] && [ "$(ls "$W/hard" | wc -l)" -eq "$n" ] && ok "--install DIR made $n hard links" ||
	notok "--install: rc=$rc $(cat "$W/o")"
run "$CB" --install -s "$W/soft"
[ $rc = 0 ] && [ -L "$W/soft/execsnoop" ] && ok "--install -s DIR made symbolic links" ||
	notok "--install -s: rc=$rc $(cat "$W/o")"
for d in hard soft; do
	run "$W/$d/syscount" --help
	if [ $rc = 0 ] && grep -q '^Usage: syscount' "$W/o"; then ok "$d link named syscount runs syscount"
	else notok "$d link: rc=$rc $(head -2 "$W/o" | tr '\n' '|')"; fi
done

# A tool's --help opens with its applet line's summary, the one corebox
# --help lists (an alias's own for an alias): the name and summary are
# written once, at the top of the tool's source.
for t in biolatency ext4slower; do
	s=$("$CB" --help | sed -n "s/^  $t  *//p")
	want=$(echo "$s" | awk '{ print toupper(substr($0, 1, 1)) substr($0, 2) "." }')
	got=$("$CB" $t --help | sed -n 3p)
	[ -n "$s" ] && [ "$got" = "$want" ] && ok "$t --help opens with its applet summary ($want)" ||
		notok "$t --help: '$got', corebox --help lists '$s'"
done

run "$CB" nosuchtool
[ $rc = 2 ] && [ "$(lines)" = 1 ] && grep -q "unknown tool 'nosuchtool'" "$W/o" &&
	ok "unknown tool: one line, exit 2" || notok "unknown tool: rc=$rc $(cat "$W/o")"

run "$CB" opensnoop --bogus
[ $rc = 2 ] && grep -q "unrecognized option '--bogus'" "$W/o" && ok "bogus flag: exit 2" ||
	notok "bogus flag: rc=$rc $(cat "$W/o")"

# a PID that does not exist: find one
pid=999999
while [ -d /proc/$pid ]; do pid=$((pid - 1)); done
for tool in opensnoop syscount profile offcputime wakeuptime; do
	run "$CB" $tool -p $pid
	if [ $rc = 2 ] && [ "$(lines)" = 1 ] && grep -q "no process with PID $pid" "$W/o"; then
		ok "$tool -p <missing PID>: one line, exit 2"
	else notok "$tool -p $pid: rc=$rc $(cat "$W/o")"; fi
done

run "$CB" execsnoop --btf /nonexistent/vmlinux
[ $rc = 1 ] && [ "$(lines)" = 1 ] && grep -q '/nonexistent/vmlinux' "$W/o" &&
	ok "--btf missing file: one line naming it, exit 1" || notok "--btf missing: rc=$rc $(cat "$W/o")"
head -c 1000 /sys/kernel/btf/vmlinux > "$W/trunc.btf" 2>/dev/null
run "$CB" syscount --btf "$W/trunc.btf" -d 1
[ $rc = 1 ] && [ "$(lines)" -le 2 ] && grep -q 'trunc.btf' "$W/o" &&
	ok "--btf truncated file: error naming it, exit 1" || notok "--btf truncated: rc=$rc $(cat "$W/o")"
printf 'not an elf' > "$W/bad.o"
run "$CB" run "$W/bad.o"
[ $rc = 1 ] && [ "$(lines)" = 1 ] && ok "corebox run on a non-ELF file: one line, exit 1" ||
	notok "run bad object: rc=$rc $(cat "$W/o")"

# without privileges: the error says what is needed
if command -v setpriv >/dev/null 2>&1; then
	cp "$CB" "$W/cb" && chmod 755 "$W" "$W/cb"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$W/cb" execsnoop
	if [ $rc = 1 ] && [ "$(lines)" = 1 ] && grep -q 'needs root, or CAP_BPF' "$W/o"; then
		ok "unprivileged: one line naming what is needed, exit 1"
	else notok "unprivileged: rc=$rc $(cat "$W/o")"; fi
fi

[ "$fails" = 0 ]
