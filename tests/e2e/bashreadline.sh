#!/bin/sh
# bashreadline end to end: an interactive bash on a pseudo terminal
# (tests/e2e/helpers/bash_lines.py) reads N lines "echo TAG_i" and "exit"
# with readline.  bashreadline must print exactly those lines, in order,
# with the bash's PID, in libbpf-tools' header and widths (TIME 9, PID 7)
# and, beside Debian's 0.26 bashreadline when installed, the same rows
# but for the clock; a line of 100 bytes comes out cut to 79 as there;
# -j lines parse with pid and command; -s a file without readline()
# fails with a message; nothing stays loaded.
# Run as root from the repository root: sh tests/e2e/bashreadline.sh
set -u
T=bashreadline
N=5
TAG=cbx_rl_$$
. tests/e2e/lib.sh
. tests/e2e/helpers/cpu.sh
cpu_setup

# drive N: the bash session; its pid in $BPID, its output in $W/h.out
drive() {
	python3 tests/e2e/helpers/bash_lines.py "$1" "$TAG" > "$W/h.out" 2>&1 ||
		notok "the bash session failed: $(head -c 300 "$W/h.out")"
	BPID=$(sed -n 's/^pid //p' "$W/h.out")
	sleep 0.3
}

want() {
	i=1
	while [ $i -le "$1" ]; do echo "echo ${TAG}_$i"; i=$((i + 1)); done
	echo exit
}

# ---- 1: the lines ---------------------------------------------------------------------
if tool_start t '^TIME' "$T"; then
	if [ -x /usr/sbin/bashreadline ]; then
		# (line-buffered: its stdout is a file here)
		stdbuf -oL /usr/sbin/bashreadline > "$W/lt.out" 2> "$W/lt.err" &
		SPID=$!
		wait_for "$W/lt.out" '^TIME' 50 || notok "Debian's bashreadline did not start: $(head -c 200 "$W/lt.err")"
	fi
	drive $N
	snoop_stop "lines"
	[ -z "$SPID" ] || { kill -INT "$SPID"; reap "$SPID" 50; SPID=; }
	if [ "$(head -1 "$W/t.out")" = "TIME      PID     COMMAND" ]; then ok "libbpf-tools' header"
	else notok "header: '$(head -1 "$W/t.out")'"; fi
	awk -v p="$BPID" '$2 == p' "$W/t.out" | cut -c19- > "$W/got"
	want $N > "$W/want"
	if cmp -s "$W/got" "$W/want"; then ok "the $N lines and exit of bash $BPID, in order"
	else notok "lines: $(diff "$W/want" "$W/got" | head -6 | tr '\n' '|')"; fi
	if awk -v p="$BPID" '$2 == p' "$W/t.out" | head -1 | grep -Eq "^[0-9]{2}:[0-9]{2}:[0-9]{2}  $BPID +echo ${TAG}_1\$" &&
		[ "$(awk -v p="$BPID" '$2 == p' "$W/t.out" | head -1 | cut -c11-18 | tr -d ' ')" = "$BPID" ]; then
		ok "row widths as libbpf-tools (TIME 9, PID 7)"
	else notok "row: '$(awk -v p="$BPID" '$2 == p' "$W/t.out" | head -1)'"; fi
	if [ -s "$W/lt.out" ]; then
		# Debian's rows but for the clock (its TIME is not the wall clock here)
		if [ "$(head -1 "$W/lt.out")" = "$(head -1 "$W/t.out")" ] &&
			[ "$(awk -v p="$BPID" '$2 == p' "$W/lt.out" | cut -c10-)" = "$(awk -v p="$BPID" '$2 == p' "$W/t.out" | cut -c10-)" ]; then
			ok "beside libbpf-tools 0.26: the same header and rows"
		else notok "beside libbpf-tools: $(head -3 "$W/lt.out" | tr '\n' '|')"; fi
	fi
fi

# ---- 2: a long line --------------------------------------------------------------------
TAG=cbx_rl_long_$(printf '%0100d' 0 | cut -c1-80)
if tool_start t '^TIME' "$T"; then
	drive 1
	snoop_stop "long line"
	got=$(awk -v p="$BPID" '$2 == p' "$W/t.out" | head -1 | cut -c19-)
	if [ "$got" = "$(echo "echo ${TAG}_1" | cut -c1-79)" ]; then ok "a ${#TAG}+ byte line cut to 79 bytes"
	else notok "long line: '$got'"; fi
fi
TAG=cbx_rl_$$

# ---- 3: JSON -----------------------------------------------------------------------------
if tool_start t "" "$T" -j; then
	drive 2
	snoop_stop "-j"
	if python3 - "$W/t.out" "$BPID" "$TAG" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
got = [r["command"] for r in rows if r["pid"] == int(sys.argv[2])]
tag = sys.argv[3]
assert got == ["echo %s_1" % tag, "echo %s_2" % tag, "exit"], got
assert all("time" in r for r in rows), rows
PY
	then ok "-j: JSON lines with pid and command, the same lines"
	else notok "-j: $(head -c 400 "$W/t.out")"; fi
fi

# ---- 4: -s a file without readline ------------------------------------------------------
"$CB" "$T" -s /bin/true > "$W/s.out" 2>&1
r=$?
if [ "$r" = 1 ] && grep -q 'readline not found' "$W/s.out"; then ok "-s /bin/true: exit 1, 'readline not found'"
else notok "-s /bin/true: exit $r: $(head -c 200 "$W/s.out")"; fi

snoop_left
[ "$fails" = 0 ]
