#!/bin/sh
# syscount end to end: a helper makes exactly N failing (ENOENT) and M
# succeeding access() calls; syscount must count them per syscall, filter
# by errno, attribute them to the helper's PID with -P, show times with
# -L, and exit promptly on SIGINT.  Every wait is bounded.
# Run as root from the repository root: sh tests/e2e/syscount.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-syscount.XXXXXX)
N=1234
M=567
SLACK=5
T=syscount
fails=0
HPID= TPID=
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

build_helper sysloop

# run NAME SYSCOUNT-ARGS...: start the helper, trace it, trigger it, stop
# syscount with SIGINT; output in $W/NAME.out, exit status in $W/NAME.rc
run() {
	name=$1
	shift
	: > "$W/$name.helper"
	"$W/sysloop" $N $M > "$W/$name.helper" 2>&1 &
	HPID=$!
	if ! wait_for "$W/$name.helper" '^ready' 50; then
		notok "$name: helper did not start"
		return 1
	fi
	for a in "$@"; do
		shift
		[ "$a" = @PID@ ] && a=$HPID
		set -- "$@" "$a"
	done
	"$CB" syscount "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	# the banner is on stdout, or on stderr under -j
	if ! wait_for "$W/$name.${READY:-out}" '^Tracing syscalls' 100; then
		notok "$name: syscount did not start: $(head -c 600 "$W/$name.err")"
		kill -KILL "$TPID" 2>/dev/null
		kill -KILL "$HPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
		wait "$HPID" 2>/dev/null
		TPID= HPID=
		return 1
	fi
	kill -USR1 "$HPID"
	if ! wait_for "$W/$name.helper" '^done' 100; then
		notok "$name: helper did not finish its calls"
	fi
	sleep 0.2
	kill -INT "$TPID"
	if wait_exit "$TPID" 20; then
		wait "$TPID"
		echo $? > "$W/$name.rc"
	else
		echo timeout > "$W/$name.rc"
		kill -KILL "$TPID" 2>/dev/null
		wait "$TPID" 2>/dev/null
	fi
	TPID=
	kill -TERM "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	return 0
}

# count of syscall NAME in a report (first column)
count_of() { awk -v n="$2" '$1 == n { print $2; exit }' "$1"; }

check_exit() {
	rc=$(cat "$W/$1.rc" 2>/dev/null)
	if [ "$rc" = 0 ]; then
		ok "$1: exits 0 within 2 s of SIGINT"
	else
		notok "$1: exit after SIGINT: '$rc' (stderr: $(head -c 300 "$W/$1.err"))"
	fi
}

in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] 2>/dev/null && [ "$1" -le "$3" ]; }

# 1. -l lists the built-in table
"$CB" syscount -l > "$W/list.out" 2>&1
if [ "$(uname -m)" = x86_64 ]; then
	if grep -qx '  0: read' "$W/list.out" && grep -qx ' 39: getpid' "$W/list.out" &&
		grep -qx '110: getppid' "$W/list.out" && grep -qx ' 21: access' "$W/list.out"; then
		ok "-l lists 0: read, 39: getpid, 110: getppid"
	else
		notok "-l output: $(head -3 "$W/list.out")"
	fi
else
	if grep -q ': getppid$' "$W/list.out" && grep -q '^ 63: read$' "$W/list.out"; then
		ok "-l lists the generic table"
	else
		notok "-l output: $(head -3 "$W/list.out")"
	fi
fi

# 2. per syscall, one process: access = N + M (the helper makes no other
# access calls once started)
if run plain -p @PID@; then
	check_exit plain
	c=$(count_of "$W/plain.out" access)
	if in_range "$c" $((N + M)) $((N + M + SLACK)); then
		ok "-p: access counted $c (expected $((N + M)))"
	else
		notok "-p: access count '$c', expected $((N + M)); output: $(head -c 600 "$W/plain.out")"
	fi
	if grep -q '^\[[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\]$' "$W/plain.out" &&
		grep -Eq '^SYSCALL +COUNT$' "$W/plain.out"; then
		ok "report has [HH:MM:SS] and the SYSCALL/COUNT header"
	else
		notok "report format: $(head -c 400 "$W/plain.out")"
	fi
fi

# 3. -e ENOENT: only the failing calls
if run errno -p @PID@ -e ENOENT; then
	check_exit errno
	c=$(count_of "$W/errno.out" access)
	if in_range "$c" $N $((N + SLACK)); then
		ok "-e ENOENT: access counted $c (expected $N)"
	else
		notok "-e ENOENT: access count '$c', expected $N; output: $(head -c 600 "$W/errno.out")"
	fi
fi

# 4. -x (failures) with a numeric -e equivalent
if run fail -p @PID@ -x; then
	check_exit fail
	c=$(count_of "$W/fail.out" access)
	if in_range "$c" $N $((N + SLACK)); then
		ok "-x: access counted $c (expected $N)"
	else
		notok "-x: access count '$c', expected $N; output: $(head -c 600 "$W/fail.out")"
	fi
fi

