#!/bin/sh
# Fuzz the untrusted-input parsers (ELF, BTF, .BTF.ext, the dynamic-tracing
# tools' probe grammars and expressions, symbol demangling, xz) with libFuzzer.
#
#   sh tests/fuzz/run.sh [OUTDIR]      (default build/test/fuzz)
#   sh tests/fuzz/run.sh --seeds-only [OUTDIR]   only make the generated
#                                      seeds (tests/cross/run.sh replays them)
#
# FUZZ_SEEDS_MADE=1: the seeds are there already (made by --seeds-only in
# this run), not made again.
#
# For each target: build the harness (clang, ASan+UBSan), replay every
# kept input (tests/fuzz/corpus/T/ and the regression inputs in
# tests/fuzz/crashers/T/), then fuzz for FUZZ_SECONDS (default 20) of CPU
# time: the run is ended (SIGUSR1, libFuzzer's graceful exit) once the
# fuzzer has used them, so a busy machine (make check runs this beside
# the e2e scripts) slows it down but does not cut it short; a wall-clock
# bound of 10 times that stops a fuzzer that gets no CPU at all.  One
# "ok - fuzz T (N runs, E exec/s)" or "not ok - fuzz T: why" line per
# target (tests/run.sh protocol).  A new crash input is copied into
# tests/fuzz/crashers/T/ so that it is replayed on every later run.
#
# The harnesses are built by `make fuzz-harnesses` (the Makefile holds the
# flags and the library sources they link).
#
# The mutations start from a fixed seed (FUZZ_SEED, default 1): make check
# explores the same inputs in every run, so a finding is reproducible and
# CI does not fail on whichever input a random seed happened to reach that
# day; a longer campaign (FUZZ_SECONDS=600 FUZZ_SEED=0, 0 = libFuzzer picks
# a random seed) explores new ground, and what it finds is kept in
# tests/fuzz/crashers/ for every later run.
#
# Environment: FUZZ_SECONDS, FUZZ_SEED (1), FUZZ_MAX_LEN (65536), FUZZ_TARGETS ("elf btf
# btf_ext probe demangle xz bt_parse"), CLANG (the Makefile's), LLVM_OBJCOPY (llvm-objcopy).
set -u
cd "$(dirname "$0")/../.." || exit 1
SEEDS_ONLY=0
[ "${1:-}" = --seeds-only ] && { SEEDS_ONLY=1; shift; }
OUT=${1:-build/test/fuzz}
SECS=${FUZZ_SECONDS:-20}
SEED=${FUZZ_SEED:-1}
MAXLEN=${FUZZ_MAX_LEN:-65536}
TARGETS=${FUZZ_TARGETS:-elf btf btf_ext probe demangle xz bt_parse}
CLANG=${CLANG:-$(make -s --no-print-directory print-CLANG)}
OBJCOPY=${LLVM_OBJCOPY:-llvm-objcopy}
failed=0

mkdir -p "$OUT/obj" "$OUT/seeds" || exit 1

if ! command -v "$CLANG" >/dev/null 2>&1; then
	[ $SEEDS_ONLY = 1 ] && exit 0 # (the fuzz run says why)
	for t in $TARGETS; do echo "ok - fuzz $t # SKIP no $CLANG"; done
	exit 0
fi

