#!/bin/sh
# ucalls, uobjnew and ustat (bcc's tools/lib language tools) end to end.
# needs: Debian's python3 (/usr/bin/python3.11, built --with-dtrace: its
# python:function__entry/gc__start USDT probes) and ruby (libruby3.1's
# ruby:object__create, method__entry); without them those checks are
# named skips.  The C and syscall paths need no runtime.
# Ground truth is what the helpers do after the go signal:
#   python: N calls of ul_unique_fn made from C (map(): python 3.11 fires
#           function__entry on its tracing path only, which ucalls opens
#           through python:line's semaphore) and G gc.collect() calls;
#   ruby: M objects of a class and C calls of its method (below);
#   C (tests/e2e/helpers/cbx_ulang.c): K mallocs of S bytes and K getppid
#           syscalls.
# The tools must count exactly those: ucalls -l python (and pythoncalls,
# -L, -j), rubyobjnew, rubycalls, ucalls -l none -S, uobjnew -l c (and
# cobjnew -C 1), pythonstat = ustat -l python (METHOD/s and GC/s of one
# interval).  Plus usage errors.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-ulang.XXXXXX)
T=ulang
fails=0
HPID= TPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT INT TERM
need_corebox
build_helper cbx_ulang
N=1234 G=6 K=777 S=12345

cat > "$W/ul.py" << 'PYEOF'
import gc, signal, sys, time
def ul_unique_fn(x):
    return x
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
signal.alarm(60)
print("ready", flush=True)
signal.sigwait([signal.SIGUSR1])
list(map(ul_unique_fn, range(int(sys.argv[1]))))
for i in range(int(sys.argv[2])):
    gc.collect()
print("done", flush=True)
signal.sigwait([signal.SIGUSR1])
PYEOF

# trace NAME HELPER... -- TOOL ARGS: start the helper, the tool on its pid
# (@PID@), wait until it holds its probes ($W/NAME.out shows its banner),
# signal go, wait for "done", SIGINT the tool; $W/NAME.out, rc
trace() {
	name=$1
	shift
	h=
	while [ "$1" != "--" ]; do h="$h $1"; shift; done
	shift
	# shellcheck disable=SC2086
	$h > "$W/$name.h" 2>&1 &
	HPID=$!
	wait_for "$W/$name.h" ready 50 || { notok "$name: the helper did not start"; rc=x; return; }
	args=
	for a in "$@"; do [ "$a" = @PID@ ] && a=$HPID; args="$args $a"; done
	# shellcheck disable=SC2086
	env --default-signal=INT $CB $args > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	wait_for "$W/$name.out" "Ctrl-C\|Hit Ctrl" 150 || true
	sleep 0.3
	kill -USR1 "$HPID"
	wait_for "$W/$name.h" done 100 || notok "$name: the helper did not finish"
	sleep 0.3
	kill -INT "$TPID"
	reap "$TPID" 100
	TPID=
	kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
}

# row NAME KEY: the counts after KEY's name on its row ("" when none)
row() { awk -v k="$2" '$1 == k { $1 = ""; print substr($0, 2) }' "$W/$1.out"; }

