#!/bin/sh
# The cross builds in make check (tests/run.sh), when their toolchain and
# qemu-user are installed (tests/install-deps.sh installs them on x86_64):
# ARCH arm64 (AArch64, under qemu-aarch64) or arm (32-bit armv7
# hard-float, under qemu-arm).
#
#   1. make ARCH=ARCH: ./corebox-ARCH is a static, stripped executable of
#      that machine that lists the same tools as ./corebox and, run under
#      qemu-user, prints the same C header from the host's kernel BTF
#      (`btf dump`), and the same minimal BTF (`btf min`) from the gzip'd
#      objects, inflated on ARCH, as ./corebox from the plain ones, byte for
#      byte;
#   2. the unit tests that need no kernel (ELF, BTF, CO-RE, BTF writer,
#      stacks, arch tables), built for ARCH with musl and UBSan in trap
#      mode (musl has no sanitizer runtime), run under qemu-user; the
#      tests that call bpf(2) are left to the arm VMs of make vmtest
#      (qemu-user does not emulate bpf(2): ENOSYS), and test_inflate (50 s
#      natively, ~4 minutes under qemu-user) to the native run: on ARCH
#      inflate is checked by the embedded objects of 1. and every tool of
#      the VM;
#   3. every kept fuzz input (corpus, crashers, seeds) replayed through the
#      ELF, BTF and .BTF.ext harnesses built the same way (tests/fuzz/replay.c):
#      on arm this is where a 32-bit size_t meets 64-bit file offsets.
#
#   sh tests/cross/run.sh [OUTDIR [ARCH]]     (default build/test/arm64 arm64)
# One "ok - ARCH: ..." / "not ok - ARCH: ..." line per check.
#
# The Makefile builds everything here (make ARCH=ARCH unit-tests: its
# cross compiler, flags and source lists); this script runs it.
set -u
cd "$(dirname "$0")/../.." || exit 1
ARCH=${2:-arm64}
OUT=${1:-build/test/$ARCH}
case $ARCH in
arm64) QEMU_NAME=qemu-aarch64 MACHINE=AArch64 ;;
arm) QEMU_NAME=qemu-arm MACHINE=ARM ;;
*) echo "not ok - cross: unknown ARCH $ARCH (arm64 or arm)"; exit 1 ;;
esac
BIN=corebox-$ARCH
CC=$(make -s --no-print-directory ARCH=$ARCH print-CC)
QEMU=$(command -v $QEMU_NAME || command -v $QEMU_NAME-static)
# tests that need bpf(2) (run in the arm64 VM instead), and too slow for
# emulation (see above)
NEEDS_KERNEL="test_bpf_live test_loader test_loader_btf"
TOO_SLOW="test_inflate"
# arm: test_stack symbolizes a helper process through its /proc/PID/maps,
# which under qemu-arm is qemu's host view (a 32-bit guest's addresses are
# not the host's, unlike qemu-aarch64's): listed as a skip with that
# reason; 32-bit ELF symbols are checked by test_elf here
NEEDS_NATIVE=""
[ "$ARCH" = arm ] && NEEDS_NATIVE="test_stack"
fails=0

# make for ARCH; the binary's build (build/ARCH, shared with make vmtest's
# guests, which .ci/run runs beside make check) one at a time
# (build/.make-ARCH.lock); the unit tests' objects are this script's own
mk() {
	make -s --no-print-directory ARCH=$ARCH "$@"
}
mk_shared() {
	mkdir -p build
	if command -v flock >/dev/null 2>&1; then
		flock build/.make-$ARCH.lock make -s --no-print-directory ARCH=$ARCH "$@"
	else
		make -s --no-print-directory ARCH=$ARCH "$@"
	fi
}

ok() { echo "ok - $ARCH: $*"; }
notok() { echo "not ok - $ARCH: $*"; fails=$((fails + 1)); }

if ! command -v $CC >/dev/null 2>&1 || [ -z "$QEMU" ]; then
	echo "ok - $ARCH: cross tests # SKIP no $CC or $QEMU_NAME (make deps installs them on x86_64)"
	exit 0
fi
mkdir -p "$OUT/obj" || exit 1

# ---- 1. the binary ----
if mk_shared -j"$(nproc)" >"$OUT/make.log" 2>&1; then
	ok "make ARCH=$ARCH builds ./$BIN ($(stat -c %s $BIN) bytes)"
else
	notok "make ARCH=$ARCH failed: $(grep -m1 -E 'error|Error' "$OUT/make.log" | cut -c1-200)"
	exit 1
fi
hdr=$(readelf -h $BIN 2>/dev/null)
phdr=$(readelf -lW $BIN 2>/dev/null)
shdr=$(readelf -SW $BIN 2>/dev/null)
if echo "$hdr" | grep -q "Machine: *$MACHINE\$" && echo "$hdr" | grep -q 'Type: *EXEC' &&
   ! echo "$phdr" | grep -q INTERP && ! echo "$phdr" | grep -q DYNAMIC && ! echo "$shdr" | grep -q '\.symtab'; then
	ok "$BIN is a static (no interpreter, no dynamic section), stripped $MACHINE executable"
else
	notok "$BIN is not a static stripped $MACHINE executable: $(echo "$hdr" | grep -E 'Machine|Type' | tr -s ' ' | tr '\n' ' ')"
fi
# the brief's size budget: every tool in one file of at most 1 MiB, on
# every architecture (the arm64 build is the largest)
for b in corebox $BIN; do
	sz=$(stat -c %s $b 2>/dev/null || echo 0)
	if [ "$sz" -gt 0 ] && [ "$sz" -le 1048576 ]; then ok "$b is $sz bytes, within 1 MiB"
	else notok "$b is $sz bytes, over the 1 MiB budget"; fi
