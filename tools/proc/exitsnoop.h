/* exitsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_EXITSNOOP_H
#define COREBOX_EXITSNOOP_H

#include "../include/event_head.h"

struct exitsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 start_ns;  /* task->start_time (CLOCK_MONOTONIC) */
	__u64 exit_ns;   /* bpf_ktime_get_ns() at exit */
	__u32 pid;       /* tgid */
	__u32 tid;
	__u32 ppid;      /* real_parent's tgid */
	__u32 sig;       /* exit_code & 0xff: signal number | 0x80 core dumped */
	__s32 exit_code; /* exit_code >> 8: the status passed to exit() */
	char comm[16];
};

#endif
