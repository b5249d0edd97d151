/* biostacks, kernel side: the kernel stack, task and disk of each block
 * request when it is accounted, then its latency into the histogram of
 * that (task, disk, stack) at completion.
 *
 * The start is where issuer.bpf.h takes the submitter (the same program
 * names, so blk_choose_attribution() picks among them): the
 * block_io_start tracepoint on 6.5+, else fentry or a kprobe on
 * blk_account_io_start, else (pid_at_issue) block_rq_insert/issue.  The
 * end is block_io_done where it exists (the accounting's own end, as
 * libbpf-tools), else block_rq_complete. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "bits.bpf.h"
#include "blk.bpf.h"
#include "biostacks.h"

const volatile __u8 ms = 0;
const volatile __u8 filter_dev = 0;
const volatile __u32 targ_dev = 0;
const volatile __u8 pid_at_issue = 0;

struct started {
	__u64 ts;
	struct biostacks_key key;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOSTACKS_MAX_ENTRIES);
	__type(key, __u64); /* struct request___blk * */
	__type(value, struct started);
} starts SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, BIOSTACKS_MAX_ENTRIES);
	__type(key, struct biostacks_key);
	__type(value, struct biostacks_hist);
} hists SEC(".maps");

/* Too big for the 512-byte stack next to the key: one per CPU. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct started);
} scratch SEC(".maps");

static const struct biostacks_hist zero_hist;

static __always_inline int trace_start(void *ctx, struct request___blk *rq)
{
	__u64 key = (__u64)(unsigned long)rq;
	__u32 zero = 0;
	struct started *s = bpf_map_lookup_elem(&scratch, &zero);
	__u32 dev = rq_dev(rq);

	if (!s || (filter_dev && dev != targ_dev))
		return 0;
	__builtin_memset(s, 0, sizeof(*s));
	s->ts = bpf_ktime_get_ns();
	s->key.pid = (__u32)bpf_get_current_pid_tgid();
	s->key.stack_bytes = bpf_get_stack(ctx, s->key.stack, sizeof(s->key.stack), 0);
	bpf_get_current_comm(s->key.comm, sizeof(s->key.comm));
	s->key.dev = dev;
	bpf_map_update_elem(&starts, &key, s, BPF_ANY);
	return 0;
}

SEC("tp_btf/block_io_start")
int BPF_PROG(block_io_start, struct request___blk *rq)
{
	return trace_start(ctx, rq);
}

SEC("fentry/blk_account_io_start")
int BPF_PROG(io_start_fentry, struct request___blk *rq)
{
	return trace_start(ctx, rq);
}

SEC("kprobe/blk_account_io_start")
int io_start_kprobe(struct pt_regs *ctx)
{
	return trace_start(ctx, (struct request___blk *)PT_REGS_PARM1(ctx));
}

/* pid_at_issue: the first of insert and issue to see the request. */
SEC("tp_btf/block_rq_insert")
int block_rq_insert(unsigned long long *ctx)
{
	__u64 key = (__u64)(unsigned long)BLK_RQ_ARG(ctx);

	if (bpf_map_lookup_elem(&starts, &key))
		return 0;
	return trace_start(ctx, BLK_RQ_ARG(ctx));
}

SEC("tp_btf/block_rq_issue")
int block_rq_issue(unsigned long long *ctx)
{
	__u64 key = (__u64)(unsigned long)BLK_RQ_ARG(ctx);

	if (bpf_map_lookup_elem(&starts, &key))
		return 0;
	return trace_start(ctx, BLK_RQ_ARG(ctx));
}

static __always_inline int trace_done(struct request___blk *rq)
{
	__u64 key = (__u64)(unsigned long)rq, slot;
	struct biostacks_hist *h;
	struct started *s;
	__s64 delta;

	s = bpf_map_lookup_elem(&starts, &key);
	if (!s)
		return 0;
	delta = (__s64)(bpf_ktime_get_ns() - s->ts);
	if (delta < 0)
		goto cleanup;
	h = bpf_map_lookup_elem(&hists, &s->key);
	if (!h) {
		bpf_map_update_elem(&hists, &s->key, &zero_hist, BPF_NOEXIST);
		h = bpf_map_lookup_elem(&hists, &s->key);
		if (!h)
			goto cleanup;
	}
	delta /= ms ? 1000000 : 1000;
	slot = log2_slot((__u64)delta, BIOSTACKS_MAX_SLOTS);
	__sync_fetch_and_add(&h->slots[slot], 1);
cleanup:
	bpf_map_delete_elem(&starts, &key);
	return 0;
}

SEC("tp_btf/block_io_done")
int BPF_PROG(block_io_done, struct request___blk *rq)
{
	return trace_done(rq);
}

SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_rq_complete, struct request___blk *rq)
{
	return trace_done(rq);
}

char LICENSE[] SEC("license") = "GPL";
