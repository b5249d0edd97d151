/* bindsnoop: the event record shared by the BPF and user sides. */
#ifndef COREBOX_BINDSNOOP_H
#define COREBOX_BINDSNOOP_H

#include "../include/event_head.h"

/* opts bits, libbpf-tools' order (printed "FTNRr") */
enum {
	BIND_FREEBIND = 1 << 0,
	BIND_TRANSPARENT = 1 << 1,
	BIND_ADDRESS_NO_PORT = 1 << 2,
	BIND_REUSEADDR = 1 << 3,
	BIND_REUSEPORT = 1 << 4,
};

struct bindsnoop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 addr[16]; /* the bound address; IPv4 in the first 4 bytes */
	__u64 ts_ns;
	__u32 pid;
	__u32 bound_dev_if;
	__s32 ret;
	__u16 port;    /* host order */
	__u16 proto;   /* IPPROTO_TCP, IPPROTO_UDP, ... */
	__u8 opts;     /* BIND_* */
	__u8 ver;      /* 4 or 6 */
	__u16 pad;
	char comm[16];
};

#endif
