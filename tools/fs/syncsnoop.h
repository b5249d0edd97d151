/* syncsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SYNCSNOOP_H
#define COREBOX_SYNCSNOOP_H

#include "../include/event_head.h"

/* which call; the user side names them */
enum syncsnoop_call {
	SYNCSNOOP_SYNC = 1,
	SYNCSNOOP_FSYNC,
	SYNCSNOOP_FDATASYNC,
	SYNCSNOOP_MSYNC,
	SYNCSNOOP_SYNC_FILE_RANGE,
	SYNCSNOOP_SYNCFS,
};

struct syncsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts_us; /* bpf_ktime_get_ns() / 1000 at entry */
	__u32 pid;   /* tgid */
	__u32 tid;
	__u32 call;  /* enum syncsnoop_call */
	char comm[16];
};

#endif
