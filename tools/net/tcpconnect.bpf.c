/* tcpconnect, kernel side: active TCP connects, from tracepoints only.
 *
 * libbpf-tools pairs a kprobe and a kretprobe on tcp_v4/v6_connect().
 * The same two moments without kprobes: tcp_v*_connect() moves the
 * socket to SYN_SENT (sock:inet_sock_set_state, in the caller's context:
 * note the socket by thread), then connect(2) returns
 * (syscalls:sys_exit_connect: by then the kernel has picked the source
 * port).  Connects that do not go through connect(2) (io_uring, TCP fast
 * open with sendto(), in-kernel sockets) are not seen. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "inet_flow.bpf.h"
#include "tcpconnect.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 filter_pid = 0;
const volatile __u32 filter_uid = (__u32)-1;
const volatile __u8 filter_dport = 0;
const volatile __u8 filter_cg = 0;
const volatile __u8 do_count = 0;
const volatile __u8 source_port = 0;

PORT_FILTER_MAP(dports);

/* A connect in progress: the socket and its ends as SYN_SENT saw them
 * (a refused connect() clears the destination before it returns). */
struct pending {
	__u64 sk;
	struct sk_ends ends;
};

/* thread -> its connect in progress, from SYN_SENT to the end of connect(2) */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC); /* entries come and go: no memory up front */
	__type(key, __u32);
	__type(value, struct pending);
} sockets SEC(".maps");

SEC("tracepoint/sock/inet_sock_set_state")
int tcpconnect_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct pending p, *pp;

	if (ctx->protocol != IPPROTO_TCP)
		return 0;
	if (ctx->oldstate == CB_TCP_SYN_SENT) {
		/* the source port, before a failure unhashes it (a refused
		 * loopback connect is processed in the caller's context) */
		pp = bpf_map_lookup_elem(&sockets, &tid);
		if (pp && pp->sk == (__u64)ctx->skaddr && ctx->sport)
			pp->ends.sport = ctx->sport;
		return 0;
	}
	if (ctx->newstate != CB_TCP_SYN_SENT)
		return 0;
	if (filter_pid && (__u32)(id >> 32) != filter_pid)
		return 0;
	if (filter_uid != (__u32)-1 && (__u32)bpf_get_current_uid_gid() != filter_uid)
		return 0;
	if (!cgroup_allowed(filter_cg))
		return 0;
	p.sk = (__u64)ctx->skaddr;
	p.ends.family = ctx->family;
	p.ends.sport = ctx->sport; /* 0 unless bound: picked after SYN_SENT */
	p.ends.dport = ctx->dport;
	TP_READ_ADDRS(ctx, p.ends.family, p.ends.saddr, p.ends.daddr);
	bpf_map_update_elem(&sockets, &tid, &p, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_connect")
int tcpconnect_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct tcpconnect_event e;
	struct pending *pp;
	struct sk_ends ends;
	__u16 sport;

	pp = bpf_map_lookup_elem(&sockets, &tid);
	if (!pp)
		return 0;
	ends = pp->ends;
	sport = BPF_CORE_READ((struct sock___cb *)pp->sk, __sk_common.skc_num);
	if (sport)
		ends.sport = sport;
	bpf_map_delete_elem(&sockets, &tid);
	if (!port_allowed(filter_dport, &dports, ends.dport))
		return 0;
	if (do_count) {
		inet_flow_count(&ends, source_port ? ends.sport : 0);
		return 0;
	}
	__builtin_memcpy(e.saddr, ends.saddr, 16);
	__builtin_memcpy(e.daddr, ends.daddr, 16);
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.uid = (__u32)bpf_get_current_uid_gid();
	e.sport = ends.sport;
	e.dport = ends.dport;
	e.family = ends.family;
	e.pad = 0;
	events_output(ctx, &e, sizeof(e));
	return 0;
}
