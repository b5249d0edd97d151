/* softirqslower, kernel side (libbpf-tools' semantics): per CPU and
 * vector, the time of the first softirq_raise not yet handled and the
 * time its handler began; softirq_entry reports raise -> entry, and
 * softirq_exit entry -> exit, when at least min_us.  A raise while one
 * is pending keeps the older time (the longer wait is the one to see).
 * tp_btf: the loader falls back to raw_tp on a kernel that refuses it. */
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "softirqslower.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 min_us = 0;
const volatile int targ_cpu = -1; /* -1: every CPU */

/* Per CPU, no locks: each CPU's softirqs only touch its own slots. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SOFTIRQSLOWER_NR_VECS);
	__type(key, __u32);
	__type(value, __u64);
} raise_ts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, SOFTIRQSLOWER_NR_VECS);
	__type(key, __u32);
	__type(value, __u64);
} entry_ts SEC(".maps");

/* The CPU, or -1 when this one is not traced or vec is out of range. */
static __always_inline int traced_cpu(__u32 vec)
{
	int cpu = (int)bpf_get_smp_processor_id();

	if (vec >= SOFTIRQSLOWER_NR_VECS || (targ_cpu >= 0 && cpu != targ_cpu))
		return -1;
	return cpu;
}

static __always_inline void report(void *ctx, __u32 stage, __u32 vec, int cpu, __u64 delta_us)
{
	struct softirqslower_event e = {};

	e.delta_us = delta_us;
	e.stage = stage;
	e.vec = vec;
	e.cpu = (__u32)cpu;
	bpf_get_current_comm(e.task, sizeof(e.task));
	events_output(ctx, &e, sizeof(e));
}

SEC("tp_btf/softirq_raise")
int BPF_PROG(softirqslower_raise, unsigned int vec)
{
	__u64 *tsp;

	if (traced_cpu(vec) < 0)
		return 0;
	tsp = bpf_map_lookup_elem(&raise_ts, &vec);
	if (tsp && !*tsp)
		*tsp = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(softirqslower_entry, unsigned int vec)
{
	int cpu = traced_cpu(vec);
	__u64 now = bpf_ktime_get_ns(), *tsp, delta_us;

	if (cpu < 0)
		return 0;
	tsp = bpf_map_lookup_elem(&raise_ts, &vec);
	if (tsp && *tsp) {
		delta_us = (now - *tsp) / 1000;
		*tsp = 0;
		if (delta_us >= min_us)
			report(ctx, SOFTIRQSLOWER_RAISE_TO_ENTRY, vec, cpu, delta_us);
	}
	/* timed even when its raise was missed (before the attach) */
	tsp = bpf_map_lookup_elem(&entry_ts, &vec);
	if (tsp)
		*tsp = now;
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(softirqslower_exit, unsigned int vec)
{
	int cpu = traced_cpu(vec);
	__u64 *tsp, delta_us;

	if (cpu < 0)
		return 0;
	tsp = bpf_map_lookup_elem(&entry_ts, &vec);
	if (!tsp || !*tsp)
		return 0;
	delta_us = (bpf_ktime_get_ns() - *tsp) / 1000;
	*tsp = 0;
	if (delta_us >= min_us)
		report(ctx, SOFTIRQSLOWER_ENTRY_TO_EXIT, vec, cpu, delta_us);
	return 0;
}
