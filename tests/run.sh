#!/bin/sh
# The whole test suite: unit tests (built with ASan+UBSan), end-to-end
# tests on the live kernel (as root; a part of them again against the
# whole binary built with ASan+UBSan, tests/asan.sh), a bounded fuzz run, and the arm64
# build's unit tests under qemu-user (tests/cross/run.sh).
# Every check prints "ok - NAME", "not ok - NAME" or, when it cannot run
# here, "ok - NAME # SKIP why" (TAP's skip directive).  Skips are counted
# apart from passes and listed with their reasons at the end; the last
# line is "N passed, N failed, N skipped" (CI reads it) and the exit code
# is non-zero on any failure.
#
# The e2e scripts wait on the kernel most of the time (about a tenth of a
# core), one after the other: they share the kernel's tracing state.  The
# steps that never touch the kernel -- the fuzz run (with the ASan
# binary's build before it) and the arm64 and arm cross tests under
# qemu-user -- run beside them in the background, niced
# (COREBOX_TEST_NICE, default 19) so that the tools under test keep the
# CPU they ask for; their results are counted after the e2e part, in the
# same order as before.  COREBOX_TEST_SERIAL=1 runs every step in the
# foreground, one after the other.  Each step's wall time goes to
# $B/times.txt and the slowest ones are listed at the end (reported,
# never asserted).  The background steps end with $B/background.done
# (.ci/run starts make vmtest's guests after it).
set -u
cd "$(dirname "$0")/.." || exit 1
B=build/test
mkdir -p $B
log=$B/results.txt
: > $log
skips=$B/skips.txt
: > $skips
times=$B/times.txt
: > $times
# the e2e scripts' helpers are compiled once per run (tests/e2e/lib.sh)
rm -rf $B/e2e-helpers
pass=0 fail=0 skip=0
SERIAL=${COREBOX_TEST_SERIAL:-0}
NICE=${COREBOX_TEST_NICE:-19}
T_RUN=$(date +%s)

# took NAME START: "SECONDS NAME" (since START, a date +%s) into $times
took() { echo "$(($(date +%s) - $2)) $1" >> $times; }

# count OUT RC NAME: count the ok / not ok / skip lines of one test's
# output (skips apart, named in $skips with the test they came from); a
# crash counts as a failure
count() {
	out=$1 rc=$2 name=$3
	cat "$out" >> $log
	s=$(grep -c '^ok - .* # SKIP' "$out")
	p=$(($(grep -c '^ok - ' "$out") - s))
	f=$(grep -c '^not ok - ' "$out")
	grep -E '^(ok|not ok) - ' "$out"
	grep '^ok - .* # SKIP' "$out" | sed "s/^ok - /$name: /" >> $skips
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		echo "not ok - $name exited with status $rc"
		tail -n 20 "$out" | sed 's/^/    /'
		f=1
	fi
	pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + s))
}

# 0. The layering: includes point down, no circles (tests/layers.sh).
sh tests/layers.sh > $B/layers.out 2>&1
count $B/layers.out $? layers

