/* statsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_STATSNOOP_H
#define COREBOX_STATSNOOP_H

#include "../include/event_head.h"

#define STATSNOOP_PATH_LEN 255 /* libbpf-tools' NAME_MAX: longer paths are cut there */

struct statsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts_ns;   /* at exit (bpf_ktime_get_ns) */
	__u32 pid;     /* tgid */
	__s32 ret;
	__u32 nr;      /* the syscall's number (which stat) */
	char comm[16];
	char path[STATSNOOP_PATH_LEN];
};

#endif