# Seeds generated fresh each run (never committed; the committed ones
# live in tests/fuzz/corpus/): the unit test's ELF images and a tiny BPF
# object with its .BTF and .BTF.ext.
make_seeds() {
	for t in elf btf btf_ext; do mkdir -p "$OUT/seeds/$t"; done
	$(make -s --no-print-directory print-HOSTCC) -std=gnu11 -I. -o "$OUT/gen_seeds" tests/fuzz/gen_seeds.c >>"$OUT/build.log" 2>&1 &&
		"$OUT/gen_seeds" "$OUT/seeds/elf"
	o="$OUT/seeds/tiny.bpf.o"
	# shellcheck disable=SC2046
	if $CLANG $(make -s --no-print-directory print-BPF_BASE) -c -o "$o" tests/fuzz/seeds/tiny.bpf.c >>"$OUT/build.log" 2>&1; then
		cp "$o" "$OUT/seeds/elf/tiny-debug.bpf.o"
		if $OBJCOPY --strip-debug "$o" "$OUT/seeds/elf/tiny.bpf.o" 2>>"$OUT/build.log" &&
		   $OBJCOPY --dump-section .BTF="$OUT/seeds/btf/tiny.btf" \
			    --dump-section .BTF.ext="$OUT/seeds/tiny.btf.ext" "$o" 2>>"$OUT/build.log"; then
			join_btf_ext "$OUT/seeds/btf/tiny.btf" "$OUT/seeds/tiny.btf.ext" >"$OUT/seeds/btf_ext/tiny.split"
		fi
	fi
	# The applets' real objects, when the main build made them.
	for o in build/bpf/*.bpf.o; do
		[ -f "$o" ] && cp "$o" "$OUT/seeds/elf/"
	done
	return 0
}

# The btf_ext harness input: 4-byte little-endian .BTF length, .BTF, .BTF.ext.
join_btf_ext() {
	n=$(wc -c <"$1")
	for shift in 0 8 16 24; do
		printf "\\$(printf %03o $(((n >> shift) & 255)))"
	done
	cat "$1" "$2"
}

# Files of the kept directories of target $1 (corpus and crashers).
kept_inputs() {
	for d in tests/fuzz/corpus/$1 tests/fuzz/crashers/$1 "$OUT/seeds/$1"; do
		[ -d "$d" ] && find "$d" -type f ! -name '.*' ! -name README
	done
}

# A one-line reason from a libFuzzer/sanitizer log.
why() {
	s=$(grep -m1 -E '^SUMMARY: |ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:' "$1" | cut -c1-200)
	[ -n "$s" ] || s="exit status $2, see $1"
	echo "$s"
}

# cpu_bound PID SECS: SIGUSR1 to PID once it used SECS seconds of CPU
# (user + system); prints the seconds it used (polled every half second)
TICKS=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_bound() {
	used=0
	while :; do
		# state, utime, stime (fields 3, 14, 15; comm has no spaces here)
		st=$(cut -d' ' -f3,14,15 "/proc/$1/stat" 2>/dev/null) || break
		set -- "$1" "$2" $st
		[ "$3" = Z ] && break
		used=$((($4 + $5) / TICKS))
		if [ "$used" -ge "$2" ]; then
			kill -USR1 "$1" 2>/dev/null
			break
		fi
		sleep 0.5
	done
	echo "$used"
}

fuzz_target() {
	t=$1
	bin="$OUT/fuzz_$t"
	log="$OUT/$t.log"
	: >"$log"
	if [ ! -f btf/btf.c ] && [ "$t" != elf ] && [ "$t" != demangle ] && [ "$t" != xz ]; then
		echo "not ok - fuzz $t: btf/btf.c does not exist yet"
		return 1
	fi
	blog="$OUT/build-$t.log"
	if ! make -s --no-print-directory -j"$(nproc)" CLANG="$CLANG" FUZZ_OUT="$OUT" "$bin" >"$blog" 2>&1; then
		cat "$blog" >>"$OUT/build.log"
		echo "not ok - fuzz $t: build failed: $(grep -h -m1 -E 'error|undefined reference' "$blog" 2>/dev/null | head -n 1 | cut -c1-200)"
		return 1
	fi
	cat "$blog" >>"$OUT/build.log"

	# 1. Replay every kept input once.
	nkept=0
	inputs=$(kept_inputs "$t")
	if [ -n "$inputs" ]; then
		nkept=$(echo "$inputs" | wc -l)
		# shellcheck disable=SC2086
		echo "$inputs" | xargs "$bin" -rss_limit_mb=2048 -timeout=20 >"$log" 2>&1
		rc=$?
		if [ $rc != 0 ]; then
			echo "not ok - fuzz $t: replay failed on $(grep '^Running: ' "$log" | tail -n 1 | cut -c10-): $(why "$log" $rc)"
			return 1
		fi
	fi

	# 2. Fuzz for a bounded time; new interesting inputs go to work/ (not git).
	rm -rf "$OUT/artifacts/$t"
	mkdir -p "$OUT/work/$t" "$OUT/artifacts/$t"
	dirs="$OUT/work/$t"
	for d in tests/fuzz/corpus/$t "$OUT/seeds/$t"; do
		[ -d "$d" ] && dirs="$dirs $d"
	done
	# shellcheck disable=SC2086
	"$bin" -seed="$SEED" -max_total_time="$((SECS * 10))" -max_len="$MAXLEN" -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$OUT/artifacts/$t/" $dirs >>"$log" 2>&1 &
	fpid=$!
	cpu=$(cpu_bound "$fpid" "$SECS")
	wait "$fpid"
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
	saved=""
	for a in "$OUT/artifacts/$t"/crash-* "$OUT/artifacts/$t"/leak-* \
		 "$OUT/artifacts/$t"/timeout-* "$OUT/artifacts/$t"/oom-*; do
		[ -f "$a" ] || continue
		mkdir -p "tests/fuzz/crashers/$t"
		cp "$a" "tests/fuzz/crashers/$t/" && saved="$saved tests/fuzz/crashers/$t/$(basename "$a")"
	done
	if [ $rc != 0 ] || [ -n "$saved" ]; then
		echo "not ok - fuzz $t: $(why "$log" $rc); input saved as${saved:- (none)}; log $log"
		return 1
	fi
	echo "ok - fuzz $t (${runs:-?} runs in $cpu s of CPU, ${speed:-?} exec/s, $nkept kept inputs replayed)"
	return 0
}

if [ "${FUZZ_SEEDS_MADE:-0}" != 1 ]; then
	: >"$OUT/build.log"
	make_seeds
fi
[ $SEEDS_ONLY = 1 ] && exit 0
# The harnesses share their library objects: build them all at once, on
# every core (a harness that fails is reported by its target's make).
make -s --no-print-directory -k -j"$(nproc)" CLANG="$CLANG" FUZZ_OUT="$OUT" fuzz-harnesses >"$OUT/build-all.log" 2>&1
# One target per core at a time: a libFuzzer process runs on one thread,
# so each target still gets its FUZZ_SECONDS of a whole core.  Results
# are printed in the order of TARGETS.
ncpu=$(nproc)
# shellcheck disable=SC2086
set -- $TARGETS
while [ $# -gt 0 ]; do
	batch='' n=0
	while [ $# -gt 0 ] && [ $n -lt "$ncpu" ]; do
		fuzz_target "$1" >"$OUT/result-$1" 2>&1 &
		batch="$batch $!:$1"
		n=$((n + 1))
		shift
	done
	for job in $batch; do
		wait "${job%%:*}" || failed=$((failed + 1))
		cat "$OUT/result-${job#*:}"
	done
done
[ "$failed" = 0 ]
