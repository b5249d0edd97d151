/* tcplife: what the BPF side and the user side share. */
#ifndef COREBOX_TCPLIFE_H
#define COREBOX_TCPLIFE_H

#include "../include/event_head.h"

struct tcplife_ident {
	__u32 pid;
	char comm[16];
	__u64 cgroup_id; /* the close may run in softirq context */
};

struct tcplife_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16];   /* IPv4: first 4 bytes */
	__u8 daddr[16];
	__u64 ts_ns;      /* at the close */
	__u64 span_ns;    /* first state change to close */
	__u64 rx_b;       /* tcp_sock.bytes_received */
	__u64 tx_b;       /* tcp_sock.bytes_acked */
	__u32 pid;
	__u16 sport;
	__u16 dport;
	__u16 family;
	char comm[16];
};

#endif
