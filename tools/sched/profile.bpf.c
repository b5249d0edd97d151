/* profile, kernel side: a perf_event program run by the software
 * cpu-clock event of each CPU at -F HZ (or every -c COUNT ns); counts
 * samples by {tgid, kernel stack, user stack, comm}. */
#include "corebox.bpf.h"
#include "stacks.bpf.h"
#include "profile.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 filter_pid = 0;
const volatile __u8 filter_tid = 0;
const volatile __u8 user_stacks_only = 0;
const volatile __u8 kernel_stacks_only = 0;
const volatile __u8 include_idle = 0;

STACK_MAP(stackmap);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, PROFILE_MAX_ENTRIES);
	__type(key, struct profile_key);
	__type(value, __u64);
} counts SEC(".maps");

ID_FILTER_MAP(pids, PROFILE_MAX_FILTER);

ID_FILTER_MAP(tids, PROFILE_MAX_FILTER);

SEC("perf_event")
int do_perf_event(struct bpf_perf_event_data *ctx)
{
	__u64 id = bpf_get_current_pid_tgid(), one = 1, *valp;
	__u32 tgid = id >> 32, tid = (__u32)id;
	struct profile_key key = {};

	if (!include_idle && tid == 0)
		return 0;
	if (!id_allowed(filter_pid, &pids, tgid) || !id_allowed(filter_tid, &tids, tid))
		return 0;

	key.pid = tgid;
	bpf_get_current_comm(key.comm, sizeof(key.comm));
	key.kern_stack_id = stack_id(ctx, &stackmap, user_stacks_only, 0);
	key.user_stack_id = stack_id(ctx, &stackmap, kernel_stacks_only, BPF_F_USER_STACK);

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
