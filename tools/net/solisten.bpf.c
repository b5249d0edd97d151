/* solisten, kernel side: listen(2) on IPv4 and IPv6 sockets, from the
 * syscall tracepoints.
 *
 * libbpf-tools probes inet_listen() (kprobe + kretprobe or fexit), which
 * this kernel may not offer.  The syscall events carry the fd and the
 * backlog; the socket behind the fd is found through the task's file
 * table at entry (struct file's private_data is the struct socket), so
 * the port and address are those before listen() ran, as inet_listen's
 * entry saw them, and the result comes from the exit.  inet_listen is
 * TCP's listen only (unix, UDP, SCTP, MPTCP sockets have their own or
 * none), so other sockets are skipped; and it gets the backlog after
 * listen(2) capped it at the namespace's net.core.somaxconn, so the
 * same cap is applied here. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "sock_fd.bpf.h"
#include "solisten.h"

char LICENSE[] SEC("license") = "GPL";

/* where the socket's namespace keeps net.core.somaxconn (CO-RE flavors:
 * these members only, not struct net's type graph) */
struct netns_core___sol {
	int sysctl_somaxconn;
} __attribute__((preserve_access_index));
struct net___sol {
	struct netns_core___sol core;
} __attribute__((preserve_access_index));
struct possible_net___sol {
	struct net___sol *net;
} __attribute__((preserve_access_index));
struct sock_common___sol {
	struct possible_net___sol skc_net;
} __attribute__((preserve_access_index));
struct sock___sol {
	struct sock_common___sol __sk_common;
} __attribute__((preserve_access_index));

const volatile __u32 target_pid = 0; /* tgid, 0: all */

/* thread -> its listen() in progress, filled at entry */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct solisten_event);
} values SEC(".maps");

/* listen(fd, backlog) */
SEC("tracepoint/syscalls/sys_enter_listen")
int solisten_enter(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct solisten_event e = {};
	struct socket___cb *sock;
	struct sock___cb *sk;
	struct sk_ends ends;
	struct net___sol *net;
	int somaxconn;

	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	sock = fd_socket(ctx->args[0]);
	if (!sock)
		return 0;
	sk = BPF_CORE_READ(sock, sk);
	if (!sk)
		return 0;
	sk_read_ends(sk, &ends);
	if (ends.family != AF_INET && ends.family != AF_INET6)
		return 0;
	if (sk_protocol(sk) != IPPROTO_TCP)
		return 0;
	e.family = ends.family;
	e.type = BPF_CORE_READ(sock, type);
	e.port = ends.sport;
	__builtin_memcpy(e.addr, ends.saddr, 16);
	e.pid = id >> 32;
	e.backlog = (int)ctx->args[1];
	net = (struct net___sol *)BPF_CORE_READ((struct sock___sol *)sk, __sk_common.skc_net.net);
	somaxconn = BPF_CORE_READ(net, core.sysctl_somaxconn);
	if ((unsigned int)e.backlog > (unsigned int)somaxconn)
		e.backlog = somaxconn;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_map_update_elem(&values, &tid, &e, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_listen")
int solisten_exit(struct trace_event_raw_sys_exit *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct solisten_event *e = bpf_map_lookup_elem(&values, &tid);

	if (!e)
		return 0;
	e->ret = (int)ctx->ret;
	events_output(ctx, e, sizeof(*e));
	bpf_map_delete_elem(&values, &tid);
	return 0;
}
