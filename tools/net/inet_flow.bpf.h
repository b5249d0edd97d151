/* The -c modes' kernel side (tcpconnect -c, tcpretrans -c): the "counts"
 * map (struct inet_flow -> __u64) the user side drains with
 * inet_flows_read(), and how one flow is counted.  One place, so the two
 * tools key their flows the same way. */
#ifndef COREBOX_INET_FLOW_BPF_H
#define COREBOX_INET_FLOW_BPF_H

#include "inet.bpf.h"
#include "inet_flow.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, INET_MAX_FLOWS);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* entries come and go: no memory up front */
	__type(key, struct inet_flow);
	__type(value, __u64);
} counts SEC(".maps");

/* counts[flow] += 1 for a socket's ends; sport 0 when the tool does not
 * count by the source port. */
static __always_inline void inet_flow_count(const struct sk_ends *ends, __u16 sport)
{
	struct inet_flow key;

	__builtin_memset(&key, 0, sizeof(key));
	__builtin_memcpy(key.saddr, ends->saddr, 16);
	__builtin_memcpy(key.daddr, ends->daddr, 16);
	key.sport = sport;
	key.dport = ends->dport;
	key.family = ends->family;
	map_count_add(&counts, &key);
}

#endif
