#!/bin/sh
# The language tools (ucalls, uobjnew, ustat, uthreads and their bcc
# aliases) on the real runtimes Debian ships with USDT probes: ruby3.1
# (libruby), php8.2-cli (the php binary) and, when installed, OpenJDK 17
# (libjvm.so's hotspot probes).  Debian builds perl 5.36, tcl 8.6 and
# nodejs 18 without USDT probes: those are named skips, as is any runtime
# not installed (tests/install-deps.sh installs ruby and php, not the
# 190 MB JRE).  Ground truth is what the test's programs do after their go
# signal (tests/e2e/helpers/cbx_ulrt.rb, cbx_ulrt.php, UlRt.java): N calls
# of a uniquely named method, M objects of a uniquely named class, E
# exceptions, L loads, T named threads.  Checked: *calls (and -L),
# rubyobjnew, javaobjnew (counts), *stat (EXC/s, CLOAD/s, METHOD/s, THR/s)
# and uthreads -l java (start/stop rows).  All of one runtime's tools
# attach to the one process at once (one JVM for all the Java checks); the
# *stat tools count one 3 s interval, so their rates are the totals / 3.
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-ulangrt.XXXXXX)
T=ulang_rt
fails=0
HPID= TPIDS=
HD=tests/e2e/helpers
. tests/e2e/lib.sh

