/* vmscan, kernel side: time in slab shrinking, direct reclaim and memory
 * cgroup reclaim (begin/end tracepoints per thread), kswapd wake-ups and
 * page writes by reclaim, summed per CPU; duration histograms. */
#include "mem.bpf.h"
#include "vmscan.h"

char LICENSE[] SEC("license") = "GPL";

struct start_key {
	__u32 tid;
	__u32 kind;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, struct start_key);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct vmscan_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, VMSCAN_NR);
	__type(key, __u32);
	__type(value, struct vmscan_hist);
} hists SEC(".maps");

static __always_inline struct vmscan_stats *my_stats(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&stats, &zero);
}

static __always_inline int begin(__u32 kind)
{
	struct start_key k = { (__u32)bpf_get_current_pid_tgid(), kind };
	__u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &k, &ts, BPF_ANY);
	return 0;
}

static __always_inline int end(__u32 kind)
{
	struct start_key k = { (__u32)bpf_get_current_pid_tgid(), kind };
	struct vmscan_stats *s;
	struct vmscan_hist *h;
	__u64 *tsp, d;
	__u32 slot;

	tsp = bpf_map_lookup_elem(&start, &k);
	if (!tsp)
		return 0;
	d = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &k);
	s = my_stats();
	if (s && kind < VMSCAN_NR) {
		s->ns[kind] += d;
		s->count[kind]++;
	}
	h = bpf_map_lookup_elem(&hists, &kind);
	if (h) {
		slot = mem_log2(d);
		if (slot >= VMSCAN_SLOTS)
			slot = VMSCAN_SLOTS - 1;
		__sync_fetch_and_add(&h->slots[slot], 1);
	}
	return 0;
}

SEC("tp_btf/mm_shrink_slab_start")
int BPF_PROG(slab_start) { return begin(VMSCAN_SLAB); }
SEC("tp_btf/mm_shrink_slab_end")
int BPF_PROG(slab_end) { return end(VMSCAN_SLAB); }
SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(direct_begin) { return begin(VMSCAN_DIRECT); }
SEC("tp_btf/mm_vmscan_direct_reclaim_end")
int BPF_PROG(direct_end) { return end(VMSCAN_DIRECT); }
SEC("tp_btf/mm_vmscan_memcg_reclaim_begin")
int BPF_PROG(memcg_begin) { return begin(VMSCAN_MEMCG); }
SEC("tp_btf/mm_vmscan_memcg_reclaim_end")
int BPF_PROG(memcg_end) { return end(VMSCAN_MEMCG); }

SEC("tp_btf/mm_vmscan_wakeup_kswapd")
int BPF_PROG(wakeup_kswapd)
{
	struct vmscan_stats *s = my_stats();

	if (s)
		s->kswapd_wakeups++;
	return 0;
}

/* mm_vmscan_write_folio on folio kernels, mm_vmscan_writepage before
 * (the user side retargets this program to the one that exists). */
SEC("tp_btf/mm_vmscan_write_folio")
int BPF_PROG(write_folio)
{
	struct vmscan_stats *s = my_stats();

	if (s)
		s->writepages++;
	return 0;
}
