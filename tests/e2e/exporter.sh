#!/bin/sh
# corebox exporter end to end (issue 21, part 3).  Two tools with ground
# truth the test makes: 'syscount -p HELPER' while the helper makes
# exactly N + M access() calls, and 'bitesize -c cbxexpio' while a helper
# of that name makes K 4 KiB direct reads of a loop device.  /metrics,
# fetched by a client the test controls (helpers/http_client.py), must
# pass the exposition checker and carry those exact counts and the
# exporter's own series.  Then: HEAD, 404, 405, malformed, oversized and
# header-flooded requests get their status; idle and one-byte-at-a-time
# clients (one more than the connection limit) are all dropped and the
# server still answers; a tool killed with SIGKILL is restarted and
# counted; SIGINT stops the exporter with status 0, its tools reaped and
# nothing they loaded left in the kernel.  Last, syscount --listen on
# its own serves the same exact count.
# Run as root from the repository root: sh tests/e2e/exporter.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-exporter.XXXXXX)
T=exporter
fails=0
EPID= HPID= LA=
N=321 M=123 K=20
. tests/e2e/lib.sh

cleanup() {
	[ -n "$EPID" ] && kill -KILL "$EPID" 2>/dev/null
	[ -n "$HPID" ] && kill -KILL "$HPID" 2>/dev/null
	sleep 0.2
	[ -n "$LA" ] && losetup -d "$LA" 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper bpf_count
build_helper sysloop
build_helper blkio
cp "$W/blkio" "$W/cbxexpio"
loop_disks 16 LA
HC="python3 tests/e2e/helpers/http_client.py"

# ---- 0: what it refuses at start: exit 2, one line, no directory made -------------------------
for bad in "execsnoop" "nosuch" "runqlat|runqlat -m"; do
	before=$(ls -d "${TMPDIR:-/tmp}"/corebox-exporter.* 2>/dev/null | wc -l)
	IFS='|'
	# shellcheck disable=SC2086
	"$CB" exporter --listen 127.0.0.1:1 -- $bad > "$W/bad.out" 2> "$W/bad.err"
	rc=$?
	unset IFS
	after=$(ls -d "${TMPDIR:-/tmp}"/corebox-exporter.* 2>/dev/null | wc -l)
	if [ $rc = 2 ] && [ "$(wc -l < "$W/bad.err")" -le 2 ] && [ "$before" = "$after" ] && [ ! -s "$W/bad.out" ]; then
		ok "refused '$bad': $(head -1 "$W/bad.err")"
	else
		notok "'$bad': status $rc, dirs $before -> $after: $(cat "$W/bad.err")"
	fi
done

"$W/sysloop" $N $M > "$W/helper" 2>&1 &
HPID=$!
wait_for "$W/helper" '^ready' 50 || { notok "sysloop did not start"; exit 1; }

PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
SC="syscount -p $HPID"
"$CB" exporter --listen 127.0.0.1:$PORT --interval 1 -- "$SC" 'bitesize -c cbxexpio' > "$W/ex.out" 2> "$W/ex.err" &
EPID=$!

# metric NAME_AND_LABELS: its value in $W/m.json (promcheck's output), or ""
metric() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); v = d.get(sys.argv[2])
print("" if v is None else int(v))' "$W/m.json" "$1"
}
# scrape: GET /metrics into $W/m.txt (status line first), checked into $W/m.json
scrape() {
	$HC $PORT get /metrics > "$W/m.raw" 2> /dev/null || return 1
	[ "$(head -1 "$W/m.raw")" = 200 ] || return 1
	tail -n +2 "$W/m.raw" > "$W/m.txt"
	python3 tests/e2e/promcheck.py "$W/m.txt" > "$W/m.json" 2> "$W/m.err"
}
# until_metric NAME WANT TENTHS: scrape until NAME has the value WANT
until_metric() {
	i=0
	while [ "$i" -lt "$3" ]; do
		scrape && [ "$(metric "$1")" = "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

UP_SC="corebox_exporter_up{tool=\"$SC\"}"
UP_BS='corebox_exporter_up{tool="bitesize -c cbxexpio"}'
LAST_SC="corebox_exporter_last_report_timestamp_seconds{tool=\"$SC\"}"
LAST_BS='corebox_exporter_last_report_timestamp_seconds{tool="bitesize -c cbxexpio"}'

# ---- 1: both tools up and reporting ---------------------------------------------
i=0
while [ "$i" -lt 150 ]; do
	if scrape && [ "$(metric "$UP_SC")" = 1 ] && [ "$(metric "$UP_BS")" = 1 ] &&
		[ -n "$(metric "$LAST_SC")" ] && [ -n "$(metric "$LAST_BS")" ]; then
		break
	fi
	sleep 0.1
	i=$((i + 1))
done
if [ "$i" -lt 150 ]; then ok "both tools up and reported once; /metrics passes promcheck"
else notok "tools not up: $(tail -3 "$W/ex.err" | tr '\n' '|') $(cat "$W/m.err")"; exit 1; fi
for p in $(pgrep -P "$EPID"); do bpf_ids "$p" >> "$W/ours"; done

# ---- 2: ground truth ----------------------------------------------------------------
kill -USR1 "$HPID"
"$W/cbxexpio" "$LA" rand $K 4096 0 > /dev/null || notok "cbxexpio failed"
wait_for "$W/helper" '^done' 100 || notok "sysloop did not finish"
if until_metric 'corebox_syscount_calls_total{syscall="access"}' $((N + M)) 100; then
	ok "syscount: calls_total{syscall=access} = $((N + M)), the helper's $N failed + $M good calls"
else
	notok "syscount access calls: '$(metric 'corebox_syscount_calls_total{syscall="access"}')', want $((N + M))"
fi
if until_metric 'corebox_bitesize_size_bytes_count{comm="cbxexpio"}' $K 100; then
	ok "bitesize: size_bytes_count{comm=cbxexpio} = $K reads"
else
	notok "bitesize count: '$(metric 'corebox_bitesize_size_bytes_count{comm="cbxexpio"}')', want $K"
fi
if grep -q "^corebox_exporter_bpf_programs{tool=\"$SC\"} [1-9]" "$W/m.txt" &&
	grep -q '^corebox_exporter_restarts_total{tool="bitesize -c cbxexpio"} 0$' "$W/m.txt" &&
	grep -q '^# TYPE corebox_exporter_lost_events_total counter$' "$W/m.txt"; then
	ok "own series: programs, restarts, lost events"
else
	notok "own series: $(grep corebox_exporter "$W/m.txt" | tr '\n' '|')"
fi
if command -v curl > /dev/null 2>&1; then
	if curl -sf --max-time 10 "http://127.0.0.1:$PORT/metrics" > "$W/curl.txt" &&
		python3 tests/e2e/promcheck.py "$W/curl.txt" > /dev/null 2> "$W/curl.err" &&
		grep -q '^corebox_syscount_calls_total{syscall="access"} ' "$W/curl.txt"; then
		ok "curl scrape: valid exposition text with the syscount series"
	else
		notok "curl scrape: $(cat "$W/curl.err") $(head -c 200 "$W/curl.txt")"
	fi
fi
h=$($HC $PORT get /healthz)
if [ "$(echo "$h" | tr '\n' ' ')" = "200 ok " ]; then ok "/healthz: 200 ok"; else notok "/healthz: $h"; fi

# ---- 3: requests it refuses ------------------------------------------------------------
check_status() { # LABEL WANT GOT
	if [ "$3" = "$2" ]; then ok "$1: $2"; else notok "$1: got '$3', want $2"; fi
}
check_status "HEAD /metrics" "200" "$($HC $PORT get /metrics HEAD | tr '\n' ' ' | sed 's/ $//')"
check_status "GET /other" 404 "$($HC $PORT get /other | head -1)"
check_status "POST /metrics" 405 "$($HC $PORT get /metrics POST | head -1)"
check_status "garbage request line" 400 "$($HC $PORT raw 48454c4c4f0d0a0d0a)"
check_status "control byte in the path" 400 "$($HC $PORT raw 474554202f6d6574017269637320485454502f312e310d0a0d0a)"
check_status "a 6000-byte header" 431 "$($HC $PORT big 6000)"
check_status "40 header lines" 431 "$($HC $PORT headers 40)"
nlog=$(grep -c 'http client 127.0.0.1:[0-9]*: ' "$W/ex.err")
if [ "$nlog" -ge 5 ] && ! grep -q 'http client.*[^[:print:]]' "$W/ex.err"; then
	ok "each refused request is one printable line on stderr ($nlog)"
else
	notok "stderr lines for refused requests: $nlog: $(tail -5 "$W/ex.err" | tr '\n' '|')"
fi

# ---- 3b: random requests: it stays up and answers ----------------------------------------------
if [ "$($HC $PORT fuzz 300)" = "sent 300" ] && kill -0 "$EPID" 2>/dev/null && scrape &&
	! grep 'http client' "$W/ex.err" | grep -q '[^[:print:]]'; then
	ok "300 random requests: still up, a scrape answered, every log line printable"
else
	notok "after random requests: $(tail -3 "$W/ex.err" | tr '\n' '|')"
fi

# ---- 4: idle and slow clients, one more than the limit ------------------------------------
closed=$($HC $PORT idle 8 20)
if [ "$closed" = 9 ]; then ok "8 idle clients and a byte-a-while one: all 9 dropped by the server"
else notok "idle clients: $closed of 9 closed by the server"; fi
if scrape; then ok "a scrape after them is answered"; else notok "no answer after the idle clients"; fi

# ---- 5: a tool that dies is restarted and counted ------------------------------------------
victim=$(pgrep -P "$EPID" -f "syscount")
if [ -n "$victim" ] && kill -KILL "$victim"; then
	if until_metric "corebox_exporter_restarts_total{tool=\"$SC\"}" 1 150 &&
		until_metric "$UP_SC" 1 50 && grep -q "'$SC' killed by signal 9" "$W/ex.err"; then
		ok "SIGKILLed syscount: one stderr line, restarted, restarts_total 1, up 1"
	else
		notok "restart: restarts '$(metric "corebox_exporter_restarts_total{tool=\"$SC\"}")' up '$(metric "$UP_SC")': $(tail -3 "$W/ex.err" | tr '\n' '|')"
	fi
	for p in $(pgrep -P "$EPID"); do bpf_ids "$p" >> "$W/ours"; done
else
	notok "no syscount child of the exporter found"
fi

# ---- 6: SIGINT: status 0, tools reaped, nothing left ----------------------------------------
kids=$(pgrep -P "$EPID" | tr '\n' ' ')
dir=
for k in $kids; do
	f=$(tr '\0' '\n' < /proc/$k/cmdline 2>/dev/null | grep 'corebox-exporter\.' | head -1)
	[ -n "$f" ] && dir=$(dirname "$f")
done
kill -INT "$EPID"
if wait_pid "$EPID" 80; then
	wait "$EPID"
	rc=$?
	EPID=
	check_status "exit status after SIGINT" 0 "$rc"
else
	notok "exporter still running 8 s after SIGINT"
fi
alive=
for k in $kids; do kill -0 "$k" 2>/dev/null && alive="$alive $k"; done
if [ -z "$alive" ] && [ -n "$kids" ]; then ok "its tools ($kids) are gone"; else notok "tools still running:$alive"; fi
if [ -n "$dir" ] && [ ! -e "$dir" ]; then ok "report directory $dir removed"; else notok "report directory '$dir' left"; fi
snoop_left

# ---- 7: a summarizing tool's own --listen ---------------------------------------------------
kill -KILL "$HPID" 2>/dev/null
wait "$HPID" 2>/dev/null
"$W/sysloop" $N $M > "$W/helper" 2>&1 &
HPID=$!
wait_for "$W/helper" '^ready' 50 || notok "sysloop did not start (2)"
"$CB" syscount -p "$HPID" -i 1 --listen 127.0.0.1:$PORT > "$W/sc.out" 2> "$W/sc.err" &
EPID=$!
if wait_for "$W/sc.out" '^Tracing syscalls' 100; then
	kill -USR1 "$HPID"
	if until_metric 'corebox_syscount_calls_total{syscall="access"}' $((N + M)) 100; then
		ok "syscount --listen: /metrics valid, calls_total{syscall=access} = $((N + M))"
	else
		notok "syscount --listen: '$(metric 'corebox_syscount_calls_total{syscall="access"}')': $(cat "$W/m.err")"
	fi
	check_status "syscount --listen: GET /x" 404 "$($HC $PORT get /x | head -1)"
else
	notok "syscount --listen did not start: $(cat "$W/sc.err")"
fi
kill -INT "$EPID"
if wait_pid "$EPID" 50; then wait "$EPID"; check_status "syscount --listen: status after SIGINT" 0 $?
else notok "syscount --listen still running 5 s after SIGINT"; fi
EPID=

# ---- 8: a hostile name as a label value ----------------------------------------------------
# K reads by a process whose comm holds a quote, a backslash and a
# newline: bitesize's --prom file must pass promcheck with the name
# escaped (\", \\, \n) and its exact count under it.
HN=$(printf 'cb"x\\y\nz')
cp "$W/blkio" "$W/$HN"
"$CB" bitesize --prom "$W/h.prom" > "$W/h.out" 2> "$W/h.err" &
EPID=$!
if wait_for "$W/h.out" '^Tracing' 100; then
	"$W/$HN" "$LA" rand $K 4096 0 > /dev/null || notok "the hostile-named reader failed"
	kill -INT "$EPID"
	wait "$EPID"
	if python3 tests/e2e/promcheck.py "$W/h.prom" > "$W/m.json" 2> "$W/m.err" &&
		grep -qF 'corebox_bitesize_size_bytes_count{comm="cb\"x\\y\nz"} '"$K" "$W/h.prom" &&
		[ "$(metric "corebox_bitesize_size_bytes_count{comm=\"$HN\"}")" = $K ]; then
		ok "a comm with a quote, a backslash and a newline: label value escaped, read back with its $K reads"
	else
		notok "hostile label: $(cat "$W/m.err") $(grep -F 'cb' "$W/h.prom" | head -3 | tr '\n' '|')"
	fi
else
	notok "bitesize --prom did not start: $(cat "$W/h.err")"
	kill -INT "$EPID"
fi
EPID=

[ "$fails" = 0 ] && echo "# $T: all passed" || echo "# $T: $fails failed"
exit $((fails != 0))
