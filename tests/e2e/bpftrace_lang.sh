#!/bin/sh
# corebox bpftrace as Debian's bpftrace 0.17, for the language outside the
# map functions: printf and its escapes, argument counts and types,
# positional parameters, statements.  Each case of tests/e2e/
# bpftrace_lang.cases (bt_replay's format: the program, then the stderr,
# stdout and exit status 0.17 gave, recorded from 0.17 here, so the check
# runs where bpftrace is not installed) runs once.
# Run as root from the repository root: sh tests/e2e/bpftrace_lang.sh
set -u
T=bpftrace_lang
. tests/e2e/lib.sh
bt_cases_begin
bt_replay tests/e2e/bpftrace_lang.cases
[ $n -gt 0 ] && [ $fails = 0 ]
