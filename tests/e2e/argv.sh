#!/bin/sh
# Hostile command lines (issue 22, "checks that keep it so"): every line
# of tests/e2e/argv_vectors.txt (bogus flags, missing arguments, huge and
# negative numbers, empty strings, control bytes, very long strings, `--`,
# repeated options) replayed against every applet `corebox --list` names.
# Each must be refused the way a usage error is: exit 1 or 2 (never 0,
# never a signal), within a bound (TIMEOUT s: a refused line starts no
# tracing), nothing on stdout, an error of one line on stderr (naming the
# applet; more lines only for the "Try 'NAME --help'" hint or for a probe
# text with a caret under the error), no raw control byte in either
# (systrace runs its arguments as a command: it may trace that command's
# failed execve and exit 127 or 126, as documented), and nothing left behind afterwards: no process
# of the binary still running, no BPF object held by one, kprobe_events
# and uprobe_events as they were.
# COREBOX=BINARY runs it against another build (tests/asan.sh: the
# ASan+UBSan one).  Prints one ok/not ok line per applet and a summary
# with the counts tried and failed.
# Run as root from the repository root: sh tests/e2e/argv.sh
set -u
CB=${COREBOX:-./corebox}
W=$(mktemp -d /tmp/cbx-argv.XXXXXX)
T=argv
fails=0
TIMEOUT=${ARGV_TIMEOUT:-5}
. tests/e2e/lib.sh

cleanup() { [ -n "${KEEP:-}" ] || rm -rf "$W"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

need_corebox
VECTORS=tests/e2e/argv_vectors.txt
exe=$(readlink -f "$CB")
long=$(printf '%4096s' '' | tr ' ' A)
TRACEFS=/sys/kernel/tracing
[ -d $TRACEFS/events ] || TRACEFS=/sys/kernel/debug/tracing
probe_events() { cat $TRACEFS/kprobe_events $TRACEFS/uprobe_events 2>/dev/null; }
probe_events > "$W/events.before"

# ours: the pids of live processes running the binary under test (but
# those that ran before this test: another test's, not ours to judge)
ours() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/exe" 2>/dev/null)" = "$exe" ] && echo "${p#/proc/}"
	done | grep -vxF -f "$W/ours.before"
}
: > "$W/ours.before"
ours > "$W/ours.before.new"
mv "$W/ours.before.new" "$W/ours.before"

# The vectors, decoded once: vN (N = 1..nv) is line N's arguments quoted
# for eval, lineN the line as written (for the report).
quote() {
	r=$(printf '%s_' "$1" | sed "s/'/'\\\\''/g")
	printf "'%s'" "${r%_}"
}
nv=0
while IFS= read -r line; do
	case $line in '#'* | '') continue ;; esac
	q=
	for a in $line; do
		case $a in
		"''") a= ;;
		*'{long}'*) a=$(printf '%s' "$a" | sed "s/{long}/$long/") ;;
		*) a=$(printf '%b_' "$a"); a=${a%_} ;; # (_: keep a trailing newline)
		esac
		q="$q $(quote "$a")"
	done
	nv=$((nv + 1))
	eval "v$nv=\$q line$nv=\$line"
done < "$VECTORS"

# judge APPLET: what is wrong with the refusals listed in $W/APPLET.todo
# (lines "N RAN": vector N was refused with exit 1 or 2, its output in
# $W/APPLET.N.err and .out; RAN: stdout may hold output), one line
# "N PROBLEM" each; nothing printed: every one was refused right.  One
# awk for all of an applet's vectors (one per vector was a third of the
# run's processes).
judge() {
	LC_ALL=C awk -v a="$1" -v w="$W" '
	function check(f, ran,   n, c, o, line) {
		n = 0; c = 0; o = 0; split("", l)
		while ((getline line < (f ".err")) > 0) { l[++n] = line; if (line ~ /[[:cntrl:]]/) c = 1 }
		close(f ".err")
		while ((getline line < (f ".out")) > 0) { o = 1; if (line ~ /[[:cntrl:]]/) c = 1 }
		close(f ".out")
		if (o && !ran) return "wrote to stdout"
		if (!n) return "no error message"
		# bpftrace words its errors as bpftrace 0.17 does ("ERROR: ..."):
		# scripts written for it match on that
		if (index(l[1], a ": ") != 1 && !(a == "bpftrace" && index(l[1], "ERROR: ") == 1))
			return "error does not name the applet"
		# the two further lines allowed: a --help hint, a probe text with a caret under it
		if (n == 2 && index(l[2], "Try '\''" a " --help'\''") == 1) n = 1
		if (n == 3 && l[2] ~ /^  / && l[3] ~ /^ *\^$/) n = 1
		# bpftrace follows a bad option with its USAGE block, as 0.17 does
		if (a == "bpftrace" && n > 2 && l[2] == "USAGE:") n = 1
		if (n > 1) return n " lines on stderr"
		if (c) return "raw control byte in the output"
		return ""
	}
	{ what = check(w "/" a "." $1, $2); if (what != "") print $1 " " what }
	' "$W/$1.todo"
}

