/* tcplife, kernel side: one record per TCP session when it closes, from
 * sock:inet_sock_set_state alone (no kprobes).
 *
 * A session's span starts at its last state change below FIN_WAIT1
 * (ESTABLISHED, as libbpf-tools and bcc measure it) and ends at CLOSE.  The owner is noted where the kernel runs in the owner's
 * context: the connect() (SYN_SENT) and the owner's close() (FIN_WAIT1
 * for an active close, LAST_ACK for a passive one); the close itself
 * often runs in softirq, where "current" is an unrelated task. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "state_filter.bpf.h"
#include "tcplife.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;

SOCK_HASH_MAP(birth, 10240, __u64); /* birth, ns */
SOCK_HASH_MAP(idents, 10240, struct tcplife_ident);

/* the two members read (a CO-RE flavor: not tcp_sock's whole type graph) */
struct tcp_sock___tl {
	__u64 bytes_received;
	__u64 bytes_acked;
} __attribute__((preserve_access_index));

SEC("tracepoint/sock/inet_sock_set_state")
int tcplife_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 sk = (__u64)ctx->skaddr, ts, *start;
	struct tcplife_ident id, *idp;
	struct tcplife_event e;
	int newstate = ctx->newstate;
	__u16 family = ctx->family;
	struct tcp_sock___tl *tp;
	__u32 pid;

	if (!tcp_state_wanted(ctx))
		return 0;

	if (newstate < CB_TCP_FIN_WAIT1) {
		ts = bpf_ktime_get_ns();
		bpf_map_update_elem(&birth, &sk, &ts, BPF_ANY); /* as the originals: the last one */
	}
	if (newstate == CB_TCP_SYN_SENT || newstate == CB_TCP_FIN_WAIT1 || newstate == CB_TCP_LAST_ACK) {
		pid = bpf_get_current_pid_tgid() >> 32;
		id.pid = pid;
		bpf_get_current_comm(id.comm, sizeof(id.comm));
		id.cgroup_id = event_cgroup_id();
		/* the first owner seen (the connect, or the first close) */
		bpf_map_update_elem(&idents, &sk, &id, BPF_NOEXIST);
	}
	if (newstate != CB_TCP_CLOSE)
		return 0;

	start = bpf_map_lookup_elem(&birth, &sk);
	if (!start)
		goto cleanup; /* born before we started */
	ts = bpf_ktime_get_ns();
	e.ts_ns = ts;
	e.span_ns = ts - *start;
	idp = bpf_map_lookup_elem(&idents, &sk);
	if (idp) {
		e.pid = idp->pid;
		__builtin_memcpy(e.comm, idp->comm, sizeof(e.comm));
		e.head.cgroup_id = idp->cgroup_id;
	} else {
		e.pid = bpf_get_current_pid_tgid() >> 32;
		e.head.cgroup_id = event_cgroup_id();
		bpf_get_current_comm(e.comm, sizeof(e.comm));
	}
	if (target_pid && e.pid != target_pid)
		goto cleanup;
	tp = (struct tcp_sock___tl *)sk;
	e.rx_b = BPF_CORE_READ(tp, bytes_received);
	e.tx_b = BPF_CORE_READ(tp, bytes_acked);
	e.sport = ctx->sport;
	e.dport = ctx->dport;
	e.family = family;
	TP_READ_ADDRS(ctx, family, e.saddr, e.daddr);
	events_output_head(ctx, &e, sizeof(e));
cleanup:
	bpf_map_delete_elem(&birth, &sk);
	bpf_map_delete_elem(&idents, &sk);
	return 0;
}
