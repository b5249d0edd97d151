#!/bin/sh
# Build every tests/unit/test_*.c into OUT (default build/test/unit) with
# the host compiler under ASan+UBSan, linked against lib/, elf/, btf/,
# bpf/, loader/ and the shared user side of tools/ (not the applets).
# The Makefile holds the flags, the source lists and the header
# dependencies (`make unit-tests`); this names the output directory.
set -e
cd "$(dirname "$0")/../.."
make -s --no-print-directory -j"$(nproc)" unit-tests UNIT_OUT="${1:-build/test/unit}"
