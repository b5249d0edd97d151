/* tcptop, kernel side: bytes sent and received per process and TCP
 * connection.
 *
 * libbpf-tools probes tcp_sendmsg (its size argument) and
 * tcp_cleanup_rbuf (the bytes copied to the reader).  Kernels 6.3+ have
 * stable events for the same two moments, sock:sock_send_length and
 * sock:sock_recv_length, at the end of sock_sendmsg/sock_recvmsg with the
 * socket, its protocol and the call's result; they are used first (a
 * MSG_PEEK read, which leaves the data queued, is not counted, as
 * tcp_cleanup_rbuf does not see it).  The user side picks: tracepoints,
 * else fentry, else kprobes on the two functions. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "inet.bpf.h"
#include "tcptop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_cg = 0;     /* -c */
const volatile __u32 target_pid = 0;   /* -p: tgid, 0: all */
const volatile __u16 target_family = 0; /* -4/-6: AF_INET/AF_INET6, 0: both */

#define MSG_PEEK 2

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, TCPTOP_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct tcptop_key);
	__type(value, struct tcptop_val);
} ip_map SEC(".maps");

/* one copy shared by the six programs (inlined it was ~1 KB each) */
static __noinline int count_bytes(int receiving, const struct sock___cb *sk, __u64 size)
{
	struct tcptop_key key = {};
	struct tcptop_val *v, zero = {};
	struct sk_ends ends;
	__u32 pid = bpf_get_current_pid_tgid() >> 32;

	if (!cgroup_allowed(filter_cg))
		return 0;
	if (target_pid && pid != target_pid)
		return 0;
	sk_read_ends(sk, &ends);
	if (ends.family != AF_INET && ends.family != AF_INET6)
		return 0;
	if (target_family && ends.family != target_family)
		return 0;
	key.pid = pid;
	bpf_get_current_comm(key.name, sizeof(key.name));
	key.lport = ends.sport;
	key.dport = ends.dport;
	key.family = ends.family;
	__builtin_memcpy(key.saddr, ends.saddr, 16);
	__builtin_memcpy(key.daddr, ends.daddr, 16);
	v = bpf_map_lookup_elem(&ip_map, &key);
	if (!v) {
		bpf_map_update_elem(&ip_map, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&ip_map, &key);
		if (!v)
			return 0;
	}
	if (receiving)
		__sync_fetch_and_add(&v->received, size);
	else
		__sync_fetch_and_add(&v->sent, size);
	return 0;
}

/* include/trace/events/sock.h: sock_msg_length */
struct trace_event_raw_sock_msg_length {
	struct trace_entry ent;
	void *sk;
	__u16 family;
	__u16 protocol;
	int ret;
	int flags;
} __attribute__((preserve_access_index));

SEC("tracepoint/sock/sock_send_length")
int tcptop_send_tp(struct trace_event_raw_sock_msg_length *ctx)
{
	if (ctx->protocol != IPPROTO_TCP || ctx->ret <= 0)
		return 0;
	return count_bytes(0, ctx->sk, (__u64)ctx->ret);
}

SEC("tracepoint/sock/sock_recv_length")
int tcptop_recv_tp(struct trace_event_raw_sock_msg_length *ctx)
{
	if (ctx->protocol != IPPROTO_TCP || ctx->ret <= 0 || (ctx->flags & MSG_PEEK))
		return 0;
	return count_bytes(1, ctx->sk, (__u64)ctx->ret);
}

SEC("fentry/tcp_sendmsg")
int BPF_PROG(tcptop_send_fentry, struct sock___cb *sk, void *msg, __u64 size)
{
	return count_bytes(0, sk, size);
}

SEC("fentry/tcp_cleanup_rbuf")
int BPF_PROG(tcptop_recv_fentry, struct sock___cb *sk, int copied)
{
	return copied > 0 ? count_bytes(1, sk, (__u64)copied) : 0;
}

SEC("kprobe/tcp_sendmsg")
int tcptop_send_kprobe(struct pt_regs *ctx)
{
	return count_bytes(0, (void *)PT_REGS_PARM1(ctx), PT_REGS_PARM3(ctx));
}

SEC("kprobe/tcp_cleanup_rbuf")
int tcptop_recv_kprobe(struct pt_regs *ctx)
{
	int copied = (int)PT_REGS_PARM2(ctx);

	return copied > 0 ? count_bytes(1, (void *)PT_REGS_PARM1(ctx), (__u64)copied) : 0;
}
