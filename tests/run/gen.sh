#!/bin/sh
# Compile the `corebox run` test objects (libbpf-style C, no corebox
# headers) and the helper that makes N getppid() calls.  Usage: gen.sh OUTDIR
set -e
out=${1:-build/test/run}
mkdir -p "$out"
for f in tests/run/*.bpf.c; do
	n=$(basename "$f" .c)
	clang -target bpf -mcpu=v3 -O2 -g -Wall -c -o "$out/$n.o" "$f"
done
${CC:-cc} -O2 -Wall -o "$out/getppid_n" tests/run/getppid_n.c
