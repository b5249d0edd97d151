#!/bin/sh
# javagc end to end.  No JVM is installed here (default-jre-headless is
# ~190 MB), so the JVM is a stand-in: a helper linked to a shared library
# named libjvm.so (tests/e2e/helpers/cbx_libjvm.c) whose USDT probes carry
# hotspot's provider and names; javagc finds it in /proc/PID/maps as it
# finds a real JVM's.  The helper runs 4 collections of 20 ms through
# gc__begin/gc__end, 3 through mem__pool__gc__begin/end and 10 with no
# pause: with the default 1000 us threshold javagc must print exactly 7
# rows of about 20 ms, with -t 0 all 17, with -t 30000 none; -j gives 7
# JSON events.  Side by side with libbpf-tools' javagc when installed:
# the same rows (count, PID) and header.  Plus usage errors and a process
# without libjvm.so (one line, exit 1).
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cb-javagc.XXXXXX)
T=javagc
fails=0
HPID= TPID= OPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $TPID $OPID $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT INT TERM
need_corebox
if ! echo '#include <sys/sdt.h>' | $CC -E - > /dev/null 2>&1; then
	notok "sys/sdt.h missing (systemtap-sdt-dev: tests/install-deps.sh)"
	exit 1
fi
$CC -O2 -shared -fPIC -o "$W/libjvm.so" tests/e2e/helpers/cbx_libjvm.c &&
	$CC -O2 -o "$W/cbx_javagc" tests/e2e/helpers/cbx_javagc.c -L"$W" -ljvm -Wl,-rpath,"$W" ||
	{ notok "cannot build the libjvm.so stand-in"; exit 1; }
ORACLE=
[ -x /usr/sbin/javagc ] && command -v stdbuf > /dev/null && ORACLE=/usr/sbin/javagc

# run NAME ARGS...: helper, corebox javagc -p PID ARGS (and the oracle with
# the same arguments when installed), the collections, SIGINT
run() {
	name=$1
	shift
	helper_start "$W/$name.helper" "$W/cbx_javagc" 4 3 10 || { notok "$name: helper did not start"; return 1; }
	"$CB" javagc -p "$HPID" "$@" > "$W/$name.out" 2> "$W/$name.err" &
	TPID=$!
	case " $* " in *" -j "*) ;; *) [ -n "$ORACLE" ] && ORUN=1 ;; esac
	if [ -n "${ORUN:-}" ]; then
		ORUN=
		# (line-buffered: its header says it has attached)
		stdbuf -oL "$ORACLE" -p "$HPID" "$@" > "$W/$name.oracle" 2> "$W/$name.oerr" &
		OPID=$!
	fi
	hf=$W/$name.out
	case " $* " in *" -j "*) hf=$W/$name.err ;; esac
	if ! wait_for "$hf" 'GC TIME' 150; then
		notok "$name: no header: $(head -c 300 "$W/$name.err")"
		return 1
	fi
	if [ -n "$OPID" ] && ! wait_for "$W/$name.oracle" 'GC TIME' 150; then
		notok "$name: libbpf-tools' javagc did not start: $(head -c 200 "$W/$name.oerr")"
		kill -KILL "$OPID" 2>/dev/null; OPID=
	fi
	if [ -n "$OPID" ]; then
		kill -USR1 "$HPID"
		wait_for "$W/$name.helper" '^done' 100
		sleep 0.3
		kill -INT "$OPID"
		reap "$OPID" 50
		OPID= # (helper_finish's SIGUSR1 then finds the helper done)
	fi
	helper_finish "$name" 50
	[ "$(cat "$W/$name.rc")" = 0 ] || notok "$name: exit status $(cat "$W/$name.rc") after SIGINT"
	return 0
}

rows() { grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} [0-9 ]{7} [0-9 ]{7} [0-9]+ *$' "$1"; }

if run def; then
	n=$(rows "$W/def.out")
	near=$(awk 'NR > 2 && $4 >= 20000 && $4 < 1000000' "$W/def.out" | wc -l)
	if [ "$n" = 7 ] && [ "$near" = 7 ]; then ok "default threshold: the 7 pauses of 20 ms, not the 10 without one"
	else notok "default: $n rows ($near of >= 20000 us): $(tr '\n' '|' < "$W/def.out")"; fi
	if [ "$(sed -n 1p "$W/def.out")" = "Tracing javagc time... Hit Ctrl-C to end." ] &&
		[ "$(sed -n 2p "$W/def.out")" = "TIME     CPU     PID     GC TIME" ]; then ok "libbpf-tools' banner and header"
	else notok "header: $(head -2 "$W/def.out" | tr '\n' '|')"; fi
	if [ -n "$ORACLE" ] && [ -s "$W/def.oracle" ]; then
		if [ "$(rows "$W/def.oracle")" = "$n" ] && [ "$(head -2 "$W/def.oracle")" = "$(head -2 "$W/def.out")" ] &&
			[ "$(awk 'NR > 2 { print $3 }' "$W/def.oracle" | sort -u)" = "$(awk 'NR > 2 { print $3 }' "$W/def.out" | sort -u)" ]; then
			ok "side by side with libbpf-tools' javagc: same header, $n rows for the same PID"
		else notok "oracle differs: $(tr '\n' '|' < "$W/def.oracle")"; fi
	fi
fi
if run all -t 0; then
	n=$(rows "$W/all.out")
	[ "$n" = 17 ] && ok "-t 0: all 17 collections" || notok "-t 0: $n rows: $(tr '\n' '|' < "$W/all.out")"
fi
if run none -t 30000; then
	n=$(rows "$W/none.out")
	[ "$n" = 0 ] && ok "-t 30000: none of the 20 ms pauses" || notok "-t 30000: $n rows"
fi
if run json -j; then
	n=$(grep -c '"gc_time_us":' "$W/json.out")
	[ "$n" = 7 ] && ok "-j: 7 JSON events" || notok "-j: $n events: $(head -c 300 "$W/json.out")"
fi

"$CB" javagc > /dev/null 2>&1; a=$?
"$CB" javagc -p 1 -t x > /dev/null 2>&1; b=$?
"$CB" javagc -p $$ > /dev/null 2> "$W/nojvm"; c=$?
if [ $a = 2 ] && [ $b = 2 ]; then ok "usage errors exit 2 (no -p, a bad -t)"; else notok "usage: $a $b"; fi
if [ $c = 1 ] && [ "$(wc -l < "$W/nojvm")" = 1 ] && grep -q 'no libjvm.so' "$W/nojvm"; then ok "no libjvm.so: $(cat "$W/nojvm")"
else notok "no libjvm.so: rc $c: $(head -c 200 "$W/nojvm")"; fi
"$CB" javagc -h | grep -q '^Usage: javagc' && ok "-h" || notok "-h"
"$CB" javagc -V | grep -q corebox && ok "-V" || notok "-V"
exit $((fails > 0))
