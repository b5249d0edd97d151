#!/bin/sh
# corebox bpftrace's map values and map printing as Debian's bpftrace 0.17
# has them: a count()/sum()/min()/max()/avg()/stats()/hist()/lhist() value
# read is typed that aggregation and refused by operators, conditions,
# casts, printf and ++ (every error, 0.17's words and carets); max() kept
# from 0 and min() as 0xffffffff - value (what they drop, 2^32-1 read 0);
# hist() buckets ending at [2G, 4G); print()'s divisor and top on hist and
# stats; lhist() bounds errors and labels.  Each case (tests/e2e/
# bpftrace_maps.cases: "=== PROG" or "===j PROG" for -f json, then the
# stderr, the stdout and "rc N" that bpftrace 0.17 gave) runs once.
# Run as root from the repository root: sh tests/e2e/bpftrace_maps.sh
set -u
T=bpftrace_maps
. tests/e2e/lib.sh
bt_cases_begin

bt_replay tests/e2e/bpftrace_maps.cases
[ $n -gt 0 ] && [ $fails = 0 ]
