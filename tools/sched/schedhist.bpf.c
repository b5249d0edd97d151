/* runqlat and cpudist, kernel side: one object, two measurements of the
 * scheduler (the .rodata knob `mode`, a constant for the verifier, keeps
 * only the code of one).
 *
 * runqlat (libbpf-tools): sched_wakeup/sched_wakeup_new, and sched_switch
 * for a task preempted while runnable, store the time a thread was
 * queued; when it is switched in, now - then goes into a log2 histogram.
 *
 * cpudist (bcc semantics: every switch-out counts, not only preemptions
 * as libbpf-tools does): on-CPU mode times switch-in -> switch-out,
 * -O off-CPU mode switch-out -> switch-in; the idle task (pid 0, one per
 * CPU) only with -I.
 *
 * Histograms are keyed by ~0, tgid, pid or PID namespace. */
#include "cpu.bpf.h"
#include "cgroup.bpf.h"
#include "task_cgroup.bpf.h"
#include "schedhist.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 mode = SCHEDHIST_RUNQLAT;
const volatile __u8 key_mode = SCHEDHIST_ALL;
const volatile __u8 filter_cg = 0;
const volatile __u8 targ_ms = 0;
const volatile __u8 include_idle = 0;
const volatile __u32 targ_tgid = 0; /* 0: every process */
const volatile __u32 max_slots = SCHEDHIST_MAX_SLOTS;

/* thread (idle: 0xffff0000 | cpu) -> time it was queued / switched */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHEDHIST_MAX_START);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHEDHIST_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u32);
	__type(value, struct schedhist);
} hists SEC(".maps");

/* The start map's key of a thread: the idle tasks all have pid 0. */
static __always_inline __u32 start_key(__u32 pid)
{
	return pid ? pid : 0xffff0000u | bpf_get_smp_processor_id();
}

static __always_inline void store_start_tid(__u32 pid, __u64 now)
{
	__u32 key;

	if (!pid && (mode == SCHEDHIST_RUNQLAT || !include_idle))
		return;
	key = start_key(pid);
	bpf_map_update_elem(&start, &key, &now, BPF_ANY);
}

static __noinline void store_start(__u32 tgid, __u32 pid, __u64 now)
{
	if (targ_tgid && targ_tgid != tgid)
		return;
	store_start_tid(pid, now);
}

static __always_inline __u32 pidns_of(struct task_struct___c *t)
{
	struct pid___c *pid = BPF_CORE_READ(t, thread_pid);
	unsigned int level = BPF_CORE_READ(pid, level);
	struct upid___c *up;

	/* &pid->numbers[level], the array's stride from the kernel's BTF */
	up = (void *)((char *)pid + bpf_core_field_offset(pid->numbers) +
		      (__u64)level * bpf_core_type_size(struct upid___c));
	return BPF_CORE_READ(up, ns, ns.inum);
}

/* now - the start stored under key (consumed), or -1 without one. */
static __always_inline __s64 take_start(__u32 key, __u64 now)
{
	__u64 *tsp = bpf_map_lookup_elem(&start, &key);
	__s64 delta;

	if (!tsp)
		return -1;
	delta = (__s64)(now - *tsp);
	bpf_map_delete_elem(&start, &key);
	return delta;
}

/* delta into histogram hkey, created with the name at comm (NULL: the
 * current task's). */
static __noinline void add_sample(__u32 hkey, __u64 delta, const void *comm)
{
	struct schedhist *h = bpf_map_lookup_elem(&hists, &hkey);
	__u64 v;

	if (!h) {
		struct schedhist zero = {};

		if (comm)
			bpf_probe_read_kernel_str(zero.comm, sizeof(zero.comm), comm);
		else
			bpf_get_current_comm(zero.comm, sizeof(zero.comm));
		bpf_map_update_elem(&hists, &hkey, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &hkey);
		if (!h)
			return;
	}
	__sync_fetch_and_add(&h->sum_ns, delta);
	v = delta / (targ_ms ? 1000000 : 1000);
	__sync_fetch_and_add(&h->slots[log2_slot(v, max_slots)], 1);
}

/* now - start of thread pid into its histogram; the start is consumed. */
static __noinline void record(struct task_struct___c *t, __u32 tgid, __u32 pid, __u64 now)
{
	__s64 delta;
	__u32 hkey;

	if (targ_tgid && targ_tgid != tgid)
		return;
	delta = take_start(start_key(pid), now);
	if (delta < 0)
		return;
	switch (key_mode) {
	case SCHEDHIST_PID: hkey = tgid; break;
	case SCHEDHIST_TID: hkey = pid; break;
	case SCHEDHIST_PIDNS: hkey = pidns_of(t); break;
	case SCHEDHIST_CGROUP: hkey = (__u32)task_cgroup_id(t); break;
	default: hkey = SCHEDHIST_KEY_ALL; break;
	}
	add_sample(hkey, delta, __builtin_preserve_access_index(&t->comm));
}

