/* compactsnoop: the event shared by the BPF and user sides. */
#ifndef COREBOX_COMPACTSNOOP_H
#define COREBOX_COMPACTSNOOP_H

#include "../include/event_head.h"

struct compactsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	unsigned long long delta_ns;
	unsigned long long ts_ns;         /* end, CLOCK_MONOTONIC */
	unsigned long long zone_start;    /* first pfn of the zone (from begin) */
	unsigned long long gfp;           /* of the allocation (direct compaction), else 0 */
	unsigned int pid, tid;
	int nid, idx;                     /* -1: not known in the kernel (no suitable check) */
	int order;                        /* -1: whole-zone compaction (compact_memory, kcompactd proactive) */
	int sync, status, stack_id;
	char comm[16];
};

#endif
