/* cpuunclaimed, kernel side: each CPU's cpu-clock event fires at 99 Hz
 * while the CPU is busy; the program then reads the length of every
 * CPU's run queue (rq->nr_running) at that one instant: CPUs with a task
 * are running, the others idle, tasks beyond the first on a queue are
 * waiting; min(idle, waiting) could have run but did not (unclaimed).
 *
 * bcc sends every CPU's own sample to user space and groups them by time;
 * reading all queues at once needs no grouping and survives idle CPUs
 * that do not sample at all (tickless idle, most VMs).  One snapshot per
 * tick: the lowest-numbered busy CPU takes it (the others see it busy and
 * skip); when every CPU is idle the lowest CPU does, if it samples at all.
 *
 * The run queues: current->se.cfs_rq->tg->cfs_rq[cpu]->rq (any task
 * group has a queue on every CPU; CONFIG_FAIR_GROUP_SCHED), or without
 * group scheduling the per-CPU `runqueues` (kernel symbol of a variable:
 * CONFIG_KALLSYMS_ALL).  The user side loads one of the two programs. */
#include "cpu.bpf.h"
#include "events.bpf.h"
#include "cpuunclaimed.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 nr_cpus = 1;    /* possible CPUs (queues to read) */
const volatile __u32 nr_online = 1;  /* online CPUs (running + idle) */
const volatile __u32 first_cpu = 0;  /* the lowest online CPU */
const volatile __u8 csv = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpuunclaimed_stats);
} stats SEC(".maps");

CB_HEAP(heap, struct cpuunclaimed_event);

static __always_inline __u32 rq_len_tg(struct cfs_rq___c **queues, __u32 cpu)
{
	struct cfs_rq___c *cfs = NULL;

	bpf_probe_read_kernel(&cfs, sizeof(cfs), &queues[cpu]);
	return cfs ? BPF_CORE_READ(cfs, rq, nr_running) : 0;
}

static __always_inline __u32 rq_len_pcpu(__u32 cpu)
{
	struct rq___c *rq = bpf_per_cpu_ptr(&runqueues, cpu);

	return rq ? BPF_CORE_READ(rq, nr_running) : 0;
}

/* use_tg is a constant in each caller: the other path is not compiled in
 * (its kernel symbol must not reach a kernel that lacks it). */
static __always_inline int snapshot(void *ctx, struct cfs_rq___c **queues, const int use_tg)
{
	__u32 me = bpf_get_smp_processor_id(), zero = 0, running = 0, waiting = 0, mine = 0, idle;
	struct cpuunclaimed_event *ev = NULL;
	struct cpuunclaimed_stats *st;
	int lower_busy = 0;

	if (csv) {
		ev = bpf_map_lookup_elem(&heap, &zero);
		if (!ev)
			return 0;
	}
	for (__u32 i = 0; i < CPUUNCLAIMED_MAX_CPUS; i++) {
		__u32 len;

		if (i >= nr_cpus)
			break;
		len = use_tg ? rq_len_tg(queues, i) : rq_len_pcpu(i);
		if (len) {
			running++;
			if (i < me)
				lower_busy = 1;
		}
		if (i == me)
			mine = len;
		if (len > 1)
			waiting += len - 1;
		if (ev && i < CPUUNCLAIMED_CSV_CPUS)
			ev->lens[i] = len;
	}
	/* one snapshot per tick: the lowest busy CPU's, or when nothing runs
	 * the lowest CPU's */
	if (running ? !mine || lower_busy : me != first_cpu)
		return 0;
	idle = nr_online > running ? nr_online - running : 0;
	st = bpf_map_lookup_elem(&stats, &zero);
	if (!st)
		return 0;
	st->snapshots++;
	st->running += running;
	st->unclaimed += idle < waiting ? idle : waiting;
	if (ev) {
		ev->ts = bpf_ktime_get_ns();
		ev->ncpus = nr_cpus < CPUUNCLAIMED_CSV_CPUS ? nr_cpus : CPUUNCLAIMED_CSV_CPUS;
		events_output_raw(ctx, ev, sizeof(*ev));
	}
	return 0;
}

SEC("perf_event")
int sample_tg(void *ctx)
{
	struct task_struct___c *task = (void *)bpf_get_current_task();
	struct cfs_rq___c **queues = BPF_CORE_READ(task, se.cfs_rq, tg, cfs_rq);

	return queues ? snapshot(ctx, queues, 1) : 0;
}

SEC("perf_event")
int sample_pcpu(void *ctx)
{
	return snapshot(ctx, NULL, 0);
}
