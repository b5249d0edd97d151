/* sofdsnoop, kernel side: file descriptors passed over sockets
 * (SCM_RIGHTS).  bcc probes __scm_send and scm_detach_fds with kprobes;
 * here the sendmsg/recvmsg system call events carry the same facts: the
 * caller's msghdr is read from user memory, sendmsg's at entry (the fds
 * sent, numbered in the sender), recvmsg's at a successful exit (the fds
 * the kernel installed in the receiver).  The first control message is
 * the one looked at, as in bcc; up to 26 records of 10 fds each. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "sofdsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_pid = 0, targ_tid = 0;

/* user memory: struct msghdr and cmsghdr in the target's word size */
#if defined(__TARGET_ARCH_arm)
#define UWORD 4
#else
#define UWORD 8
#endif
#define MSG_CONTROL (4 * UWORD)
#define CMSG_HDR (UWORD + 8) /* cmsg_len, cmsg_level, cmsg_type; CMSG_DATA follows */

struct recv_args {
	__u64 msg;
	__s32 fd;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct recv_args);
} recvs SEC(".maps");

static __always_inline __u64 uword(__u64 addr)
{
	__u64 v = 0;

	bpf_probe_read_user(&v, UWORD, (void *)addr);
	return v;
}

static __always_inline bool traced(__u64 id)
{
	return (!targ_tid || (__u32)id == targ_tid) && (!targ_pid || id >> 32 == targ_pid);
}

static __always_inline int scm(void *ctx, __u64 id, __s32 sock_fd, __u64 msg, int recv)
{
	struct sofdsnoop_event e = {};
	__u64 control = uword(msg + MSG_CONTROL), n;
	__s32 type = 0;

	if (!control || uword(msg + MSG_CONTROL + UWORD) < CMSG_HDR)
		return 0;
	bpf_probe_read_user(&type, 4, (void *)(control + UWORD + 4));
	n = uword(control);
	if (type != 1 /* SCM_RIGHTS */ || n < CMSG_HDR)
		return 0;
	n = (n - CMSG_HDR) / 4;
	e.ts_us = bpf_ktime_get_ns() / 1000;
	e.pid = id >> 32;
	e.tid = (__u32)id;
	e.recv = recv;
	e.sock_fd = sock_fd;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	control += CMSG_HDR;
#pragma clang loop unroll(disable)
	for (int i = 0; i < 26 && n; i++) {
		__u32 cnt = n < SOFDSNOOP_MAX_FD ? n : SOFDSNOOP_MAX_FD;

		if (bpf_probe_read_user(e.fd, cnt * 4, (void *)control))
			break;
		e.fd_cnt = cnt;
		events_output(ctx, &e, sizeof(e));
		n -= cnt;
		control += SOFDSNOOP_MAX_FD * 4;
	}
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_sendmsg")
int so_sendmsg(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();

	return traced(id) ? scm(ctx, id, (__s32)ctx->args[0], ctx->args[1], 0) : 0;
}

SEC("tracepoint/syscalls/sys_enter_recvmsg")
int so_recvmsg(struct trace_event_raw_sys_enter *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct recv_args a = { ctx->args[1], (__s32)ctx->args[0] };

	if (traced(id))
		bpf_map_update_elem(&recvs, &tid, &a, BPF_ANY);
	return 0;
}

SEC("tracepoint/syscalls/sys_exit_recvmsg")
int so_recvmsg_ret(struct trace_event_raw_sys_exit *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct recv_args *a = bpf_map_lookup_elem(&recvs, &tid), r;

	if (!a)
		return 0;
	r = *a;
	bpf_map_delete_elem(&recvs, &tid);
	return ctx->ret < 0 ? 0 : scm(ctx, id, r.fd, r.msg, 1);
}
