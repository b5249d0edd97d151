/* gethostlatency: the event record shared by the BPF and user sides. */
#ifndef COREBOX_GETHOSTLATENCY_H
#define COREBOX_GETHOSTLATENCY_H

#include "../include/event_head.h"

#define GETHOST_LEN 80 /* libbpf-tools' HOST_LEN */

struct gethostlatency_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 time;     /* at entry: the start; then the latency (ns) */
	__u32 pid;
	__u32 pad;
	char comm[16];
	char host[GETHOST_LEN];
};

#endif
