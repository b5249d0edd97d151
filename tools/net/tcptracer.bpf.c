/* tcptracer, kernel side: TCP connects (C), accepts (A) and closes (X)
 * with the process that made them.
 *
 * libbpf-tools uses kprobes on tcp_v4/v6_connect, tcp_set_state,
 * tcp_close and a kretprobe on inet_csk_accept.  Stable events give the
 * same moments:
 *  - C: sock:inet_sock_set_state CLOSE -> SYN_SENT runs inside connect()
 *    (the owner is remembered per socket), SYN_SENT -> ESTABLISHED then
 *    reports it with that owner, as libbpf-tools' tuple map does;
 *  - A: the accept/accept4 syscall exits, the new fd's socket found
 *    through the task's file table (as tcpaccept);
 *  - X: tcp_close's own state change (ESTABLISHED -> FIN_WAIT1,
 *    CLOSE_WAIT -> LAST_ACK, or -> CLOSE when data was left unread) of
 *    the socket that close(2) is closing in this task (its fd resolved at
 *    sys_enter_close), or, while the task exits (its files are closed
 *    after sched_process_exit), of any socket leaving ESTABLISHED or
 *    CLOSE_WAIT.  A close that is not the last reference changes no
 *    state and so, as tcp_close, reports nothing.  After
 *    shutdown(SHUT_WR) the close still moves the socket on (from FIN_WAIT2,
 *    once the peer acknowledged the FIN, to time-wait) and is reported
 *    (tests/e2e/tcptracer.sh).  Not seen: a socket whose close changes
 *    no state (already CLOSE after a reset, or still FIN_WAIT1 with the
 *    FIN unacknowledged), which tcp_close's kprobe would still report. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "sock_fd.bpf.h"
#include "tcptracer.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 filter_pid = 0;        /* tgid, 0: all */
const volatile __u32 filter_uid = 0xffffffff; /* -1: all */

#define ANY_SOCKET 1 /* closing[tid] while the task exits */

SOCK_HASH_MAP(connecting, 10240, struct tcptracer_owner);

/* thread -> the struct sock its close(2) is closing (ANY_SOCKET at exit) */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} closing SEC(".maps");

static __always_inline int skip(__u32 pid, __u32 uid)
{
	return (filter_pid && pid != filter_pid) || (filter_uid != 0xffffffff && uid != filter_uid);
}

/* libbpf-tools' fill_tuple: no event without both addresses and ports */
static __noinline int complete(const struct tcptracer_event *e)
{
	__u64 s = 0, d = 0;

	for (int i = 0; i < 16; i++) {
		s |= e->saddr[i];
		d |= e->daddr[i];
	}
	return s && d && e->sport && e->dport;
}

static __noinline void from_ctx(struct tcptracer_event *e,
				     const struct trace_event_raw_inet_sock_set_state *ctx)
{
	e->family = ctx->family;
	e->sport = ctx->sport;
	e->dport = ctx->dport;
	TP_READ_ADDRS(ctx, e->family, e->saddr, e->daddr);
}

