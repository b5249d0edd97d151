/* profile, kernel side: a perf_event program run by the software
 * cpu-clock event of each CPU at -F HZ (or every -c COUNT ns); counts
 * samples by {tgid, kernel stack, user stack, comm}. */
#include "corebox.bpf.h"
#include "profile.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_pid = 0;
const volatile __u8 filter_tid = 0;
const volatile __u8 user_stacks_only = 0;
const volatile __u8 kernel_stacks_only = 0;
const volatile __u8 include_idle = 0;

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 1024); /* --stack-storage-size */
	__type(key, __u32);
	__uint(value_size, 127 * sizeof(__u64)); /* --perf-max-stack-depth */
} stackmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PROFILE_MAX_ENTRIES);
	__type(key, struct profile_key);
	__type(value, __u64);
} counts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PROFILE_MAX_FILTER);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PROFILE_MAX_FILTER);
	__type(key, __u32);
	__type(value, __u8);
} tids SEC(".maps");

SEC("perf_event")
int do_perf_event(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), one = 1, *valp;
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct profile_key key = {};

	if (!include_idle && tid == 0)
		return 0;
	if (filter_pid && !bpf_map_lookup_elem(&pids, &tgid))
		return 0;
	if (filter_tid && !bpf_map_lookup_elem(&tids, &tid))
		return 0;

	key.pid = tgid;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.kern_stack_id = user_stacks_only ? -1 : (__s32)bpf_get_stackid(ctx, &stackmap, 0);
	key.user_stack_id = kernel_stacks_only ? -1 :
			    (__s32)bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);

	valp = bpf_map_lookup_elem(&counts, &key);
	if (valp) {
		__sync_fetch_and_add(valp, 1);
		return 0;
	}
	if (bpf_map_update_elem(&counts, &key, &one, BPF_NOEXIST) == -17 /* EEXIST */) {
		valp = bpf_map_lookup_elem(&counts, &key);
		if (valp)
			__sync_fetch_and_add(valp, 1);
	}
	return 0;
}
