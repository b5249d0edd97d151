/* softirqslower: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SOFTIRQSLOWER_H
#define COREBOX_SOFTIRQSLOWER_H

#include "../include/event_head.h"

#define SOFTIRQSLOWER_NR_VECS 10 /* NR_SOFTIRQS */

enum softirqslower_stage {
	SOFTIRQSLOWER_RAISE_TO_ENTRY, /* raised -> its handler began */
	SOFTIRQSLOWER_ENTRY_TO_EXIT,  /* the handler's run */
};

struct softirqslower_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 delta_us;
	__u32 stage; /* enum softirqslower_stage */
	__u32 vec;
	__u32 cpu;
	char task[16]; /* the task the softirq interrupted (or ksoftirqd) */
};

#endif
