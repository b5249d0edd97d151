#!/bin/sh
# make bench: measurements, not tests.  corebox and, side by side, the
# Debian libbpf-tools binaries when installed (/usr/sbin/NAME).
cd "$(dirname "$0")/.." || exit 1
[ "$(id -u)" = 0 ] || { echo "bench: needs root" >&2; exit 1; }
B=build/bench
mkdir -p $B
gcc -O2 -o $B/first_event tests/bench/first_event.c || exit 1
gcc -O2 -o $B/getppid_loop tests/bench/getppid_loop.c || exit 1
gcc -O2 -o $B/attach_exit tests/bench/attach_exit.c || exit 1
gcc -O2 -o $B/peak_rss tests/bench/peak_rss.c || exit 1
gcc -O2 -o $B/paced tests/bench/paced.c || exit 1
LT=/usr/sbin
have_lt=0
[ -x $LT/execsnoop ] && [ -x $LT/syscount ] && have_lt=1
[ $have_lt = 1 ] || echo "(libbpf-tools not installed: apt-get install libbpf-tools for the comparison)"

# "bench.sh first_event" runs only the exec -> first event part (quick,
# for start-up work); without it, everything.
only=$1
if [ "$only" != first_event ]; then
echo "== binary size (stripped) =="
# the embedded objects: slimmed and packed against one dictionary
# (Makefile, tools/bpfpack.py); build/bpf/sizes.txt: "NAME BYTES" each
packed() { awk '{ s += $2 } END { print s + 0 }' "$1" 2>/dev/null; }
printf "%-28s %10s bytes (x86_64; embedded BPF objects %s bytes packed, dictionary included)\n" "corebox (all tools)" \
	"$(stat -c %s corebox)" "$(packed build/bpf/sizes.txt)"
# the same tools cross-built for arm64 (make ARCH=arm64; make deps installs the toolchain)
if command -v aarch64-linux-musl-gcc >/dev/null 2>&1 && make -s ARCH=arm64 >/dev/null 2>&1; then
	printf "%-28s %10s bytes (arm64; embedded BPF objects %s bytes packed, dictionary included)\n" "corebox-arm64 (all tools)" \
		"$(stat -c %s corebox-arm64)" "$(packed build/arm64/bpf/sizes.txt)"
else
	echo "corebox-arm64: not built (no aarch64-linux-musl-gcc: make deps installs it)"
