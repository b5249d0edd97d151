/* runqlen, kernel side: a perf_event program run by each CPU's cpu-clock
 * event at -f HZ; it reads the length of the run queue the interrupted
 * task is on, minus the running task, and counts it in the CPU's linear
 * histogram (a per-CPU array slot: no atomics, no races).
 *
 * The run queue, as libbpf-tools: current->se.cfs_rq (the task's CFS
 * queue: its cgroup's on this CPU), nr_running (nr_queued since 6.14);
 * -H: the CPU's whole run queue, rq->nr_running (every class).  Kernels
 * without CONFIG_FAIR_GROUP_SCHED have no se.cfs_rq: there the task's
 * queue is the CPU's root CFS queue, reached through the per-CPU
 * `runqueues` (sample_rq; the user side loads one of the two). */
#include "cpu.bpf.h"
#include "runqlen.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 targ_host = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct runqlen_hist);
} hists SEC(".maps");

static __always_inline int count(__u64 len)
{
	struct runqlen_hist *h;
	__u32 zero = 0;

	if (len > 0) /* the running task */
		len--;
	if (len >= RUNQLEN_MAX_SLOTS)
		len = RUNQLEN_MAX_SLOTS - 1;
	h = bpf_map_lookup_elem(&hists, &zero);
	if (h)
		h->slots[len]++;
	return 0;
}

SEC("perf_event")
int sample_cfs(void *ctx)
{
	struct task_struct___c *task = (void *)bpf_get_current_task();
	struct cfs_rq___c *cfs = BPF_CORE_READ(task, se.cfs_rq);

	return count(targ_host ? BPF_CORE_READ(cfs, rq, nr_running) : cfs_rq_nr(cfs));
}

/* Without CONFIG_FAIR_GROUP_SCHED (and with BTF per-CPU variables and
 * their kallsyms, i.e. CONFIG_KALLSYMS_ALL): the CPU's own run queue. */
SEC("perf_event")
int sample_rq(void *ctx)
{
	struct rq___c *rq = bpf_this_cpu_ptr(&runqueues);

	if (!rq)
		return 0;
	return count(targ_host ? BPF_CORE_READ(rq, nr_running)
			       : cfs_rq_nr((void *)__builtin_preserve_access_index(&rq->cfs)));
}
