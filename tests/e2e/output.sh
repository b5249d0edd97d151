#!/bin/sh
# The shared user side end to end: JSON lines of the event tools, the
# Prometheus checker itself, a reader that goes away (`TOOL | head -1`
# ends the tool promptly, status 141, nothing left loaded), write errors
# (/dev/full), option errors that name the option, -V/--usage/-?, bcc's
# names (TOOL.py, TOOL-bpfcc, TOOL.bt), --install over foreign files,
# escaped bytes in messages, -c on a non-cgroup, --svg to a bad path.
# Every wait is bounded.  Run as root from the repository root.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-output.XXXXXX)
T=output
fails=0
TPID=
ME=$$
. tests/e2e/lib.sh

cleanup() {
	[ -n "$TPID" ] && kill -KILL "$TPID" 2>/dev/null
	[ -n "${KEEP:-}" ] || rm -rf "$W" "/tmp/cbxj_$ME"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

build_helper bpf_count
build_helper open_file
need_corebox

# held PID: the ids of the BPF programs, maps and links PID holds, into $W/ours
held() { bpf_ids "$1" >> "$W/ours"; }

# attached PID: wait (bounded) until PID holds a BPF link; 1 at once
# when PID is gone (execsnoop > /dev/full ends at the machine's first
# exec, often before this looked: it waited the whole 10 s then)
attached() {
	i=0
	while [ $i -lt 100 ]; do
		grep -q '^link_id:' /proc/"$1"/fdinfo/* 2>/dev/null && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# stop_int PID LABEL: SIGINT, exit 0 within 2 s
stop_int() {
	kill -INT "$1" 2>/dev/null
	reap "$1" 20
	if [ "$rc" = 0 ]; then ok "$2: exits 0 after SIGINT"; else notok "$2: status $rc after SIGINT"; fi
}

# ---- 1. JSON lines of the event tools --------------------------------------
PROG=/tmp/cbxj_$ME
COMM=$(basename "$PROG" | cut -c1-15)
cp /bin/true "$PROG" && chmod 755 "$PROG"
"$CB" execsnoop -j > "$W/ex.out" 2> "$W/ex.err" &
TPID=$!
if attached $TPID; then
	held $TPID
	"$PROG" --mark "x y" 'q"uote' &
	CPID=$!
	wait "$CPID"
	wait_for "$W/ex.out" "\"$COMM\"" 30
	stop_int $TPID "execsnoop -j"
	TPID=
	line=$(grep "\"$COMM\"" "$W/ex.out" | head -1)
	if python3 -c '
import json, sys
for l in open(sys.argv[5]):
    assert isinstance(json.loads(l), dict)
e = json.loads(sys.argv[1])
assert e["comm"] == sys.argv[2] and e["pid"] == int(sys.argv[3]) and e["ret"] == 0, e
assert e["args"] == [sys.argv[4], "--mark", "x y", "q\"uote"], e["args"]
assert e["time"][4] == "-" and e["time"][10] == "T" and e["args_truncated"] is False, e
' "$line" "$COMM" "$CPID" "$PROG" "$W/ex.out" 2>"$W/py.err"; then
		ok "execsnoop -j: every line is JSON; the marked exec with its pid, args as an array, RFC 3339 time"
	else
		notok "execsnoop -j: $(tail -1 "$W/py.err"); line: $line"
	fi
else
	notok "execsnoop -j did not attach: $(head -c 300 "$W/ex.err")"
	kill -KILL $TPID; TPID=
fi

UNIQ="$W/cbx-json-open-$ME"
: > "$UNIQ"
"$CB" opensnoop -j > "$W/op.out" 2> "$W/op.err" &
TPID=$!
if attached $TPID; then
	held $TPID
	# every open variant attached: a probe open shows up
	i=0
	while [ $i -lt 50 ] && ! grep -q "cbx-json-open-$ME.probe" "$W/op.out"; do
		"$W/open_file" "$UNIQ.probe" > /dev/null
		sleep 0.1
		i=$((i + 1))
	done
	set -- $("$W/open_file" "$UNIQ")
	OPID=$1 OFD=$2
	"$W/open_file" "$UNIQ.missing" > /dev/null
	wait_for "$W/op.out" "cbx-json-open-$ME.missing" 30
	stop_int $TPID "opensnoop -j"
	TPID=
	if python3 -c '
import json, sys
ev = [json.loads(l) for l in open(sys.argv[1])]
hit = [e for e in ev if e["path"] == sys.argv[2]]
assert hit and hit[0]["pid"] == int(sys.argv[3]) and hit[0]["fd"] == int(sys.argv[4]) and hit[0]["err"] == 0, hit
miss = [e for e in ev if e["path"] == sys.argv[2] + ".missing"]
assert miss and miss[0]["fd"] == -1 and miss[0]["err"] == 2, miss
' "$W/op.out" "$UNIQ" "$OPID" "$OFD" 2>"$W/py.err"; then
		ok "opensnoop -j: the open with its pid and fd, the failed one with err 2"
	else
		notok "opensnoop -j: $(tail -1 "$W/py.err"); output: $(grep cbx-json "$W/op.out" | head -c 400)"
	fi
else
	notok "opensnoop -j did not attach: $(head -c 300 "$W/op.err")"
	kill -KILL $TPID; TPID=
fi

# ---- 1b. lost events are reported while the tool runs ------------------------
# opensnoop stopped (SIGSTOP) cannot drain its buffer while 200000 opens
# happen; once it runs again it must say, within 2 s and still running,
# that it lost events.
build_helper open_many
"$CB" opensnoop -n open_many > /dev/null 2> "$W/lost.err" &
TPID=$!
if attached $TPID; then
	held $TPID
	sleep 0.3
	kill -STOP $TPID
	"$W/open_many" "$UNIQ" 200000
	kill -CONT $TPID
	if wait_for "$W/lost.err" '^opensnoop: lost [0-9][0-9]* events ([0-9][0-9]* so far)$' 20 && kill -0 $TPID 2>/dev/null; then
		ok "lost events are reported on stderr while the tool runs: $(head -1 "$W/lost.err")"
	else
		notok "no live lost-events line within 2 s: $(head -c 300 "$W/lost.err")"
	fi
	stop_int $TPID "opensnoop after losing events"
	grep -q '^opensnoop: lost [0-9]* events (consumer too slow' "$W/lost.err" && ok "and the total at exit" ||
		notok "no total at exit: $(tail -c 300 "$W/lost.err")"
else
	notok "opensnoop did not attach: $(head -c 300 "$W/lost.err")"
	kill -KILL $TPID
fi
TPID=

# ---- 2. the Prometheus checker rejects what the format forbids -------------
pc() { printf "$1" > "$W/p.prom"; python3 tests/e2e/promcheck.py "$W/p.prom" > /dev/null 2>&1; }
if pc '# HELP a_total calls\n# TYPE a_total counter\na_total{x="1"} 3\na_total{x="2\\"q\\\\"} 4\n' &&
	pc '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 3.5\nh_count 2\n'; then
	ok "promcheck accepts valid counters and histograms"
else
	notok "promcheck rejects a valid file"
fi
bad=0
for f in '# TYPE a counter\n# TYPE a counter\na 1\n' \
	 'a{x="1"} 1\nb 2\na{x="2"} 1\n' \
	 '# TYPE h histogram\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 2\nh_count 3\n' \
	 '# TYPE h histogram\nh_bucket{le="2"} 1\nh_bucket{le="1"} 1\nh_bucket{le="+Inf"} 1\nh_count 1\n' \
	 'a{x="1} 1\n' 'a{x="\\q"} 1\n' '9a 1\n' 'a 1 2 3\n' 'a{x="1"} 1\na{x="1"} 2\n' 'a 1'; do
	pc "$f" && { bad=$((bad + 1)); echo "# promcheck accepted: $f"; }
done
[ $bad = 0 ] && ok "promcheck rejects 10 invalid files" || notok "promcheck accepted $bad invalid files"

# ---- 3. the reader goes away: TOOL | head -1 -----------------------------------
# The tool writes into a FIFO that head reads; once head has its line and
# exits, the tool must stop within 1 s, by SIGPIPE (141), nothing loaded.
pipe_case() { # LABEL TOOL ARGS...
	label=$1
	shift
	rm -f "$W/fifo"
	mkfifo "$W/fifo"
	"$CB" "$@" > "$W/fifo" 2> "$W/pipe.err" &
	TPID=$!
	head -1 < "$W/fifo" > "$W/head.out" &
	HPID=$!
	# traffic for the event tools while head waits
	i=0
	while kill -0 $HPID 2>/dev/null && [ $i -lt 100 ]; do
		/bin/true
		sleep 0.1
		i=$((i + 1))
	done
	held $TPID
	wait $HPID 2>/dev/null
	if wait_exit $TPID 10; then
		wait $TPID
		rc=$?
		if [ $rc = 141 ]; then ok "$label | head -1: ends within 1 s of head, status 141 (SIGPIPE)"
		else notok "$label | head -1: status $rc: $(head -c 300 "$W/pipe.err")"; fi
	else
		notok "$label | head -1: still running 1 s after head exited"
		kill -KILL $TPID
		wait $TPID 2>/dev/null
	fi
	TPID=
}
pipe_case execsnoop execsnoop
pipe_case opensnoop opensnoop
pipe_case "syscount -i 1" syscount -i 1
pipe_case "biolatency 1" biolatency 1
pipe_case "execsnoop -j" execsnoop -j

# ---- 4. write errors ----------------------------------------------------------
if [ -w /dev/full ]; then
	timeout 20 "$CB" syscount -d 1 > /dev/full 2> "$W/full.err"
	rc=$?
	if [ $rc = 1 ] && grep -q 'cannot write the output: No space left on device' "$W/full.err"; then
		ok "syscount -d 1 > /dev/full: exit 1, 'cannot write the output: No space left on device'"
	else
		notok "syscount -d 1 > /dev/full: status $rc: $(head -c 300 "$W/full.err")"
	fi
	"$CB" execsnoop > /dev/full 2> "$W/full2.err" &
	TPID=$!
	attached $TPID && held $TPID
	/bin/true
	reap $TPID 30
	TPID=
	if [ "$rc" = 1 ] && grep -q 'cannot write the output' "$W/full2.err"; then
		ok "execsnoop > /dev/full: exit 1 on its own after an event"
	else
		notok "execsnoop > /dev/full: status $rc: $(head -c 300 "$W/full2.err")"
	fi
fi

# nothing of any instance above left in the kernel
nprog=$(grep -c '^prog ' "$W/ours")
i=0
while :; do # programs are freed a little after their links (see bpf_left)
	"$W/bpf_count" > "$W/after"
	left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 " " $2) in want' "$W/ours" "$W/after")
	[ -z "$left" ] || [ $i -ge 30 ] && break
	sleep 0.1
	i=$((i + 1))
done
if [ "$nprog" -gt 0 ] && [ -z "$left" ]; then ok "none of the $nprog programs the instances held is left loaded"
else notok "left loaded: $(echo "$left" | tr '\n' '|') (held $nprog)"; fi

# ---- 5. option errors name the option ----------------------------------------
# every option that takes a value, given without one, as the last argument
n=0 bad=0
for t in $("$CB" --list) run; do
	"$CB" "$t" --help 2>/dev/null |
		sed -n 's/^  -\([A-Za-z0-9]\), --[a-z-]*=[A-Z_a-z]*.*/\1/p; s/^  -\([A-Za-z0-9]\) [A-Z_][A-Z_]*  .*/\1/p' > "$W/shorts"
	for o in $(cat "$W/shorts"); do
		n=$((n + 1))
		"$CB" "$t" "-$o" > /dev/null 2> "$W/opt.err"
		rc=$?
		if [ $rc != 2 ] || ! grep -q -- "option -$o" "$W/opt.err" || grep -q '(null)' "$W/opt.err"; then
			bad=$((bad + 1))
			echo "# $t -$o: status $rc: $(head -1 "$W/opt.err")"
		fi
	done
done
if [ $n -gt 20 ] && [ $bad = 0 ]; then ok "$n short options without their value: exit 2 and a message naming the option"
else notok "$bad of $n short options without a value not named (exit 2 expected)"; fi
"$CB" btf min -o 2> "$W/o.err" >/dev/null
[ $? = 2 ] && grep -q "option -o/--output requires an argument" "$W/o.err" && ok "btf min -o: names the option" ||
	notok "btf min -o: $(cat "$W/o.err")"
"$CB" execsnoop --max-args 2> "$W/o.err" >/dev/null
grep -q "option --max-args requires an argument" "$W/o.err" && ok "a long option without its value is named" ||
	notok "--max-args: $(cat "$W/o.err")"
"$CB" biolatency --disk=X 2> "$W/o.err" >/dev/null
grep -q "option '--disk' doesn't allow an argument" "$W/o.err" && ok "--disk=X: doesn't allow an argument" ||
	notok "--disk=X: $(cat "$W/o.err")"
"$CB" execsnoop --tim 2> "$W/o.err" >/dev/null
rc=$?
[ $rc = 2 ] && grep -q "option '--tim' is ambiguous; possibilities: '--time' '--timestamp'" "$W/o.err" &&
	ok "--tim: ambiguous, with the possibilities" || notok "--tim: status $rc: $(cat "$W/o.err")"
"$CB" execsnoop --prom x 2> "$W/o.err" >/dev/null
[ $? = 2 ] && grep -q "unrecognized option '--prom'" "$W/o.err" && ok "--prom is refused by an event tool" ||
	notok "execsnoop --prom: $(cat "$W/o.err")"

# ---- 6. -V, --usage, -?, bcc's names -------------------------------------------
bad=0 n=0
for t in $("$CB" --list); do
	n=$((n + 1))
	want="^$t (corebox) [0-9]"
	[ "$t" = bpftrace ] && want='^bpftrace v0\.17\.0 (corebox [0-9]' # 0.17's prefix, which scripts match
	v=$("$CB" "$t" -V 2>&1) && echo "$v" | grep -q "$want" || { bad=$((bad + 1)); echo "# $t -V: $v"; }
	u=$("$CB" "$t" --usage 2>&1) && echo "$u" | grep -q "^Usage: $t " || { bad=$((bad + 1)); echo "# $t --usage: $u"; }
	"$CB" "$t" '-?' 2>&1 | grep -q '^Options:' || { bad=$((bad + 1)); echo "# $t -?: no help"; }
done
[ $bad = 0 ] && ok "-V, --usage and -? on all $n tools" || notok "$bad failures among -V/--usage/-?"
"$CB" --version | grep -q '^corebox [0-9]' && ok "corebox --version" || notok "corebox --version: $("$CB" --version 2>&1)"
mkdir -p "$W/names"
bad=0
for l in execsnoop.py execsnoop-bpfcc profile.bt; do
	ln -sf "$(cd "$(dirname "$CB")" && pwd)/$(basename "$CB")" "$W/names/$l"
	want=${l%.py}; want=${want%-bpfcc}; want=${want%.bt}
	"$W/names/$l" -V 2>&1 | grep -q "^$want (corebox)" || { bad=$((bad + 1)); echo "# $l -V: $("$W/names/$l" -V 2>&1)"; }
done
"$CB" syscount.py -V 2>&1 | grep -q '^syscount (corebox)' || bad=$((bad + 1))
[ $bad = 0 ] && ok "links named TOOL.py, TOOL-bpfcc, TOOL.bt (and corebox TOOL.py) run TOOL" ||
	notok "$bad of bcc's names not dispatched"

# ---- 7. --install never replaces a file that is not ours ------------------------
I=$W/inst
mkdir -p "$I"
echo 'user script' > "$I/profile"
cp /bin/true "$I/execsnoop"
"$CB" --install "$I" > "$W/i.out" 2> "$W/i.err"
rc=$?
if [ $rc = 0 ] && grep -q 'user script' "$I/profile" && ! cmp -s "$I/execsnoop" "$CB" &&
	grep -q 'left 2 existing files' "$W/i.err" && grep -q ' execsnoop' "$W/i.err" && cmp -s "$I/opensnoop" "$CB"; then
	ok "--install: foreign files left alone and named, the other links made"
else
	notok "--install: status $rc: $(cat "$W/i.err")"
fi
"$CB" --install "$I" > /dev/null 2> "$W/i2.err"
[ $? = 0 ] && cmp -s "$I/opensnoop" "$CB" && ok "--install again: its own links replaced quietly" ||
	notok "--install again: $(cat "$W/i2.err")"
"$CB" --install -f "$I" > /dev/null 2>&1
cmp -s "$I/profile" "$CB" && ok "--install -f replaces them" || notok "--install -f did not replace"
"$CB" --install "$W/no/such/dir" > /dev/null 2> "$W/i3.err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l < "$W/i3.err")" = 1 ] && ok "--install into a missing directory: one message, exit 1" ||
	notok "--install missing dir: status $rc, $(wc -l < "$W/i3.err") lines"

# ---- 8. messages never carry raw control bytes; -c; --svg -----------------------
esc=$(printf '/tmp/x\033[2Jy')
"$CB" execsnoop -c "$esc" > /dev/null 2> "$W/e.err"
if ! grep -q "$(printf '\033')" "$W/e.err" && grep -q 'x\\x1b\[2Jy' "$W/e.err"; then
	ok "a path with ESC in a message is printed as \\x1b"
else
	notok "escape in message: $(od -c "$W/e.err" | head -3)"
fi
"$CB" execsnoop -c /etc/passwd > /dev/null 2> "$W/c.err"
rc=$?
[ $rc = 1 ] && grep -q '/etc/passwd is not a cgroup v2 directory (cgroup v2 is mounted at /' "$W/c.err" &&
	ok "-c FILE: not a cgroup v2 directory (and where cgroup v2 is), exit 1" ||
	notok "-c /etc/passwd: status $rc: $(cat "$W/c.err")"
"$CB" syscount -c /proc -d 1 > /dev/null 2> "$W/c.err"
rc=$?
[ $rc = 1 ] && grep -q '/proc is not a cgroup v2 directory' "$W/c.err" && ok "-c on a non-cgroup directory refused" ||
	notok "-c /proc: status $rc: $(cat "$W/c.err")"
start=$(date +%s)
"$CB" profile --svg /nonexistent/dir/x.svg 2 > /dev/null 2> "$W/s.err"
rc=$?
end=$(date +%s)
[ $rc = 1 ] && [ $((end - start)) -lt 2 ] && grep -q 'cannot create /nonexistent/dir/x.svg' "$W/s.err" &&
	ok "--svg to a bad path fails before tracing" || notok "--svg bad path: status $rc after $((end - start)) s: $(cat "$W/s.err")"

[ $fails = 0 ]
