/* tcpconnlat: the event record shared by the BPF and user sides. */
#ifndef COREBOX_TCPCONNLAT_H
#define COREBOX_TCPCONNLAT_H

#include "../include/event_head.h"

struct tcpconnlat_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16];
	__u8 daddr[16];
	char comm[16];
	__u64 delta_ns;  /* SYN_SENT -> ESTABLISHED */
	__u64 ts_ns;
	__u32 tgid;
	__u16 lport;
	__u16 dport;     /* host order */
	__u16 family;
	__u16 pad[3];
};

#endif
