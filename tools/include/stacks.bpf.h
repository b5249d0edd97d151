/* What the stack tools' kernel sides share (profile, offcputime,
 * wakeuptime, offwaketime): the stack and id filter map definitions, the
 * task's state and kind, the -p/-t id filters and -u/-k thread filters,
 * stack ids under -U/-K, and summing into a counts map.  The knobs (const
 * volatile, set by the user side, tools/stacktool.h) and the maps stay in
 * each tool (maps declared with the macros below); they are passed in.
 *
 * Task fields are read with CO-RE probe reads only, so the programs load
 * as tp_btf and as raw_tp alike. */
#ifndef COREBOX_STACKS_BPF_H
#define COREBOX_STACKS_BPF_H

#include "corebox.bpf.h"

/* The stack map (user side: max_entries from --stack-storage-size,
 * value_size from --perf-max-stack-depth) and a -p/-t id filter map. */
#define STACK_MAP(name)                                                         \
	struct {                                                                \
		__uint(type, BPF_MAP_TYPE_STACK_TRACE);                         \
		__uint(max_entries, 1024);                                      \
		__type(key, __u32);                                             \
		__uint(value_size, 127 * sizeof(__u64));                        \
	} name SEC(".maps")
#define ID_FILTER_MAP(name, max)                                                \
	struct {                                                                \
		__uint(type, BPF_MAP_TYPE_HASH);                                \
		__uint(max_entries, max);                                       \
		__type(key, __u32);                                             \
		__type(value, __u8);                                            \
	} name SEC(".maps")

#define PF_KTHREAD 0x00200000
#define TASK_DEAD 0x00000080 /* a task's last switch-out: never comes back */

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

static __always_inline int task_is_kthread(struct task_struct *t)
{
	return (BPF_CORE_READ(t, flags) & PF_KTHREAD) != 0;
}

/* -p / -t: with the filter on, only ids present in the filter map. */
static __always_inline int id_allowed(__u8 filter_on, void *filter_map, __u32 id)
{
	return !filter_on || bpf_map_lookup_elem(filter_map, &id) != NULL;
}

/* -u / -k: user threads only, kernel threads only. */
static __always_inline int thread_kind_allowed(struct task_struct *t, __u8 user_only, __u8 kernel_only)
{
	if (user_only || kernel_only) {
		unsigned int flags = BPF_CORE_READ(t, flags);

		if (user_only && (flags & PF_KTHREAD))
			return 0;
		if (kernel_only && !(flags & PF_KTHREAD))
			return 0;
	}
	return 1;
}

/* A stack id (flags 0: kernel, BPF_F_USER_STACK: user), or -1 when not
 * taken (omit: -U for kernel stacks, -K for user stacks). */
static __always_inline __s32 stack_id(void *ctx, void *stackmap, __u8 omit, __u64 flags)
{
	return omit ? -1 : (__s32)bpf_get_stackid(ctx, stackmap, flags);
}

/* The user stack id of t (current), or -1 under -K or for a kernel thread. */
static __always_inline __s32 user_stack_id(void *ctx, void *stackmap, __u8 omit, struct task_struct *t)
{
	if (omit || task_is_kthread(t))
		return -1;
	return (__s32)bpf_get_stackid(ctx, stackmap, BPF_F_USER_STACK);
}

/* -m/-M (offcputime, offwaketime): the microseconds from ts to now, or
 * -1 when the clock went backwards or they fall outside [min_us, max_us]. */
static __always_inline __s64 blocked_us(__u64 now, __u64 ts, __u64 min_us, __u64 max_us)
{
	__s64 delta = (__s64)(now - ts);

	if (delta < 0)
		return -1;
	delta /= 1000;
	if ((__u64)delta < min_us || (__u64)delta > max_us)
		return -1;
	return delta;
}

/* counts[key] += delta, creating the entry at 0 first. */
static __always_inline void counts_add(void *counts, const void *key, __u64 delta)
{
	__u64 *valp = bpf_map_lookup_elem(counts, key);

	if (!valp) {
		__u64 zero = 0;

		bpf_map_update_elem(counts, key, &zero, BPF_NOEXIST);
		valp = bpf_map_lookup_elem(counts, key);
	}
	if (valp)
		__sync_fetch_and_add(valp, delta);
}

#endif
