#!/bin/sh
# Signals at random moments of start-up (issue 22, "checks that keep it
# so"): 20 tools, 5 rounds; each round starts them all at once and sends
# each one SIGINT, SIGTERM or SIGHUP after its own random delay (0 to
# 700 ms: while it parses, opens BTF, loads, attaches or has just begun),
# 100 signals in all.  Each must end within 5 s with status 0 (its
# handler ran) or 128+SIG (the signal came before the handler existed,
# which is the default action, not a hang or an error), and every BPF
# program and link it was seen holding (its /proc/PID/fdinfo, sampled
# while it ran) must be gone after; no corebox entry is left in
# kprobe_events/uprobe_events and no tracefs mount is added.  The random
# seed is printed (CBX_SEED=N repeats a run).
# The tools start with the default dispositions, as from an interactive
# shell or a supervisor: a script's background job inherits SIGINT
# ignored (no job control), and a SIGINT that comes before a tool's
# handler is installed is then lost, by that convention (env
# --default-signal undoes it; without it only SIGTERM and SIGHUP are sent).
# That convention is checked on its own: started with SIGINT ignored, a
# tool whose handler comes after loading must still end on an early
# SIGINT (corebox resets the inherited ignore to the default).
# Run as root from the repository root: sh tests/e2e/hardening_signals.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-signals.XXXXXX)
T=hardening_signals
fails=0
PIDS=
. tests/e2e/lib.sh

cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null; done
	[ -n "${KEEP:-}" ] || rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
bpf_count_build
SEED=${CBX_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
TOOLS="execsnoop
opensnoop -p 1
exitsnoop
biolatency
runqlat
profile
offcputime
syscount
trace t:syscalls:sys_enter_openat
funccount t:syscalls:sys_enter_open*
stackcount t:sched:sched_switch
argdist -C t:sched:sched_switch():int:args->prev_pid
systrace -e openat
tcpconnect
cachestat
filetop -C
threadsnoop
gethostlatency
mountsnoop
hardirqs"
echo "$TOOLS" > "$W/tools"
ntools=$(wc -l < "$W/tools")
# rounds x tools lines: "delay_ms signal"
DFL="env --default-signal=INT,QUIT"
SIGS="INT TERM HUP"
$DFL true 2> /dev/null || { DFL=; SIGS="TERM HUP"; }
awk -v seed="$SEED" -v n=$((5 * ntools)) -v sigs="$SIGS" 'BEGIN {
	srand(seed); k = split(sigs, s, " ")
	for (i = 0; i < n; i++) printf "%d %s\n", int(rand() * 700), s[1 + int(rand() * k)]
}' > "$W/plan"
tracefs_events() { cat /sys/kernel/tracing/kprobe_events /sys/kernel/tracing/uprobe_events 2>/dev/null | grep -c corebox; }
ev0=$(tracefs_events)
mnt0=$(grep -c ' tracefs ' /proc/mounts)
: > "$W/seen"
bad='' nrun=0 n0=0

# the ids of the BPF programs and links the running tools hold, one grep
sample() {
	for p in $PIDS; do echo /proc/"$p"/fdinfo/*; done > "$W/fdfiles"
	# shellcheck disable=SC2046
	grep -h -s -E '^(prog|link)_id:' $(cat "$W/fdfiles") | sed 's/_id:[[:space:]]*/ /' >> "$W/seen"
}

round=0
while [ $round -lt 5 ]; do
	PIDS=
	i=0
	while IFS= read -r cmd; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		$DFL "$CB" $cmd > /dev/null 2> "$W/err.$round.$i" &
		PIDS="$PIDS $!"
		echo "$! $i $(sed -n "$((round * ntools + i))p" "$W/plan")" >> "$W/runs.$round"
	done < "$W/tools"
	# one signal per tool at its moment; the fdinfo of the running ones
	# sampled every ~20 ms meanwhile
	start=$(date +%s%N)
	pending=$ntools
	while [ "$pending" -gt 0 ]; do
		now=$((($(date +%s%N) - start) / 1000000))
		pending=0
		while read -r pid idx ms sig; do
			if [ ! -e "$W/sent.$round.$idx" ]; then
				if [ "$now" -ge "$ms" ]; then
					kill -"$sig" "$pid" 2>/dev/null
					echo "$now" > "$W/sent.$round.$idx"
				else pending=$((pending + 1)); fi
			fi
		done < "$W/runs.$round"
		sample
		sleep 0.02
	done
	while read -r pid idx ms sig; do
		nrun=$((nrun + 1))
		if ! wait_exit "$pid" 50; then
			bad="$bad [round $round: $(sed -n "${idx}p" "$W/tools") still running 5 s after SIG$sig at $ms ms]"
			kill -KILL "$pid" 2>/dev/null
			continue
		fi
		wait "$pid"
		rc=$?
		case $sig in INT) k=130 ;; TERM) k=143 ;; HUP) k=129 ;; esac
		[ $rc = 0 ] && n0=$((n0 + 1))
		if [ "$rc" != 0 ] && [ "$rc" != "$k" ]; then
			bad="$bad [round $round: $(sed -n "${idx}p" "$W/tools"), SIG$sig at $ms ms: status $rc: $(head -c 200 "$W/err.$round.$idx" | tr '\n' ' ')]"
		fi
	done < "$W/runs.$round"
	round=$((round + 1))
