/* cpufreq, kernel side: the CPU frequency at timed samples, system-wide
 * and by the task running, as libbpf-tools: power:cpu_frequency keeps
 * each CPU's current frequency (the user side seeds them from sysfs), a
 * cpu-clock perf event on every CPU adds a sample to the histograms.  The
 * BTF tracepoint falls back to the raw one in the loader. */
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "cpufreq.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_cg = 0;

/* cpu -> MHz */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, CPUFREQ_MAX_CPU);
	__type(key, __u32);
	__type(value, __u32);
} freqs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1024);
	__type(key, struct cpufreq_key);
	__type(value, struct cpufreq_hist);
} hists SEC(".maps");

SEC("tp_btf/cpu_frequency")
int BPF_PROG(cpufreq_change, unsigned int state, unsigned int cpu_id)
{
	__u32 mhz = state / 1000;

	if (!cgroup_allowed(filter_cg))
		return 0;
	bpf_map_update_elem(&freqs, &cpu_id, &mhz, BPF_ANY); /* (fails past the array) */
	return 0;
}

static __always_inline void count(struct cpufreq_key *k, __u64 slot)
{
	struct cpufreq_hist *h = bpf_map_lookup_elem(&hists, k), zero = {};

	if (!h) {
		bpf_map_update_elem(&hists, k, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, k);
		if (!h)
			return;
	}
	barrier_var(slot); /* (the bound must be checked on the register used) */
	if (slot < CPUFREQ_SLOTS)
		__sync_fetch_and_add(&h->slots[slot], 1);
}

SEC("perf_event")
int cpufreq_sample(void *ctx)
{
	__u32 cpu = bpf_get_smp_processor_id(), *mhz;
	__u64 slot;
	__u32 pid = (__u32)bpf_get_current_pid_tgid();
	struct cpufreq_key k = {};

	if (!cgroup_allowed(filter_cg))
		return 0;
	mhz = bpf_map_lookup_elem(&freqs, &cpu);
	if (!mhz || !*mhz)
		return 0;
	slot = *mhz / CPUFREQ_STEP;
	if (slot >= CPUFREQ_SLOTS)
		slot = CPUFREQ_SLOTS - 1;
	k.syswide = 1;
	count(&k, slot);
	if (!pid)
		return 0; /* idle: system-wide only */
	k.syswide = 0;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	count(&k, slot);
	return 0;
}
