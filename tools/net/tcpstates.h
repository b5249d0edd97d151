/* tcpstates: the event record shared by the BPF and user sides. */
#ifndef COREBOX_TCPSTATES_H
#define COREBOX_TCPSTATES_H

#include "../include/event_head.h"

struct tcpstates_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16];
	__u8 daddr[16];
	__u64 skaddr;
	__u64 ts_ns;
	__u64 delta_ns;   /* time in the old state (0 when not seen) */
	__u32 pid;
	__s32 oldstate;
	__s32 newstate;
	__u16 family;
	__u16 sport;
	__u16 dport;
	char comm[16];
};

#endif
