#!/bin/sh
# Compile the loader's test objects (needs clang; tests/install-deps.sh
# installs it).  Usage: gen.sh OUTDIR
set -e
out=${1:-build/test/loader}
mkdir -p "$out"
for f in tests/loader/*.bpf.c; do
	n=$(basename "$f" .c)
	clang -target bpf -mcpu=v3 -O2 -g -D__TARGET_ARCH_x86 -Itools/include -c -o "$out/$n.o" "$f"
done
