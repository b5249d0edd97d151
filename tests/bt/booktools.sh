#!/bin/sh
# Side by side: each bpftrace book tool (/usr/sbin/*.bt, Debian's bpftrace
# package) run at the same time by bpftrace 0.17 and by corebox's bpftrace
# applet, over one short shared workload, then classified:
#   same layout    the header lines match exactly and every output line shape
#                  (digits -> N, map keys -> K, blank runs squeezed) is shared
#   differs        with what differs
#   corebox fails  with corebox's first error line
#   bpftrace fails bpftrace 0.17 itself fails on this kernel (first error line)
# A measurement tool, not part of make check: ~4 s a tool, < 3 min in all.
#   sh tests/bt/booktools.sh [-k KEEPDIR] COREBOX [TOOL.bt...]
keep=
[ "$1" = -k ] && { keep=$2; shift 2; }
[ $# -ge 1 ] || { echo "usage: booktools.sh [-k KEEPDIR] COREBOX [TOOL.bt...]" >&2; exit 2; }
cb=$1; shift
case $cb in /*) ;; *) cb=$PWD/$cb ;; esac
bt=$(command -v bpftrace) || { echo "booktools.sh: skip: bpftrace is not installed (apt-get install bpftrace)" >&2; exit 0; }
[ $# -gt 0 ] || set -- /usr/sbin/*.bt
[ -e "$1" ] || { echo "booktools.sh: skip: no book tools in /usr/sbin" >&2; exit 0; }
work=${keep:-${TMPDIR:-/tmp}/corebox-bt-book.$$}
mkdir -p "$work/bin"
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
ln -sf "$cb" "$work/bin/bpftrace"

# A little of everything the tools watch: execs, opens, stats, reads and a
# synced write, a sleep, a signal, a setuid-free uid change attempt, a
# loopback TCP connect and accept, a DNS-style lookup, a fork burst.
workload() {
	for i in 1 2 3; do ls -l / >/dev/null; cat /etc/passwd >/dev/null; stat /etc >/dev/null; done
	dd if=/dev/zero of="$work/io" bs=4k count=32 oflag=sync 2>/dev/null; sync; rm -f "$work/io"
	sleep 0.2 & kill -0 $! 2>/dev/null; wait $!
	getent hosts localhost >/dev/null 2>&1
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen(1)
c=socket.create_connection(s.getsockname()); a,_=s.accept(); a.send(b"x"); c.recv(1); a.close(); c.close()' 2>/dev/null
	for i in 1 2 3 4 5; do /bin/true; done
}

# shape of an output line: digits -> N, @map[keys] -> @map[K], bars -> @,
# blanks squeezed; an event row (it starts with a number: time, pid) keeps
# only its first three fields' classes, since the two tracers see the other
# users of this machine at slightly different moments
shapes() {
	awk '{ gsub(/\[[^]]*\]/, "[K"); gsub(/0x[0-9a-f]+/, "N"); gsub(/[0-9]+/, "N");
	       gsub(/@@+/, "@"); gsub(/[ \t]+/, " ");
	       if ($1 ~ /^N/) { s = ""; for (i = 1; i <= 3 && i <= NF; i++) s = s ($i ~ /^N/ ? "N" : "W") " "; $0 = s }
	       print }' "$1" | sort -u
}
# header: the lines before the first blank one or one holding a digit
header() { awk '/^Attaching [0-9]+ probe/ { print; next } /[0-9]/ || /^$/ { exit } { print }' "$1"; }
first_error() {
	l=$(grep -v RLIMIT_MEMLOCK "$1" | grep -m1 'ERROR\|error:')
	[ -n "$l" ] || l=$(grep -v RLIMIT_MEMLOCK "$1" | grep -m1 -i 'fail\|cannot\|unknown\|not supported')
	[ -n "$l" ] || l=$(grep -v RLIMIT_MEMLOCK "$1" | grep -m1 .)
	printf '%s' "${l:-(exit $2, no message)}" | cut -c1-150
}

n_same=0 n_diff=0 n_cbfail=0 n_btfail=0 n_kp=0
for tool; do
	name=$(basename "$tool" .bt)
	o=$work/$name
	"$bt" "$tool" >"$o.bt.out" 2>"$o.bt.err" & p1=$!
	"$work/bin/bpftrace" "$tool" >"$o.cb.out" 2>"$o.cb.err" & p2=$!
	# bpftrace 0.17 needs a second or two of LLVM before it attaches
	i=0
	while [ $i -lt 25 ]; do
		grep -q '^Attaching' "$o.bt.out" 2>/dev/null && break
		kill -0 $p1 2>/dev/null || break
		sleep 0.1; i=$((i + 1))
	done
	sleep 0.3
	workload >/dev/null 2>&1
	sleep 0.5
	kill -INT $p1 $p2 2>/dev/null
	i=0
	while [ $i -lt 20 ] && { kill -0 $p1 2>/dev/null || kill -0 $p2 2>/dev/null; }; do sleep 0.1; i=$((i + 1)); done
	kill -KILL $p1 $p2 2>/dev/null
	wait $p1; r1=$?
	wait $p2; r2=$?
	# 0.17 prints "Attaching" before it attaches: an attach error is a failure too
	if [ $r1 -ne 0 ] && { ! grep -q '^Attaching' "$o.bt.out" || grep -q '^ERROR: Error attaching' "$o.bt.err"; }; then
		n_btfail=$((n_btfail + 1))
		echo "$name: bpftrace 0.17 fails here: $(first_error "$o.bt.err" $r1)"
		[ $r2 -ne 0 ] && echo "  (corebox too: $(first_error "$o.cb.err" $r2))"
		continue
	fi
	if [ $r2 -ne 0 ] && grep -q 'could not attach probe k' "$o.bt.err" && grep -q 'no kprobes' "$o.cb.err"; then
		n_kp=$((n_kp + 1))
		echo "$name: no kprobes here: bpftrace 0.17 warns, skips them and runs on; corebox stops: $(first_error "$o.cb.err" $r2)" | cut -c1-200
		continue
	fi
	if [ $r2 -ne 0 ] || ! [ -s "$o.cb.out" ]; then
		n_cbfail=$((n_cbfail + 1))
		echo "$name: corebox fails: $(first_error "$o.cb.err" $r2)"
		continue
	fi
	header "$o.bt.out" >"$o.bt.head"; header "$o.cb.out" >"$o.cb.head"
	shapes "$o.bt.out" >"$o.bt.shape"; shapes "$o.cb.out" >"$o.cb.shape"
	if ! cmp -s "$o.bt.head" "$o.cb.head"; then
		n_diff=$((n_diff + 1))
		d=$(diff "$o.bt.head" "$o.cb.head" | grep '^[<>]' | head -2 | tr '\n' ' ')
		echo "$name: differs: header: $d" | cut -c1-200
	elif ! cmp -s "$o.bt.shape" "$o.cb.shape"; then
		only_bt=$(comm -23 "$o.bt.shape" "$o.cb.shape" | wc -l)
		only_cb=$(comm -13 "$o.bt.shape" "$o.cb.shape" | wc -l)
		ex=$(comm -3 "$o.bt.shape" "$o.cb.shape" | head -2 | tr '\n\t' ' |')
		n_diff=$((n_diff + 1))
		echo "$name: differs: $only_bt line shapes only in bpftrace, $only_cb only in corebox: $ex" | cut -c1-200
	else
		n_same=$((n_same + 1))
		echo "$name: same layout ($(wc -l <"$o.bt.out") / $(wc -l <"$o.cb.out") lines)"
	fi
done
echo "# same layout $n_same, differs $n_diff, corebox fails $n_cbfail, kprobes missing (0.17 runs degraded, corebox stops) $n_kp, bpftrace 0.17 fails here $n_btfail"
