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
set -u
cd "$(dirname "$0")/.." || exit 1
B=build/test
mkdir -p $B
log=$B/results.txt
: > $log
skips=$B/skips.txt
: > $skips
pass=0 fail=0 skip=0

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
sh tests/core/gen.sh build/test/core || { echo "not ok - CO-RE test inputs (tests/core/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/loader/gen.sh build/test/loader || { echo "not ok - loader test objects (tests/loader/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/run/gen.sh build/test/run || { echo "not ok - run test objects (tests/run/gen.sh) failed"; fail=$((fail + 1)); }
sh tests/unit/build.sh $B/unit || { echo "not ok - unit test build failed"; fail=$((fail + 1)); }
for t in $B/unit/test_*; do
	[ -x "$t" ] || continue
	n=$(basename "$t")
	( cd tests/unit && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "../../$t" ) > $B/$n.out 2>&1
	count $B/$n.out $? $n
done

# README's tool table against the applet lines of the tools' sources.
sh tests/readme.sh > $B/readme.out 2>&1
count $B/readme.out $? readme

# 2. End-to-end tests on the live kernel.
for t in tests/e2e/*.sh; do
	[ -f "$t" ] || continue
	n=$(basename "$t" .sh)
	[ "$n" = lib ] && continue # shared helpers, sourced by the tests
	if [ "$(id -u)" != 0 ]; then
		echo "not ok - $n needs root (BPF)"; fail=$((fail + 1)); continue
	fi
	timeout 300 sh "$t" > $B/$n.out 2>&1
	count $B/$n.out $? $n
done

# 2b. A part of the e2e suite against the whole corebox under ASan+UBSan
#     (tests/asan.sh: builds it, fails on any sanitizer report).
if [ "$(id -u)" = 0 ]; then
	timeout 600 sh tests/asan.sh $B/asan > $B/asan.out 2>&1
	count $B/asan.out $? asan
fi

# 3. Fuzz the parsers for a bounded time, replaying saved crashers first.
if [ -f tests/fuzz/run.sh ]; then
	sh tests/fuzz/run.sh $B/fuzz > $B/fuzz.out 2>&1
	count $B/fuzz.out $? fuzz
fi

# 4. arm64 and 32-bit arm, when the cross toolchains and qemu-user are
#    installed: the cross build, the kernel-free unit tests and the fuzz
#    corpora under qemu-user.  The two run side by side (mostly compiling
#    and emulating, one core each).
if [ -f tests/cross/run.sh ]; then
	timeout 900 sh tests/cross/run.sh $B/arm arm > $B/arm.out 2>&1 &
	armpid=$!
	timeout 900 sh tests/cross/run.sh $B/arm64 arm64 > $B/arm64.out 2>&1
	count $B/arm64.out $? arm64
	wait $armpid
	count $B/arm.out $? arm
fi

if [ "$skip" != 0 ]; then
	echo "skipped (not run here, with the reason):"
	sed 's/^/  /' $skips
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" = 0 ]
