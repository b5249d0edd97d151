#!/bin/sh
# opensnoop end to end: a helper (tests/e2e/helpers/open_file.c) opens a
# unique existing file and a unique missing path and reports its PID, FD
# and errno; opensnoop must print matching lines (FD -1 and ERR 2 for the
# missing one).  -p PID keeps only that process, -x only failures, -e adds
# FLAGS/MODE, -F prefixes relative paths with the cwd; SIGINT ends the tool
# promptly with status 0 and leaves no BPF program behind.  Every wait is
# bounded.  Run as root from the repository root: sh tests/e2e/opensnoop.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-opensnoop.XXXXXX)
T=opensnoop
fails=0
TPID= HPID=
ME=$$
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper open_file
need_corebox

start() { tool_start t PATH "$T" "$@"; }
stop() { snoop_stop "$@"; }

EXISTS=$W/cbx_open_${ME}_exists
MISSING=$W/cbx_open_${ME}_missing
echo data > "$EXISTS"


# ---- run 1: plain: a successful and a failed open -------------------------
if start; then
	set -- $("$W/open_file" "$EXISTS")
	P1=$1 FD1=$2
	set -- $("$W/open_file" "$MISSING")
	P2=$1
	wait_for "$W/t.out" "$MISSING" 30
	sleep 0.3
	stop "plain run"
	cp "$W/t.out" "$W/out1"
	if head -1 "$W/out1" | grep -Eq '^PID +COMM +FD +ERR +PATH$'; then ok "header columns"
	else notok "header: $(head -1 "$W/out1")"; fi
	# PID COMM FD ERR PATH
	line=$(awk -v p="$P1" -v f="$EXISTS" '$1 == p && $5 == f' "$W/out1" | head -1)
	set -- $line
	if [ -n "$line" ] && [ "$2" = open_file ] && [ "$3" = "$FD1" ] && [ "$4" = 0 ]; then
		ok "open of an existing file: PID $P1, COMM, FD $FD1, ERR 0, PATH"
	else
		notok "existing file: expected '$P1 open_file $FD1 0 $EXISTS', got '$line'"
	fi
	line=$(awk -v p="$P2" -v f="$MISSING" '$1 == p && $5 == f' "$W/out1" | head -1)
	set -- $line
	if [ -n "$line" ] && [ "$3" = -1 ] && [ "$4" = 2 ]; then
		ok "open of a missing path: FD -1, ERR 2"
	else
		notok "missing path: expected '$P2 open_file -1 2 $MISSING', got '$line'"
	fi
fi

# ---- run 2: -p PID keeps only that process ---------------------------------
mkfifo "$W/gate"
"$W/open_file" -g "$W/gate" "$EXISTS" > "$W/h.out" &
HPID=$!
wait_for "$W/h.out" '[0-9]' 50
if start -p "$HPID"; then
	"$W/open_file" "$EXISTS" > /dev/null           # another process: filtered out
	echo go > "$W/gate"
	wait "$HPID"
	HPID=
	wait_for "$W/t.out" "$EXISTS" 30
	sleep 0.3
	stop "-p run"
	cp "$W/t.out" "$W/out2"
	set -- $(tail -1 "$W/h.out")
	P=$1 FD=$2
	if awk -v p="$P" -v f="$EXISTS" -v fd="$FD" '$1 == p && $5 == f && $3 == fd' "$W/out2" | grep -q .; then
		ok "-p: the traced process's open is shown"
	else
		notok "-p $P: no line for $EXISTS: $(tail -n +2 "$W/out2" | head -3 | tr '\n' '|')"
	fi
	others=$(awk -v p="$P" 'NR > 1 && $1 != p' "$W/out2")
	if [ -z "$others" ]; then ok "-p: no other process shown"
	else notok "-p: other processes shown: $(echo "$others" | head -3 | tr '\n' '|')"; fi
else
	kill -KILL "$HPID" 2>/dev/null
	HPID=
fi

# ---- run 3: -x only failures, -e FLAGS/MODE columns -------------------------
if start -x -e; then
	"$W/open_file" "$EXISTS" > /dev/null
	set -- $("$W/open_file" "$MISSING")
	P2=$1
	wait_for "$W/t.out" "$MISSING" 30
	sleep 0.3
	stop "-x run"
	cp "$W/t.out" "$W/out3"
	if head -1 "$W/out3" | grep -Eq '^PID +COMM +FD +ERR +FLAGS +MODE +PATH$'; then ok "-e header"
	else notok "-e header: $(head -1 "$W/out3")"; fi
	# PID COMM FD ERR FLAGS MODE PATH
	if awk -v p="$P2" -v f="$MISSING" '$1 == p && $7 == f && $3 == -1 && $4 == 2 && $5 ~ /^[0-7][0-7][0-7][0-7][0-7][0-7][0-7][0-7]$/ && $6 == "n/a"' "$W/out3" | grep -q .; then
		ok "-x -e: failed open shown with octal FLAGS and MODE n/a"
	else
		notok "-x -e: no proper line for $MISSING: $(tail -n +2 "$W/out3" | head -3 | tr '\n' '|')"
	fi
	good=$(awk 'NR > 1 && $3 != -1' "$W/out3")
	if [ -z "$good" ]; then ok "-x: no successful open shown"
	else notok "-x: successful opens shown: $(echo "$good" | head -3 | tr '\n' '|')"; fi
fi

# ---- run 4: -F full path for a relative open ---------------------------------
if start -F -n open_file; then
	(cd "$W" && ./open_file "$(basename "$EXISTS")" > /dev/null)
	wait_for "$W/t.out" "$(basename "$EXISTS")" 30
	sleep 0.3
	stop "-F run"
	cp "$W/t.out" "$W/out4"
	if awk -v f="$EXISTS" '$5 == f' "$W/out4" | grep -q .; then
		ok "-F: relative path printed as $EXISTS"
	else
		notok "-F: expected $EXISTS: $(tail -n +2 "$W/out4" | head -3 | tr '\n' '|')"
	fi
fi

# ---- run 5: perf buffer instead of ring buffer (older kernels) ------------
CBX_ENV=COREBOX_DISABLE=ringbuf
if start -n open_file; then
	# BPF_MAP_TYPE_PERF_EVENT_ARRAY is 4, BPF_MAP_TYPE_RINGBUF 27
	if grep -qs '^map_type:[[:space:]]*4$' /proc/"$TPID"/fdinfo/* &&
	   ! grep -qs '^map_type:[[:space:]]*27$' /proc/"$TPID"/fdinfo/*; then
		ok "COREBOX_DISABLE=ringbuf: the events map is a perf event array"
	else
		notok "COREBOX_DISABLE=ringbuf: no perf event array (or still a ring buffer)"
	fi
	set -- $("$W/open_file" "$MISSING")
	P2=$1
	wait_for "$W/t.out" "$MISSING" 30
	sleep 0.2
	stop "perf buffer run"
	if awk -v p="$P2" -v f="$MISSING" '$1 == p && $5 == f && $3 == -1 && $4 == 2' "$W/t.out" | grep -q .; then
		ok "events arrive through the perf buffer fallback"
	else
		notok "perf buffer fallback: no line for PID $P2: $(tail -n +2 "$W/t.out" | head -3 | tr '\n' '|')"
	fi
fi
CBX_ENV=

# ---- nothing left loaded ----------------------------------------------------
snoop_left

[ "$fails" = 0 ]
