/* tcpstates, kernel side: every TCP state change with the time spent in
 * the old state (sock:inet_sock_set_state). */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "tcpstates.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u16 target_family = 0;
const volatile __u8 filter_sport = 0;
const volatile __u8 filter_dport = 0;

PORT_FILTER_MAP(sports);
PORT_FILTER_MAP(dports);

/* socket -> time of its last state change */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* entries come and go: no memory up front */
	__type(key, __u64);
	__type(value, __u64);
} timestamps SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpstates_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 sk = (__u64)ctx->skaddr, ts, *tsp;
	struct tcpstates_event e;
	__u16 family = ctx->family;

	if (ctx->protocol != IPPROTO_TCP)
		return 0;
	if (target_family && family != target_family)
		return 0;
	if (!port_allowed(filter_sport, &sports, ctx->sport) ||
	    !port_allowed(filter_dport, &dports, ctx->dport))
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
