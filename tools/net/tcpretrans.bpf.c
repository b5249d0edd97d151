/* tcpretrans, kernel side: TCP retransmits from the tcp:tcp_retransmit_skb
 * tracepoint (4.15+); with -l also tail loss probes, from
 * tcp_send_loss_probe() (fentry, else kprobe: no tracepoint exists).
 *
 * Since 6.14 the tracepoint also fires for retransmits that failed to go
 * out (its new err field); those are left out, so the count stays what
 * it was on every kernel: segments actually sent again. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet_flow.bpf.h"
#include "tcpretrans.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 target_family = 0;
const volatile __u8 do_count = 0;

static __always_inline int emit(void *ctx, const struct sk_ends *ends, __u8 state, __u32 seq, __u8 type)
{
	struct tcpretrans_event e;

	if (target_family && ends->family != target_family)
		return 0;
	if (do_count) {
		inet_flow_count(ends, ends->sport);
		return 0;
	}
	__builtin_memcpy(e.saddr, ends->saddr, 16);
	__builtin_memcpy(e.daddr, ends->daddr, 16);
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.seq = seq;
	e.lport = ends->sport;
	e.dport = ends->dport;
	e.family = ends->family;
	e.state = state;
	e.type = type;
	events_output(ctx, &e, sizeof(e));
	return 0;
}

/* Before 6.14 the tracepoint's record was the tcp_event_sk_skb class's
 * (same fields, no err); the kernel has one type or the other. */
struct trace_event_raw_tcp_event_sk_skb {
	struct trace_entry ent;
	const void *skbaddr;
	const void *skaddr;
	int state;
	__u16 sport;
	__u16 dport;
	__u16 family;
	__u8 saddr[4];
	__u8 daddr[4];
	__u8 saddr_v6[16];
	__u8 daddr_v6[16];
	char __data[0];
} __attribute__((preserve_access_index));

#define TP_READ(a)                                                             \
	do {                                                                   \
		sk = (a)->skaddr;                                              \
		skb = (a)->skbaddr;                                            \
		ends.family = (a)->family;                                     \
		ends.sport = (a)->sport;                                       \
		ends.dport = (a)->dport;                                       \
		TP_READ_ADDRS(a, ends.family, ends.saddr, ends.daddr);         \
	} while (0)

/* the one member of sk_buff read: TCP_SKB_CB(skb) lives in cb */
struct sk_buff___cb {
	char cb[48];
} __attribute__((preserve_access_index));

SEC("tracepoint/tcp/tcp_retransmit_skb")
int tcpretrans_skb(void *ctx)
{
	const struct sock___cb *sk;
	const struct sk_buff___cb *skb;
	struct sk_ends ends;
	__u32 seq = 0;

	if (bpf_core_type_exists(struct trace_event_raw_tcp_retransmit_skb)) {
		struct trace_event_raw_tcp_retransmit_skb *a = ctx;

		if (bpf_core_field_exists(a->err) && a->err)
			return 0;
		TP_READ(a);
	} else {
		struct trace_event_raw_tcp_event_sk_skb *a = ctx;

		TP_READ(a);
	}
	if (skb) /* TCP_SKB_CB(skb)->seq: the first field of skb->cb */
		bpf_core_read(&seq, sizeof(seq), &skb->cb);
	return emit(ctx, &ends, BPF_CORE_READ(sk, __sk_common.skc_state), seq, TCPRETRANS_RETRANSMIT);
}

static __always_inline int tlp(void *ctx, const struct sock___cb *sk)
{
	struct sk_ends ends;

	sk_read_ends(sk, &ends);
	return emit(ctx, &ends, BPF_CORE_READ(sk, __sk_common.skc_state), 0, TCPRETRANS_TLP);
}

/* -l: the user side keeps one of these two */
SEC("fentry/tcp_send_loss_probe")
int BPF_PROG(tcpretrans_tlp_fentry, struct sock___cb *sk)
{
	return tlp(ctx, sk);
}

SEC("kprobe/tcp_send_loss_probe")
int tcpretrans_tlp_kprobe(struct pt_regs *regs)
{
	const struct sock___cb *sk = (const struct sock___cb *)PT_REGS_PARM1(regs);
	return tlp(regs, sk);
}
