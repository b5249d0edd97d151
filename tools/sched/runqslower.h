/* runqslower: the event record shared by the BPF and user sides. */
#ifndef COREBOX_RUNQSLOWER_H
#define COREBOX_RUNQSLOWER_H

#include "../include/event_head.h"

struct runqslower_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 delta_us;     /* queued -> switched in */
	__u32 pid;          /* the thread switched in (its TID) */
	__u32 prev_pid;     /* the thread it replaced */
	char task[16];
	char prev_task[16];
};

#endif