# report APPLET N WHAT: append vector N's problem to $W/APPLET.bad (one
# line); an applet without one refused every line right
report() {
	eval "line=\$line$2"
	printf '%s %s: %s: %s\n' "$1" "$line" "$3" \
		"$(head -c 200 "$W/$1.$2.err" | LC_ALL=C tr -c '[:print:]' '?')" >> "$W/$1.bad"
}

# replay APPLET N: run APPLET with vector N, its output in $W/APPLET.N.out
# and .err; a refusal (exit 1 or 2) goes to $W/APPLET.todo for judge,
# anything else is reported at once
replay() {
	applet=$1 vec=$2
	eval "q=\$v$vec"
	eval "set -- $q"
	timeout -s KILL "$TIMEOUT" "$CB" "$applet" "$@" > "$W/$applet.$vec.out" 2> "$W/$applet.$vec.err" < /dev/null
	rc=$?
	ran=0
	case $rc in
	1 | 2) what= ;;
	126 | 127) # systrace's arguments are a command, traced as it fails to
		# start (its execve on stdout); 127/126: it could not be run
		[ "$applet" = systrace ] && ran=1 what= || what="exit $rc" ;;
	137) what="still running after ${TIMEOUT} s (killed)" ;;
	0) what="accepted (exit 0)" ;;
	*) what="exit $rc" ;;
	esac
	if [ -z "$what" ]; then echo "$vec $ran" >> "$W/$applet.todo"; else report "$applet" "$vec" "$what"; fi
}

applets=$("$CB" --list) || { notok "$CB --list failed"; exit 1; }
# ARGV_ONLY / ARGV_SKIP (applet names): a part of them (tests/run.sh
# replays all but systrace, which traces the command its arguments name,
# against corebox-asan in the background, and systrace's in the foreground)
if [ -n "${ARGV_ONLY:-}" ]; then
	applets=$(for a in $applets; do case " $ARGV_ONLY " in *" $a "*) echo "$a" ;; esac; done)
fi
if [ -n "${ARGV_SKIP:-}" ]; then
	applets=$(for a in $applets; do case " $ARGV_SKIP " in *" $a "*) ;; *) echo "$a" ;; esac; done)
fi
# One worker per core, each with every N-th applet (the lines are refused
# before any tracing starts and each applet has its own files: the
# workers cannot disturb each other's results); reported in list order.
workers=$(nproc)
k=0
pids=
while [ $k -lt "$workers" ]; do
	(
		j=0
		for applet in $applets; do
			if [ $((j % workers)) = $k ]; then
				: > "$W/$applet.bad"
				: > "$W/$applet.todo"
				i=1
				while [ $i -le $nv ]; do
					replay "$applet" $i
					i=$((i + 1))
				done
				judge "$applet" | while read -r vec what; do
					report "$applet" "$vec" "$what"
				done
				: > "$W/$applet.done"
			fi
			j=$((j + 1))
		done
	) &
	pids="$pids $!"
	k=$((k + 1))
done
# each applet's result as soon as it is in (what finished is reported
# also when a timeout stops this script)
running() {
	for p in $pids; do kill -0 "$p" 2>/dev/null && return 0; done
	return 1
}
tried=0 failed=0
for applet in $applets; do
	tried=$((tried + nv))
	while [ ! -f "$W/$applet.done" ] && running; do sleep 0.1; done
	if [ ! -f "$W/$applet.done" ]; then
		notok "$applet: the replay did not finish"
		continue
	fi
	bad=$(wc -l < "$W/$applet.bad")
	if [ "$bad" = 0 ]; then
		ok "$applet refuses every hostile line"
	else
		notok "$applet: $bad hostile lines not refused:"
		sed 's/^/    /' "$W/$applet.bad"
		failed=$((failed + bad))
	fi
done
for p in $pids; do wait "$p"; done

# nothing left behind: the timeout killed what hung, but a child it forked
# or a probe it made could outlive it
left=$(ours)
if [ -n "$left" ]; then
	notok "processes of $CB still running: $left"
	for p in $left; do bpf_ids "$p" | sed "s/^/    $p holds /"; kill -KILL "$p"; done
else
	ok "no process of $CB left running"
fi
probe_events > "$W/events.after"
if cmp -s "$W/events.before" "$W/events.after"; then
	ok "kprobe_events and uprobe_events unchanged"
else
	notok "kprobe_events/uprobe_events changed: $(diff "$W/events.before" "$W/events.after" | head -5)"
fi
echo "# $T: $tried command lines tried over $(echo $applets | wc -w) applets, $failed not refused"
[ "$fails" = 0 ]
