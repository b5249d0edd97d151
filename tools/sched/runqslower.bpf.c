/* runqslower, kernel side (libbpf-tools' semantics): a thread's time of
 * queueing is stored at sched_wakeup/sched_wakeup_new, or at sched_switch
 * when it is switched out still runnable (preempted); when sched_switch
 * runs it again, a wait longer than min_us is one event naming it and
 * the thread it replaced.  tp_btf: the loader falls back to raw_tp on a
 * kernel that refuses it (the arguments are the same); without kernel
 * BTF the user side picks the perf tracepoint twins below. */
#include "cpu.bpf.h"
#include "events.bpf.h"
#include "runqslower.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 min_us = 0;
const volatile __u32 targ_pid = 0; /* tgid, 0: all */
const volatile __u32 targ_tid = 0; /* thread, 0: all */

/* thread -> when it was queued */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

/* The idle tasks (pid 0) never wait on a queue and share one pid. */
static __always_inline void enqueue_tid(__u32 pid)
{
	__u64 now;

	if (!pid)
		return;
	if (targ_tid && targ_tid != pid)
		return;
	now = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &pid, &now, BPF_ANY);
}

static __always_inline void enqueue(__u32 tgid, __u32 pid)
{
	if (!targ_pid || targ_pid == tgid)
		enqueue_tid(pid);
}

SEC("tp_btf/sched_wakeup")
int BPF_PROG(runqslower_wakeup, struct task_struct___c *p)
{
	enqueue(BPF_CORE_READ(p, tgid), BPF_CORE_READ(p, pid));
	return 0;
}

SEC("tp_btf/sched_wakeup_new")
int BPF_PROG(runqslower_wakeup_new, struct task_struct___c *p)
{
	enqueue(BPF_CORE_READ(p, tgid), BPF_CORE_READ(p, pid));
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(runqslower_switch, bool preempt, struct task_struct___c *prev, struct task_struct___c *next)
{
	struct runqslower_event e = {};
	__u32 pid = BPF_CORE_READ(next, pid);
	__u64 *tsp, delta_us;

	if (task_state_c(prev) == CB_TASK_RUNNING)
		enqueue(BPF_CORE_READ(prev, tgid), BPF_CORE_READ(prev, pid));
	tsp = bpf_map_lookup_elem(&start, &pid);
	if (!tsp)
		return 0;
	delta_us = (bpf_ktime_get_ns() - *tsp) / 1000;
	if (min_us && delta_us <= min_us)
		goto out;
	e.pid = pid;
	e.head.cgroup_id = event_task_cgroup_id(next); /* current is prev */
	e.prev_pid = BPF_CORE_READ(prev, pid);
	e.delta_us = delta_us;
	bpf_probe_read_kernel_str(e.task, sizeof(e.task), __builtin_preserve_access_index(&next->comm));
	bpf_probe_read_kernel_str(e.prev_task, sizeof(e.prev_task), __builtin_preserve_access_index(&prev->comm));
	events_output_head(ctx, &e, sizeof(e));
out:
	bpf_map_delete_elem(&start, &pid);
	return 0;
}

/* Without kernel BTF: the records name the threads, their names and
 * prev's state; a woken thread's process is not known (the user side
 * refuses -p), nor next's cgroup (0: not recorded). */
SEC("tracepoint/sched/sched_wakeup")
int runqslower_wakeup_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	enqueue_tid(ctx->pid);
	return 0;
}

SEC("tracepoint/sched/sched_wakeup_new")
int runqslower_wakeup_new_tp(struct trace_event_raw_sched_wakeup_template *ctx)
{
	enqueue_tid(ctx->pid);
	return 0;
}

SEC("tracepoint/sched/sched_switch")
int runqslower_switch_tp(struct trace_event_raw_sched_switch *ctx)
{
	struct runqslower_event e = {};
	__u32 pid = ctx->next_pid;
	__u64 *tsp, delta_us;
	long state = 0;

	/* a long: 4 bytes on 32-bit kernels (CO-RE cannot narrow a signed
	 * load); running (0) or preempted (TASK_REPORT_MAX): low byte 0 */
	bpf_core_read(&state, bpf_core_field_size(ctx->prev_state), &ctx->prev_state);
	if (!(state & 0xff))
		enqueue_tid(ctx->prev_pid);
	tsp = bpf_map_lookup_elem(&start, &pid);
	if (!tsp)
		return 0;
	delta_us = (bpf_ktime_get_ns() - *tsp) / 1000;
	if (min_us && delta_us <= min_us)
		goto out;
	e.pid = pid;
	e.prev_pid = ctx->prev_pid;
	e.delta_us = delta_us;
	bpf_probe_read_kernel_str(e.task, sizeof(e.task), ctx->next_comm);
	bpf_probe_read_kernel_str(e.prev_task, sizeof(e.prev_task), ctx->prev_comm);
	events_output_head(ctx, &e, sizeof(e));
out:
	bpf_map_delete_elem(&start, &pid);
	return 0;
}
