/* biosnoop: what the BPF side and the user side share. */
#ifndef COREBOX_BIOSNOOP_H
#define COREBOX_BIOSNOOP_H

#include "../include/event_head.h"

#define BIOSNOOP_MAX_ENTRIES 10240
#define BIOSNOOP_COMM_LEN 16

struct biosnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	char comm[BIOSNOOP_COMM_LEN];
	__u64 delta;  /* issue -> completion, ns */
	__s64 qdelta; /* insert -> issue, ns (-Q with an I/O scheduler); -1: unknown */
	__u64 ts;     /* completion, bpf_ktime_get_ns */
	__u64 sector;
	__u32 len;
	__u32 pid;
	__u32 cmd_flags;
	__u32 dev;
};

#endif
