/* pidpersec, kernel side: one running count of new tasks.
 *
 * bcc counts calls of sched_fork() with a kprobe; sched:sched_process_fork
 * is the stable event of the same moment (every successful fork, vfork
 * and clone, threads included), with no kprobe needed.  The count only
 * grows: the user side reports differences, so nothing is lost between
 * reading and clearing. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} forks SEC(".maps");

SEC("tracepoint/sched/sched_process_fork")
int pidpersec_fork(void *ctx)
{
	__u32 zero = 0;
	__u64 *n = bpf_map_lookup_elem(&forks, &zero);

	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
