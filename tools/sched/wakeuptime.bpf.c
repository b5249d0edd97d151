/* wakeuptime, kernel side: a thread going off CPU at sched_switch gets a
 * start time; when something wakes it, the time since then is added to
 * the {waker comm, target comm, waker kernel stack} total.
 *
 * The wakeup is taken at sched_waking, which runs in try_to_wake_up() in
 * the waker's context.  sched_wakeup can run later on the target CPU
 * (queued wakeups to an idle CPU), where "current" is no longer the
 * waker.  New tasks: sched_wakeup_new runs in the parent, also the
 * waker.  Task fields are read with CO-RE probe reads only (tp_btf and
 * raw_tp alike). */
#include "stacks.bpf.h"
#include "wakeuptime.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_pid = 0;
const volatile __u8 user_threads_only = 0;
const volatile __u64 min_block_ns = 1000;
const volatile __u64 max_block_ns = ~0ULL;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAKEUP_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, WAKEUP_MAX_ENTRIES);
	__type(key, struct wakeup_key);
	__type(value, __u64);
} counts SEC(".maps");

STACK_MAP(stackmap);

ID_FILTER_MAP(tgids, WAKEUP_MAX_FILTER);

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 pid = (__u32)BPF_CORE_READ(prev, pid), tgid = (__u32)BPF_CORE_READ(prev, tgid);
	__u64 ts;

	if (!pid)
		return 0;
	if (!id_allowed(filter_pid, &tgids, tgid) || !thread_kind_allowed(prev, user_threads_only, 0))
		return 0;
	if (task_state(prev) & TASK_DEAD)
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &pid, &ts, BPF_ANY);
	return 0;
}

static __always_inline int wakeup(void *ctx, __u32 pid, const void *comm)
{
	struct wakeup_key key = {};
	__u64 *tsp, delta;

	tsp = bpf_map_lookup_elem(&start, &pid);
	if (!tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &pid);
	if ((__s64)delta < 0 || delta < min_block_ns || delta > max_block_ns)
		return 0;
	key.w_k_stack_id = (__s32)bpf_get_stackid(ctx, &stackmap, 0);
	bpf_probe_read_kernel_str(key.target, sizeof(key.target), comm);
	bpf_get_current_comm(key.waker, sizeof(key.waker));
	counts_add(&counts, &key, delta);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(sched_waking, struct task_struct *p)
{
	return wakeup(ctx, (__u32)BPF_CORE_READ(p, pid), __builtin_preserve_access_index(&p->comm));
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
	return wakeup(ctx, (__u32)BPF_CORE_READ(p, pid), __builtin_preserve_access_index(&p->comm));
}

/* Without kernel BTF: the records name the threads (prev_pid, the woken
 * pid and comm) and prev's state (the report form: X 0x10, Z 0x20; a
 * long, read by its size); prev is current.  The user side refuses -u
 * (PF_KTHREAD is in task_struct). */
SEC("tracepoint/sched/sched_switch")
int sched_switch_tp(struct trace_event_raw_sched_switch *ctx)
{
	__u32 pid = ctx->prev_pid, tgid = bpf_get_current_pid_tgid() >> 32;
	long st = 0;
	__u64 ts;

	if (!pid || !id_allowed(filter_pid, &tgids, tgid))
		return 0;
	bpf_core_read(&st, bpf_core_field_size(ctx->prev_state), &ctx->prev_state);
	if (st & 0x30)
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &pid, &ts, BPF_ANY);
	return 0;
}

SEC("tracepoint/sched/sched_waking")
int sched_waking_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return wakeup(ctx, ctx->pid, ctx->comm);
}

SEC("tracepoint/sched/sched_wakeup_new")
int sched_wakeup_new_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return wakeup(ctx, ctx->pid, ctx->comm);
}
