#!/bin/sh
# A part of the e2e suite against the whole corebox built with ASan+UBSan
# (make corebox-asan): the unit tests reach the libraries, these reach
# what only the binary runs (each applet's options, its output, the
# probe compiler end to end).  The scripts were chosen for the user-space
# code they run per second on a 2-core machine (see ASAN_SCRIPTS); the
# whole pass is bounded to about two minutes, build included.
# Each script runs with COREBOX=the ASan binary.  An ASan report (leaks
# included) goes to a file of its own (log_path), also from the tools
# whose stderr a script keeps to itself, and any such file fails the pass
# with the report shown.  gcc's UBSan, linked with ASan, writes to stderr
# whatever log_path says: abort_on_error turns its report into SIGABRT,
# which no script takes for a refusal (exit 1 or 2), and the script's
# output is searched for reports too.  Prints ok/not ok lines (the
# scripts' own, prefixed "asan:").
# Run as root from the repository root: sh tests/asan.sh [OUT]
# (sh tests/asan.sh --build-only [OUT]: make corebox-asan and nothing
# else, silent; tests/run.sh builds it early, in the background)
set -u
cd "$(dirname "$0")/.." || exit 1
BUILD_ONLY=0
[ "${1:-}" = --build-only ] && { BUILD_ONLY=1; shift; }
OUT=${1:-build/test/asan}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac # (log_path: the tools run elsewhere)
# Measured on 2 shared cores (ASan / release): argv 85 / 16 s with 77
# applets (3,388 command lines) one at a time, about half since it runs
# one worker per core, output 26 / 18 s (text, JSON and
# Prometheus of several tools), hardening_prom 11 s, dyntrace_tp, hostile,
# lost, hardening_btf 2-4 s each; the build 12-17 s after the unit tests'.
# 83-107 s in all.  Left out to stay within about 2 minutes: dyntrace (22 s, clean
# under ASan here) and run_hardening (18 s), mostly waiting.
ASAN_SCRIPTS=${ASAN_SCRIPTS:-"hardening_replay hardening_btf hostile lost dyntrace_tp hardening_prom output argv"}
mkdir -p "$OUT"
fails=0
: > "$OUT/times"

if ! make -s --no-print-directory -j"$(nproc)" corebox-asan > "$OUT/build.log" 2>&1; then
	echo "not ok - asan: make corebox-asan failed"
	tail -n 20 "$OUT/build.log" | sed 's/^/    /'
	exit 1
fi
[ $BUILD_ONLY = 1 ] && exit 0
CB=$(make -s --no-print-directory print-ASAN_OUT)/corebox-asan

for s in $ASAN_SCRIPTS; do
	logs=$OUT/$s.reports
	rm -rf "$logs"
	mkdir -p "$logs"
	start=$(date +%s)
	COREBOX=$CB \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:log_path=$logs/asan \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:abort_on_error=1 \
		timeout 300 sh "tests/e2e/$s.sh" > "$OUT/$s.out" 2>&1
	rc=$?
	echo "# $s: $(($(date +%s) - start)) s" >> "$OUT/times"
	sed -n 's/^\(not \)\{0,1\}ok - /&asan: /p' "$OUT/$s.out"
	if grep -q '^not ok - ' "$OUT/$s.out"; then
		fails=$((fails + 1))
	elif [ "$rc" != 0 ]; then
		echo "not ok - asan: $s exited with status $rc"
		tail -n 20 "$OUT/$s.out" | sed 's/^/    /'
		fails=$((fails + 1))
	fi
	# a report in the output too (a tool run with its own *SAN_OPTIONS)
	if ls "$logs" | grep -q . || grep -qE '^(==[0-9]+==ERROR: |.*runtime error: )' "$OUT/$s.out"; then
		echo "not ok - asan: $s: sanitizer reports"
		{ cat "$logs"/* 2>/dev/null; grep -E -A20 '^(==[0-9]+==ERROR: |.*runtime error: )' "$OUT/$s.out"; } |
			head -n 60 | sed 's/^/    /'
		fails=$((fails + 1))
	else
		echo "ok - asan: $s: no sanitizer report"
	fi
done
[ "$fails" = 0 ]
