/* biotop, kernel side: completed block requests summed by submitter,
 * direction and disk.  The submitter is remembered as the request is
 * accounted (issuer.bpf.h; else the task current at issue),
 * block_rq_issue stamps it, block_rq_complete adds it to its row. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "blk.bpf.h"
#include "biotop.h"

const volatile __u32 target_pid = 0; /* -p: tgid, 0: all */

static __always_inline bool issuer_wanted(__u32 tgid)
{
	return !target_pid || tgid == target_pid;
}

#define ISSUER_MAX_ENTRIES BIOTOP_MAX_ENTRIES
#include "issuer.bpf.h"

#define REQ_OP_MASK 0xff
#define REQ_OP_WRITE 1

struct issued {
	__u64 ts;
	__u32 dev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOTOP_MAX_ENTRIES);
	__type(key, __u64);
	__type(value, struct issued);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOTOP_MAX_ENTRIES);
	__type(key, struct biotop_key);
	__type(value, struct biotop_val);
} counts SEC(".maps");

static __always_inline int trace_rq_start(struct request___blk *rq, int insert)
{
	__u64 key = (__u64)(unsigned long)rq;
	struct issued s = {};

	if (insert)
		return 0; /* biotop times from issue only */
	if (pid_at_issue && !bpf_map_lookup_elem(&issuers, &key))
		issuer_record(rq);
	/* with -p, requests of other processes are not followed */
	if (target_pid && !bpf_map_lookup_elem(&issuers, &key))
		return 0;
	s.ts = bpf_ktime_get_ns();
	s.dev = rq_dev(rq);
	bpf_map_update_elem(&start, &key, &s, BPF_ANY);
	return 0;
}

BLK_RQ_START_PROGS(trace_rq_start)

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request___blk *rq, int error, unsigned int nr_bytes)
{
	__u64 key = (__u64)(unsigned long)rq;
	struct biotop_key k = {};
	struct biotop_val zero = {}, *v;
	struct issued *s = bpf_map_lookup_elem(&start, &key);
	struct issuer *w;
	__u64 delta;

	if (!s)
		goto cleanup;
	delta = bpf_ktime_get_ns() - s->ts;
	w = bpf_map_lookup_elem(&issuers, &key);
	if (w) {
		k.pid = w->pid;
		__builtin_memcpy(k.name, w->comm, sizeof(k.name));
	}
	k.rwflag = (BPF_CORE_READ(rq, cmd_flags) & REQ_OP_MASK) == REQ_OP_WRITE;
	k.major = s->dev >> MINORBITS;
	k.minor = s->dev & ((1U << MINORBITS) - 1);
	v = bpf_map_lookup_elem(&counts, &k);
	if (!v) {
		bpf_map_update_elem(&counts, &k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&counts, &k);
		if (!v)
			goto cleanup;
	}
	__sync_fetch_and_add(&v->bytes, BPF_CORE_READ(rq, __data_len));
	__sync_fetch_and_add(&v->us, delta / 1000);
	__sync_fetch_and_add(&v->io, 1);
cleanup:
	bpf_map_delete_elem(&start, &key);
	bpf_map_delete_elem(&issuers, &key);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
