#!/bin/sh
# corebox bpftrace as Debian's bpftrace 0.17, from cases recorded with
# 0.17 here (so they run where bpftrace is not installed), in bt_replay's
# format (lib.sh: the program, then the stderr, stdout and exit status 0.17
# gave), each run once:
# - bpftrace_maps.cases: map values and map printing: a count()/sum()/
#   min()/max()/avg()/stats()/hist()/lhist() value read is typed that
#   aggregation and refused by operators, conditions, casts, printf and ++
#   (every error, 0.17's words and carets); max() kept from 0 and min() as
#   0xffffffff - value (what they drop, 2^32-1 read 0); hist() buckets
#   ending at [2G, 4G); print()'s divisor and top on hist and stats;
#   lhist() bounds errors and labels.
# - bpftrace_lang.cases: the language outside the map functions: printf
#   and its escapes, argument counts and types, positional parameters,
#   statements.
# Run as root from the repository root: sh tests/e2e/bpftrace_recorded.sh
set -u
T=bpftrace_recorded
. tests/e2e/lib.sh
bt_cases_begin
bt_replay tests/e2e/bpftrace_maps.cases
bt_replay tests/e2e/bpftrace_lang.cases
[ $n -gt 0 ] && [ $fails = 0 ]
