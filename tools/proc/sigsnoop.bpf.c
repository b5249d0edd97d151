/* sigsnoop, kernel side.  Two ways in, as libbpf-tools: every signal the
 * kernel generates (signal:signal_generate), or with -k only those sent by
 * kill(2), tkill(2) and tgkill(2), remembered at syscall entry by thread
 * and emitted at exit with the return value.  The user side turns off the
 * programs of the way not taken. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "sigsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;  /* sender's tgid, 0: all */
const volatile __u64 sig_mask = 0;    /* bit sig-1 set: trace sig; 0: all */
const volatile __u8 failed_only = 0;  /* -x */

/* The tracepoint's record (a CO-RE flavor: the trimmed vmlinux.h has no
 * signal events; the loader relocates the fields by name). */
struct trace_event_raw_signal_generate___ss {
	int sig;
	int errno;
	pid_t pid;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct sigsnoop_event);
} start SEC(".maps");

static __always_inline int wanted(int sig, __u32 pid)
{
	if (sig_mask && (sig < 1 || sig > 64 || !(sig_mask & (1ull << (sig - 1)))))
		return 0;
	return !target_pid || pid == target_pid;
}

static __always_inline int kill_entry(__s32 tpid, int sig)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct sigsnoop_event e = {};

	if (!wanted(sig, id >> 32))
		return 0;
	e.pid = id >> 32;
	e.tpid = tpid;
	e.sig = sig;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_map_update_elem(&start, &tid, &e, BPF_ANY);
	return 0;
}

static __always_inline int kill_exit(void *ctx, long ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct sigsnoop_event *e = bpf_map_lookup_elem(&start, &tid);

	if (!e)
		return 0;
	if (!failed_only || ret < 0) {
		e->ret = (__s32)ret;
		events_output(ctx, e, sizeof(*e));
	}
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tracepoint/syscalls/sys_enter_kill")
int sigsnoop_kill_entry(struct trace_event_raw_sys_enter *ctx)
{
	return kill_entry((__s32)ctx->args[0], (int)ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_exit_kill")
int sigsnoop_kill_exit(struct trace_event_raw_sys_exit *ctx)
{
	return kill_exit(ctx, ctx->ret);
}

SEC("tracepoint/syscalls/sys_enter_tkill")
int sigsnoop_tkill_entry(struct trace_event_raw_sys_enter *ctx)
{
	return kill_entry((__s32)ctx->args[0], (int)ctx->args[1]);
}

SEC("tracepoint/syscalls/sys_exit_tkill")
int sigsnoop_tkill_exit(struct trace_event_raw_sys_exit *ctx)
{
	return kill_exit(ctx, ctx->ret);
}

/* tgkill(tgid, tid, sig): the target shown is the thread */
SEC("tracepoint/syscalls/sys_enter_tgkill")
int sigsnoop_tgkill_entry(struct trace_event_raw_sys_enter *ctx)
{
	return kill_entry((__s32)ctx->args[1], (int)ctx->args[2]);
}

SEC("tracepoint/syscalls/sys_exit_tgkill")
int sigsnoop_tgkill_exit(struct trace_event_raw_sys_exit *ctx)
{
	return kill_exit(ctx, ctx->ret);
}

/* RESULT is the record's errno field, as libbpf-tools 0.26 shows it (and
 * -x keeps the records where it is not 0). */
SEC("tracepoint/signal/signal_generate")
int sigsnoop_generate(struct trace_event_raw_signal_generate___ss *ctx)
{
	__u32 pid = bpf_get_current_pid_tgid() >> 32;
	struct sigsnoop_event e = {};
	int sig = ctx->sig;

	e.ret = ctx->errno;
	if (failed_only && e.ret == 0)
		return 0;
	if (!wanted(sig, pid))
		return 0;
	e.pid = pid;
	e.tpid = ctx->pid;
	e.sig = sig;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	events_output(ctx, &e, sizeof(e));
	return 0;
}
