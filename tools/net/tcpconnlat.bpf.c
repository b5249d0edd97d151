/* tcpconnlat, kernel side: TCP connect latency, SYN_SENT -> ESTABLISHED,
 * from sock:inet_sock_set_state (libbpf-tools measures to the arrival of
 * the SYN-ACK in tcp_rcv_state_process, with kprobes or fentry; the
 * state change is the same moment, and needs neither). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "tcpconnlat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 targ_min_ns = 0;
const volatile __u32 targ_tgid = 0;

struct piddata {
	char comm[16];
	__u64 ts;
	__u64 cgroup_id; /* the handshake ends in softirq context */
	__u32 tgid;
};

/* socket -> its connect(), from SYN_SENT on */
SOCK_HASH_MAP(start, 4096, struct piddata);

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnlat_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 sk = (__u64)ctx->skaddr, ts;
	struct tcpconnlat_event e;
	struct piddata p, *pp;

	if (ctx->protocol != IPPROTO_TCP)
		return 0;
	if (ctx->newstate == CB_TCP_SYN_SENT) { /* in connect(): the caller's context */
		p.tgid = bpf_get_current_pid_tgid() >> 32;
		if (targ_tgid && p.tgid != targ_tgid)
			return 0;
		bpf_get_current_comm(p.comm, sizeof(p.comm));
		p.ts = bpf_ktime_get_ns();
		p.cgroup_id = event_cgroup_id();
		bpf_map_update_elem(&start, &sk, &p, BPF_ANY);
		return 0;
	}
	if (ctx->oldstate != CB_TCP_SYN_SENT)
		return 0;
	pp = bpf_map_lookup_elem(&start, &sk);
	if (!pp)
		return 0;
	if (ctx->newstate != CB_TCP_ESTABLISHED)
		goto cleanup; /* refused, timed out, aborted */
	ts = bpf_ktime_get_ns();
	e.delta_ns = ts - pp->ts;
	if (targ_min_ns && e.delta_ns < targ_min_ns)
		goto cleanup;
	__builtin_memcpy(e.comm, pp->comm, sizeof(e.comm));
	e.ts_ns = ts;
	e.tgid = pp->tgid;
	e.head.cgroup_id = pp->cgroup_id;
	e.lport = ctx->sport;
	e.dport = ctx->dport;
	e.family = ctx->family;
	e.pad[0] = e.pad[1] = e.pad[2] = 0;
	TP_READ_ADDRS(ctx, e.family, e.saddr, e.daddr);
	events_output_head(ctx, &e, sizeof(e));
cleanup:
	bpf_map_delete_elem(&start, &sk);
	return 0;
}
