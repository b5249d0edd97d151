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

static __noinline void store_start(__u32 tgid, __u32 pid, __u64 now)
{
	__u32 key;

	if (targ_tgid && targ_tgid != tgid)
		return;
	if (!pid && (mode == SCHEDHIST_RUNQLAT || !include_idle))
		return;
	key = start_key(pid);
	bpf_map_update_elem(&start, &key, &now, BPF_ANY);
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

/* now - start of thread pid into its histogram; the start is consumed. */
static __noinline void record(struct task_struct___c *t, __u32 tgid, __u32 pid, __u64 now)
{
	struct schedhist *h;
	__u64 *tsp, delta, v;
	__u32 key, hkey;

	if (targ_tgid && targ_tgid != tgid)
		return;
	key = start_key(pid);
	tsp = bpf_map_lookup_elem(&start, &key);
	if (!tsp)
		return;
	if ((__s64)(now - *tsp) < 0)
		goto out;
	delta = now - *tsp;
	switch (key_mode) {
	case SCHEDHIST_PID: hkey = tgid; break;
	case SCHEDHIST_TID: hkey = pid; break;
	case SCHEDHIST_PIDNS: hkey = pidns_of(t); break;
	case SCHEDHIST_CGROUP: hkey = (__u32)task_cgroup_id(t); break;
	default: hkey = SCHEDHIST_KEY_ALL; break;
	}
	h = bpf_map_lookup_elem(&hists, &hkey);
	if (!h) {
		struct schedhist zero = {};

		bpf_probe_read_kernel_str(zero.comm, sizeof(zero.comm), __builtin_preserve_access_index(&t->comm));
		bpf_map_update_elem(&hists, &hkey, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &hkey);
		if (!h)
			goto out;
	}
	__sync_fetch_and_add(&h->sum_ns, delta);
	v = delta / (targ_ms ? 1000000 : 1000);
	__sync_fetch_and_add(&h->slots[log2_slot(v, max_slots)], 1);
out:
	bpf_map_delete_elem(&start, &key);
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
