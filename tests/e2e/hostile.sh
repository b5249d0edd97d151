#!/bin/sh
# Terminal and log-line injection (issue 22, item 4): a process names
# itself "\e]0;X\a\nz" (an OSC title escape, a newline), opens a path
# holding a newline, ESC and a backslash, has a child exit 7 under that
# name and execs through a symlink of that name with arguments holding a
# newline, an OSC escape, a backslash and a double quote
# (helpers/hostile.c).  Every text column carrying those bytes shows them
# escaped, one rule for all (\xNN; in a string that needed escaping, \\
# for a backslash), no raw control byte reaches the output, and printable
# text keeps libbpf-tools' bytes (an exec of printable arguments with a
# backslash and quotes, as /usr/sbin/execsnoop prints it); the JSON lines
# stay valid and carry the raw bytes.  The tools: execsnoop (text, -q, -j),
# opensnoop (text, -j), exitsnoop (text, -j), trace (COMM and %s), systrace.
# Run as root from the repository root: sh tests/e2e/hostile.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-hostile.XXXXXX)
T=hostile
fails=0
PIDS=
. tests/e2e/lib.sh

cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper hostile
need_corebox
mkdir "$W/d"

# run NAME READY TOOL ARGS...: TOOL in the background into $W/NAME, ready
# when its output (or, for JSON, stderr's banner or a BPF link) shows it
run() {
	name=$1 ready=$2
	shift 2
	"$CB" "$@" > "$W/$name" 2> "$W/$name.err" &
	PIDS="$PIDS $!"
	eval "PID_$name=$!"
	i=0
	while [ $i -lt 150 ]; do
		if [ "$ready" = - ]; then grep -qs '^link_id:' /proc/"$!"/fdinfo/* && return 0
		else grep -q -- "$ready" "$W/$name" "$W/$name.err" 2>/dev/null && return 0; fi
		kill -0 "$!" 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	notok "$* did not start: $(head -c 300 "$W/$name.err")"
	return 1
}

run ex PCOMM execsnoop &&
run exq PCOMM execsnoop -q &&
run exj - execsnoop -j &&
run os PATH opensnoop &&
run osj - opensnoop -j &&
run xs PCOMM exitsnoop &&
run xsj - exitsnoop -j &&
run tr COMM trace 't:syscalls:sys_enter_openat "%s", args->filename' &&
run st - systrace -e openat,execve || exit 1
sleep 0.5
"$W/hostile" "$W/d"
/bin/echo 'plain a\b "q"' x > /dev/null
sleep 1
for p in $PIDS; do kill -INT "$p"; done
for p in $PIDS; do wait_exit "$p" 50 || kill -KILL "$p"; wait "$p" 2>/dev/null; done
PIDS=

NAME='\x1b]0;X\x07\x0az'                 # the comm, escaped
FILE="$W/d/cbx"'\x0afake\x1b[2J\\f'     # the path, escaped (its backslash doubled)
# has FILE FIXED-STRING LABEL
has() {
	if grep -qF -- "$2" "$W/$1"; then ok "$3"
	else notok "$3: no '$2' in: $(grep -a -e cbx -e hostile -e 'X' "$W/$1" | head -3 | cat -v | tr '\n' '|')"; fi
}
has ex "$NAME " "execsnoop: the comm escaped"
has ex "$W/d/$NAME a\\x0ab \\x1b]0;T\\x07 back\\slash q\"uote " "execsnoop: each argument escaped on its own, printable ones unchanged"
has exq "\"$W/d/$NAME\" \"a\\x0ab\" \"\\x1b]0;T\\x07\" \"back\\slash\" \"q\\\"uote\" " "execsnoop -q: escaped inside the quotes"
has ex "/bin/echo plain a\\b \"q\" x " "execsnoop: printable arguments as libbpf-tools prints them"
has exq "\"/bin/echo\" \"plain a\\b \\\"q\\\"\" \"x\" " "execsnoop -q: printable arguments as libbpf-tools -q prints them"
has os "$NAME   3   0 $FILE" "opensnoop: comm and path escaped"
has xs "$NAME " "exitsnoop: the comm escaped"
grep -F -- "$NAME " "$W/xs" | grep -q ' code 7$' && ok "exitsnoop: the child's exit 7 under the escaped name" ||
	notok "exitsnoop: no 'code 7' line for the name: $(grep -F -- "$NAME" "$W/xs" | head -2 | tr '\n' '|')"
has tr "$NAME sys_enter_openat $FILE" "trace: COMM and the %s value escaped"
has st "$NAME/" "systrace: the comm escaped"
has st "filename: $FILE," "systrace: the filename escaped, on one line"
# no raw control byte (other than the line ends) in any text output
for f in ex exq os xs tr st; do
	if LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$W/$f"; then
		notok "$f: a raw control byte: $(LC_ALL=C grep -n "$(printf '[\001-\010\013-\037\177]')" "$W/$f" | head -2 | cat -v)"
	else ok "$f: no raw control byte in the text output"; fi
done
if python3 - "$W" <<'PY'
import json, sys
w = sys.argv[1]
name = "\x1b]0;X\x07\nz"
rows = {f: [json.loads(l) for l in open(f"{w}/{f}") if l.strip()] for f in ("exj", "osj", "xsj")}
assert any(r.get("comm") == name and r["args"][1:] == ["a\nb", "\x1b]0;T\x07", "back\\slash", 'q"uote']
           for r in rows["exj"]), "execsnoop -j"
assert any(r.get("comm") == name and r.get("path") == f"{w}/d/cbx\nfake\x1b[2J\\f" for r in rows["osj"]), "opensnoop -j"
assert any(r.get("comm") == name for r in rows["xsj"]), "exitsnoop -j"
PY
then ok "JSON (execsnoop, opensnoop, exitsnoop): valid lines carrying the raw bytes"
else notok "JSON: invalid or without the hostile strings"; fi
# error messages echo the user's own arguments escaped, on their line
BAD=$(printf 'x\ny\033[2J')
# usage_err LABEL WANT CMD...: exit 2, two lines, the first starts with WANT
usage_err() {
	label=$1 want=$2
	shift 2
	"$@" > /dev/null 2> "$W/uerr"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l < "$W/uerr")" -le 2 ] && [ "$(head -1 "$W/uerr" | cut -c1-${#want})" = "$want" ]; then
		ok "$label: the argument escaped in the message"
	else notok "$label: status $rc: $(cat -v "$W/uerr" | tr '\n' '|')"; fi
}
usage_err "systrace -e" "systrace: unknown syscall 'x\x0ay\x1b[2J' in -e (" "$CB" systrace -e "$BAD"
usage_err "opensnoop -p" "opensnoop: invalid PID: 'x\x0ay\x1b[2J'" "$CB" opensnoop -p "$BAD"
usage_err "an unknown option" "execsnoop: unrecognized option '--x\x0ay\x1b[2J'" "$CB" execsnoop "--$BAD"
usage_err "an unknown tool" "corebox: unknown tool 'x\x0ay\x1b[2J' (corebox --list shows the tools)" "$CB" "$BAD"
# run-time errors (tool_err) too: a cgroup path with a newline and ESC is
# named escaped, on one line, and the tool exits 1
for t in execsnoop systrace; do
	"$CB" $t -c "/$BAD" > /dev/null 2> "$W/cerr"
	rc=$?
	if [ "$rc" = 1 ] && [ "$(wc -l < "$W/cerr")" = 1 ] && grep -q "^$t: .*/x\\\\x0ay\\\\x1b\\[2J" "$W/cerr"; then
		ok "$t -c: a run-time error names the argument escaped, on one line"
	else notok "$t -c: status $rc: $(cat -v "$W/cerr" | tr '\n' '|')"; fi
done
[ "$fails" = 0 ]
