/* tcptracer: the event record shared by the BPF and user sides. */
#ifndef COREBOX_TCPTRACER_H
#define COREBOX_TCPTRACER_H

#include "../include/event_head.h"

enum { TCPTRACER_CONNECT = 1, TCPTRACER_ACCEPT, TCPTRACER_CLOSE };

/* who began a connect (CLOSE -> SYN_SENT, in connect()'s task) */
struct tcptracer_owner {
	__u32 pid, uid;
	char comm[16];
};

struct tcptracer_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u64 ts_ns;
	__u8 saddr[16]; /* local; IPv4 in the first 4 bytes, network order */
	__u8 daddr[16]; /* remote */
	__u32 pid, uid;
	__u16 sport, dport; /* host order */
	__u16 family;
	__u8 type;      /* TCPTRACER_* */
	__u8 pad;
	char comm[16];
};

#endif