done
if [ "$("$QEMU" ./$BIN --list 2>&1)" = "$(./corebox --list 2>&1)" ]; then
	ok "$BIN --list under qemu-user lists the same $(./corebox --list | wc -l) tools as ./corebox"
else
	notok "$BIN --list differs from ./corebox --list"
fi
kbtf=/sys/kernel/btf/vmlinux
if [ -r $kbtf ]; then
	types=task_struct,pt_regs,trace_event_raw_sys_enter,bio,sock
	./corebox btf dump $kbtf --types $types > "$OUT/dump.x86" 2>&1
	"$QEMU" ./$BIN btf dump $kbtf --types $types > "$OUT/dump.$ARCH" 2>&1
	if [ -s "$OUT/dump.x86" ] && cmp -s "$OUT/dump.x86" "$OUT/dump.$ARCH"; then
		ok "btf dump of the host's kernel BTF: $ARCH and x86_64 builds print the same $(wc -l < "$OUT/dump.x86") lines"
	else
		notok "btf dump differs between the $ARCH and x86_64 builds (see $OUT/dump.*)"
	fi
	objs=$(ls build/$ARCH/bpf/*.bpf.o 2>/dev/null | tr '\n' ' ')
	# shellcheck disable=SC2086
	./corebox btf min $kbtf -o "$OUT/min.x86" $objs > "$OUT/min.log" 2>&1
	# shellcheck disable=SC2086
	"$QEMU" ./$BIN btf min $kbtf -o "$OUT/min.$ARCH" $(echo "$objs" | sed 's/\.bpf\.o /.cbz /g') >> "$OUT/min.log" 2>&1
	if [ -s "$OUT/min.x86" ] && cmp -s "$OUT/min.x86" "$OUT/min.$ARCH"; then
		ok "btf min: $BIN from build/$ARCH/bpf/*.cbz (slimmed, inflated on $ARCH with its dictionary) writes the same $(stat -c %s "$OUT/min.x86") bytes as ./corebox from the plain objects"
	else
		notok "btf min differs between the $ARCH and x86_64 builds: $(tail -n 2 "$OUT/min.log" | tr '\n' ' ')"
	fi
fi

# ---- 2. unit tests ----
: >"$OUT/build.log"
# the inputs tests/run.sh makes before the unit tests (when run alone)
[ -f build/test/core/local.o ] || sh tests/core/gen.sh build/test/core >>"$OUT/build.log" 2>&1
[ -f build/test/run/mech.bpf.o ] || sh tests/run/gen.sh build/test/run >>"$OUT/build.log" 2>&1
# the library layers, as for tests/unit/build.sh
if ! mk -j"$(nproc)" UNIT_OUT="$OUT" unit-objs >>"$OUT/build.log" 2>&1; then
	notok "unit test libraries do not build for $ARCH: $(grep -m1 error "$OUT/build.log" | cut -c1-200)"
	exit 1
fi
for t in tests/unit/test_*.c; do
	n=$(basename "$t" .c)
	case " $NEEDS_KERNEL $TOO_SLOW " in *" $n "*) continue ;; esac
	case " $NEEDS_NATIVE " in *" $n "*)
		echo "ok - $ARCH: $n # SKIP another process's /proc/PID/maps under $QEMU_NAME is qemu's, not the guest's"
		continue ;;
	esac
	if ! mk UNIT_OUT="$OUT" "$OUT/$n" >>"$OUT/build.log" 2>&1; then
		notok "$n does not build for $ARCH: $(grep -m1 error "$OUT/build.log" | cut -c1-200)"
		continue
	fi
	(cd tests/unit && timeout 300 "$QEMU" "../../$OUT/$n") > "$OUT/$n.out" 2>&1
	rc=$?
	sk=$(grep -c '^ok - .* # SKIP' "$OUT/$n.out")
	p=$(($(grep -c '^ok - ' "$OUT/$n.out") - sk))
	f=$(grep -c '^not ok - ' "$OUT/$n.out")
	grep '^not ok - ' "$OUT/$n.out" | sed "s/^not ok - /not ok - $ARCH: /"
	# the skips stay skips (tests/run.sh counts and names them)
	grep '^ok - .* # SKIP' "$OUT/$n.out" | sed "s/^ok - /ok - $ARCH: $n: /"
	fails=$((fails + f))
	if [ $rc != 0 ] && [ "$f" = 0 ]; then
		notok "$n exited with status $rc under $QEMU_NAME ($(tail -n 1 "$OUT/$n.out" | cut -c1-150))"
	elif [ "$f" = 0 ]; then
		ok "$n: $p checks pass under $QEMU_NAME"
	fi
done

# ---- 3. fuzz corpora ----
for t in elf btf btf_ext demangle xz; do
	if ! mk UNIT_OUT="$OUT" "$OUT/replay_$t" >>"$OUT/build.log" 2>&1; then
		notok "fuzz harness $t does not build for $ARCH"
		continue
	fi
	inputs=$(for d in tests/fuzz/corpus/$t tests/fuzz/crashers/$t build/test/fuzz/seeds/$t; do
		[ -d "$d" ] && find "$d" -type f ! -name '.*' ! -name README; done
		[ $t = elf ] && ls build/$ARCH/bpf/*.bpf.o 2>/dev/null)
	n=$(echo "$inputs" | grep -c .)
	# shellcheck disable=SC2086
	timeout 600 "$QEMU" "$OUT/replay_$t" $inputs > "$OUT/replay_$t.out" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		ok "fuzz $t: $n kept inputs replayed under $QEMU_NAME"
	else
		notok "fuzz $t: replay under $QEMU_NAME exited with status $rc ($(tail -n 1 "$OUT/replay_$t.out" | cut -c1-150))"
	fi
done
[ $fails = 0 ]
