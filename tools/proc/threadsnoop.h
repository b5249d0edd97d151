/* threadsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_THREADSNOOP_H
#define COREBOX_THREADSNOOP_H

#include "../include/event_head.h"

struct threadsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts_ns;     /* bpf_ktime_get_ns() at the fork */
	__u64 start;     /* start routine given to pthread_create, 0 if unknown */
	__u32 pid;       /* tgid of the creating process */
	__u32 tid;       /* the new thread */
	char comm[16];   /* the creating thread's name */
};

#endif
