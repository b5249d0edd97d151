/* capable: the event record shared by the BPF and user sides. */
#ifndef COREBOX_CAPABLE_H
#define COREBOX_CAPABLE_H

#include "../include/event_head.h"

/* -u: print a capability once per process or per cgroup (libbpf-tools' enum) */
enum capable_unique { CAPABLE_UNQ_OFF, CAPABLE_UNQ_PID, CAPABLE_UNQ_CGROUP };

struct capable_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 pid;  /* tgid */
	__u32 tid;
	__u32 uid;
	__s32 cap;
	__s32 ret;  /* 0: allowed, else -EPERM */
	__s8 audit, insetid; /* from cap_capable()'s options; -1: not known (the tracepoint) */
	__u8 pad[2];
	__s32 kstack_id, ustack_id; /* -K/-U: in the stack map, else -1 (< 0: missed) */
	char comm[16];
};

#endif
