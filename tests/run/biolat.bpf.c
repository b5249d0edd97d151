/* A biolatency/biosnoop-like object in libbpf-tools style, for `corebox
 * run`:
 *
 * - tp_btf and raw_tp programs of block_rq_issue and block_rq_complete
 *   (user space keeps one set);
 * - a const volatile knob targ_dev (major << 20 | minor, as libbpf-tools
 *   encode a disk) that keeps only that disk's requests;
 * - maps sized from user space: start declared with 0 entries;
 * - a perf buffer of struct event built on the stack and sent directly:
 *   the code gives the record no BTF type (clang emits none for a local),
 *   so the reader needs --event-type event (last_event, a global, puts the
 *   struct in BTF); struct request's local definition has the same size
 *   as struct event, and must never be taken for it.
 *
 * Per disk, the completed requests in `counts`; one event each. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

struct gendisk {
	int major;
	int first_minor;
} __attribute__((preserve_access_index));

struct request_queue {
	struct gendisk *disk;
} __attribute__((preserve_access_index));

/* 32 bytes, like struct event: a kernel type of the record's size */
struct request {
	struct request_queue *q;
	u64 __sector;
	u32 __data_len;
	u32 cmd_flags;
	u64 start_time_ns;
} __attribute__((preserve_access_index));

const volatile u32 targ_dev = 0;

struct start {
	u64 ts;
	u64 sector;
};

struct event {
	u32 dev;
	u32 bytes;
	u64 sector;
	u64 delta_ns;
	char comm[8];
};

struct event last_event; /* puts struct event into BTF for --event-type */

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, 0);
	__type(key, u64);
	__type(value, struct start);
} start SEC(".maps");

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, u64);
} counts SEC(".maps");

struct {
	__uint(type, MAP_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(u32));
	__uint(value_size, sizeof(u32));
} events SEC(".maps");

static __always_inline u32 disk_of(struct request *rq)
{
	struct request_queue *q = 0;
	struct gendisk *disk = 0;
	int major = 0, minor = 0;

	CORE_READ(q, rq->q);
	if (!q)
		return 0;
	CORE_READ(disk, q->disk);
	if (!disk)
		return 0;
	CORE_READ(major, disk->major);
	CORE_READ(minor, disk->first_minor);
	return (u32)major << 20 | (u32)minor;
}

static __always_inline int issue(struct request *rq)
{
	struct start s = {};
	u64 key = (u64)rq;

	if (targ_dev && disk_of(rq) != targ_dev)
		return 0;
	s.ts = bpf_ktime_get_ns();
	CORE_READ(s.sector, rq->__sector);
	bpf_map_update_elem(&start, &key, &s, 0);
	return 0;
}

static __always_inline int complete(void *ctx, struct request *rq, u32 nr_bytes)
{
	struct event e = {};
	struct start *s;
	u64 key = (u64)rq, one = 1, *c;

	s = bpf_map_lookup_elem(&start, &key);
	if (!s)
		return 0;
	e.dev = disk_of(rq);
	e.bytes = nr_bytes;
	e.sector = s->sector;
	e.delta_ns = bpf_ktime_get_ns() - s->ts;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	bpf_map_delete_elem(&start, &key);
	c = bpf_map_lookup_elem(&counts, &e.dev);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&counts, &e.dev, &one, 0);
	bpf_perf_event_output(ctx, &events, F_CURRENT_CPU, &e, sizeof(e));
	return 0;
}

SEC("tp_btf/block_rq_issue")
int block_rq_issue_btf(u64 *ctx)
{
	return issue((struct request *)ctx[0]);
}

SEC("tp_btf/block_rq_complete")
int block_rq_complete_btf(u64 *ctx)
{
	return complete(ctx, (struct request *)ctx[0], (u32)ctx[2]);
}

SEC("raw_tp/block_rq_issue")
int block_rq_issue(struct bpf_raw_tracepoint_args *ctx)
{
	return issue((struct request *)ctx->args[0]);
}

SEC("raw_tp/block_rq_complete")
int block_rq_complete(struct bpf_raw_tracepoint_args *ctx)
{
	return complete(ctx, (struct request *)ctx->args[0], (u32)ctx->args[2]);
}
