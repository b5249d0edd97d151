#!/bin/sh
# corebox bpftrace beside Debian's bpftrace 0.17 (when installed), as
# bpftrace_oracle.sh, for the language outside the map functions: printf
# and its escapes, argument counts and types, positional parameters,
# statements.  PROGS: stdout compared byte for byte (text and -f json);
# ERRS: stdout, stderr and the exit code.  A line may end in a tab and the
# positional parameters ($1...) to pass.  The one difference allowed: comm
# is the running binary's name.
# Run as root from the repository root: sh tests/e2e/bpftrace_lang.sh
set -u
CB=${COREBOX:-./corebox}
T=bpftrace_lang
W=$(mktemp -d /tmp/cbx-btl.XXXXXX)
fails=0
. tests/e2e/lib.sh
trap 'rm -rf "$W"' EXIT
need_corebox
if ! command -v bpftrace >/dev/null 2>&1; then
	echo "ok - $T # SKIP bpftrace is not installed (apt-get install bpftrace)"
	exit 0
fi
TAB=$(printf '\t')

n=0
while IFS= read -r prog; do
	n=$((n + 1))
	params=
	case $prog in *"$TAB"*) params=${prog#*"$TAB"} prog=${prog%%"$TAB"*}; esac
	for fmt in text json; do
		# shellcheck disable=SC2086 # the parameters are words
		timeout 10 bpftrace -f $fmt -e "$prog" $params 2>/dev/null | sed 's/bpftrace/COMM/g' > "$W/want" ||:
		# shellcheck disable=SC2086
		timeout 10 $CB bpftrace -f $fmt -e "$prog" $params 2>/dev/null | sed 's/corebox/COMM/g' > "$W/got" ||:
		if cmp -s "$W/want" "$W/got"; then
			ok "program $n ($fmt)"
		else
			notok "program $n ($fmt): $prog"
			diff "$W/want" "$W/got" | head -10 | sed 's/^/#   /'
		fi
	done
done <<'PROGS'
BEGIN { printf("\101\102|\60\061|\x41|\7|\n"); @["\101\102"] = 1; exit(); }
BEGIN { printf("%s %s %d %d\n", str($1), str($2), $#, $3); exit(); }	abc 12 -3
PROGS
while IFS= read -r prog; do
	n=$((n + 1))
	params=
	case $prog in *"$TAB"*) params=${prog#*"$TAB"} prog=${prog%%"$TAB"*}; esac
	# shellcheck disable=SC2086
	timeout 10 bpftrace -e "$prog" $params > "$W/w0" 2>&1
	echo "rc $?" >> "$W/w0"
	grep -v RLIMIT_MEMLOCK "$W/w0" | sed 's/bpftrace/COMM/g' > "$W/want"
	# shellcheck disable=SC2086
	timeout 10 $CB bpftrace -e "$prog" $params > "$W/g0" 2>&1
	echo "rc $?" >> "$W/g0"
	sed 's/corebox/COMM/g' "$W/g0" > "$W/got"
	if cmp -s "$W/want" "$W/got"; then ok "error $n"; else notok "error $n: $prog"; diff "$W/want" "$W/got" | head -10 | sed 's/^/#   /'; fi
done <<'ERRS'
BEGIN { str(); }
BEGIN { ntop(1, 2, 3); }
BEGIN { time("%H", 2); exit(); }
BEGIN { ksym(1, 2); exit(); }
BEGIN { strftime("%H"); }
BEGIN { if (pton()) { exit(); } }
BEGIN { exit(1); }
BEGIN { printf("%s\n", 1 + 2); exit(); }
BEGIN { @m = 1; printf("%s|%d\n", @m, 2); exit(); }
BEGIN { $t = (1, 2); printf("%s\n", $t); exit(); }
BEGIN { printf("%d\n", (1, "a")); exit(); }
BEGIN { cat("%d", "a"); exit(); }
BEGIN { printf(comm); exit(); }
BEGIN { cat(1); exit(); }
BEGIN { printf("%s\n", $1); exit(); }	7
BEGIN { unroll(0) { printf("x\n"); } exit(); }
BEGIN { unroll( 200 ) { printf("x\n"); } exit(); }
BEGIN { unroll($1) { printf("x\n"); } exit(); }	101
BEGIN { printf("%d\n", $1); exit(); }	abc
BEGIN { @[$2] = count(); exit(); }	1 x2
BEGIN { $a = 1; $a = "s"; }
tracepoint:syscalls:sys_enter_openat { printf("%d\n", args->nosuch); }
tracepoint:sched:sched_switch { @[args->nofield] = count(); }
BEGIN { @x = ; }
BEGIN { if (1 + ) { exit(); } }
ERRS
echo "# $n programs"
[ $fails = 0 ]
