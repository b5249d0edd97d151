/* solisten: the event record shared by the BPF and user sides. */
#ifndef COREBOX_SOLISTEN_H
#define COREBOX_SOLISTEN_H

#include "../include/event_head.h"

struct solisten_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u32 addr[4];  /* the bound address (IPv4 in addr[0]), network order */
	__u32 pid;      /* tgid */
	__u16 family;   /* AF_INET or AF_INET6 */
	__u16 type;     /* SOCK_STREAM, SOCK_DGRAM, ... */
	__s32 backlog;
	__s32 ret;
	__u16 port;     /* the bound port (host order) when listen() began */
	char comm[16];
};

#endif
