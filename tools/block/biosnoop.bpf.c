/* biosnoop, kernel side: one event per completed block request.
 *
 * Who submitted the request is remembered when it is accounted
 * (issuer.bpf.h; else -- pid_at_issue -- the task current at
 * insert/issue time); block_rq_insert (-Q) and block_rq_issue stamp the
 * request; block_rq_complete sends the event. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "cgroup.bpf.h"
#include "events.bpf.h"
#include "blk.bpf.h"
#include "biosnoop.h"

const volatile __u8 filter_cg = 0;
const volatile __u8 queued = 0;
const volatile __u8 filter_dev = 0;
const volatile __u32 targ_dev = 0;
const volatile __u64 min_ns = 0;

static __always_inline bool issuer_wanted(__u32 tgid)
{
	(void)tgid;
	return cgroup_allowed(filter_cg);
}

#define ISSUER_MAX_ENTRIES BIOSNOOP_MAX_ENTRIES
#define ISSUER_CGROUP_ID() event_cgroup_id() /* the completion runs in another task */
#include "issuer.bpf.h"

struct stage {
	__u64 insert;
	__u64 issue;
	__u32 dev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOSNOOP_MAX_ENTRIES);
	__type(key, __u64); /* struct request___blk * */
	__type(value, struct stage);
} start SEC(".maps");

static __always_inline int trace_rq_start(struct request___blk *rq, int insert)
{
	__u64 key = (__u64)(unsigned long)rq, ts = bpf_ktime_get_ns();
	struct stage *sp, s = {};

	if (!cgroup_allowed(filter_cg))
		return 0;
	sp = bpf_map_lookup_elem(&start, &key);
	if (!sp) {
		s.dev = rq_dev(rq);
		if (filter_dev && s.dev != targ_dev)
			return 0;
		sp = &s;
	}
	if (insert)
		sp->insert = ts;
	else
		sp->issue = ts;
	if (sp == &s)
		bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	if (pid_at_issue && !bpf_map_lookup_elem(&issuers, &key))
		issuer_record(rq);
	return 0;
}

BLK_RQ_START_PROGS(trace_rq_start)

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request___blk *rq, int error, unsigned int nr_bytes)
{
	__u64 key = (__u64)(unsigned long)rq, ts = bpf_ktime_get_ns();
	struct biosnoop_event e = {};
	struct issuer *pd;
	struct stage *sp;
	__s64 delta;

	sp = bpf_map_lookup_elem(&start, &key);
	if (!sp)
		return 0;
	delta = (__s64)(ts - sp->issue);
	if (!sp->issue || delta < 0 || (__u64)delta < min_ns)
		goto cleanup;
	pd = bpf_map_lookup_elem(&issuers, &key);
	if (pd) {
		__builtin_memcpy(e.comm, pd->comm, sizeof(e.comm));
		e.pid = pd->pid;
		e.head.cgroup_id = pd->cgroup_id;
	} else {
		e.comm[0] = '?';
	}
	e.delta = delta;
	e.qdelta = -1;
	if (queued && BPF_CORE_READ(rq, q, elevator)) {
		if (sp->insert)
			e.qdelta = sp->issue - sp->insert;
	} else if (queued) {
		e.qdelta = 0;
	}
	e.ts = ts;
	e.sector = BPF_CORE_READ(rq, __sector);
	e.len = BPF_CORE_READ(rq, __data_len);
	e.cmd_flags = BPF_CORE_READ(rq, cmd_flags);
	e.dev = sp->dev;
	events_output_head(ctx, &e, sizeof(e));
cleanup:
	bpf_map_delete_elem(&start, &key);
	bpf_map_delete_elem(&issuers, &key);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
