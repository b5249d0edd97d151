/* memleak: what the BPF and user sides share. */
#ifndef COREBOX_MEMLEAK_H
#define COREBOX_MEMLEAK_H

#include "../include/event_head.h"

#define MEMLEAK_ALLOCS_MAX 1000000    /* outstanding allocations tracked */
#define MEMLEAK_COMBINED_MAX 10240    /* stacks with totals (--combined-only) */

/* allocs: address -> this */
struct memleak_alloc {
	unsigned long long size;
	unsigned long long ts_ns;     /* CLOCK_MONOTONIC at allocation */
	long long stack_id;           /* bpf_get_stackid result (< 0: none) */
};

/* combined: stack id -> totals */
struct memleak_combined {
	unsigned long long size;
	unsigned long long count;
};

/* -t: one record per allocator call */
enum { ML_ALLOC_ENTER, ML_ALLOC_EXIT, ML_FREE };
struct memleak_trace {
	struct event_head head; /* -t under -j or --show-cgroup: the caller's cgroup */
	unsigned int type, pid;
	unsigned long long size, addr;
};

#endif
