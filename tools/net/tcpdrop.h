/* tcpdrop: what the BPF side and the user side share. */
#ifndef COREBOX_NET_TCPDROP_H
#define COREBOX_NET_TCPDROP_H

#include "../include/event_head.h"

struct tcpdrop_event {
	struct event_head head; /* the task's cgroup (events.bpf.h) */
	__u8 saddr[16]; /* IPv4 in the first 4 bytes, network order */
	__u8 daddr[16];
	__u32 pid;
	__u32 reason;   /* enum skb_drop_reason */
	__s32 stack_id;
	__u16 sport;    /* host order */
	__u16 dport;
	__u16 family;
	__u8 state;
	__u8 tcpflags;
};

#endif
