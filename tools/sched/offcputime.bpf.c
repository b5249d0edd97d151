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
		s.key.user_stack_id = user_stack_id(ctx, &stackmap, kernel_stacks_only, prev);
		s.key.kern_stack_id = stack_id(ctx, &stackmap, user_stacks_only, 0);
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
	delta = blocked_us(now, sp->ts, min_block_us, max_block_us);
	if (delta < 0)
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
