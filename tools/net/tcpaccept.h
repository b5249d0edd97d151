/* tcpaccept: the event record shared by the BPF and user sides. */
#ifndef COREBOX_TCPACCEPT_H
#define COREBOX_TCPACCEPT_H

#include "../include/event_head.h"

struct tcpaccept_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 laddr[16]; /* IPv4: the first 4 bytes, network order */
	__u8 raddr[16];
	__u64 ts_ns;
	__u32 pid;      /* tgid */
	__u16 lport;    /* host order */
	__u16 rport;
	__u16 family;
	__u16 pad;
	char comm[16];
};

#endif