# 1. Unit tests: every tests/unit/test_*.c linked with the library layers.
t0=$(date +%s)
sh tests/core/gen.sh build/test/core || { echo "not ok - CO-RE test inputs (tests/core/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/loader/gen.sh build/test/loader || { echo "not ok - loader test objects (tests/loader/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/run/gen.sh build/test/run || { echo "not ok - run test objects (tests/run/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/unit/build.sh $B/unit || { echo "not ok - unit test build failed"; fail=$((fail + 1)); }
took "unit test build (with the CO-RE, loader and run test inputs)" $t0

# The background steps start here: the ASan binary links the unit tests'
# library objects, and the cross tests replay the fuzz seeds, made first.
# bg NAME CMD...: CMD's output in $B/NAME.out, its wall time and exit
# status in $B/NAME.end (counted by bg_count); in the foreground with
# COREBOX_TEST_SERIAL=1.
bgjobs=
bg() {
	bname=$1
	shift
	rm -f $B/$bname.end
	if [ "$SERIAL" = 1 ]; then
		bs=$(date +%s)
		( "$@" ) > $B/$bname.out 2>&1
		echo "$? $(($(date +%s) - bs))" > $B/$bname.end
	else
		# (renice the subshell itself: CMD may be a function of this script)
		( renice -n "$NICE" -p "$(exec sh -c 'echo $PPID')" > /dev/null 2>&1
		  bs=$(date +%s)
		  ( "$@" ) > $B/$bname.out 2>&1
		  echo "$? $(($(date +%s) - bs))" > $B/$bname.end ) &
		bgjobs="$bgjobs $!"
	fi
}
# bg_count NAME LABEL: count its output (after bg_wait)
bg_wait() {
	for p in $bgjobs; do wait "$p"; done
	bgjobs=
}
bg_count() {
	if [ -f $B/$1.end ]; then
		read -r rc secs < $B/$1.end
	else
		rc=1 secs=?
		echo "not ok - $1: the background step left no exit status" >> $B/$1.out
	fi
	echo "${secs} $2 (background)" >> $times
	count $B/$1.out "$rc" "$1"
}
fuzz_and_asan_build() {
	if [ "$(id -u)" = 0 ]; then # (tests/asan.sh builds it again when this failed, and says why)
		fs=$(date +%s)
		sh tests/asan.sh --build-only $B/asan > /dev/null 2>&1
		took "corebox-asan build (background)" "$fs"
	fi
	FUZZ_SEEDS_MADE=1 sh tests/fuzz/run.sh $B/fuzz
}
# the three side by side (fuzz: one target per core; arm64 and arm:
# mostly compiling and emulating, one core each); then the ASan pass's
# argv.sh (tests/asan.sh: 5,896 refused command lines against
# corebox-asan, ~80 s of both cores, over half of that pass when it ran
# after the e2e part): refused lines start no tracing and it judges only
# its own binary's processes, so it needs the kernel no more than the
# other background steps -- but for systrace's lines (it traces the
# command its arguments name, loading programs for a moment): those stay
# in the foreground pass (ARGV_SKIP, ARGV_ONLY); then $B/background.done
# (.ci/run starts make vmtest's guests then, so that they share the CPU
# with the e2e scripts, not with these)
background_steps() {
	[ -f tests/fuzz/run.sh ] && bg fuzz fuzz_and_asan_build
	# arm64 and 32-bit arm, when the cross toolchains and qemu-user are
	# installed: the cross build, the kernel-free unit tests and the fuzz
	# corpora under qemu-user
	if [ -f tests/cross/run.sh ]; then
		bg arm64 timeout 1800 sh tests/cross/run.sh $B/arm64 arm64
		bg arm timeout 1800 sh tests/cross/run.sh $B/arm arm
	fi
	bg_wait
	if [ "$(id -u)" = 0 ] && [ -f tests/asan.sh ]; then
		# off the last CPU, where the scheduling checks pin their hog and
		# sleeper (tests/e2e/helpers/cpu.sh): the pass's thousands of
		# short-lived processes there cut the sleeper's waits short
		# (runqlat's nobtf pass, beside it, saw a third of its wakeups
		# wait for the hog instead of all but one)
		last=$(awk -F'[-,]' '{ print $NF }' /sys/devices/system/cpu/online 2>/dev/null)
		pin=
		[ "${last:-0}" -gt 0 ] && command -v taskset > /dev/null && pin="taskset -c 0-$((last - 1))"
		bg asan_bg env ASAN_SCRIPTS=argv ARGV_SKIP=systrace $pin timeout 600 sh tests/asan.sh $B/asan-bg
		bg_wait
	fi
	touch $B/background.done
}
rm -f $B/background.done
if [ -f tests/fuzz/run.sh ]; then
	t0=$(date +%s)
	sh tests/fuzz/run.sh --seeds-only $B/fuzz
	took "fuzz seeds" $t0
fi
if [ "$SERIAL" = 1 ]; then
	background_steps
else
	background_steps &
	bgall=$!
fi

# the slowest unit tests never touch the kernel (decompressors against
# xz and zlib, BTF files parsed, printf against glibc's on 2,000,000
# random specs): they run in the background too (42 s of the foreground
# in CI), counted after the e2e part
UNIT_BG=" test_xz test_inflate test_btf_data test_fmt "
run_unit() {
	( cd tests/unit && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "../../$1" )
}
unit_bg=
for t in $B/unit/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	case $UNIT_BG in *" $n "*)
		bg "$n" run_unit "$t"
		unit_bg="$unit_bg $n"
		continue ;;
	esac
	t0=$(date +%s)
	run_unit "$t" > $B/$n.out 2>&1
	count $B/$n.out $? $n
	took "$n" $t0
done

# README's tool table against the applet lines of the tools' sources.
sh tests/readme.sh > $B/readme.out 2>&1
count $B/readme.out $? readme

# 2. End-to-end tests on the live kernel.
t_e2e=$(date +%s)
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	[ "$n" = lib ] && continue # shared helpers, sourced by the tests
	if [ "$(id -u)" != 0 ]; then
		echo "not ok - $n needs root (BPF)"; fail=$((fail + 1)); continue
	fi
	t0=$(date +%s)
	timeout 300 sh "$t" > $B/$n.out 2>&1
	count $B/$n.out $? $n
	took "e2e $n" $t0
done
took "e2e scripts (all)" $t_e2e

# 2b. A part of the e2e suite against the whole corebox under ASan+UBSan
#     (tests/asan.sh: builds it -- done in the background above --, fails
#     on any sanitizer report).
if [ "$(id -u)" = 0 ]; then
	t0=$(date +%s)
	# not beside the background's ASan run (argv.sh counts the processes
	# of corebox-asan it did not start as left behind): done long before
	# the e2e part is, in CI
	if [ "$SERIAL" != 1 ]; then
		while [ ! -f $B/background.done ] && kill -0 "$bgall" 2>/dev/null; do sleep 1; done
	fi
	ARGV_ONLY=systrace timeout 600 sh tests/asan.sh $B/asan > $B/asan.out 2>&1
	count $B/asan.out $? asan
	took "asan (e2e scripts against corebox-asan)" $t0
fi

# 3. The background steps: the fuzz run (replaying saved crashers first),
#    then arm64 and arm (tests/cross/run.sh).
t0=$(date +%s)
bg_wait
for n in $unit_bg; do
	bg_count "$n" "$n"
done
[ "$SERIAL" = 1 ] || wait "$bgall"
if [ -f tests/fuzz/run.sh ]; then
	bg_count fuzz "fuzz (with the corebox-asan build before it)"
fi
if [ -f tests/cross/run.sh ]; then
	bg_count arm64 "arm64 cross tests"
	bg_count arm "arm cross tests"
fi
if [ "$(id -u)" = 0 ] && [ -f tests/asan.sh ]; then
	bg_count asan_bg "asan: argv.sh but systrace against corebox-asan"
fi
took "waiting for the background steps after the e2e part" $t0

if [ "$skip" != 0 ]; then
	echo "skipped (not run here, with the reason):"
	sed 's/^/  /' $skips
fi
echo "the slowest steps (seconds; all in $times):"
sort -rn $times | head -n 15 | sed 's/^/  /'
echo "tests/run.sh: $(($(date +%s) - T_RUN)) s in all; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
