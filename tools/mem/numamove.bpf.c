/* numamove, kernel side: NUMA-misplaced page migrations and their time.
 *
 * Tracepoints first: migrate:mm_migrate_pages_start and mm_migrate_pages
 * bracket each migrate_pages() call and carry its reason; the ones with
 * reason MR_NUMA_MISPLACED are the NUMA balancing migrations.  Kernels
 * without mm_migrate_pages_start (before 5.9) get the libbpf-tools way:
 * entry and exit of migrate_misplaced_folio/page by fentry/fexit, else
 * kprobe/kretprobe (the user side retargets and picks one pair). */
#include "mem.bpf.h"
#include "numamove.h"

char LICENSE[] SEC("license") = "GPL";

struct trace_event_raw_mm_migrate_pages_start___m {
	int reason;
} __attribute__((preserve_access_index));

struct trace_event_raw_mm_migrate_pages___m {
	int reason;
} __attribute__((preserve_access_index));

/* The enumerator's value comes from the running kernel's BTF (5 since
 * 5.x; it moved when reasons were added). */
enum migrate_reason___m { MR_NUMA_MISPLACED___m = 5 };

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct numamove_stats);
} stats SEC(".maps");

static __always_inline int numa_reason(int reason)
{
	if (bpf_core_enum_value_exists(enum migrate_reason___m, MR_NUMA_MISPLACED___m))
		return reason == bpf_core_enum_value(enum migrate_reason___m, MR_NUMA_MISPLACED___m);
	return reason == MR_NUMA_MISPLACED___m;
}

static __always_inline int enter(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 ts = bpf_ktime_get_ns();

	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

static __always_inline int leave(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), zero = 0;
	struct numamove_stats *s;
	__u64 *tsp, d;

	tsp = bpf_map_lookup_elem(&start, &tid);
	if (!tsp)
		return 0;
	d = bpf_ktime_get_ns() - *tsp;
	bpf_map_delete_elem(&start, &tid);
	s = bpf_map_lookup_elem(&stats, &zero);
	if (s) {
		s->num++;
		s->ms += d / 1000000;
		s->ns += d;
	}
	return 0;
}

SEC("tracepoint/migrate/mm_migrate_pages_start")
int tp_start(struct trace_event_raw_mm_migrate_pages_start___m *ctx)
{
	return numa_reason(BPF_CORE_READ(ctx, reason)) ? enter() : 0;
}

SEC("tracepoint/migrate/mm_migrate_pages")
int tp_end(struct trace_event_raw_mm_migrate_pages___m *ctx)
{
	return numa_reason(BPF_CORE_READ(ctx, reason)) ? leave() : 0;
}

SEC("fentry/migrate_misplaced_folio")
int BPF_PROG(fn_entry) { return enter(); }
SEC("fexit/migrate_misplaced_folio")
int BPF_PROG(fn_exit) { return leave(); }
SEC("kprobe/migrate_misplaced_folio")
int kp_entry(void *ctx) { return enter(); }
SEC("kretprobe/migrate_misplaced_folio")
int kp_exit(void *ctx) { return leave(); }
