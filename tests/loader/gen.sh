#!/bin/sh
# Compile the loader's test objects (needs clang; tests/install-deps.sh
# installs it) with the tools' BPF flags and headers for the build's
# architecture: `make loader-test-objs` holds the rule.  Usage: gen.sh OUTDIR
set -e
cd "$(dirname "$0")/../.."
make -s --no-print-directory -j"$(nproc)" loader-test-objs LOADER_OUT="${1:-build/test/loader}"