PY=/usr/bin/python3.11
[ -x "$PY" ] || PY=/usr/bin/python3
if [ -x "$PY" ] && $CB tplist -l "$PY" 2> /dev/null | grep -q "python:function__entry"; then
	trace calls "$PY" "$W/ul.py" "$N" "$G" -- ucalls -l python @PID@
	got=$(row calls "$W/ul.py.ul_unique_fn")
	if [ "$rc" = 0 ] && [ "$got" = "$N" ] && grep -q "^METHOD  *# CALLS$" "$W/calls.out" &&
		grep -q "^Tracing calls in process [0-9]* (language: python)... Ctrl-C to quit.$" "$W/calls.out"; then
		ok "ucalls -l python: ul_unique_fn called $N times"
	else
		notok "ucalls -l python: rc $rc, ul_unique_fn '$got' (want $N): $(head -c 400 "$W/calls.out" "$W/calls.err")"
	fi
	trace pycalls "$PY" "$W/ul.py" "$N" "$G" -- pythoncalls -L -m @PID@
	got=$(row pycalls "$W/ul.py.ul_unique_fn" | awk '{ print $1 }')
	if [ "$rc" = 0 ] && [ "$got" = "$N" ] && grep -q "^METHOD  *# CALLS TIME (ms)$" "$W/pycalls.out"; then
		ok "pythoncalls -L -m: $N calls with their time"
	else
		notok "pythoncalls -L -m: rc $rc, calls '$got' (want $N): $(head -c 400 "$W/pycalls.out" "$W/pycalls.err")"
	fi
	trace jcalls "$PY" "$W/ul.py" "$N" "$G" -- ucalls -j -l python @PID@
	if [ "$rc" = 0 ] && grep -q "\"method\":\"$W/ul.py.ul_unique_fn\",\"calls\":$N" "$W/jcalls.out"; then
		ok "ucalls -j: the JSON row has calls $N"
	else
		notok "ucalls -j: rc $rc: $(head -c 400 "$W/jcalls.out" "$W/jcalls.err")"
	fi
	# ustat, through bcc's pythonstat (= ustat -l python, the alias's
	# language argument): one 3 s interval (-d says when it has attached); the
	# helper's row: N calls / 3 (plus at most a few of its own), G / 3 GCs
	"$PY" "$W/ul.py" "$N" "$G" > "$W/st.h" 2>&1 &
	HPID=$!
	wait_for "$W/st.h" ready 50
	$CB pythonstat -C -d 3 1 > "$W/st.out" 2> "$W/st.err" &
	TPID=$!
	wait_for "$W/st.out" "Attached to python processes:.*$HPID" 100 && sleep 0.3
	kill -USR1 "$HPID"
	reap "$TPID" 150
	TPID=
	kill -KILL "$HPID" 2>/dev/null
	spid=$HPID
	HPID=
	line=$(grep "^$spid " "$W/st.out")
	m=$(echo "$line" | awk '{ print $(NF-5) }')
	g=$(echo "$line" | awk '{ print $(NF-4) }')
	lo=$((N / 3)) hi=$((N / 3 + 3))
	if [ "$rc" = 0 ] && [ -n "$m" ] && [ "$m" -ge "$lo" ] && [ "$m" -le "$hi" ] && [ "$g" = $((G / 3)) ] &&
		grep -q "^PID    CMDLINE              METHOD/s   GC/s   OBJNEW/s   CLOAD/s  EXC/s  THR/s $" "$W/st.out" &&
		grep -q "^Detaching...$" "$W/st.out"; then
		ok "pythonstat (ustat -l python): METHOD/s $m (N/3 = $lo), GC/s $g"
	else
		notok "pythonstat (ustat -l python): rc $rc, METHOD/s '$m' (want $lo..$hi), GC/s '$g' (want $((G / 3))): $(head -c 600 "$W/st.out" "$W/st.err")"
	fi
else
	echo "ok - $T: python checks # SKIP no $PY with USDT probes (Debian's python3 is built --with-dtrace)"
fi

# ruby (Debian's libruby is built with its USDT probes): after the go
# signal, M objects of a uniquely named class, then C calls of its method
# ul_m on an object made before (no object of that class more).  Ruby
# 2.5+ fires method__entry only while a TracePoint is enabled (ruby bug
# #14582): with TP=1 the helper enables one before the calls.
M=55 C=321
cat > "$W/ul.rb" << 'RBEOF'
class UlUniqueK; def ul_m(x); x; end; end
o = UlUniqueK.new
Signal.trap("USR1") { $go = true }
$stdout.puts "ready"; $stdout.flush
sleep 0.05 until $go
ARGV[0].to_i.times { UlUniqueK.new }
TracePoint.new(:call, :return) {}.enable if ENV["TP"] == "1"
ARGV[1].to_i.times { |i| o.ul_m(i) }
$stdout.puts "done"; $stdout.flush
sleep 60
RBEOF
RB=$(command -v ruby || true)
LIBRB=$([ -n "$RB" ] && ldd "$RB" 2> /dev/null | awk '/libruby/ { print $3 }')
if [ -n "$LIBRB" ] && $CB tplist -l "$LIBRB" 2> /dev/null | grep -q "ruby:object__create"; then
	trace rbobj "$RB" "$W/ul.rb" "$M" "$C" -- rubyobjnew @PID@
	got=$(awk '$1 == "UlUniqueK" { print $2, $3 }' "$W/rbobj.out")
	if [ "$rc" = 0 ] && [ "$got" = "$M 0" ] && grep -q "(language: ruby)" "$W/rbobj.out"; then
		ok "rubyobjnew: $M UlUniqueK objects (ruby's object__create has no size: 0 bytes, as bcc)"
	else
		notok "rubyobjnew: rc $rc, '$got' (want $M 0): $(head -c 400 "$W/rbobj.out" "$W/rbobj.err")"
	fi
	# rubycalls: the C calls, counted once the program has a TracePoint on;
	# the one-line note on stderr says so whether it has or not
	trace rbcalls env TP=1 "$RB" "$W/ul.rb" "$M" "$C" -- rubycalls @PID@
	got=$(row rbcalls UlUniqueK.ul_m)
	if [ "$rc" = 0 ] && [ "$got" = "$C" ] && grep -q "(language: ruby)" "$W/rbcalls.out" &&
		[ "$(grep -c "TracePoint" "$W/rbcalls.err")" = 1 ]; then
		ok "rubycalls (a TracePoint enabled): UlUniqueK.ul_m called $C times, the TracePoint note on stderr"
	else
		notok "rubycalls: rc $rc, UlUniqueK.ul_m '$got' (want $C): $(head -c 400 "$W/rbcalls.out" "$W/rbcalls.err")"
	fi
