/* klockstat, kernel side: the wait of each contended sleeping-lock
 * acquisition, from lock:contention_begin to lock:contention_end of the
 * same thread, summed per caller stack (per thread with -P).
 *
 * libbpf-tools times every mutex/rwsem acquisition and every hold with
 * fentry or kprobes on the lock and unlock functions; this kernel has
 * neither, and the lock tracepoints mark contention only: an acquisition
 * that did not wait is not seen, and hold times are not known.  Spinlocks
 * (LCB_F_SPIN alone) are left out as libbpf-tools does ("mutex/sem");
 * a mutex's optimistic spin and its sleep are one wait (the first begin
 * to the end). */
#include "corebox.bpf.h"
#include "klockstat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_tgid = 0;  /* -p */
const volatile __u32 targ_pid = 0;   /* -t */
const volatile __u64 targ_lock = 0;  /* -L: the lock's address */
const volatile __u8 per_thread = 0;  /* -P: key by thread id, no stacks */

#define LCB_F_SPIN (1U << 0)
#define LCB_F_READ (1U << 1)
#define LCB_F_WRITE (1U << 2)
#define LCB_F_RT (1U << 3)
#define LCB_F_MUTEX (1U << 5)

struct trace_event_raw_contention_begin {
	struct trace_entry ent;
	void *lock_addr;
	unsigned int flags;
} __attribute__((preserve_access_index));

struct trace_event_raw_contention_end {
	struct trace_entry ent;
	void *lock_addr;
	int ret;
} __attribute__((preserve_access_index));

/* A thread's wait under way */
struct waiting {
	__u64 lock;
	__u64 start_ns;
	__s32 stack_id;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct waiting);
} waits SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32); /* stack id, or with -P the thread id */
	__type(value, struct klockstat_stat);
} stat_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__uint(value_size, KLOCKSTAT_STACK_DEPTH * sizeof(__u64));
} stack_map SEC(".maps");

SEC("tracepoint/lock/contention_begin")
int klockstat_begin(struct trace_event_raw_contention_begin *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	__u64 lock = (__u64)ctx->lock_addr;
	unsigned int flags = ctx->flags;
	struct waiting w = {}, *old;

	if (!(flags & (LCB_F_MUTEX | LCB_F_RT | LCB_F_READ | LCB_F_WRITE)))
		return 0; /* a spinlock */
	if (targ_tgid && (__u32)(id >> 32) != targ_tgid)
		return 0;
	if (targ_pid && tid != targ_pid)
		return 0;
	if (targ_lock && lock != targ_lock)
		return 0;
	old = bpf_map_lookup_elem(&waits, &tid);
	if (old && old->lock == lock)
		return 0; /* the sleep after the optimistic spin: same wait */
	w.lock = lock;
	w.start_ns = bpf_ktime_get_ns();
	w.stack_id = per_thread ? 0 : bpf_get_stackid(ctx, &stack_map, 0);
	bpf_map_update_elem(&waits, &tid, &w, BPF_ANY);
	return 0;
}

SEC("tracepoint/lock/contention_end")
int klockstat_end(struct trace_event_raw_contention_end *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id, key;
	struct klockstat_stat zero = {}, *s;
	struct waiting *w = bpf_map_lookup_elem(&waits, &tid);
	__u64 delta;

	if (!w)
		return 0;
	if (w->lock != (__u64)ctx->lock_addr)
		return 0; /* the end of a spinlock taken inside the wait */
	delta = bpf_ktime_get_ns() - w->start_ns;
	if (per_thread)
		key = tid;
	else if (w->stack_id >= 0)
		key = (__u32)w->stack_id;
	else
		goto done; /* no stack: nowhere to count it */
	s = bpf_map_lookup_elem(&stat_map, &key);
	if (!s) {
		bpf_map_update_elem(&stat_map, &key, &zero, BPF_NOEXIST);
		s = bpf_map_lookup_elem(&stat_map, &key);
		if (!s)
			goto done;
	}
	__sync_fetch_and_add(&s->acq_count, 1);
	__sync_fetch_and_add(&s->acq_total_time, delta);
	if (delta > s->acq_max_time) {
		s->acq_max_time = delta;
		s->acq_max_id = id;
		s->acq_max_lock_ptr = w->lock;
		bpf_get_current_comm(s->acq_max_comm, sizeof(s->acq_max_comm));
	}
done:
	bpf_map_delete_elem(&waits, &tid);
	return 0;
}
