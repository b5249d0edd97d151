#!/bin/sh
# Build the CO-RE unit-test inputs into OUT (default build/test/core):
#   local.o           BPF object whose CO-RE records the test relocates
#   target_X.o        clang -g objects whose .BTF serves as target BTF
#   expect_X.txt      the host compiler's expected values for target X
#   bench.o           200 relocations against kernel types (timing)
# Needs clang (BPF target) and a host C compiler; both, and the BPF target
# flags, come from the Makefile (make -s print-VAR).
set -e
out=${1:-build/test/core}
src=$(cd "$(dirname "$0")" && pwd)
mk() { make -s --no-print-directory -C "$src/../.." "print-$1"; }
CLANG=$(mk CLANG)
HOSTCC=$(mk HOSTCC)
BPF="$(mk BPF_BASE) -I$src"
mkdir -p "$out"
$CLANG $BPF -c "$src/local.bpf.c" -o "$out/local.o"
$CLANG $BPF -c "$src/bench.bpf.c" -o "$out/bench.o"
for t in a b c; do
	$CLANG $BPF -DTARGET_H="\"target_$t.h\"" -c "$src/target.c" -o "$out/target_$t.o"
	$HOSTCC -w -Wno-packed-bitfield-compat -I"$src" -DTARGET_H="\"target_$t.h\"" -o "$out/oracle_$t" "$src/oracle.c"
	"$out/oracle_$t" > "$out/expect_$t.txt"
done
