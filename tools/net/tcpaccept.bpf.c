/* tcpaccept, kernel side: TCP connections handed to a process by
 * accept(2) or accept4(2), from the syscall exit events.
 *
 * bcc uses a kretprobe on inet_csk_accept() (it declines
 * sock:inet_sock_set_state, which runs in softirq context with the wrong
 * PID).  The syscall exit is the same moment in the accepting process:
 * its return value is the new fd, and the task's file table gives its
 * socket.  Accepts not made by these syscalls (io_uring, in-kernel
 * users) are not seen. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "inet.bpf.h"
#include "sock_fd.bpf.h"
#include "tcpaccept.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;    /* tgid, 0: all */
const volatile __u16 target_family = 0; /* -4: AF_INET, -6: AF_INET6, 0: both */
const volatile __u8 filter_lport = 0;   /* -P */

PORT_FILTER_MAP(lports);

static __always_inline int accepted(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct tcpaccept_event e = {};
	struct socket___cb *sock;
	struct sock___cb *sk;
	struct sk_ends ends;
	long fd = ctx->ret;

	if (fd < 0)
		return 0;
	if (target_pid && (__u32)(id >> 32) != target_pid)
		return 0;
	sock = fd_socket(fd);
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
	if (target_family && ends.family != target_family)
		return 0;
	if (!port_allowed(filter_lport, &lports, ends.sport))
		return 0;
	__builtin_memcpy(e.laddr, ends.saddr, 16);
	__builtin_memcpy(e.raddr, ends.daddr, 16);
	e.ts_ns = bpf_ktime_get_ns();
	e.pid = id >> 32;
	e.lport = ends.sport;
	e.rport = ends.dport;
	e.family = ends.family;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_accept")
int tcpaccept_accept(struct trace_event_raw_sys_exit *ctx)
{
	return accepted(ctx);
}

SEC("tracepoint/syscalls/sys_exit_accept4")
int tcpaccept_accept4(struct trace_event_raw_sys_exit *ctx)
{
	return accepted(ctx);
}