static __always_inline int on_wakeup(struct task_struct___c *p)
{
	if (!cgroup_allowed(filter_cg))
		return 0;
	store_start(BPF_CORE_READ(p, tgid), BPF_CORE_READ(p, pid), bpf_ktime_get_ns());
	return 0;
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(sched_wakeup, struct task_struct___c *p)
{
	return on_wakeup(p);
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(sched_wakeup_new, struct task_struct___c *p)
{
	return on_wakeup(p);
}

SEC("tp_btf/sched_switch")
int BPF_PROG(sched_switch, bool preempt, struct task_struct___c *prev, struct task_struct___c *next)
{
	__u32 prev_pid = BPF_CORE_READ(prev, pid), prev_tgid = BPF_CORE_READ(prev, tgid);
	__u32 next_pid = BPF_CORE_READ(next, pid), next_tgid = BPF_CORE_READ(next, tgid);
	__u64 now = bpf_ktime_get_ns();

	if (!cgroup_allowed(filter_cg))
		return 0;
	if (mode == SCHEDHIST_RUNQLAT) {
		if (task_state_c(prev) == CB_TASK_RUNNING) /* preempted: queued again */
			store_start(prev_tgid, prev_pid, now);
		record(next, next_tgid, next_pid, now);
	} else if (mode == SCHEDHIST_ONCPU) {
		record(prev, prev_tgid, prev_pid, now);
		store_start(next_tgid, next_pid, now);
	} else {
		store_start(prev_tgid, prev_pid, now);
		record(next, next_tgid, next_pid, now);
	}
	return 0;
}

/* Without kernel BTF (no task_struct reads) the perf tracepoints' records
 * name the threads: sched_switch's prev_pid, prev_state, next_pid and
 * sched_wakeup's pid.  Only the current task's process, cgroup and name
 * are known (helpers).  A sample of prev (the task switched out, current)
 * is keyed at once; one of next (runqlat's queue wait, -O's time off CPU)
 * too when it is keyed by thread or not at all (the record names next),
 * else (-P, --cgroups, -p) when next is switched out again, kept until
 * then in `start` under the thread's key flipped by SCHEDHIST_PENDING (a
 * bit no pid has: pids stay below 2^22; the idle tasks' keys have it and
 * lose it).  The user side refuses --pidnss. */
#define SCHEDHIST_PENDING 0x40000000u

static __noinline void add_current(__s64 delta)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 hkey;

	if (targ_tgid && targ_tgid != id >> 32)
		return;
	switch (key_mode) {
	case SCHEDHIST_PID: hkey = id >> 32; break;
	case SCHEDHIST_TID: hkey = (__u32)id; break;
	case SCHEDHIST_CGROUP: hkey = (__u32)bpf_get_current_cgroup_id(); break;
	default: hkey = SCHEDHIST_KEY_ALL; break;
	}
	add_sample(hkey, delta, NULL);
}

static __always_inline int on_wakeup_tp(__u32 pid)
{
	if (cgroup_allowed(filter_cg))
		store_start_tid(pid, bpf_ktime_get_ns());
	return 0;
}

SEC("tracepoint/sched/sched_wakeup")
int sched_wakeup_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return on_wakeup_tp(ctx->pid);
}

SEC("tracepoint/sched/sched_wakeup_new")
int sched_wakeup_new_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	return on_wakeup_tp(ctx->pid);
}

SEC("tracepoint/sched/sched_switch")
int sched_switch_tp(struct trace_event_raw_sched_switch *ctx)
{
	__u32 prev = ctx->prev_pid, next = ctx->next_pid, key;
	__u64 now = bpf_ktime_get_ns();
	__u64 *pending;
	__s64 delta;
	long state = 0;

	if (!cgroup_allowed(filter_cg))
		return 0;
	/* prev is current: its sample waiting since it was switched in */
	key = start_key(prev) ^ SCHEDHIST_PENDING;
	pending = bpf_map_lookup_elem(&start, &key);
	if (pending) {
		add_current(*pending);
		bpf_map_delete_elem(&start, &key);
	}
	if (mode == SCHEDHIST_ONCPU) {
		delta = take_start(start_key(prev), now);
		if (delta >= 0)
			add_current(delta);
		store_start_tid(next, now);
		return 0;
	}
	/* prev_state is a long: 4 bytes on 32-bit kernels, read by its size
	 * (CO-RE cannot narrow a signed load).  Running (0) or preempted
	 * (TASK_REPORT_MAX, 0x100): no state bit of the low byte */
	if (mode == SCHEDHIST_RUNQLAT)
		bpf_core_read(&state, bpf_core_field_size(ctx->prev_state), &ctx->prev_state);
	if (mode == SCHEDHIST_OFFCPU || !(state & 0xff))
		store_start_tid(prev, now);
	delta = take_start(start_key(next), now);
	if (delta < 0)
		return 0;
	/* keyed by the thread or not at all: the record has all it takes */
	if (!targ_tgid && (key_mode == SCHEDHIST_ALL || key_mode == SCHEDHIST_TID)) {
		add_sample(key_mode == SCHEDHIST_TID ? next : SCHEDHIST_KEY_ALL, delta, ctx->next_comm);
		return 0;
	}
	key = start_key(next) ^ SCHEDHIST_PENDING;
	bpf_map_update_elem(&start, &key, &delta, BPF_ANY);
	return 0;
}
