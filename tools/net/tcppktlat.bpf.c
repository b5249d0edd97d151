/* tcppktlat, kernel side: time from a TCP segment with data arriving
 * (tcp:tcp_probe, at the top of tcp_rcv_established) to the reader
 * picking it up (tcp:tcp_rcv_space_adjust, in the receiving task's
 * recvmsg), per socket, as libbpf-tools measures it; tcp_destroy_sock
 * forgets a socket.  The BTF tracepoints give the struct sock and skb
 * (the loader falls back to raw tracepoints); a socket is keyed by its
 * address, where upstream uses its cookie when the helper exists: the
 * entry goes when the socket is destroyed either way. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "tcppktlat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_pid = 0;
const volatile __u32 targ_tid = 0;
const volatile __u16 targ_sport = 0; /* host order, 0: any */
const volatile __u16 targ_dport = 0;
const volatile __u64 targ_min_us = 0;

SOCK_HASH_MAP(start, 10240, __u64);

struct sk_buff___pl {
	unsigned char *data;
	unsigned int len;
} __attribute__((preserve_access_index));

static __always_inline int ports_wanted(struct sock___cb *sk, struct sk_ends *e)
{
	sk_read_ends(sk, e);
	return (!targ_sport || e->sport == targ_sport) && (!targ_dport || e->dport == targ_dport);
}

SEC("tp_btf/tcp_probe")
int BPF_PROG(tcppktlat_probe, struct sock___cb *sk, struct sk_buff___pl *skb)
{
	__u64 key = (__u64)sk, ts;
	struct sk_ends e;
	unsigned char *th = BPF_CORE_READ(skb, data);
	__u8 doff_byte = 0;

	if (!ports_wanted(sk, &e))
		return 0;
	/* data offset: the high nibble of the header's 13th byte, in words */
	bpf_probe_read_kernel(&doff_byte, 1, th + 12);
	if (BPF_CORE_READ(skb, len) <= (unsigned int)(doff_byte >> 4) * 4)
		return 0; /* no payload */
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &key, &ts, BPF_ANY);
	return 0;
}

SEC("tp_btf/tcp_rcv_space_adjust")
int BPF_PROG(tcppktlat_read, struct sock___cb *sk)
{
	__u64 key = (__u64)sk, id = bpf_get_current_pid_tgid(), *tsp;
	struct tcppktlat_event ev = {};
	struct sk_ends e;
	__u64 now;

	tsp = bpf_map_lookup_elem(&start, &key);
	if (!tsp)
		return 0;
	if ((targ_pid && targ_pid != id >> 32) || (targ_tid && targ_tid != (__u32)id))
		goto cleanup;
	now = bpf_ktime_get_ns();
	if (now < *tsp || (now - *tsp) / 1000 <= targ_min_us)
		goto cleanup;
	if (!ports_wanted(sk, &e))
		goto cleanup;
	ev.pid = id >> 32;
	ev.tid = (__u32)id;
	ev.delta_us = (now - *tsp) / 1000;
	ev.sport = e.sport;
	ev.dport = e.dport;
	ev.family = e.family;
	__builtin_memcpy(ev.saddr, e.saddr, 16);
	__builtin_memcpy(ev.daddr, e.daddr, 16);
	bpf_get_current_comm(ev.comm, sizeof(ev.comm));
	events_output(ctx, &ev, sizeof(ev));
cleanup:
	bpf_map_delete_elem(&start, &key);
	return 0;
}

SEC("tp_btf/tcp_destroy_sock")
int BPF_PROG(tcppktlat_destroy, struct sock___cb *sk)
{
	__u64 key = (__u64)sk;

	bpf_map_delete_elem(&start, &key);
	return 0;
}
