/* dcstat, kernel side: dcache references (lookup_fast calls), slow
 * lookups (d_lookup calls) and misses (d_lookup returning NULL), as bcc's
 * dcstat.  fentry/fexit or kprobe/kretprobe, retargeted by the user side
 * (lookup_fast may be a .constprop clone); these functions have no
 * tracepoint. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "dcstat.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dcstat_counts);
} counts SEC(".maps");

static __always_inline struct dcstat_counts *c(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

static __always_inline int fast(void)
{
	struct dcstat_counts *p = c();

	if (p)
		__sync_fetch_and_add(&p->refs, 1);
	return 0;
}

static __always_inline int lookup_ret(__u64 ret)
{
	struct dcstat_counts *p = c();

	if (!p)
		return 0;
	__sync_fetch_and_add(&p->slow, 1);
	if (!ret)
		__sync_fetch_and_add(&p->miss, 1);
	return 0;
}

SEC("fentry/lookup_fast")
int BPF_PROG(fast_fentry)
{
	return fast();
}

SEC("kprobe/lookup_fast")
int fast_kprobe(void *ctx)
{
	return fast();
}

/* d_lookup(parent, name) -> dentry */
SEC("fexit/d_lookup")
int BPF_PROG(d_lookup_fexit, void *parent, void *name, void *ret)
{
	return lookup_ret((__u64)ret);
}

SEC("kretprobe/d_lookup")
int d_lookup_kretprobe(struct pt_regs *ctx)
{
	return lookup_ret(PT_REGS_RC(ctx));
}
