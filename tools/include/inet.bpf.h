/* What the TCP tools' kernel sides share (tcplife, tcpstates, tcpconnect,
 * tcpconnlat, tcpretrans): address families, TCP states, a port filter
 * map, a per-socket map, and a socket's addresses and ports read with CO-RE. */
#ifndef COREBOX_INET_BPF_H
#define COREBOX_INET_BPF_H

#include "corebox.bpf.h"

#define AF_INET 2
#define AF_INET6 10
#define IPPROTO_TCP 6

/* include/net/tcp_states.h (a uapi-stable numbering) */
enum {
	CB_TCP_ESTABLISHED = 1,
	CB_TCP_SYN_SENT,
	CB_TCP_SYN_RECV,
	CB_TCP_FIN_WAIT1,
	CB_TCP_FIN_WAIT2,
	CB_TCP_TIME_WAIT,
	CB_TCP_CLOSE,
	CB_TCP_CLOSE_WAIT,
	CB_TCP_LAST_ACK,
	CB_TCP_LISTEN,
	CB_TCP_CLOSING,
	CB_TCP_NEW_SYN_RECV,
};

/* -L / -D / -P: ports the user listed (host byte order), filled after
 * load; the tool's knob says whether the filter is on. */
#define PORT_FILTER_MAP(name)                                                  \
	struct {                                                               \
		__uint(type, BPF_MAP_TYPE_HASH);                               \
		__uint(max_entries, 1024);                                     \
		__type(key, __u16);                                            \
		__type(value, __u8);                                           \
	} name SEC(".maps")

/* Per-socket state (key: the struct sock * as __u64) whose entries come
 * and go with the connections: no memory up front. */
#define SOCK_HASH_MAP(name, max, value_type)                                   \
	struct {                                                               \
		__uint(type, BPF_MAP_TYPE_HASH);                               \
		__uint(max_entries, max);                                      \
		__uint(map_flags, BPF_F_NO_PREALLOC);                          \
		__type(key, __u64);                                            \
		__type(value, value_type);                                     \
	} name SEC(".maps")

static __always_inline int port_allowed(__u8 filter_on, void *map, __u16 port)
{
	return !filter_on || bpf_map_lookup_elem(map, &port) != NULL;
}

/* Copy a tracepoint record's addresses (saddr/daddr, saddr_v6/daddr_v6)
 * into 16-byte buffers: through probe reads, since the verifier refuses
 * loads through a ctx pointer plus an offset (what memcpy compiles to). */
#define TP_READ_ADDRS(ctx, family, s16, d16)                                    \
	do {                                                                   \
		__builtin_memset(s16, 0, 16);                                  \
		__builtin_memset(d16, 0, 16);                                  \
		if ((family) == AF_INET6) {                                    \
			bpf_probe_read_kernel(s16, 16, &(ctx)->saddr_v6);      \
			bpf_probe_read_kernel(d16, 16, &(ctx)->daddr_v6);      \
		} else {                                                       \
			bpf_probe_read_kernel(s16, 4, &(ctx)->saddr);          \
			bpf_probe_read_kernel(d16, 4, &(ctx)->daddr);          \
		}                                                              \
	} while (0)

/* counts[key] += 1, creating the entry (two CPUs may race to create it:
 * the loser adds to the winner's). */
static __always_inline void map_count_add(void *map, const void *key)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(map, key);

	if (!n) {
		if (!bpf_map_update_elem(map, key, &one, BPF_NOEXIST))
			return;
		n = bpf_map_lookup_elem(map, key);
		if (!n)
			return;
	}
	__sync_fetch_and_add(n, 1);
}

/* The members of struct sock the TCP tools read, as CO-RE flavors: the
 * objects' BTF then carries these few fields instead of the kernel's
 * whole struct sock type graph (kilobytes per tool in the binary).  The
 * loader matches them to sock/sock_common by name, through the kernel's
 * anonymous unions. */
struct sock_common___cb {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	__u16 skc_num;
	unsigned short skc_family;
	volatile unsigned char skc_state;
	struct in6_addr skc_v6_daddr;
	struct in6_addr skc_v6_rcv_saddr;
} __attribute__((preserve_access_index));

struct sock___cb {
	struct sock_common___cb __sk_common;
} __attribute__((preserve_access_index));

/* A socket's local and remote address (16 bytes each: IPv4 in the first
 * 4, network order) and ports (host order). */
struct sk_ends {
	__u8 saddr[16];
	__u8 daddr[16];
	__u16 sport;
	__u16 dport;
	__u16 family;
};

static __always_inline void sk_read_ends(const struct sock___cb *sk, struct sk_ends *e)
{
	__u16 dport = 0;

	__builtin_memset(e, 0, sizeof(*e));
	e->family = BPF_CORE_READ(sk, __sk_common.skc_family);
	e->sport = BPF_CORE_READ(sk, __sk_common.skc_num);
	BPF_CORE_READ_INTO(&dport, sk, __sk_common.skc_dport);
	e->dport = __builtin_bswap16(dport);
	if (e->family == AF_INET6) {
		BPF_CORE_READ_INTO(&e->saddr, sk, __sk_common.skc_v6_rcv_saddr);
		BPF_CORE_READ_INTO(&e->daddr, sk, __sk_common.skc_v6_daddr);
	} else {
		BPF_CORE_READ_INTO((__u32 *)e->saddr, sk, __sk_common.skc_rcv_saddr);
		BPF_CORE_READ_INTO((__u32 *)e->daddr, sk, __sk_common.skc_daddr);
	}
}

#endif
