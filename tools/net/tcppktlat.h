/* tcppktlat: the event record shared by the BPF and user sides. */
#ifndef COREBOX_TCPPKTLAT_H
#define COREBOX_TCPPKTLAT_H

#include "../include/event_head.h"

struct tcppktlat_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16]; /* local; IPv4 in the first 4 bytes, network order */
	__u8 daddr[16];
	__u64 delta_us;
	__u32 pid, tid;
	__u16 sport, dport; /* host order */
	__u16 family;
	__u16 pad;
	char comm[16];
};

#endif
