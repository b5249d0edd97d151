/* hardirqs and softirqs, kernel side: entry stores the time on this CPU
 * (one slot for hard IRQs, one for softirqs, which hard IRQs interrupt);
 * exit adds the time to the handler's (or vector's) per-CPU count, total,
 * max and, with -d, log2 histogram.  tp_btf, raw_tp when the kernel
 * cannot (the loader decides), perf tracepoints for hard IRQs on a kernel
 * without BTF; the user side loads one pair. */
#include "cpu.bpf.h"
#include "cgroup.bpf.h"
#include "irqs.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_cg = 0;
const volatile __u8 targ_dist = 0;
const volatile __u8 targ_ns = 0;
const volatile __s32 targ_cpu = -1;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2); /* 0: hard IRQ, 1: softirq */
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, IRQS_MAX_ENTRIES);
	__type(key, struct irqs_key);
	__type(value, struct irqs_info);
} infos SEC(".maps");

struct irqaction___c {
	const char *name;
} __attribute__((preserve_access_index));

static __always_inline int wanted(void)
{
	if (targ_cpu >= 0 && (__u32)targ_cpu != bpf_get_smp_processor_id())
		return 0;
	return cgroup_allowed(filter_cg);
}

static __always_inline int on_entry(__u32 slot)
{
	__u64 ts;

	if (!wanted())
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &slot, &ts, BPF_ANY);
	return 0;
}

static __always_inline int on_exit(__u32 slot, struct irqs_key *key)
{
	struct irqs_info *info;
	__u64 *tsp, delta;

	if (!wanted())
		return 0;
	tsp = bpf_map_lookup_elem(&start, &slot);
	if (!tsp || !*tsp)
		return 0;
	delta = bpf_ktime_get_ns() - *tsp;
	*tsp = 0;
	info = bpf_map_lookup_elem(&infos, key);
	if (!info) {
		struct irqs_info zero = {};

		bpf_map_update_elem(&infos, key, &zero, BPF_NOEXIST);
		info = bpf_map_lookup_elem(&infos, key);
		if (!info)
			return 0;
	}
	/* this CPU's own copy, and handlers do not nest on a CPU */
	info->count++;
	info->total_ns += delta;
	if (delta > info->max_ns)
		info->max_ns = delta;
	if (targ_dist)
		info->slots[log2_slot(targ_ns ? delta : delta / 1000, IRQS_MAX_SLOTS)]++;
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(hardirq_entry, int irq, struct irqaction___c *action)
{
	return on_entry(0);
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(hardirq_exit, int irq, struct irqaction___c *action)
{
	struct irqs_key key = { .vec = IRQS_SOFT_NONE };

	bpf_probe_read_kernel_str(key.name, sizeof(key.name), BPF_CORE_READ(action, name));
	return on_exit(0, &key);
}

/* Without kernel BTF the raw_tp fallback cannot read action->name; the
 * perf tracepoints can: irq_handler_entry's record names the handler
 * (irq_handler_exit's has only the number), and the name waits in this
 * CPU's slot for the exit (handlers do not nest on a CPU). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct irqs_key);
} names SEC(".maps");

SEC("tracepoint/irq/irq_handler_entry")
int hardirq_entry_tp(struct trace_event_raw_irq_handler_entry *ctx)
{
	__u32 zero = 0;
	struct irqs_key *k = bpf_map_lookup_elem(&names, &zero);

	if (!k)
		return 0;
	k->vec = IRQS_SOFT_NONE;
	bpf_probe_read_kernel_str(k->name, sizeof(k->name), (void *)ctx + (ctx->__data_loc_name & 0xffff));
	return on_entry(0);
}

SEC("tracepoint/irq/irq_handler_exit")
int hardirq_exit_tp(void *ctx)
{
	__u32 zero = 0;
	struct irqs_key *k = bpf_map_lookup_elem(&names, &zero);

	return k ? on_exit(0, k) : 0;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(softirq_entry, unsigned int vec_nr)
{
	return on_entry(1);
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(softirq_exit, unsigned int vec_nr)
{
	struct irqs_key key = { .vec = vec_nr };

	return on_exit(1, &key);
}