# 5. -P: per process, system wide; the helper's PID carries >= N + M calls
if run proc -P -T 1000; then
	check_exit proc
	line=$(awk -v p="$HPID" '$1 == p' "$W/proc.out" | head -1)
	c=$(echo "$line" | awk '{ print $3 }')
	comm=$(echo "$line" | awk '{ print $2 }')
	if [ -n "$c" ] && [ "$c" -ge $((N + M)) ] && [ "$comm" = sysloop ]; then
		ok "-P: pid $HPID (sysloop) counted $c (>= $((N + M)))"
	else
		notok "-P: line for pid $HPID: '$line'; output: $(head -c 600 "$W/proc.out")"
	fi
	if grep -Eq '^PID +COMM +COUNT$' "$W/proc.out"; then
		ok "-P header"
	else
		notok "-P header: $(sed -n 2,3p "$W/proc.out")"
	fi
fi

# 6. -L: latency column, sorted by time
if run lat -p @PID@ -L; then
	check_exit lat
	if grep -Eq '^SYSCALL +COUNT +TIME \(us\)$' "$W/lat.out"; then
		ok "-L prints the TIME (us) column"
	else
		notok "-L header: $(head -c 400 "$W/lat.out")"
	fi
	c=$(count_of "$W/lat.out" access)
	t=$(awk '$1 == "access" { print $3; exit }' "$W/lat.out")
	if in_range "$c" $((N + M)) $((N + M + SLACK)) && [ -n "$t" ]; then
		ok "-L: access counted $c, total $t us"
	else
		notok "-L: access line: count '$c' time '$t'; output: $(head -c 600 "$W/lat.out")"
	fi
fi

# 7. -L -m: milliseconds header
if run latms -p @PID@ -L -m; then
	check_exit latms
	if grep -Eq '^SYSCALL +COUNT +TIME \(ms\)$' "$W/latms.out"; then
		ok "-L -m prints the TIME (ms) column"
	else
		notok "-L -m header: $(head -c 400 "$W/latms.out")"
	fi
fi

# 8. -d: stops by itself
start=$(date +%s)
timeout 10 "$CB" syscount -d 1 > "$W/dur.out" 2>&1
rc=$?
end=$(date +%s)
if [ $rc = 0 ] && [ $((end - start)) -le 4 ] && grep -q '^Tracing syscalls, printing top 10... Ctrl+C to quit.$' "$W/dur.out"; then
	ok "-d 1 ends by itself with status 0"
else
	notok "-d 1: status $rc after $((end - start)) s: $(head -c 400 "$W/dur.out")"
fi

# 9. -i 1 prints periodic reports
timeout 10 "$CB" syscount -i 1 -d 3 > "$W/int.out" 2>&1
n=$(grep -c '^\[[0-9:]*\]$' "$W/int.out")
if [ "$n" -ge 2 ]; then
	ok "-i 1 -d 3 printed $n reports"
else
	notok "-i 1 -d 3 printed $n reports: $(head -c 400 "$W/int.out")"
fi

# 10. bad arguments are refused
if "$CB" syscount -e ENOTANERRNO -d 1 > /dev/null 2>&1; then
	notok "-e with a bad name accepted"
else
	ok "-e with a bad name refused"
fi

# 9. -j: one JSON document per report, with the same count; --prom: a
# valid Prometheus file whose counter equals the text report's count
if READY=err run json -j -p @PID@; then
	check_exit json
	c=$(python3 -c '
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(sum(r["calls"] for d in docs for r in d.get("syscalls", []) if r["syscall"] == "access"))' "$W/json.out" 2>"$W/json.py")
	if in_range "$c" $((N + M)) $((N + M + SLACK)); then
		ok "-j: JSON documents parse, access calls $c (expected $((N + M)))"
	else
		notok "-j: access calls '$c' ($(head -c 300 "$W/json.py")); output: $(head -c 600 "$W/json.out")"
	fi
fi
if run prom -L -p @PID@ --prom "$W/sc.prom"; then
	check_exit prom
	c=$(count_of "$W/prom.out" access)
	if python3 tests/e2e/promcheck.py "$W/sc.prom" > "$W/prom.json" 2> "$W/prom.err"; then
		p=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["corebox_syscount_calls_total{syscall=\"access\"}"]))' "$W/prom.json" 2>/dev/null)
		if in_range "$c" $((N + M)) $((N + M + SLACK)) && [ "$p" = "$c" ]; then
			ok "--prom: valid exposition format, calls_total{syscall=access} $p = the text report's $c"
		else
			notok "--prom: file says '$p', text says '$c' (expected $((N + M))): $(head -c 400 "$W/sc.prom")"
		fi
		grep -q '^# TYPE corebox_syscount_latency_seconds_total counter$' "$W/sc.prom" &&
			ok "--prom -L: a latency_seconds_total counter" || notok "--prom -L: no latency counter: $(head -c 400 "$W/sc.prom")"
	else
		notok "--prom: not valid: $(cat "$W/prom.err"); file: $(head -c 400 "$W/sc.prom")"
	fi
fi

[ $fails = 0 ]
