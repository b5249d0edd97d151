#!/bin/sh
# Compile the `corebox run` test objects (libbpf-style C, no corebox
# headers: the Makefile's BPF_BASE flags alone) and the helper that makes N
# getppid() calls: `make run-test-objs` holds the rules.  Usage: gen.sh OUTDIR
set -e
cd "$(dirname "$0")/../.."
make -s --no-print-directory -j"$(nproc)" run-test-objs RUN_OUT="${1:-build/test/run}"
