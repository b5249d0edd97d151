/* compactsnoop, kernel side (bcc's compactsnoop on tracepoints):
 * mm_compaction_suitable records node, zone and order when a zone is fit
 * for compaction; mm_compaction_begin the start time and mode; and
 * mm_compaction_end emits the event with the result.  Compactions that
 * skip the suitable check (a write to /proc/sys/vm/compact_memory,
 * proactive compaction) still get an event: order -1, zone from its
 * first pfn (resolved by the user side).  try_to_compact_pages gives the
 * allocation's gfp flags for direct compaction. */
#include "mem.bpf.h"
#include "events.bpf.h"
#include "stacks.bpf.h"
#include "compactsnoop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_tgid = 0;
const volatile __u8 kernel_stack = 0;

enum compact_result___m { COMPACT_CONTINUE___m = 4 };

enum zone_type___m { ZONE_DMA___m };

struct trace_event_raw_mm_compaction_suitable_template___m {
	int nid;
	enum zone_type___m idx;
	int order;
	int ret;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_compaction_begin___m {
	unsigned long zone_start;
	bool sync;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_compaction_end___m {
	int status;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_compaction_try_to_compact_pages___m {
	unsigned long gfp_mask;
} __attribute__((preserve_access_index));

struct val {
	__u64 ts, zone_start, gfp;
	int nid, idx, order, sync;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct val);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} gfps SEC(".maps");

STACK_MAP(stackmap);

static __always_inline int compact_continue(int ret)
{
	if (bpf_core_enum_value_exists(enum compact_result___m, COMPACT_CONTINUE___m))
		return ret == bpf_core_enum_value(enum compact_result___m, COMPACT_CONTINUE___m);
	return ret == COMPACT_CONTINUE___m;
}

SEC("tracepoint/compaction/mm_compaction_try_to_compact_pages")
int try_to_compact(struct trace_event_raw_mm_compaction_try_to_compact_pages___m *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 gfp = BPF_CORE_READ(ctx, gfp_mask);

	if (!mem_task_allowed(targ_tgid, 0))
		return 0;
	bpf_map_update_elem(&gfps, &tid, &gfp, BPF_ANY);
	return 0;
}

SEC("tracepoint/compaction/mm_compaction_suitable")
int suitable(struct trace_event_raw_mm_compaction_suitable_template___m *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct val v = {};
	__u64 *gfp;

	if (!compact_continue(BPF_CORE_READ(ctx, ret)) || !mem_task_allowed(targ_tgid, 0))
		return 0;
	v.nid = BPF_CORE_READ(ctx, nid);
	v.idx = BPF_CORE_READ(ctx, idx);
	v.order = BPF_CORE_READ(ctx, order);
	gfp = bpf_map_lookup_elem(&gfps, &tid);
	if (gfp)
		v.gfp = *gfp;
	bpf_map_update_elem(&start, &tid, &v, BPF_ANY);
	return 0;
}

SEC("tracepoint/compaction/mm_compaction_begin")
int begin(struct trace_event_raw_mm_compaction_begin___m *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 zone_start = BPF_CORE_READ(ctx, zone_start), ts;
	int sync = BPF_CORE_READ(ctx, sync);
	struct val *v, fresh = {};

	if (!mem_task_allowed(targ_tgid, 0))
		return 0;
	ts = bpf_ktime_get_ns();
	v = bpf_map_lookup_elem(&start, &tid);
	if (v) {
		v->ts = ts;
		v->sync = sync;
		v->zone_start = zone_start;
		return 0;
	}
	/* no suitable check before: the whole zone */
	fresh.ts = ts;
	fresh.sync = sync;
	fresh.zone_start = zone_start;
	fresh.nid = -1;
	fresh.idx = -1;
	fresh.order = -1;
	bpf_map_update_elem(&start, &tid, &fresh, BPF_ANY);
	return 0;
}

SEC("tracepoint/compaction/mm_compaction_end")
int end(struct trace_event_raw_mm_compaction_end___m *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = (__u32)id;
	struct compactsnoop_event e = {};
	struct val *v;
	__u64 now;

	v = bpf_map_lookup_elem(&start, &tid);
	if (!v)
		return 0;
	now = bpf_ktime_get_ns();
	if (v->ts && now >= v->ts) {
		e.delta_ns = now - v->ts;
		e.ts_ns = now;
		e.zone_start = v->zone_start;
		e.gfp = v->gfp;
		e.pid = (__u32)(id >> 32);
		e.tid = tid;
		e.nid = v->nid;
		e.idx = v->idx;
		e.order = v->order;
		e.sync = v->sync;
		e.status = BPF_CORE_READ(ctx, status);
		e.stack_id = kernel_stack ? (int)bpf_get_stackid(ctx, &stackmap, 0) : -1;
		bpf_get_current_comm(e.comm, sizeof(e.comm));
		events_output(ctx, &e, sizeof(e));
	}
	bpf_map_delete_elem(&start, &tid);
	return 0;
}
