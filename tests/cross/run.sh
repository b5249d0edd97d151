#!/bin/sh
# arm64 in make check (tests/run.sh), when the cross toolchain and
# qemu-user are installed (tests/install-deps.sh installs them on x86_64):
#
#   1. make ARCH=arm64: ./corebox-arm64 is a static, stripped AArch64 ELF
#      that lists the same tools as ./corebox and, run under qemu-aarch64,
#      prints the same C header from the host's kernel BTF (`btf dump`), and
#      the same minimal BTF (`btf min`) from the gzip'd objects, inflated on
#      arm64, as ./corebox from the plain ones, byte for byte;
#   2. the unit tests that need no kernel (ELF, BTF, CO-RE, BTF writer,
#      stacks, arch tables), built for aarch64 with musl and UBSan in trap
#      mode (musl has no sanitizer runtime), run under qemu-aarch64; the
#      tests that call bpf(2) are left to the arm64 VM of make vmtest
#      (qemu-user does not emulate bpf(2): ENOSYS), and test_inflate (50 s
#      natively, ~4 minutes under qemu-user) to the native run: on arm64
#      inflate is checked by the embedded objects of 1. and every tool of
#      the VM;
#   3. every kept fuzz input (corpus, crashers, seeds) replayed through the
#      ELF, BTF and .BTF.ext harnesses built the same way (tests/fuzz/replay.c).
#
#   sh tests/cross/run.sh [OUTDIR]     (default build/test/arm64)
# One "ok - arm64: ..." / "not ok - arm64: ..." line per check.
#
# The Makefile builds everything here (make ARCH=arm64 unit-tests: its
# cross compiler, flags and source lists); this script runs it.
set -u
cd "$(dirname "$0")/../.." || exit 1
OUT=${1:-build/test/arm64}
CC=$(make -s --no-print-directory ARCH=arm64 print-CC)
QEMU=$(command -v qemu-aarch64 || command -v qemu-aarch64-static)
# tests that need bpf(2) (run in the arm64 VM instead), and too slow for
# emulation (see above)
NEEDS_KERNEL="test_bpf_live test_loader test_loader_btf"
TOO_SLOW="test_inflate"
fails=0

ok() { echo "ok - arm64: $*"; }
notok() { echo "not ok - arm64: $*"; fails=$((fails + 1)); }

if ! command -v $CC >/dev/null 2>&1 || [ -z "$QEMU" ]; then
	echo "ok - arm64: cross tests # SKIP no $CC or qemu-aarch64 (make deps installs them on x86_64)"
	exit 0
fi
mkdir -p "$OUT/obj" || exit 1

# ---- 1. the binary ----
if make -s --no-print-directory -j"$(nproc)" ARCH=arm64 >"$OUT/make.log" 2>&1; then
	ok "make ARCH=arm64 builds ./corebox-arm64 ($(stat -c %s corebox-arm64) bytes)"
else
	notok "make ARCH=arm64 failed: $(grep -m1 -E 'error|Error' "$OUT/make.log" | cut -c1-200)"
	exit 1
fi
hdr=$(readelf -h corebox-arm64 2>/dev/null)
phdr=$(readelf -lW corebox-arm64 2>/dev/null)
shdr=$(readelf -SW corebox-arm64 2>/dev/null)
if echo "$hdr" | grep -q 'Machine: *AArch64' && echo "$hdr" | grep -q 'Type: *EXEC' &&
   ! echo "$phdr" | grep -q INTERP && ! echo "$phdr" | grep -q DYNAMIC && ! echo "$shdr" | grep -q '\.symtab'; then
	ok "corebox-arm64 is a static (no interpreter, no dynamic section), stripped AArch64 executable"
else
	notok "corebox-arm64 is not a static stripped AArch64 executable: $(echo "$hdr" | grep -E 'Machine|Type' | tr -s ' ' | tr '\n' ' ')"
fi
# the brief's size budget: every tool in one file of at most 1 MiB, on
# both architectures (the arm64 build is the larger one)
for b in corebox corebox-arm64; do
	sz=$(stat -c %s $b 2>/dev/null || echo 0)
	if [ "$sz" -gt 0 ] && [ "$sz" -le 1048576 ]; then ok "$b is $sz bytes, within 1 MiB"
	else notok "$b is $sz bytes, over the 1 MiB budget"; fi
done
if [ "$("$QEMU" ./corebox-arm64 --list 2>&1)" = "$(./corebox --list 2>&1)" ]; then
	ok "corebox-arm64 --list under qemu-user lists the same $(./corebox --list | wc -l) tools as ./corebox"
else
	notok "corebox-arm64 --list differs from ./corebox --list"
