/* drsnoop: the event shared by the BPF and user sides. */
#ifndef COREBOX_DRSNOOP_H
#define COREBOX_DRSNOOP_H

#include "../include/event_head.h"

struct drsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	unsigned long long delta_ns;
	unsigned long long nr_reclaimed;
	unsigned long long nr_free_pages; /* at begin (-e, when vm_zone_stat is known) */
	unsigned long long ts_ns;         /* end, CLOCK_MONOTONIC */
	unsigned int tid, tgid, uid;
	unsigned int memcg;               /* 1: memory cgroup reclaim (-M) */
	char comm[16];
};

#endif
