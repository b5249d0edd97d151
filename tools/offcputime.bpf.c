/* offcputime, kernel side: at sched_switch the task going off CPU
 * (prev == current) gets a start time and its kernel and user stack ids,
 * kept by thread id; when that thread is switched in again (next) the
 * time it was away is added to the total of its {thread, stacks} key.
 *
 * Task fields are read with CO-RE probe reads only, so the same program
 * loads as tp_btf and as raw_tp. */
#include "corebox.bpf.h"
#include "offcputime.h"

char LICENSE[] SEC("license") = "GPL";

#define PF_KTHREAD 0x00200000
#define TASK_DEAD 0x00000080 /* a task's last switch-out: never comes back */

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

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024); /* --stack-storage-size */
	__type(key, __u32);
	__uint(value_size, 127 * sizeof(__u64)); /* --perf-max-stack-depth */
} stackmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_FILTER);
	__type(key, __u32);
	__type(value, __u8);
} tgids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFCPU_MAX_FILTER);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/* Kernels before 5.14 call the state field "state" (a long). */
struct task_struct___o {
	volatile long state;
} __attribute__((preserve_access_index));

static __always_inline long task_state(struct task_struct *t)
{
	struct task_struct___o *o = (void *)t;

	if (bpf_core_field_exists(t->__state))
		return (long)BPF_CORE_READ(t, __state);
	return BPF_CORE_READ(o, state);
}

static __always_inline int allow_record(struct task_struct *t, __u32 pid, __u32 tgid)
{
	long st;

	if (filter_pid && !bpf_map_lookup_elem(&tgids, &tgid))
		return 0;
	if (filter_tid && !bpf_map_lookup_elem(&pids, &pid))
		return 0;
	if (user_threads_only || kernel_threads_only) {
		unsigned int flags = BPF_CORE_READ(t, flags);

		if (user_threads_only && (flags & PF_KTHREAD))
			return 0;
		if (kernel_threads_only && !(flags & PF_KTHREAD))
			return 0;
	}
	st = task_state(t);
	if (st & TASK_DEAD)
		return 0;
	if (state != -1 && st != state)
		return 0;
	return 1;
}

static __always_inline int handle_switch(void *ctx, struct task_struct *prev, struct task_struct *next)
{
	__u32 pid = (__u32)BPF_CORE_READ(prev, pid), tgid = (__u32)BPF_CORE_READ(prev, tgid);
	__u64 now = bpf_ktime_get_ns();
	struct start_val *sp, s = {};
	struct offcpu_val *valp, val = {};
	__s64 delta;

	if (allow_record(prev, pid, tgid)) {
		if (!pid)
			pid = bpf_get_smp_processor_id();
		s.ts = now;
		s.key.pid = pid;
		s.key.tgid = tgid;
		if (kernel_stacks_only || (BPF_CORE_READ(prev, flags) & PF_KTHREAD))
			s.key.user_stack_id = -1;
		else
			s.key.user_stack_id = (__s32)bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);
		s.key.kern_stack_id = user_stacks_only ? -1 : (__s32)bpf_get_stackid(ctx, &stackmap, 0);
		bpf_map_update_elem(&start, &pid, &s, BPF_ANY);
		bpf_probe_read_kernel_str(val.comm, sizeof(val.comm),
					  __builtin_preserve_access_index(&prev->comm));
		val.delta = 0;
		bpf_map_update_elem(&info, &s.key, &val, BPF_NOEXIST);
	}

	pid = (__u32)BPF_CORE_READ(next, pid);
	if (!pid)
		pid = bpf_get_smp_processor_id();
	sp = bpf_map_lookup_elem(&start, &pid);
	if (!sp)
		return 0;
	delta = (__s64)(now - sp->ts);
	if (delta < 0)
		goto cleanup;
	delta /= 1000;
	if ((__u64)delta < min_block_us || (__u64)delta > max_block_us)
		goto cleanup;
	valp = bpf_map_lookup_elem(&info, &sp->key);
	if (valp)
		__sync_fetch_and_add(&valp->delta, (__u64)delta);
cleanup:
	bpf_map_delete_elem(&start, &pid);
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return handle_switch(ctx, prev, next);
}
