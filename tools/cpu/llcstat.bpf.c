/* llcstat, kernel side: perf_event programs run every -c SAMPLE_PERIOD
 * last-level-cache misses / references (hardware events, one per CPU);
 * each sample adds its period to the {cpu, pid, tid} key's count. */
#include "corebox.bpf.h"
#include "llcstat.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 targ_per_thread = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, LLCSTAT_MAX_ENTRIES);
	__type(key, struct llcstat_key);
	__type(value, struct llcstat_value);
} infos SEC(".maps");

static __always_inline int count(struct bpf_perf_event_data *ctx, int miss)
{
	__u64 id = bpf_get_current_pid_tgid(), period = ctx->sample_period;
	struct llcstat_key key = { .cpu = bpf_get_smp_processor_id(), .pid = id >> 32 };
	struct llcstat_value *v;

	key.tid = targ_per_thread ? (__u32)id : key.pid;
	v = bpf_map_lookup_elem(&infos, &key);
	if (!v) {
		struct llcstat_value zero = {};

		bpf_map_update_elem(&infos, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&infos, &key);
		if (!v)
			return 0;
	}
	if (miss)
		__sync_fetch_and_add(&v->miss, period);
	else
		__sync_fetch_and_add(&v->ref, period);
	bpf_get_current_comm(v->comm, sizeof(v->comm));
	return 0;
}

SEC("perf_event")
int on_cache_miss(struct bpf_perf_event_data *ctx)
{
	return count(ctx, 1);
}

SEC("perf_event")
int on_cache_ref(struct bpf_perf_event_data *ctx)
{
	return count(ctx, 0);
}
