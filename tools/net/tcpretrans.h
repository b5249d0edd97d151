/* tcpretrans: what the BPF side and the user side share. */
#ifndef COREBOX_TCPRETRANS_H
#define COREBOX_TCPRETRANS_H

#include "../include/event_head.h"

#include "inet_flow.h"

#define TCPRETRANS_RETRANSMIT 1
#define TCPRETRANS_TLP 2

struct tcpretrans_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16];
	__u8 daddr[16];
	__u64 ts_ns;
	__u32 pid;
	__u32 seq;
	__u16 lport;
	__u16 dport;
	__u16 family;
	__u8 state;
	__u8 type;      /* TCPRETRANS_RETRANSMIT or _TLP */
};

#endif