fi
# What each applet costs (x86_64): its own user-side code (text + data of
# tools/SUBSYS/NAME.o before --gc-sections) and its packed BPF object
# (NAME.cbz); what they share (tools/common, stack, probe, the loader,
# libc, the dictionary) is the rest of the binary.
echo "-- per applet: user code + packed BPF object (bytes) --"
printf "  %-16s %7s %7s %7s\n" NAME CODE BPF TOTAL
own=0
for c in $(ls tools/*/*.c | grep -v '\.bpf\.c$' | grep -Ev '^tools/(common|stack|probe)/'); do
	n=$(basename "$c" .c)
	o=build/obj/${c%.c}.o
	code=$(size "$o" 2>/dev/null | awk 'NR == 2 { print $1 + $2 }')
	bpf=$(awk -v n="$n" '$1 == n { print $2 }' build/bpf/sizes.txt 2>/dev/null)
	printf "  %-16s %7s %7s %7s\n" "$n" "${code:-0}" "${bpf:--}" "$(( ${code:-0} + ${bpf:-0} ))"
	own=$((own + ${code:-0} + ${bpf:-0}))
done
for n in $(awk '$1 != "corebox-dict" { print $1 }' build/bpf/sizes.txt 2>/dev/null); do # objects with no NAME.c of their own
	ls tools/*/"$n".c > /dev/null 2>&1 || { b=$(awk -v n="$n" '$1 == n { print $2 }' build/bpf/sizes.txt)
		printf "  %-16s %7s %7s %7s\n" "$n" - "$b" "$b"; own=$((own + b)); }
done
printf "  %-16s %23s  (shared code, libc, the BPF dictionary: %s bytes)\n" "applets' own" "$own" \
	"$(( $(stat -c %s corebox) - own ))"
# the same tools cross-built for 32-bit arm (make ARCH=arm; make deps installs the toolchain)
if command -v arm-linux-musleabihf-gcc >/dev/null 2>&1 && make -s ARCH=arm >/dev/null 2>&1; then
	printf "%-28s %10s bytes (armv7 hard-float, Thumb-2; embedded BPF objects %s bytes packed)\n" "corebox-arm (all tools)" \
		"$(stat -c %s corebox-arm)" "$(cat build/arm/bpf/*.cbz build/arm/bpf/corebox-dict.bin 2>/dev/null | wc -c)"
else
	echo "corebox-arm: not built (no arm-linux-musleabihf-gcc: make deps installs it)"
fi
if [ $have_lt = 1 ]; then
	tot=0
	for t in execsnoop opensnoop syscount biolatency; do
		s=$(stat -c %s $LT/$t); tot=$((tot + s))
	done
	printf "%-28s %10s bytes (+ shared libelf, libz)\n" "libbpf-tools (4 binaries)" "$tot"
fi

fi # the size part

# libbpf (1.1 in Debian 12) finds tracepoint ids only in a mounted tracefs
# or debugfs; corebox mounts tracefs itself.  Where none is mounted,
# libbpf-tools run in a private mount namespace that has one (mounted
# before the clock starts), so the host's mounts stay as they are.
lt_ns() {
	if [ -d /sys/kernel/tracing/events ] || [ -d /sys/kernel/debug/tracing/events ]; then
		"$@"
	else
		unshare -m sh -c 'mount -t tracefs tracefs /sys/kernel/tracing && exec "$@"' sh "$@"
	fi
}
# libbpf-tools' execsnoop leaves stdout to stdio: on the harness's pipe its
# lines would wait for a full 4 KiB buffer (~300 ms of probes, counted
# against it until 2026-11).  At a terminal it is line-buffered; stdbuf
# gives it the same on the pipe (one more exec, ~1 ms, charged to it), so
# both are timed as a user sees them.
LT_LINEBUF=
command -v stdbuf > /dev/null 2>&1 && LT_LINEBUF="stdbuf -oL"
# Sorted runs and their median (the middle one).
median_line() {
	printf "%-12s median %6s ms   runs:%s\n" "$1" "$(echo "$2" | tr ' ' '\n' | grep . | sort -n |
		awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" \
		"$(echo "$2" | tr ' ' '\n' | grep . | sort -n | tr '\n' ' ' | sed 's/^/ /')"
}
# Probed every 2 ms (the first figures, comparable with earlier runs) and
# every 0.5 ms: a probe exec every ~3 ms quantizes a start of a few ms,
# a probe every ~1.5 ms quantizes less but competes more for the CPUs
# (tests/bench/first_event.c says why); both are shown, neither is chosen.
# Start-up times move with the host's load (a shared builder at load 12
# doubles them, for both tools): say what it was.
echo "(load average at the start of the start-up runs: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs)"
for wait_us in 2000 500; do
	echo "== execsnoop: exec -> first captured event (ms, 11 runs, probe exec + ${wait_us} us wait) =="
	for impl in corebox lt; do
		[ $impl = lt ] && [ $have_lt = 0 ] && continue
		res=""
		for i in 1 2 3 4 5 6 7 8 9 10 11; do
			if [ $impl = corebox ]; then r=$($B/first_event -i $wait_us ./corebox execsnoop)
			else r=$(lt_ns $B/first_event -i $wait_us $LT_LINEBUF $LT/execsnoop); fi
			res="$res $r"
		done
		median_line $impl "$res"
	done
done
# Probed once the tool has printed its header (first_event -r): no
# cadence to quantize, and a tool whose header came before it was
# attached would miss that probe and pay 100 ms for the next one.
echo "== execsnoop: exec -> first captured event (ms, 11 runs, one probe exec as soon as the header is out) =="
for impl in corebox lt; do
	[ $impl = lt ] && [ $have_lt = 0 ] && continue
	res=""
	for i in 1 2 3 4 5 6 7 8 9 10 11; do
		if [ $impl = corebox ]; then r=$($B/first_event -r ./corebox execsnoop)
		else r=$(lt_ns $B/first_event -r $LT_LINEBUF $LT/execsnoop); fi
		res="$res $r"
	done
	median_line $impl "$res"
done
[ "$only" = first_event ] && exit 0

# Start TOOL ARGS in the background, wait for its header, print VmHWM,
# VmRSS and the kernel memory of its maps (memlock in fdinfo).
mem_of() {
	out=$B/mem.out
	rm -f $out # the child truncates it only after the fork: no stale output
	"$@" > $out 2>&1 &
	p=$!
	i=0
	while [ $i -lt 100 ] && [ ! -s $out ]; do sleep 0.05; i=$((i + 1)); done
	sleep 0.3
	if [ ! -d /proc/$p ]; then
		echo "  exited early: $(head -c 200 $out)"; return
	fi
	hwm=$(awk '/VmHWM/{print $2}' /proc/$p/status)
	rss=$(awk '/VmRSS/{print $2}' /proc/$p/status)
	ml=0
	for f in /proc/$p/fdinfo/*; do
		v=$(awk '/^memlock:/{print $2}' "$f" 2>/dev/null)
		[ -n "$v" ] && ml=$((ml + v))
	done
	kill -INT $p; wait $p 2>/dev/null
	printf "  peak RSS %6s KiB  RSS attached %6s KiB  maps %8s KiB\n" "$hwm" "$rss" "$((ml / 1024))"
}
echo "== memory: peak RSS (VmHWM), RSS once attached, kernel memory of maps =="
for t in execsnoop opensnoop syscount profile exitsnoop tcplife tcpconnect tcpstates threadsnoop systrace; do
	printf "corebox %-10s" $t; mem_of ./corebox $t
	[ $have_lt = 1 ] && [ -x $LT/$t ] && { printf "lt      %-10s" $t; mem_of $LT/$t; }
done
# corebox exporter with three tools, after a few scrapes: its own peak
# (the tools run as their own processes, each measured the same way).
echo "== exporter: peak RSS with three tools, after 5 scrapes =="
port=$((30000 + $$ % 20000))
./corebox exporter --listen 127.0.0.1:$port --interval 1 -- 'biolatency -D' runqlat 'syscount -P' 2> $B/exp.err &
ep=$!
sleep 3
for i in 1 2 3 4 5; do python3 tests/e2e/helpers/http_client.py $port get /metrics > /dev/null; done
if [ -d /proc/$ep ]; then
	printf "corebox exporter    peak RSS %6s KiB\n" "$(awk '/VmHWM/{print $2}' /proc/$ep/status)"
	for c in $(pgrep -P $ep); do
		printf "  %-40s peak RSS %6s KiB\n" "$(tr '\0' ' ' < /proc/$c/cmdline | cut -d' ' -f2)" \
			"$(awk '/VmHWM/{print $2}' /proc/$c/status)"
	done
	kill -INT $ep; wait $ep
else
	echo "  exporter exited early: $(head -c 200 $B/exp.err)"
fi
# The stack tools symbolize at exit: their peak is then, not while
# attached.  System-wide, with a mixed workload running (compiler, python,
# perl, shell): kernel symbols are named in one pass over /proc/kallsyms
# for the addresses seen, user symbols in one pass per ELF file.  The
# peak comes from wait4 in a small C parent (a Python parent's pages
# would count until the exec).
workload() { # SECONDS
	end=$(( $(date +%s) + $1 ))
	while [ "$(date +%s)" -lt $end ]; do
		gcc -O2 -c -o $B/wk.o tests/bench/paced.c 2>/dev/null
		python3 -c 'import json; [json.dumps(list(range(1000))) for i in range(200)]'
		perl -e 'my $x = 0; $x += $_ for 1..200000;' 2>/dev/null
		ls -lR /usr/lib > /dev/null 2>&1
	done
}
echo "== stack tools: peak RSS system-wide, symbolized at exit, under a mixed workload =="
for c in "profile -F 99 -f 3" "profile -F 99 3" "offcputime 3" "offcputime -f 3" "stackcount -D 3 t:sched:sched_switch" \
	 "stackcount -f -D 3 t:syscalls:sys_enter_read"; do
	workload 4 &
	wp=$!
	printf "corebox %-42s peak RSS %6s KiB\n" "$c" "$($B/peak_rss ./corebox $c 2>/dev/null)"
	wait $wp
done
# profile system-wide for 5 s, user + kernel stacks (the budget: 2 MiB),
# and the stack tools libbpf-tools has here (Debian's 0.26 ships no
# profile; its offcputime and wakeuptime name frames with the same
# symbolizer its profile uses), each beside corebox's, same workload
echo "== stack tools beside libbpf-tools: peak RSS, system-wide, 5 s, user + kernel stacks, mixed workload =="
for c in "profile -F 99 5" "profile -F 99 -f 5" "offcputime 5" "wakeuptime 5"; do
	for impl in corebox lt; do
		set -- $c
		if [ $impl = lt ] && ! { [ $have_lt = 1 ] && [ -x $LT/$1 ]; }; then
			[ $have_lt = 1 ] && printf "%-7s %-42s (not in this libbpf-tools)\n" lt "$c"
			continue
		fi
		workload 6 &
		wp=$!
		if [ $impl = corebox ]; then r=$($B/peak_rss ./corebox $c 2>/dev/null)
		else r=$(lt_ns $B/peak_rss $LT/$c 2>/dev/null); fi
		printf "%-7s %-42s peak RSS %6s KiB\n" $impl "$c" "$r"
		wait $wp
	done
done

echo "== syscount overhead: 10M getppid() traced / untraced (median of 5 alternating pairs) =="
ratio_of() {
	rs=""
	for i in 1 2 3 4 5; do
		base=$($B/getppid_loop)
		"$@" > /dev/null 2>&1 &
		p=$!
		sleep 1.5
		traced=$($B/getppid_loop)
		kill -INT $p; wait $p 2>/dev/null
		rs="$rs $(echo "$traced $base" | awk '{printf "%.3f", $1/$2}')"
	done
	echo "$rs" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{printf "%s (runs:", a[int((NR+1)/2)]} '
	echo "$rs)"
}
printf "corebox syscount:      "; ratio_of ./corebox syscount
[ $have_lt = 1 ] && { printf "libbpf-tools syscount: "; ratio_of $LT/syscount; }

echo "== bpftrace one-liners: corebox bpftrace vs Debian's bpftrace 0.17 (LLVM) =="
# exec -> probes attached (corebox prints "Attaching" once attached; 0.17
# prints it before, so it is timed to its __BPFTRACE_NOTIFY_PROBES_ATTACHED
# line, printed after), SIGINT -> exit; then the peak RSS of the same
# program ended by an interval probe after 1 s.
BT=$(command -v bpftrace 2>/dev/null)
[ -n "$BT" ] || echo "(bpftrace not installed: apt-get install bpftrace for the comparison)"
for prog in 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }' \
	    'tracepoint:syscalls:sys_enter_* { @[probe] = count(); }' \
	    'profile:hz:99 { @[comm] = count(); }'; do
	r=$($B/attach_exit Attaching ./corebox bpftrace -e "$prog")
	m=$($B/peak_rss ./corebox bpftrace -e "$prog interval:s:1 { exit(); }" 2>/dev/null)
	printf "  corebox  %-56.56s attach %7s ms  exit %6s ms  peak RSS %7s KiB\n" "$prog" "${r% *}" "${r#* }" "$m"
	[ -n "$BT" ] || continue
	r=$($B/attach_exit __BPFTRACE_NOTIFY_PROBES_ATTACHED /usr/bin/env __BPFTRACE_NOTIFY_PROBES_ATTACHED=1 "$BT" -e "$prog")
	m=$($B/peak_rss "$BT" -e "$prog interval:s:1 { exit(); }" 2>/dev/null)
	printf "  bpftrace %-56.56s attach %7s ms  exit %6s ms  peak RSS %7s KiB\n" "$prog" "${r% *}" "${r#* }" "$m"
done

echo "== dynamic tracing (trace, funccount, stackcount, argdist, funclatency) =="
echo "(bcc, their original, does not run here: no kernel headers, no LLVM; libbpf-tools has funclatency only)"
echo "exec -> attached banner, SIGINT -> exit (ms):"
sleep 1000 & SP=$!
for args in "funccount -r c:^(malloc|free|calloc|realloc|memcpy|memset|strlen|strcmp|open|close)$" \
	    "funccount -r t:sched:^sched_(switch|wakeup|wakeup_new|waking|process_fork|process_exec|process_exit|process_free|stat_runtime|migrate_task)$" \
	    "funccount t:sched:*" "funccount t:syscalls:sys_enter_*" "stackcount t:syscalls:sys_enter_*" \
	    "funclatency -p $SP c:malloc"; do
	# shellcheck disable=SC2086
	r=$($B/attach_exit Tracing ./corebox $args)
	printf "  corebox %-52.52s attach %5s  exit %5s\n" "$args" "${r% *}" "${r#* }"
done
if [ -x $LT/funclatency ]; then
	r=$($B/attach_exit Tracing $LT/funclatency -p $SP c:malloc)
	printf "  libbpf-tools %-47s attach %5s  exit %5s\n" "funclatency -p PID c:malloc" "${r% *}" "${r#* }"
fi
# Detaching uprobes waits for RCU grace periods in the kernel: a perf
# uprobe ~100 ms each, one after the other; uprobe_multi links overlap
# when closed from many tasks, and one link of many offsets waits once.
echo "exit after SIGINT with 20 uprobes (ms; sslsniff: libssl+libgnutls+libnspr4 as installed):"
U=""
for f in malloc free calloc realloc strlen strcpy memcpy memset strcmp strncmp getpid puts printf sprintf \
	 fopen fclose fwrite fread strchr strrchr; do U="$U r:c:$f"; done
# shellcheck disable=SC2086
r=$($B/attach_exit FUNC ./corebox trace $U)
printf "  %-60s exit %5s\n" "corebox trace with 20 uretprobes on libc (20 programs)" "${r#* }"
r=$($B/attach_exit Attaching ./corebox memleak -p $SP)
printf "  %-60s exit %5s\n" "corebox memleak -p PID (uprobes on libc)" "${r#* }"
r=$($B/attach_exit FUNC ./corebox sslsniff)
printf "  %-60s exit %5s\n" "corebox sslsniff (a program per link, all its functions)" "${r#* }"
kill $SP 2>/dev/null; wait $SP 2>/dev/null
echo "trace to a file: paced getppid() events/s (syscall event), lines written, lost:"
for rate in 20000 50000 100000 200000 400000; do
	$B/paced $rate 2 > $B/paced.out &
	pp=$!
	i=0; while ! grep -q ready $B/paced.out && [ $i -lt 50 ]; do sleep 0.05; i=$((i + 1)); done
	./corebox trace -p $pp 't:syscalls:sys_enter_getppid' > $B/trace.out 2> $B/trace.err &
	tp=$!
	i=0; while ! grep -q PID $B/trace.out && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	kill -USR1 $pp; wait $pp
	sleep 0.5; kill -INT $tp; wait $tp
	lost=$(sed -n 's/.*lost \([0-9]*\) events.*/\1/p' $B/trace.err | tail -n 1)
	printf "  %7s/s asked: %s, %s lines, lost %s\n" $rate "$(awk '{print $2 " calls at " $3 "/s"}' $B/paced.out | tail -n 1)" \
		"$(($(wc -l < $B/trace.out) - 1))" "${lost:-0}"
done

# the block and file system tools: peak memory beside libbpf-tools where it
# runs here (its biosnoop, cachestat, readahead, fsslower need fentry or
# kprobes: they fail on kernels without them), and what fsslower's system
# call path (the sys_enter/sys_exit raw tracepoints, kernels without
# fentry and kprobes) costs every system call
echo "== block and file system tools: memory =="
for t in biosnoop biopattern bitesize "fsslower -t ext4" cachestat readahead; do
	printf "corebox %-17s" "$t"; mem_of ./corebox $t
	set -- $t
	if [ $have_lt = 1 ] && [ -x $LT/$1 ] && timeout 2 $LT/$t > $B/lt.out 2>&1; [ $? = 124 ]; then
		printf "lt      %-17s" "$t"; mem_of $LT/$t
	fi
done
printf "fsslower -t ext4 (syscall path) getppid overhead: "; ratio_of ./corebox fsslower -t ext4
# systrace: per-call cost of tracing every syscall of a getppid loop with
# a per-syscall summary: corebox systrace -s (in-kernel aggregation),
# perf trace -s (Debian's perf: every enter/exit event to user space),
# strace -c (ptrace), and corebox syscount (in-kernel count, system-wide).
# The slow tracers get fewer calls (ratios are per call); the loop writes
# its own elapsed time to a file, the tracers' output goes elsewhere.
echo "== systrace -s overhead: getppid loop, per call traced / untraced (median of 3) =="
per_call() { # N CMD... -> seconds per call (the loop writes its time to $B/loop.t)
	n=$1
	shift
	rm -f $B/loop.t
	"$@" sh -c "$B/getppid_loop $n > $B/loop.t" > /dev/null 2>&1
	[ -s $B/loop.t ] && awk -v n="$n" '{ printf "%.9f", $1 / n }' $B/loop.t
}
ratio3() { # N CMD...: median of 3 (traced/untraced), with the untraced run next to each
	n=$1
	shift
	rs=""
	for i in 1 2 3; do
		b=$(per_call 2000000)
		t=$(per_call "$n" "$@")
		[ -n "$t" ] && [ -n "$b" ] && rs="$rs $(echo "$t $b" | awk '{ printf "%.1f", $1 / $2 }')"
	done
	echo "$rs" | tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { if (NR) printf "%sx", a[int((NR + 1) / 2)]; else printf "n/a" }'
	echo " (runs:$rs)"
}
printf "%-34s %s\n" "untraced getppid():" "$(per_call 2000000 | awk '{ printf "%.0f ns per call", $1 * 1e9 }')"
printf "%-34s " "corebox systrace -s -- CMD:"; ratio3 2000000 ./corebox systrace -s --
if command -v perf >/dev/null 2>&1; then printf "%-34s " "perf trace -s -- CMD:"; ratio3 20000 perf trace -s --
else echo "perf trace -s: perf not installed (apt-get install linux-perf)"; fi
if command -v strace >/dev/null 2>&1; then printf "%-34s " "strace -c -f -- CMD:"; ratio3 20000 strace -c -f --
else echo "strace -c: not installed (apt-get install strace)"; fi
printf "%-34s " "corebox syscount (system-wide):"
rs=""
for i in 1 2 3; do
	b=$(per_call 2000000)
	./corebox syscount > /dev/null 2>&1 &
	p=$!
	sleep 1.5
	t=$(per_call 2000000)
	kill -INT $p; wait $p 2>/dev/null
	rs="$rs $(echo "$t $b" | awk '{ printf "%.1f", $1 / $2 }')"
done
echo "$rs" | tr ' ' '\n' | grep . | sort -n | awk '{ a[NR] = $1 } END { printf "%sx", a[int((NR + 1) / 2)] }'; echo " (runs:$rs)"
# the seed's traceloop figure (1.36x on dd): dd's time with the flight recorder on
dd_s() { # CMD... -> seconds for dd to copy 400000 512-byte blocks
	"$@" dd if=/dev/zero of=/dev/null bs=512 count=400000 2>&1 >/dev/null | awk '/copied/ { for (i = 1; i <= NF; i++) if ($i ~ /^s,?$/) print $(i - 1) }'
}
printf "%-34s " "dd bs=512, systrace --flight 100:"
base=$(dd_s env) traced=$(dd_s ./corebox systrace --flight 100 --)
echo "$traced $base" | awk '{ if ($2 > 0) printf "%.2fx (%.3f s vs %.3f s untraced)\n", $1 / $2, $1, $2; else print "n/a" }'
printf "%-34s " "dd bs=512, systrace -s:"
base=$(dd_s env) traced=$(dd_s ./corebox systrace -s --)
echo "$traced $base" | awk '{ if ($2 > 0) printf "%.2fx (%.3f s vs %.3f s untraced)\n", $1 / $2, $1, $2; else print "n/a" }'

echo "== stack symbolization throughput (tools/stack: kallsyms + ELF symbols + debug files + folding) =="
[ -d /usr/lib/debug/.build-id ] || echo "(no /usr/lib/debug/.build-id: apt-get install libc6-dbg for the debug-file line)"
gcc -O2 -std=gnu11 -D_GNU_SOURCE -I. -Ilib -Ibuild -ffunction-sections -fdata-sections -Wl,--gc-sections -o $B/stack_bench tests/bench/stack_bench.c tools/stack/*.c elf/*.c lib/*.c bpf/*.c -ldl && $B/stack_bench 10000

echo "== memory tools: embedded BPF objects (packed bytes) =="
for o in memleak oomkill drsnoop compactsnoop vmscan numamove extfrag faults syssnoop; do
	printf "  %-14s %6s\n" $o "$(awk -v n=$o '$1 == n { print $2 }' build/bpf/sizes.txt 2>/dev/null)"
done

echo "== memory tools: peak RSS, RSS once attached, kernel memory of maps =="
gcc -O2 -o $B/malloc_loop tests/bench/malloc_loop.c || exit 1
for t in "drsnoop" "vmscan" "oomkill" "numamove" "compactsnoop" "extfrag" "faults" "mmapsnoop" "memleak 5"; do
	printf "corebox %-12s" "$t"; mem_of ./corebox $t
	name=${t%% *}
	[ $have_lt = 1 ] && [ -x $LT/$name ] && { printf "lt      %-12s" "$name"; mem_of $LT/$name; }
done
printf "corebox %-12s" "memleak -p"
$B/malloc_loop 1 $B/ml.pid > /dev/null &
mp=$!
sleep 0.2
mem_of ./corebox memleak -p "$(cat $B/ml.pid)" 5
kill $mp 2>/dev/null; wait $mp 2>/dev/null

echo "== memleak overhead: malloc(64)+free pairs, ns per pair untraced / traced by memleak -p (3 probes per pair) =="
for i in 1 2 3; do
	base=$($B/malloc_loop 1000000)
	rm -f $B/ml.pid
	$B/malloc_loop 1000000 $B/ml.pid > $B/ml.out &
	mp=$!
	while [ ! -s $B/ml.pid ]; do sleep 0.05; done
	./corebox memleak -p "$(cat $B/ml.pid)" 60 > /dev/null 2>&1 &
	tp=$!
	sleep 1.5
	kill -USR1 $mp; wait $mp
	kill -INT $tp; wait $tp 2>/dev/null
	echo "$base $(cat $B/ml.out)" | awk '{printf "  untraced %7.1f ns  traced %9.1f ns  (+%.0f ns per pair, %.1fx)\n", $1, $2, $2 - $1, $2 / $1}'
done

echo "== CPU and scheduler tools: memory once attached =="
for t in runqlat runqlen cpudist hardirqs softirqs cpuunclaimed smpcalls; do
	printf "corebox %-12s" $t; mem_of ./corebox $t
	[ $have_lt = 1 ] && [ -x $LT/$t ] && { printf "lt      %-12s" $t; mem_of $LT/$t; }
done

echo "== runqlat under a context-switch storm (2 processes on CPU 0, 200k pipe round trips) =="
gcc -O2 -o $B/ctxsw tests/bench/ctxsw.c || exit 1
storm_ratio() { # TOOL ARGS...: median of 5 (traced / untraced) storm times
	rs=""
	for i in 1 2 3 4 5; do
		base=$($B/ctxsw 200000)
		"$@" > /dev/null 2>&1 &
		p=$!
		sleep 1.5
		traced=$($B/ctxsw 200000)
		kill -INT $p; wait $p 2>/dev/null
		rs="$rs $(echo "$traced $base" | awk '{printf "%.3f", $1/$2}')"
	done
	echo "$rs" | tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{printf "%s (runs:", a[int((NR+1)/2)]} '
	echo "$rs)"
}
printf "storm time, untraced:  %s s\n" "$($B/ctxsw 200000)"
printf "corebox runqlat:       "; storm_ratio ./corebox runqlat
[ $have_lt = 1 ] && { printf "libbpf-tools runqlat:  "; storm_ratio $LT/runqlat; }
$B/ctxsw 0 > /dev/null &
sp=$!
printf "corebox runqlat -P during the storm:"; mem_of ./corebox runqlat -P
[ $have_lt = 1 ] && { printf "lt      runqlat -P during the storm:"; mem_of $LT/runqlat -P; }
kill $sp; wait $sp 2>/dev/null
# 32-bit ARM runs BPF in the interpreter unless bpf_jit_enable is 1: the
# same tool's cost per program run both ways, in the armhf guest (make
# vmtest's kernel and cache; tests/vm/t_jit.c: syscount, the kernel's
# bpf_stats, 20000 getppid() calls).  TCG emulates both, on a host this
# measurement shares: the ratio, not the nanoseconds, is what carries over.
echo "== armhf guest: BPF JIT vs interpreter (syscount) =="
if command -v qemu-system-arm >/dev/null 2>&1 && [ -e "${COREBOX_VM_CACHE:-/var/cache/corebox-vm}/armhf.current" ]; then
	sh tests/vm/run.sh --only armhf --tests jit > $B/jit.log 2>&1
	grep -h '^VMTEST jit' build/vm/armhf.log | sed 's/^VMTEST jit [A-Z]* /  /' || echo "  no result: see $B/jit.log"
else
	echo "  not measured: no qemu-system-arm or no armhf kernel in the vm cache (make vmtest fetches it)"
fi
true