fi
kbtf=/sys/kernel/btf/vmlinux
if [ -r $kbtf ]; then
	types=task_struct,pt_regs,trace_event_raw_sys_enter,bio,sock
	./corebox btf dump $kbtf --types $types > "$OUT/dump.x86" 2>&1
	"$QEMU" ./corebox-arm64 btf dump $kbtf --types $types > "$OUT/dump.arm64" 2>&1
	if [ -s "$OUT/dump.x86" ] && cmp -s "$OUT/dump.x86" "$OUT/dump.arm64"; then
		ok "btf dump of the host's kernel BTF: arm64 and x86_64 builds print the same $(wc -l < "$OUT/dump.x86") lines"
	else
		notok "btf dump differs between the arm64 and x86_64 builds (see $OUT/dump.*)"
	fi
	objs=$(ls build/arm64/bpf/*.bpf.o 2>/dev/null | tr '\n' ' ')
	# shellcheck disable=SC2086
	./corebox btf min $kbtf -o "$OUT/min.x86" $objs > "$OUT/min.log" 2>&1
	# shellcheck disable=SC2086
	"$QEMU" ./corebox-arm64 btf min $kbtf -o "$OUT/min.arm64" $(echo "$objs" | sed 's/\.bpf\.o /.cbz /g') >> "$OUT/min.log" 2>&1
	if [ -s "$OUT/min.x86" ] && cmp -s "$OUT/min.x86" "$OUT/min.arm64"; then
		ok "btf min: corebox-arm64 from build/arm64/bpf/*.cbz (slimmed, inflated on arm64 with its dictionary) writes the same $(stat -c %s "$OUT/min.x86") bytes as ./corebox from the plain objects"
	else
		notok "btf min differs between the arm64 and x86_64 builds: $(tail -n 2 "$OUT/min.log" | tr '\n' ' ')"
	fi
fi

# ---- 2. unit tests ----
: >"$OUT/build.log"
# the inputs tests/run.sh makes before the unit tests (when run alone)
[ -f build/test/core/local.o ] || sh tests/core/gen.sh build/test/core >>"$OUT/build.log" 2>&1
[ -f build/test/run/mech.bpf.o ] || sh tests/run/gen.sh build/test/run >>"$OUT/build.log" 2>&1
# the library layers, as for tests/unit/build.sh
if ! make -s --no-print-directory -j"$(nproc)" ARCH=arm64 UNIT_OUT="$OUT" unit-objs >>"$OUT/build.log" 2>&1; then
	notok "unit test libraries do not build for aarch64: $(grep -m1 error "$OUT/build.log" | cut -c1-200)"
	exit 1
fi
for t in tests/unit/test_*.c; do
	n=$(basename "$t" .c)
	case " $NEEDS_KERNEL $TOO_SLOW " in *" $n "*) continue ;; esac
	if ! make -s --no-print-directory ARCH=arm64 UNIT_OUT="$OUT" "$OUT/$n" >>"$OUT/build.log" 2>&1; then
		notok "$n does not build for aarch64: $(grep -m1 error "$OUT/build.log" | cut -c1-200)"
		continue
	fi
	(cd tests/unit && timeout 300 "$QEMU" "../../$OUT/$n") > "$OUT/$n.out" 2>&1
	rc=$?
	sk=$(grep -c '^ok - .* # SKIP' "$OUT/$n.out")
	p=$(($(grep -c '^ok - ' "$OUT/$n.out") - sk))
	f=$(grep -c '^not ok - ' "$OUT/$n.out")
	grep '^not ok - ' "$OUT/$n.out" | sed 's/^not ok - /not ok - arm64: /'
	# the skips stay skips (tests/run.sh counts and names them)
	grep '^ok - .* # SKIP' "$OUT/$n.out" | sed "s/^ok - /ok - arm64: $n: /"
	fails=$((fails + f))
	if [ $rc != 0 ] && [ "$f" = 0 ]; then
		notok "$n exited with status $rc under qemu-aarch64 ($(tail -n 1 "$OUT/$n.out" | cut -c1-150))"
	elif [ "$f" = 0 ]; then
		ok "$n: $p checks pass under qemu-aarch64"
	fi
done

# ---- 3. fuzz corpora ----
for t in elf btf btf_ext demangle xz; do
	if ! make -s --no-print-directory ARCH=arm64 UNIT_OUT="$OUT" "$OUT/replay_$t" >>"$OUT/build.log" 2>&1; then
		notok "fuzz harness $t does not build for aarch64"
		continue
	fi
	inputs=$(for d in tests/fuzz/corpus/$t tests/fuzz/crashers/$t build/test/fuzz/seeds/$t; do
		[ -d "$d" ] && find "$d" -type f ! -name '.*' ! -name README; done
		[ $t = elf ] && ls build/arm64/bpf/*.bpf.o 2>/dev/null)
	n=$(echo "$inputs" | grep -c .)
	# shellcheck disable=SC2086
	timeout 600 "$QEMU" "$OUT/replay_$t" $inputs > "$OUT/replay_$t.out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		ok "fuzz $t: $n kept inputs replayed under qemu-aarch64"
	else
		notok "fuzz $t: replay under qemu-aarch64 exited with status $rc ($(tail -n 1 "$OUT/replay_$t.out" | cut -c1-150))"
	fi
done
[ $fails = 0 ]