done
PIDS=

if [ -z "$bad" ]; then ok "$nrun signals at random start-up moments (seed $SEED): each tool ended with 0 ($n0) or the signal's default status"
else notok "seed $SEED:$bad"; fi

sort -u "$W/seen" > "$W/ours"
# (snoop_left: the kernel frees some a little after the holder exits)
i=0
while :; do
	"$W/bpf_count" > "$W/after"
	left=$(awk 'NR == FNR { want[$1 " " $2] = 1; next } ($1 == "prog" || $1 == "link") && ($1 " " $2) in want' "$W/ours" "$W/after")
	[ -z "$left" ] || [ $i -ge 50 ] && break
	sleep 0.1
	i=$((i + 1))
done
nprog=$(grep -c '^prog ' "$W/ours")
nlink=$(grep -c '^link ' "$W/ours")
if [ "$nprog" -lt 5 ]; then notok "only $nprog BPF programs seen held by the tools (sampling found too little to judge)"
elif [ -z "$left" ]; then ok "$nprog programs and $nlink links seen held, none left after the tools exited"
else notok "left after exit: $(echo "$left" | head -5 | tr '\n' '|')"; fi
# A background job of a script inherits SIGINT ignored; tools that set
# their handler after loading lost a SIGINT sent before it and ran on.
# corebox resets an inherited ignore to the default when a tool starts:
# between that and the handler SIGINT is neither ignored nor caught (the
# old code went straight from ignored to caught).  Seen for each of five
# such tools (up to 10 tries), then SIGINT there must end it.
for t in cachestat loads biolatency smpcalls softirqs; do
	seen='' try=0
	while [ -z "$seen" ] && [ $try -lt 10 ]; do
		try=$((try + 1))
		# --btf: the kernel's own BTF read as a file, so the tool's loader
		# parses 5 MB between the reset and the handler (a window the
		# polls below see; with the kernel applying CO-RE it is ~2 ms)
		"$CB" $t --btf /sys/kernel/btf/vmlinux > /dev/null 2>&1 &
		p=$!
		i=0
		# (read by the shell's builtins, no fork per look; only once the
		# job has exec'd corebox: dash's forked child, before it ignores
		# SIGINT, shows neither bit with SIGINT blocked, and a SIGINT
		# sent then is dropped)
		while [ $i -lt 3000 ]; do
			i=$((i + 1))
			kill -0 "$p" 2>/dev/null || break
			comm='' ign='' cgt=''
			{ read -r comm < /proc/"$p"/comm; } 2>/dev/null
			case $comm in corebox*) ;; *) continue ;; esac
			{ while read -r k v; do
				case $k in SigIgn:) ign=$v ;; SigCgt:) cgt=$v; break ;; esac
			done < /proc/"$p"/status; } 2>/dev/null
			[ -n "$cgt" ] || continue
			[ $((0x$cgt & 2)) != 0 ] && break # the handler is in
			if [ $((0x$ign & 2)) = 0 ]; then seen=1; kill -INT "$p"; break; fi
		done
		if [ -n "$seen" ] && wait_exit "$p" 50; then
			wait "$p"; rc=$?
		else
			kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; rc=killed
		fi
	done
	if [ -n "$seen" ] && { [ "$rc" = 130 ] || [ "$rc" = 0 ]; }; then ok "$t started with SIGINT ignored: the default until its handler, a SIGINT then ends it ($rc)"
	elif [ -n "$seen" ]; then notok "$t: a SIGINT before its handler: $rc"
	else notok "$t started with SIGINT ignored went from ignored straight to caught (an early SIGINT is lost)"; fi
done

if [ "$(tracefs_events)" = "$ev0" ]; then ok "no corebox kprobe/uprobe event left in tracefs"
else notok "corebox events left in tracefs: $(grep corebox /sys/kernel/tracing/kprobe_events /sys/kernel/tracing/uprobe_events | head -3)"; fi
if [ "$(grep -c ' tracefs ' /proc/mounts)" = "$mnt0" ]; then ok "no tracefs mount added"
else notok "tracefs mounts: $mnt0 -> $(grep -c ' tracefs ' /proc/mounts)"; fi
[ "$fails" = 0 ]
