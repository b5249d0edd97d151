#!/bin/sh
# Terminal and log-line injection across the event tools (issue 22,
# item 4; hostile.sh covers execsnoop, opensnoop, exitsnoop, trace and
# systrace in depth): one process named "\e]0;X\a\nz" (an OSC title
# escape, a newline) does, once, what each tool below watches
# (helpers/hostile_ops.c: a path holding a newline, ESC and a backslash,
# sync, TCP on loopback, a thread, signals, a capability check, SysV shm,
# a hostile host name, a tmpfs on a hostile directory, a contended futex,
# time on and off the CPU).  Every tool runs at once beside it; each must
# show the name escaped (\x1b]0;X\x07\x0az: proof it saw the process)
# and, where it shows paths, the path escaped, with no raw control byte
# in its text output (the top tools' own clear-screen sequence aside),
# and exit 0 on SIGINT; meanwhile each keeps its peak RSS within 2 MiB.
# Run as root from the repository root: sh tests/e2e/hardening_hostile.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-hhostile.XXXXXX)
T=hardening_hostile
fails=0
PIDS=
HPID=
. tests/e2e/lib.sh

cleanup() {
	for p in $PIDS $HPID; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
build_helper hostile_ops -O2 -pthread
mkdir "$W/d"
helper_start "$W/helper" "$W/hostile_ops" "$W/d" || { notok "hostile_ops did not start"; exit 1; }
P=$HPID

# LABEL|WANT|ARGS: WANT is what the text output must hold, escaped:
# n the name, o the name as a folded frame (its ';' as ':'), c its first escapes (a COMM column cut short: cut between
# escapes, never inside one), f the file's name, p its whole path, h the
# host, m the mount point
TOOLS="opensnoop|np|opensnoop -p $P
statsnoop|np|statsnoop -p $P
filelife|nf|filelife -p $P
fileslower|cf|fileslower -p $P 0
syncsnoop|n|syncsnoop
bindsnoop|n|bindsnoop -p $P
solisten|n|solisten -p $P
tcpconnect|c|tcpconnect -p $P
tcpaccept|c|tcpaccept -p $P
tcplife|n|tcplife -p $P
tcpconnlat|c|tcpconnlat -p $P
tcptracer|c|tcptracer -p $P
tcpstates|c|tcpstates
threadsnoop|n|threadsnoop
killsnoop|n|killsnoop -p $P
sigsnoop|n|sigsnoop -p $P
capable|n|capable -p $P
mmapsnoop|cf|mmapsnoop -p $P
shmsnoop|n|shmsnoop -p $P
gethostlatency|nh|gethostlatency -p $P
mountsnoop|nm|mountsnoop
profile|n|profile -p $P
profile_f|o|profile -f -p $P
offcputime|n|offcputime -p $P
wakeuptime|n|wakeuptime
offwaketime|n|offwaketime
stackcount|n|stackcount -P t:syscalls:sys_enter_fsync
filetop|nf|filetop -C -p $P 1
tcptop|c|tcptop -C -p $P 1
runqslower|n|runqslower -p $P 1
futexctn|n|futexctn -p $P
biosnoop|c|biosnoop
faults|n|faults -p $P
brkstack|n|brkstack -p $P
tcppktlat|n|tcppktlat -p $P
offwaketime_f|o|offwaketime -f
wakeuptime_f|o|wakeuptime -f
stackcount_f|o|stackcount -f -P t:syscalls:sys_enter_fsync
funcslower|c|funcslower -u 1 -p $P c:getaddrinfo
argdist|p|argdist -p $P -C t:syscalls:sys_enter_openat():char*:args->filename"

# start LABEL ARGS...: the tool in the background ($W/LABEL, .err), its
# pid in PID_LABEL
start() {
	l=$1
	shift
	"$CB" "$@" > "$W/$l" 2> "$W/$l.err" &
	PIDS="$PIDS $!"
	eval "PID_$l=$!"
}
# ready LABEL: its output or banner started (the originals print them
# once attached), or it holds BPF links and their number stopped growing
# (15 s)
ready() {
	eval "p=\$PID_$1"
	i=0 last=0
	while [ $i -lt 150 ] && kill -0 "$p" 2>/dev/null; do
		[ -s "$W/$1" ] || grep -q -e Tracing -e Sampling "$W/$1.err" && return 0
		n=$(cat /proc/"$p"/fdinfo/* 2>/dev/null | grep -c '^link_id:')
		[ "$n" -gt 0 ] && [ "$n" = "$last" ] && return 0
		last=$n
		sleep 0.1
		i=$((i + 1))
	done
	notok "$1: not ready: $(head -c 300 "$W/$1.err" | tr '\n' ' ')"
	return 1
}

echo "$TOOLS" > "$W/list"
while IFS='|' read -r l want args; do
	# shellcheck disable=SC2086
	start "$l" $args
done < "$W/list"
while IFS='|' read -r l want args; do ready "$l"; done < "$W/list"
kill -USR1 "$P"
wait_for "$W/helper" '^done' 150 || notok "hostile_ops did not finish: $(cat "$W/helper")"
sleep 1.5 # (filetop and tcptop report each second)
# every tool within 2 MiB of peak RSS under this load (issue 22 item 12)
big=
while IFS='|' read -r l want args; do
	eval "p=\$PID_$l"
	hwm=$(awk '/^VmHWM:/ { print $2 }' /proc/"$p"/status 2>/dev/null)
	[ -n "$hwm" ] && [ "$hwm" -gt 2048 ] && big="$big $l:${hwm}KiB"
done < "$W/list"
if [ -n "${ASAN_OPTIONS:-}" ]; then echo "ok - $T: peak RSS # SKIP a sanitizer build (tests/asan.sh)"
elif [ -z "$big" ]; then ok "every tool's peak RSS within 2 MiB"
else notok "peak RSS above 2 MiB:$big"; fi
for p in $PIDS; do kill -INT "$p"; done
while IFS='|' read -r l want args; do
	eval "p=\$PID_$l"
	if wait_exit "$p" 50; then
		wait "$p"
		rc=$?
		[ $rc = 0 ] || notok "$l: exit status $rc after SIGINT: $(head -c 300 "$W/$l.err" | tr '\n' ' ')"
	else
		notok "$l: still running 5 s after SIGINT"
		kill -KILL "$p"
	fi
done < "$W/list"
PIDS=
helper_stop

NAME='\x1b]0;X\x07\x0az'
BASE='cbx\x0afake\x1b[2J\\f'
CTL=$(printf '[\001-\010\013-\037\177]')
CLEAR=$(printf '\033\\[H\033\\[2J')
while IFS='|' read -r l want args; do
	f=$W/$l
	miss=
	case $want in *n*) grep -qF -- "$NAME" "$f" || miss="$miss the name" ;; esac
	case $want in *o*) grep -qF -- '\x1b]0:X\x07\x0az;' "$f" || miss="$miss the name as a folded frame" ;; esac
	case $want in *c*) grep -qF -- '\x1b]0;X' "$f" || miss="$miss the name's start" ;; esac
	# (a column cut inside an escape: "\x1b]0;X\x" or "\x1b]0;X\x0")
	grep -a ']0;X' "$f" | grep -qE '\\x([^0-9a-f]|.[^0-9a-f]|.?$)' && miss="$miss (whole escapes: one is cut)"
	case $want in *f*) grep -qF -- "$BASE" "$f" || miss="$miss the file name" ;; esac
	case $want in *p*) grep -qF -- "$W/d/$BASE" "$f" || miss="$miss the path" ;; esac
	case $want in *h*) grep -qF -- 'cbx\x1b]0;H\x07.invalid' "$f" || miss="$miss the host" ;; esac
	case $want in *m*) grep -qF -- "$W/d/$NAME" "$f" || miss="$miss the mount point" ;; esac
	raw=$(sed "s/$CLEAR//g" "$f" | LC_ALL=C grep -n "$CTL" | head -2 | cat -v | tr '\n' '|')
	if [ -z "$miss" ] && [ -z "$raw" ]; then ok "$l: escaped, no raw control byte"
	else notok "$l:${miss:+ no escaped$miss;}${raw:+ raw control bytes: $raw} ($(grep -ac . "$f") lines: $(grep -a -e cbx -e 'X' "$f" | head -2 | cat -v | tr '\n' '|'))"; fi
done < "$W/list"
[ "$fails" = 0 ]
