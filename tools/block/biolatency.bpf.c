/* biolatency, kernel side: block I/O latency histograms.
 *
 * block_rq_issue (and block_rq_insert with -Q) store a start time keyed
 * by the request pointer; block_rq_complete computes the latency and
 * bumps a log2 slot of the histogram for key {cmd_flags, dev} (fields
 * zero unless -F / -D).  All kernel memory is read with CO-RE probe
 * reads, so the same code is valid as tp_btf and as raw_tp. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "bits.bpf.h"
#include "blk.bpf.h"
#include "biolatency.h"

const volatile __u8 filter_cg = 0;
const volatile __u8 per_disk = 0;
const volatile __u8 per_flag = 0;
const volatile __u8 queued = 0;
const volatile __u8 ms = 0;
const volatile __u8 filter_dev = 0;
const volatile __u32 targ_dev = 0;
const volatile __u8 per_cgroup = 0;

/* --cgroups: the cgroup of the task that inserts or issues the request,
 * as biosnoop's PID (the submitter for direct and synchronous I/O; the
 * flusher thread's for write-back).  The bio's blkcg would name the owner
 * of write-back too, but only where the io controller is on cgroup v2:
 * under a v1 blkio hierarchy it is a v1 cgroup, whose id means nothing
 * in the v2 tree. */
struct start_val {
	__u64 ts;
	__u32 cgroup; /* low 32 bits of the cgroup v2 id */
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOLAT_MAX_ENTRIES);
	__type(key, __u64); /* struct request___blk * */
	__type(value, struct start_val);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOLAT_MAX_ENTRIES);
	__type(key, struct biolat_key);
	__type(value, struct biolat_hist);
} hists SEC(".maps");

static __always_inline int trace_start(struct request___blk *rq, int insert)
{
	__u64 key = (__u64)(unsigned long)rq;
	struct start_val sv = {};

	if (!cgroup_allowed(filter_cg))
		return 0;
	/* -Q: with an I/O scheduler the insert time stands */
	if (!insert && queued) {
		struct request_queue___blk *q = BPF_CORE_READ(rq, q);

		if (BPF_CORE_READ(q, elevator))
			return 0;
	}
	if (filter_dev && rq_dev(rq) != targ_dev)
		return 0;
	sv.ts = bpf_ktime_get_ns();
	if (per_cgroup)
		sv.cgroup = (__u32)bpf_get_current_cgroup_id();
	bpf_map_update_elem(&start, &key, &sv, BPF_ANY);
	return 0;
}

BLK_RQ_START_PROGS(trace_start)

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request___blk *rq, int error, unsigned int nr_bytes)
{
	__u64 key = (__u64)(unsigned long)rq, now = bpf_ktime_get_ns();
	struct start_val *sv;
	struct biolat_key hkey = {};
	struct biolat_hist *h;
	__u64 delta;
	__u64 slot;

	/* No -c test here: the completion runs in whatever task or interrupt
	 * it finds, not the submitter's (libbpf-tools tests it here too and
	 * so drops nearly every I/O of the cgroup); a start time was stored
	 * only for requests the cgroup's tasks issued. */
	sv = bpf_map_lookup_elem(&start, &key);
	if (!sv)
		return 0;
	if ((__s64)(now - sv->ts) < 0)
		goto out;
	delta = now - sv->ts;
	if (per_disk)
		hkey.dev = rq_dev(rq);
	if (per_flag)
		hkey.cmd_flags = BPF_CORE_READ(rq, cmd_flags);
	if (per_cgroup)
		hkey.cgroup = sv->cgroup;
	h = bpf_map_lookup_elem(&hists, &hkey);
	if (!h) {
		struct biolat_hist zero = {};

		bpf_map_update_elem(&hists, &hkey, &zero, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &hkey);
		if (!h)
			goto out;
	}
	__sync_fetch_and_add(&h->sum_ns, delta);
	delta /= ms ? 1000000 : 1000;
	slot = log2_slot(delta, BIOLAT_MAX_SLOTS);
	__sync_fetch_and_add(&h->slots[slot], 1);
out:
	bpf_map_delete_elem(&start, &key);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