cleanup() {
	for p in $TPIDS $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT INT TERM
need_corebox

# tool NAME ARGS...: corebox ARGS in the background, $W/NAME.out/.err
tool() {
	n=$1
	shift
	env --default-signal=INT "$CB" "$@" > "$W/$n.out" 2> "$W/$n.err" &
	TPIDS="$TPIDS $!"
	echo "$!" > "$W/$n.pid"
}
# attached NAME PATTERN: wait (bounded) until the tool prints its banner
attached() { wait_for "$W/$1.out" "$2" 200 || notok "$1: did not attach: $(head -c 300 "$W/$1.err")"; }
# stop NAME...: SIGINT each (a *stat tool ends by itself), $W/NAME.rc
stop() {
	for n in "$@"; do kill -INT "$(cat "$W/$n.pid")" 2>/dev/null; done
	for n in "$@"; do
		reap "$(cat "$W/$n.pid")" 100
		echo "$rc" > "$W/$n.rc"
	done
	TPIDS=
}
# stat_run LANG LOG GO...: LANGstat -C -d 3 1 started once the others
# are attached, GO... (the program's go signal) once it names the
# program, then wait for the program's "done" in LOG and the tool's end
stat_run() {
	l=$1 log=$2
	shift 2
	tool "${l}stat" "${l}stat" -C -d 3 1
	attached "${l}stat" "Attached to $l processes:.*$HPID"
	sleep 0.2
	"$@"
	wait_for "$log" done 100 || notok "$l: the program did not finish: $(head -c 300 "$log")"
	wait_for "$W/${l}stat.out" "^Detaching" 60
}
# calls NAME KEY: KEY's count on NAME's report ("" when no such row)
count() { awk -v k="$2" '$1 == k { print $2 }' "$W/$1.out"; }
# stat NAME PID COLUMN: PID's value in the *stat table's column (1: METHOD/s)
stat() { awk -v p="$2" -v c="$3" '$1 == p { print $(NF - 6 + c) }' "$W/$1.out"; }
# check NAME WHAT GOT WANT: ok when the tool exited 0 and GOT = WANT
check() {
	r=$(cat "$W/$1.rc" 2>/dev/null)
	if [ "$r" = 0 ] && [ "$3" = "$4" ]; then
		ok "$1: $2 $3"
	else
		notok "$1: $2 '$3' (want '$4'), exit $r: $(head -c 500 "$W/$1.out" "$W/$1.err")"
	fi
}
# probed FILE PROBE: FILE carries the USDT probe (tplist -l)
probed() { [ -n "$1" ] && "$CB" tplist -l "$1" 2> /dev/null | grep -q ":$2\$"; }
# lib EXE NAME: the shared library NAME the executable EXE links to
lib() { ldd "$1" 2> /dev/null | awk -v n="$2" 'index($1, n) == 1 { print $3 }'; }

# --- Ruby: libruby3.1's probes; rubycalls, rubyobjnew, rubystat
N=321 M=55 E=30 L=6
RB=$(command -v ruby || true)
LIBRB=$([ -n "$RB" ] && lib "$RB" libruby)
if [ -z "$RB" ]; then
	echo "ok - $T: ruby # SKIP ruby not installed (tests/install-deps.sh installs it)"
elif ! probed "$LIBRB" method__entry; then
	echo "ok - $T: ruby # SKIP $RB's libruby ($LIBRB) has no USDT probes"
else
	echo 1 > "$W/ld.rb"
	"$RB" "$HD/cbx_ulrt.rb" $N $M $E $L "$W/ld.rb" > "$W/rb.h" 2>&1 &
	HPID=$!
	wait_for "$W/rb.h" ready 100 || notok "ruby: the program did not start: $(head -c 300 "$W/rb.h")"
	tool rubycalls rubycalls "$HPID"
	tool rubyobjnew rubyobjnew "$HPID"
	tool rubycallsL ucalls -l ruby -L "$HPID"
	attached rubycalls "Ctrl-C to quit"
	attached rubycallsL "Ctrl-C to quit"
	attached rubyobjnew "Ctrl-C to quit"
	stat_run ruby "$W/rb.h" kill -USR1 "$HPID"
	stop rubycalls rubyobjnew rubystat rubycallsL
	check rubycalls "UlRtK.ul_rt_meth calls" "$(count rubycalls UlRtK.ul_rt_meth)" $N
	check rubycallsL "(ucalls -l ruby -L) UlRtK.ul_rt_meth calls, header" \
		"$(count rubycallsL UlRtK.ul_rt_meth) $(grep -c '^METHOD  *# CALLS TIME (us)$' "$W/rubycallsL.out")" "$N 1"
	# object__create carries no size: bcc's 0 bytes
	check rubyobjnew "UlRtK objects, bytes" "$(awk '$1 == "UlRtK" { print $2, $3 }' "$W/rubyobjnew.out")" "$M 0"
	check rubystat "EXC/s (raise)" "$(stat rubystat "$HPID" 5)" $((E / 3))
	check rubystat "CLOAD/s (load)" "$(stat rubystat "$HPID" 4)" $((L / 3))
	# -d names the processes of the one language traced (bcc)
	check rubystat "-d: 'Attached to' lines" "$(grep -c '^Attached to' "$W/rubystat.out")" 1
	kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
fi

# --- PHP: php8.2's probes, which fire only with USE_ZEND_DTRACE=1;
# phpcalls and phpstat
N=321 F=123 E=30 I=6
PHP=$(command -v php || true)
if [ -z "$PHP" ]; then
	echo "ok - $T: php # SKIP php not installed (tests/install-deps.sh installs php8.2-cli)"
elif ! probed "$(readlink -f "$PHP")" function__entry; then
	echo "ok - $T: php # SKIP $PHP has no USDT probes"
else
	echo '<?php $ulrt_inc = 1;' > "$W/inc.php"
	USE_ZEND_DTRACE=1 "$PHP" "$HD/cbx_ulrt.php" $N $F $E $I "$W/inc.php" > "$W/php.h" 2>&1 &
	HPID=$!
	wait_for "$W/php.h" ready 100 || notok "php: the program did not start: $(head -c 300 "$W/php.h")"
	tool phpcalls phpcalls "$HPID"
	tool phpcallsL phpcalls -L -m "$HPID"
	attached phpcalls "Ctrl-C to quit"
	attached phpcallsL "Ctrl-C to quit"
	stat_run php "$W/php.h" kill -USR1 "$HPID"
	stop phpcalls phpstat phpcallsL
	check phpcalls "UlRtK.ul_rt_meth calls" "$(count phpcalls UlRtK.ul_rt_meth)" $N
	check phpcallsL "-L -m: ul_rt_fn calls, header" \
		"$(count phpcallsL .ul_rt_fn) $(grep -c '^METHOD  *# CALLS TIME (ms)$' "$W/phpcallsL.out")" "$F 1"
	# a function outside a class: bcc's empty class name
	check phpcalls "ul_rt_fn calls" "$(count phpcalls .ul_rt_fn)" $F
	# function__entry fires for each op array run: the N + F calls and
	# each included file's top level
	check phpstat "METHOD/s (function__entry)" "$(stat phpstat "$HPID" 1)" $(((N + F + I) / 3))
	check phpstat "EXC/s (exception__thrown)" "$(stat phpstat "$HPID" 5)" $((E / 3))
	check phpstat "CLOAD/s (compile__file__entry)" "$(stat phpstat "$HPID" 4)" $((I / 3))
	kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
fi

# --- Java: HotSpot's probes (method__entry and object__alloc need
# -XX:+ExtendedDTraceProbes); javacalls, javaobjnew, javastat, uthreads.  One JVM: serial GC and compiler threads
# all started at boot, so after go the only new threads are the T
# program's.  The source launcher needs only the JRE.
N=300 M=77 TH=6
JAVA=$(command -v java || true)
LIBJVM=$([ -n "$JAVA" ] && find "$(dirname "$(readlink -f "$JAVA")")/../lib" -name libjvm.so 2> /dev/null | head -n 1)
if [ -z "$JAVA" ]; then
	echo "ok - $T: java # SKIP no JVM installed (openjdk-17-jre-headless: 190 MB, not in tests/install-deps.sh)"
elif ! probed "$LIBJVM" method__entry; then
	echo "ok - $T: java # SKIP $JAVA's libjvm.so ($LIBJVM) has no USDT probes"
else
	"$JAVA" -XX:+ExtendedDTraceProbes -XX:+UseSerialGC -XX:-UseDynamicNumberOfCompilerThreads -Xshare:auto \
		"$HD/UlRt.java" $N $M $TH "$W/go" > "$W/java.h" 2>&1 &
	HPID=$!
	wait_for "$W/java.h" ready 300 || notok "java: the program did not start: $(head -c 300 "$W/java.h")"
	tool javacalls javacalls "$HPID"
	tool javaobjnew javaobjnew "$HPID"
	tool uthreads uthreads -l java "$HPID"
	tool javacallsL javacalls -L "$HPID"
	attached javacalls "Ctrl-C to quit"
	attached javacallsL "Ctrl-C to quit"
	attached javaobjnew "Ctrl-C to quit"
	attached uthreads "^TIME "
	stat_run java "$W/java.h" touch "$W/go"
	sleep 0.3 # (uthreads reads the JVM's buffer at each tick)
	stop javacalls javaobjnew javastat uthreads javacallsL
	rm -f "$W/go"
	check javacalls "UlRt.ulRtMeth calls" "$(count javacalls UlRt.ulRtMeth)" $N
	check javacallsL "-L: UlRt.ulRtMeth calls, header" \
		"$(count javacallsL UlRt.ulRtMeth) $(grep -c '^METHOD  *# CALLS TIME (us)$' "$W/javacallsL.out")" "$N 1"
	# object__alloc's size argument is 0 on HotSpot's fast path: the
	# allocation count only
	check javaobjnew "UlRt\$UlRtObj allocations" "$(count javaobjnew 'UlRt$UlRtObj')" $M
	check javastat "THR/s (thread__start)" "$(stat javastat "$HPID" 6)" $((TH / 3))
	# uthreads -l java: each named thread's start and stop, once, and its
	# native id (N=) a pthread row's ID
	u=$W/uthreads.out
	starts=$(grep -Ec '^[0-9.]+ +R=[0-9]+/N=[0-9]+ +start +ulrt-thread-[0-9]+ *$' "$u")
	stops=$(grep -Ec '^[0-9.]+ +R=[0-9]+/N=[0-9]+ +stop +ulrt-thread-[0-9]+ *$' "$u")
	names=$(awk '$3 == "start" && $4 ~ /^ulrt-thread-/ { print $4 }' "$u" | sort -u | wc -l)
	nat=0
	for tid in $(awk '$3 == "start" && $4 ~ /^ulrt-thread-/ { sub(/.*N=/, "", $2); print $2 }' "$u"); do
		awk -v t="$tid" '$2 == t && $3 == "pthread"' "$u" | grep -q . && nat=$((nat + 1))
	done
	check uthreads "-l java: the named threads' start, stop, distinct names and pthread rows" \
		"$starts $stops $names $nat" "$TH $TH $TH $TH"
	grep -q "^Tracing thread events in process $HPID (language: java)... Ctrl-C to quit.$" "$u" ||
		notok "uthreads -l java: no banner: $(head -c 200 "$u")"
	wait_pid "$HPID" 50 || kill -KILL "$HPID" 2>/dev/null
	wait "$HPID" 2>/dev/null
	HPID=
fi

# --- runtimes Debian builds without USDT probes: named skips (checked,
# so a build that has them says so)
PL=$(command -v perl || true)
LIBPL=$([ -n "$PL" ] && lib "$PL" libperl)
if probed "$LIBPL" sub__entry || probed "$PL" sub__entry; then
	echo "ok - $T: perl # SKIP $PL has USDT probes, but this test has no perl check yet"
else
	echo "ok - $T: perl # SKIP ${PL:-perl: not installed}${LIBPL:+ and $LIBPL}: no USDT probes (Debian builds perl without -Dusedtrace)"
fi
TCL=$(command -v tclsh || true)
LIBTCL=$([ -n "$TCL" ] && lib "$(readlink -f "$TCL")" libtcl)
if probed "$LIBTCL" proc__entry; then
	echo "ok - $T: tcl # SKIP $LIBTCL has USDT probes, but this test has no tcl check yet"
else
	echo "ok - $T: tcl # SKIP ${LIBTCL:-tcl: not installed}: no USDT probes (Debian builds tcl8.6 without --enable-dtrace)"
fi
ND=$(command -v node || true)
if probed "$ND" gc__start || probed "$([ -n "$ND" ] && lib "$ND" libnode)" gc__start; then
	echo "ok - $T: node # SKIP $ND has USDT probes, but this test has no node check yet"
else
	echo "ok - $T: node # SKIP ${ND:-node: not installed}: no USDT probes (Debian's nodejs is built without --with-dtrace)"
fi

# perlstat, nodestat, tclstat: with no probes to count, each still finds
# its language's processes by comm (bcc's rule: the name, or the name and
# a version) and only those: the test runs one "perl", one "node" and one
# "tclsh5.2" (copies of sleep, so no runtime is needed) and each tool
# must attach to exactly its own one, with a row of zeros.
for c in perl node tclsh5.2; do
	cp "$(command -v sleep)" "$W/$c"
	"$W/$c" 30 &
	echo "$!" > "$W/$c.sleeper"
	TPIDS="$TPIDS $!"
done
for l in perl:perl node:node tcl:tclsh5.2; do
	n=${l%%:*} c=${l#*:}
	p=$(cat "$W/$c.sleeper")
	env --default-signal=INT "$CB" "${n}stat" -C -d 1 1 > "$W/$n.st" 2>&1
	r=$? a=$(grep "^Attached to $n processes:" "$W/$n.st")
	row=$(awk -v p="$p" '$1 == p { print $(NF - 5) $(NF - 4) $(NF - 3) $(NF - 2) $(NF - 1) $NF }' "$W/$n.st")
	if [ "$r" = 0 ] && [ "$a" = "Attached to $n processes: $p" ] && [ "$row" = 000000 ]; then
		ok "${n}stat: finds the test's own $c process ($p) by comm, and only it"
	else
		notok "${n}stat: exit $r, '$a' (want 'Attached to $n processes: $p'), row '$row': $(head -c 500 "$W/$n.st")"
	fi
done
[ "$fails" -eq 0 ]
