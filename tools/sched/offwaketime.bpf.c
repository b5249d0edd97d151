/* offwaketime, kernel side: the off-CPU stacks of a blocked thread and
 * the stacks of the thread that woke it, merged into one record.
 *
 *  sched_switch, prev (== current) going off CPU: start time + its kernel
 *    and user stack ids, by thread id;
 *  sched_waking (in the waker's context, inside try_to_wake_up()) and
 *    sched_wakeup_new (in the parent): the waker's comm, ids and stacks,
 *    by the woken thread's id;
 *  sched_switch, next coming back: time away, both halves joined into the
 *    key, microseconds added.
 *
 * Task fields are read with CO-RE probe reads only (tp_btf and raw_tp). */
#include "stacks.bpf.h"
#include "offwaketime.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_pid = 0;
const volatile __u8 filter_tid = 0;
const volatile __u8 user_threads_only = 0;
const volatile __u8 kernel_threads_only = 0;
const volatile __u8 user_stacks_only = 0;
const volatile __u8 kernel_stacks_only = 0;
const volatile __u8 filter_state = 0;
const volatile __u64 state = 0;
const volatile __u64 min_block_us = 1;
const volatile __u64 max_block_us = ~0ULL;

struct start_val {
	__u64 ts;
	__s32 k_stack_id;
	__s32 u_stack_id;
	__u32 tgid;
	char comm[OFFWAKE_COMM_LEN];
};

struct wokeby_val {
	char comm[OFFWAKE_COMM_LEN];
	__s32 k_stack_id;
	__s32 u_stack_id;
	__u32 pid;
	__u32 tgid;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFWAKE_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, struct start_val);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFWAKE_MAX_ENTRIES);
	__type(key, __u32);
	__type(value, struct wokeby_val);
} wokeby SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, OFFWAKE_MAX_ENTRIES);
	__type(key, struct offwake_key);
	__type(value, __u64);
} counts SEC(".maps");

STACK_MAP(stackmap);

ID_FILTER_MAP(tgids, OFFWAKE_MAX_FILTER);

ID_FILTER_MAP(pids, OFFWAKE_MAX_FILTER);

static __always_inline int thread_ok(struct task_struct *t, __u32 pid, __u32 tgid)
{
	return id_allowed(filter_pid, &tgids, tgid) && id_allowed(filter_tid, &pids, pid) &&
	       thread_kind_allowed(t, user_threads_only, kernel_threads_only);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 pid = (__u32)BPF_CORE_READ(prev, pid), tgid = (__u32)BPF_CORE_READ(prev, tgid);
	__u64 now = bpf_ktime_get_ns();
	struct offwake_key key = {};
	struct start_val *sp, s = {};
	struct wokeby_val *w;
	__s64 delta;

	if (pid && thread_ok(prev, pid, tgid)) {
		__u64 st = (__u64)task_state(prev);
		int ok = !(st & TASK_DEAD);

		if (ok && filter_state)
			ok = state ? (st & state) != 0 : st == 0;
		if (ok) {
			s.ts = now;
			s.tgid = tgid;
			s.u_stack_id = user_stack_id(ctx, &stackmap, kernel_stacks_only, prev);
			s.k_stack_id = stack_id(ctx, &stackmap, user_stacks_only, 0);
			bpf_probe_read_kernel_str(s.comm, sizeof(s.comm),
						  __builtin_preserve_access_index(&prev->comm));
			bpf_map_update_elem(&start, &pid, &s, BPF_ANY);
		}
	}

	pid = (__u32)BPF_CORE_READ(next, pid);
	sp = bpf_map_lookup_elem(&start, &pid);
	if (!sp)
		return 0;
	delta = blocked_us(now, sp->ts, min_block_us, max_block_us);
	if (delta < 0)
		goto cleanup;

	__builtin_memcpy(key.target, sp->comm, sizeof(key.target));
	key.t_pid = pid;
	key.t_tgid = sp->tgid;
	key.t_k_stack_id = sp->k_stack_id;
	key.t_u_stack_id = sp->u_stack_id;
	key.w_k_stack_id = -1;
	key.w_u_stack_id = -1;
	w = bpf_map_lookup_elem(&wokeby, &pid);
	if (w) {
		__builtin_memcpy(key.waker, w->comm, sizeof(key.waker));
		key.w_k_stack_id = w->k_stack_id;
		key.w_u_stack_id = w->u_stack_id;
		key.w_pid = w->pid;
		key.w_tgid = w->tgid;
		bpf_map_delete_elem(&wokeby, &pid);
	}
	counts_add(&counts, &key, (__u64)delta);
cleanup:
	bpf_map_delete_elem(&start, &pid);
	return 0;
}

static __always_inline int wakeup(void *ctx, struct task_struct *p)
{
	__u32 pid = (__u32)BPF_CORE_READ(p, pid);
	__u64 id = bpf_get_current_pid_tgid();
	struct wokeby_val w = {};

	/* only threads we are timing (filters were applied at switch-out) */
	if (!bpf_map_lookup_elem(&start, &pid))
		return 0;
	bpf_get_current_comm(w.comm, sizeof(w.comm));
	w.pid = (__u32)id;
	w.tgid = (__u32)(id >> 32);
	w.k_stack_id = stack_id(ctx, &stackmap, user_stacks_only, 0);
	w.u_stack_id = user_stack_id(ctx, &stackmap, kernel_stacks_only,
				     (struct task_struct *)bpf_get_current_task());
	bpf_map_update_elem(&wokeby, &pid, &w, BPF_ANY);
	return 0;
}

SEC("tp_btf/sched_waking")
int BPF_PROG(sched_waking, struct task_struct *p)
{
	return wakeup(ctx, p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct *p)
{
	return wakeup(ctx, p);
}
