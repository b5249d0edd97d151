/* drsnoop, kernel side: time each direct reclaim (and with -M each memory
 * cgroup reclaim) from its begin to its end tracepoint, per thread. */
#include "mem.bpf.h"
#include "events.bpf.h"
#include "drsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_tgid = 0;
const volatile __u32 targ_tid = 0;
const volatile __u64 vm_zone_stat_kaddr = 0;

struct begin {
	__u64 ts;
	__u64 nr_free_pages;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 8192);
	__type(key, __u32);
	__type(value, struct begin);
} start SEC(".maps");

static __always_inline int on_begin(void)
{
	const long *zone_stat = (const long *)vm_zone_stat_kaddr;
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct begin b = {};

	if (!mem_task_allowed(targ_tgid, targ_tid))
		return 0;
	b.ts = bpf_ktime_get_ns();
	if (zone_stat) /* vm_zone_stat[NR_FREE_PAGES], NR_FREE_PAGES = 0 */
		bpf_probe_read_kernel(&b.nr_free_pages, sizeof(b.nr_free_pages), zone_stat);
	bpf_map_update_elem(&start, &tid, &b, BPF_ANY);
	return 0;
}

static __always_inline int on_end(void *ctx, __u64 nr_reclaimed, int memcg)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct drsnoop_event e = {};
	struct begin *b;
	__u64 now;

	b = bpf_map_lookup_elem(&start, &tid);
	if (!b)
		return 0;
	now = bpf_ktime_get_ns();
	if (now >= b->ts) {
		e.delta_ns = now - b->ts;
		e.ts_ns = now;
		e.nr_reclaimed = nr_reclaimed;
		e.nr_free_pages = b->nr_free_pages;
		e.tid = tid;
		e.tgid = (__u32)(id >> 32);
		e.uid = (__u32)bpf_get_current_uid_gid();
		e.memcg = memcg;
		bpf_get_current_comm(e.comm, sizeof(e.comm));
		events_output(ctx, &e, sizeof(e));
	}
	bpf_map_delete_elem(&start, &tid);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(dr_begin)
{
	return on_begin();
}

SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(dr_end, unsigned long nr_reclaimed)
{
	return on_end(ctx, nr_reclaimed, 0);
}

/* -M: a task over its memory cgroup's limit reclaims on its own (same
 * stall, other tracepoints). */
SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin)
{
	return on_begin();
}

SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end, unsigned long nr_reclaimed)
{
	return on_end(ctx, nr_reclaimed, 1);
}