else
	echo "ok - $T: ruby checks # SKIP no ruby with USDT probes (apt-get install ruby)"
fi

trace sys "$W/cbx_ulang" "$K" "$S" -- ucalls -l none -S @PID@
got=$(row sys getppid)
if [ "$rc" = 0 ] && [ "$got" = "$K" ] && grep -q "^Attached kernel tracepoints for syscall tracing.$" "$W/sys.out" &&
	grep -q "(language: none)" "$W/sys.out" && grep -q "^Detaching kernel probes, please wait...$" "$W/sys.out"; then
	ok "ucalls -l none -S: $K getppid"
else
	notok "ucalls -l none -S: rc $rc, getppid '$got' (want $K): $(head -c 400 "$W/sys.out" "$W/sys.err")"
fi

trace objc "$W/cbx_ulang" "$K" "$S" -- uobjnew -l c @PID@
got=$(awk -v s="$S" '$1 == "block" && $3 == s { print $4, $5 }' "$W/objc.out")
if [ "$rc" = 0 ] && [ "$got" = "$K $((K * S))" ] && grep -q "^NAME/TYPE                      # ALLOCS      # BYTES$" "$W/objc.out"; then
	ok "uobjnew -l c: $K blocks of $S bytes"
else
	notok "uobjnew -l c: rc $rc, '$got' (want $K $((K * S))): $(head -c 400 "$W/objc.out" "$W/objc.err")"
fi
trace objc1 "$W/cbx_ulang" "$K" "$S" -- cobjnew -C 1 @PID@
rows=$(grep -c "^block size" "$W/objc1.out")
if [ "$rc" = 0 ] && [ "$rows" = 1 ] && grep -q "^block size $S  *$K  *$((K * S))$" "$W/objc1.out"; then
	ok "cobjnew -C 1: the one most frequent size"
else
	notok "cobjnew -C 1: rc $rc, $rows rows: $(head -c 400 "$W/objc1.out" "$W/objc1.err")"
fi

# usage and runtime errors: one line, 2 or 1
$CB ucalls > "$W/e1" 2>&1; r1=$?
$CB ucalls -l none 1 > "$W/e2" 2>&1; r2=$?
$CB uobjnew -l cobol 1 > "$W/e3" 2>&1; r3=$?
$CB ustat -S bogus > "$W/e4" 2>&1; r4=$?
sh -c 'exit 0' &
dead=$!
wait "$dead"
$CB ucalls -l python "$dead" > "$W/e5" 2>&1; r5=$?
if [ "$r1$r2$r3$r4$r5" = 21222 ] && grep -qx "Nothing to do; use -S to trace syscalls." "$W/e2" && grep -q "no process with pid $dead" "$W/e5"; then
	ok "errors: missing pid, nothing to do, bad language, bad sort, no such process"
else
	notok "errors: statuses $r1$r2$r3$r4$r5 (want 21222): $(cat "$W/e1" "$W/e2" "$W/e3" "$W/e4" "$W/e5" | head -c 600)"
fi
[ "$fails" -eq 0 ]
