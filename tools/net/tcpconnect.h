/* tcpconnect: what the BPF side and the user side share. */
#ifndef COREBOX_TCPCONNECT_H
#define COREBOX_TCPCONNECT_H

#include "../include/event_head.h"

#include "inet_flow.h"

struct tcpconnect_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16];
	__u8 daddr[16];
	char comm[16];
	__u64 ts_ns;
	__u32 pid;
	__u32 uid;
	__u16 sport;
	__u16 dport;   /* host order */
	__u16 family;
	__u16 pad;
};

#endif
