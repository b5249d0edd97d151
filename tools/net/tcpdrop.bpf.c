/* tcpdrop, kernel side: TCP segments the kernel dropped, from
 * skb:kfree_skb and its drop reason.
 *
 * bcc probes tcp_drop() (gone since 5.19, and kprobes may be missing)
 * and otherwise takes skb:kfree_skb with a reason above NOT_SPECIFIED,
 * the socket being skb->sk; so does this, but only for TCP sockets (a
 * UDP or raw socket's drop is not a TCP drop).  The addresses, ports and
 * flags come from the packet's headers (skb->head + the header offsets),
 * as bcc reads them; for IPv6, as bcc, the socket's remote address is the
 * source and its local address the destination. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "sock_fd.bpf.h"
#include "stacks.bpf.h"
#include "tcpdrop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 target_family = 0; /* -4 / -6 */
const volatile __u32 target_netns = 0;  /* --netns-id / --pid-netns */
/* SKB_DROP_REASON_NOT_SPECIFIED's value in this kernel (the user side
 * reads it from the kernel's BTF: the numbering moved between releases) */
const volatile __u32 reason_not_specified = 2;

STACK_MAP(stackmap);

/* the kernel's enum, by name (CO-RE takes an int for an enum field as
 * another type: the field would read as missing) */
enum skb_drop_reason___drop { SKB_DROP_REASON___drop };

struct trace_event_raw_kfree_skb {
	struct trace_entry ent;
	void *skbaddr;
	enum skb_drop_reason___drop reason;
} __attribute__((preserve_access_index));

struct sk_buff___drop {
	struct sock___cb *sk;
	unsigned char *head;
	__u16 transport_header;
	__u16 network_header;
} __attribute__((preserve_access_index));

struct ns_common___drop {
	unsigned int inum;
} __attribute__((preserve_access_index));
struct net___drop {
	struct ns_common___drop ns;
} __attribute__((preserve_access_index));
struct possible_net___drop {
	struct net___drop *net;
} __attribute__((preserve_access_index));
struct sock_common___drop {
	struct possible_net___drop skc_net;
} __attribute__((preserve_access_index));
struct sock___drop {
	struct sock_common___drop __sk_common;
} __attribute__((preserve_access_index));

SEC("tracepoint/skb/kfree_skb")
int tcpdrop_kfree_skb(struct trace_event_raw_kfree_skb *ctx)
{
	struct sk_buff___drop *skb = ctx->skbaddr;
	struct tcpdrop_event e = {};
	struct sock___cb *sk;
	unsigned char *head, *th, *ih;
	__u16 ports[2];

	if (!bpf_core_field_exists(ctx->reason))
		return 0;
	e.reason = (__u32)ctx->reason;
	if (e.reason <= reason_not_specified)
		return 0;
	sk = BPF_CORE_READ(skb, sk);
	if (!sk)
		return 0;
	e.family = BPF_CORE_READ(sk, __sk_common.skc_family);
	if (e.family != AF_INET && e.family != AF_INET6)
		return 0;
	if (target_family && e.family != target_family)
		return 0;
	if (sk_protocol(sk) != IPPROTO_TCP)
		return 0;
	if (target_netns &&
	    BPF_CORE_READ((struct sock___drop *)sk, __sk_common.skc_net.net, ns.inum) != target_netns)
		return 0;
	head = BPF_CORE_READ(skb, head);
	th = head + BPF_CORE_READ(skb, transport_header);
	ih = head + BPF_CORE_READ(skb, network_header);
	bpf_probe_read_kernel(ports, sizeof(ports), th);
	bpf_probe_read_kernel(&e.tcpflags, 1, th + 13);
	e.sport = __builtin_bswap16(ports[0]);
	e.dport = __builtin_bswap16(ports[1]);
	if (e.family == AF_INET) { /* struct iphdr: saddr at 12, daddr at 16 */
		bpf_probe_read_kernel(e.saddr, 4, ih + 12);
		bpf_probe_read_kernel(e.daddr, 4, ih + 16);
	} else {
		BPF_CORE_READ_INTO(&e.saddr, sk, __sk_common.skc_v6_daddr);
		BPF_CORE_READ_INTO(&e.daddr, sk, __sk_common.skc_v6_rcv_saddr);
	}
	e.state = BPF_CORE_READ(sk, __sk_common.skc_state);
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.stack_id = (__s32)bpf_get_stackid(ctx, &stackmap, 0);
	events_output(ctx, &e, sizeof(e));
	return 0;
}
