/* tcpstates, kernel side: every TCP state change with the time spent in
 * the old state (sock:inet_sock_set_state). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "state_filter.bpf.h"
#include "tcpstates.h"

char LICENSE[] SEC("license") = "GPL";

/* socket -> time of its last state change */
SOCK_HASH_MAP(timestamps, 10240, __u64);

SEC("tracepoint/sock/inet_sock_set_state")
int tcpstates_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 sk = (__u64)ctx->skaddr, ts, *tsp;
	struct tcpstates_event e;
	__u16 family = ctx->family;

	if (!tcp_state_wanted(ctx))
		return 0;
	ts = bpf_ktime_get_ns();
	tsp = bpf_map_lookup_elem(&timestamps, &sk);
	e.delta_ns = tsp ? ts - *tsp : 0;
	e.skaddr = sk;
	e.ts_ns = ts;
	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.oldstate = ctx->oldstate;
	e.newstate = ctx->newstate;
	e.family = family;
	e.sport = ctx->sport;
	e.dport = ctx->dport;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	TP_READ_ADDRS(ctx, family, e.saddr, e.daddr);
	events_output(ctx, &e, sizeof(e));
	if (e.newstate == CB_TCP_CLOSE)
		bpf_map_delete_elem(&timestamps, &sk);
	else
		bpf_map_update_elem(&timestamps, &sk, &ts, BPF_ANY);
	return 0;
}
