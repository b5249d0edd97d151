/* bashreadline: the event record shared by the BPF and user sides. */
#ifndef COREBOX_BASHREADLINE_H
#define COREBOX_BASHREADLINE_H

#include "../include/event_head.h"

#define BASHREADLINE_LINE_LEN 80 /* libbpf-tools' MAX_LINE_SIZE: longer lines are cut */

struct bashreadline_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 pid;
	char str[BASHREADLINE_LINE_LEN];
};

#endif
