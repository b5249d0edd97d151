/* mdflush: the event record shared by the BPF and user sides. */
#ifndef COREBOX_MDFLUSH_H
#define COREBOX_MDFLUSH_H

#include "../include/event_head.h"

struct mdflush_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 pid;
	char comm[16];
	char disk[32]; /* DISK_NAME_LEN */
};

#endif