SEC("tracepoint/sock/inet_sock_set_state")
int tcptracer_state(struct trace_event_raw_inet_sock_set_state *ctx)
{
	__u64 sk = (__u64)ctx->skaddr, id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	int old = ctx->oldstate, new = ctx->newstate;
	struct tcptracer_event e = {};
	struct tcptracer_owner *o;
	__u64 *c;

	if (ctx->protocol != IPPROTO_TCP || (ctx->family != AF_INET && ctx->family != AF_INET6))
		return 0;
	if (old == CB_TCP_CLOSE && new == CB_TCP_SYN_SENT) {
		struct tcptracer_owner w = {};

		w.pid = id >> 32;
		w.uid = (__u32)bpf_get_current_uid_gid();
		if (skip(w.pid, w.uid))
			return 0;
		bpf_get_current_comm(w.comm, sizeof(w.comm));
		bpf_map_update_elem(&connecting, &sk, &w, BPF_ANY);
		return 0;
	}
	if (old == CB_TCP_SYN_SENT) {
		o = bpf_map_lookup_elem(&connecting, &sk);
		if (!o)
			return 0;
		if (new == CB_TCP_ESTABLISHED) {
			e.type = TCPTRACER_CONNECT;
			e.pid = o->pid;
			e.uid = o->uid;
			__builtin_memcpy(e.comm, o->comm, sizeof(e.comm));
			from_ctx(&e, ctx);
		}
		bpf_map_delete_elem(&connecting, &sk);
		goto out;
	}
	c = bpf_map_lookup_elem(&closing, &tid);
	if (!c || (*c != sk && *c != ANY_SOCKET))
		return 0;
	if (*c == ANY_SOCKET ? (old != CB_TCP_ESTABLISHED && old != CB_TCP_CLOSE_WAIT) ||
				       (new != CB_TCP_FIN_WAIT1 && new != CB_TCP_LAST_ACK && new != CB_TCP_CLOSE)
			     : old == CB_TCP_SYN_SENT || old == CB_TCP_SYN_RECV || old == CB_TCP_NEW_SYN_RECV ||
				       old == CB_TCP_LISTEN || old == CB_TCP_CLOSE)
		return 0;
	if (*c == sk)
		bpf_map_delete_elem(&closing, &tid); /* one report per close */
	e.type = TCPTRACER_CLOSE;
	e.pid = id >> 32;
	e.uid = (__u32)bpf_get_current_uid_gid();
	if (skip(e.pid, e.uid))
		return 0;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	from_ctx(&e, ctx);
out:
	if (!e.type || !complete(&e))
		return 0;
	e.ts_ns = bpf_ktime_get_ns();
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_close")
int tcptracer_close_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct socket___cb *sock = fd_socket(ctx->args[0]);
	__u64 sk;

	if (!sock)
		return 0;
	sk = (__u64)BPF_CORE_READ(sock, sk);
	/* any file's private_data is read as a socket: the state change
	 * must name the same pointer, so a wrong guess reports nothing */
	if (sk)
		bpf_map_update_elem(&closing, &tid, &sk, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_close")
int tcptracer_close_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();

	bpf_map_delete_elem(&closing, &tid);
	return 0;
}

SEC("tracepoint/sched/sched_process_exit")
int tcptracer_exit(void *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 any = ANY_SOCKET;

	bpf_map_update_elem(&closing, &tid, &any, BPF_ANY);
	return 0;
}

/* one copy for both accept events */
static __noinline int accepted(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tcptracer_event e = {};
	struct socket___cb *sock;
	struct sock___cb *sk;
	struct sk_ends ends;
	long fd = ctx->ret;

	if (fd < 0)
		return 0;
	e.pid = id >> 32;
	e.uid = (__u32)bpf_get_current_uid_gid();
	if (skip(e.pid, e.uid))
		return 0;
	sock = fd_socket(fd);
	if (!sock)
		return 0;
	sk = BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	sk_read_ends(sk, &ends);
	if ((ends.family != AF_INET && ends.family != AF_INET6) || sk_protocol(sk) != IPPROTO_TCP)
		return 0;
	e.type = TCPTRACER_ACCEPT;
	e.family = ends.family;
	e.sport = ends.sport;
	e.dport = ends.dport;
	__builtin_memcpy(e.saddr, ends.saddr, 16);
	__builtin_memcpy(e.daddr, ends.daddr, 16);
	if (!complete(&e))
		return 0;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	e.ts_ns = bpf_ktime_get_ns();
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_accept")
int tcptracer_accept(struct trace_event_raw_sys_exit *ctx)
{
	return accepted(ctx);
}

SEC("tracepoint/syscalls/sys_exit_accept4")
int tcptracer_accept4(struct trace_event_raw_sys_exit *ctx)
{
	return accepted(ctx);
}
