/* offcputime, kernel side: at sched_switch the task going off CPU
 * (prev == current) gets a start time and its kernel and user stack ids,
 * kept by thread id; when that thread is switched in again (next) the
 * time it was away is added to the total of its {thread, stacks} key.
 *
 * Task fields are read with CO-RE probe reads only, so the same program
 * loads as tp_btf and as raw_tp. */
#include "stacks.bpf.h"
#include "offcputime.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_pid = 0;
const volatile __u8 filter_tid = 0;
const volatile __u8 user_threads_only = 0;
const volatile __u8 kernel_threads_only = 0;
const volatile __u8 user_stacks_only = 0;
const volatile __u8 kernel_stacks_only = 0;
const volatile __s64 state = -1; /* -1: any */
const volatile __u64 min_block_us = 1;
const volatile __u64 max_block_us = ~0ULL;

struct start_val {
	__u64 ts;
	struct offcpu_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, struct start_val);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_ENTRIES);
	__type(key, struct offcpu_key);
	__type(value, struct offcpu_val);
} info SEC(".maps");

STACK_MAP(stackmap);

ID_FILTER_MAP(tgids, OFFCPU_MAX_FILTER);

ID_FILTER_MAP(pids, OFFCPU_MAX_FILTER);

static __always_inline int allow_record(struct task_struct *t, __u32 pid, __u32 tgid)
{
	long st;

	if (!id_allowed(filter_pid, &tgids, tgid) || !id_allowed(filter_tid, &pids, pid) ||
	    !thread_kind_allowed(t, user_threads_only, kernel_threads_only))
		return 0;
	st = task_state(t);
	if (st & TASK_DEAD)
		return 0;
	if (state != -1 && st != state)
		return 0;
	return 1;
}

/* prev (current) goes off CPU: its start time and stacks. */
static __always_inline void off_cpu(void *ctx, __u32 pid, __u32 tgid, __s32 user_stack_id, __u64 now)
{
	struct start_val s = {};
	struct offcpu_val val = {};

	if (!pid)
		pid = bpf_get_smp_processor_id();
	s.ts = now;
	s.key.pid = pid;
	s.key.tgid = tgid;
	s.key.user_stack_id = user_stack_id;
	s.key.kern_stack_id = stack_id(ctx, &stackmap, user_stacks_only, 0);
	bpf_map_update_elem(&start, &pid, &s, BPF_ANY);
	bpf_get_current_comm(val.comm, sizeof(val.comm));
	val.delta = 0;
	bpf_map_update_elem(&info, &s.key, &val, BPF_NOEXIST);
}

/* next comes back: the time it was away goes to its key's total. */
static __always_inline void on_cpu(__u32 pid, __u64 now)
{
	struct offcpu_val *valp;
	struct start_val *sp;
	__s64 delta;

	if (!pid)
		pid = bpf_get_smp_processor_id();
	sp = bpf_map_lookup_elem(&start, &pid);
	if (!sp)
		return;
	delta = blocked_us(now, sp->ts, min_block_us, max_block_us);
	if (delta < 0)
		goto cleanup;
	valp = bpf_map_lookup_elem(&info, &sp->key);
	if (valp)
		__sync_fetch_and_add(&valp->delta, (__u64)delta);
cleanup:
	bpf_map_delete_elem(&start, &pid);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 pid = (__u32)BPF_CORE_READ(prev, pid), tgid = (__u32)BPF_CORE_READ(prev, tgid);
	__u64 now = bpf_ktime_get_ns();

	if (allow_record(prev, pid, tgid))
		off_cpu(ctx, pid, tgid, user_stack_id(ctx, &stackmap, kernel_stacks_only, prev), now);
	on_cpu((__u32)BPF_CORE_READ(next, pid), now);
	return 0;
}

/* Without kernel BTF: the record's pids and prev_state (the report form:
 * 0 running, 0x100 preempted, 1 S, 2 D, 0x10 X, 0x20 Z, ...; a long,
 * read by its size), prev's process from the helper (prev is current).
 * A kernel thread has no user stack: -EFAULT there is "none" (-1); the
 * user side refuses -u/-k (PF_KTHREAD is in task_struct). */
SEC("tracepoint/sched/sched_switch")
int sched_switch_tp(struct trace_event_raw_sched_switch *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), now = bpf_ktime_get_ns();
	__u32 pid = ctx->prev_pid, tgid = id >> 32;
	long st = 0;
	__s32 ustack;

	bpf_core_read(&st, bpf_core_field_size(ctx->prev_state), &ctx->prev_state);
	if (id_allowed(filter_pid, &tgids, tgid) && id_allowed(filter_tid, &pids, pid) && !(st & 0x30) &&
	    (state == -1 || (state ? st == state : !(st & 0xff)))) {
		ustack = stack_id(ctx, &stackmap, kernel_stacks_only, BPF_F_USER_STACK);
		off_cpu(ctx, pid, tgid, ustack == -14 ? -1 : ustack, now);
	}
	on_cpu(ctx->next_pid, now);
	return 0;
}
