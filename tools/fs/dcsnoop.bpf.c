/* dcsnoop, kernel side: failed dcache lookups (d_lookup returning NULL)
 * and, with -a, every reference (lookup_fast, with the component being
 * looked up, nameidata.last), as bcc's dcsnoop.  fentry/fexit or
 * kprobe/kretprobe, retargeted by the user side (lookup_fast may be a
 * .constprop clone); these functions have no tracepoint. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "events.bpf.h"
#include "dcsnoop.h"

char LICENSE[] SEC("license") = "GPL";

struct qstr___dc {
	const unsigned char *name;
} __attribute__((preserve_access_index));
/* fs/namei.c's private struct, in the kernel's BTF */
struct nameidata___dc {
	struct qstr___dc last;
} __attribute__((preserve_access_index));

struct entry {
	char name[DCSNOOP_NAME_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct entry);
} entrybypid SEC(".maps");

static __noinline int submit(void *ctx, const void *name, int kernel_copy, __u32 type)
{
	struct dcsnoop_event e = {};

	e.pid = bpf_get_current_pid_tgid() >> 32;
	e.type = type;
	bpf_get_current_comm(e.comm, sizeof(e.comm));
	if (kernel_copy)
		__builtin_memcpy(e.filename, name, sizeof(e.filename));
	else if (name)
		bpf_probe_read_kernel_str(e.filename, sizeof(e.filename), name);
	events_output(ctx, &e, sizeof(e));
	return 0;
}

static __always_inline int fast(void *ctx, struct nameidata___dc *nd)
{
	return submit(ctx, BPF_CORE_READ(nd, last.name), 0, DC_REFERENCE);
}

static __always_inline int lookup_entry(struct qstr___dc *name)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct entry e = {};
	const unsigned char *s = BPF_CORE_READ(name, name);

	if (s)
		bpf_probe_read_kernel_str(e.name, sizeof(e.name), s);
	bpf_map_update_elem(&entrybypid, &tid, &e, BPF_ANY);
	return 0;
}

static __always_inline int lookup_ret(void *ctx, __u64 ret)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct entry *ep = bpf_map_lookup_elem(&entrybypid, &tid), e;

	if (!ep)
		return 0;
	e = *ep;
	bpf_map_delete_elem(&entrybypid, &tid);
	if (ret)
		return 0; /* found */
	return submit(ctx, e.name, 1, DC_MISS);
}

SEC("fentry/lookup_fast")
int BPF_PROG(fast_fentry, struct nameidata___dc *nd)
{
	return fast(ctx, nd);
}

SEC("kprobe/lookup_fast")
int fast_kprobe(struct pt_regs *ctx)
{
	return fast(ctx, (void *)PT_REGS_PARM1(ctx));
}

/* d_lookup(parent, name) -> dentry */
SEC("fentry/d_lookup")
int BPF_PROG(d_lookup_fentry, void *parent, struct qstr___dc *name)
{
	return lookup_entry(name);
}

SEC("fexit/d_lookup")
int BPF_PROG(d_lookup_fexit, void *parent, void *name, void *ret)
{
	return lookup_ret(ctx, (__u64)ret);
}

SEC("kprobe/d_lookup")
int d_lookup_kprobe(struct pt_regs *ctx)
{
	return lookup_entry((void *)PT_REGS_PARM2(ctx));
}

SEC("kretprobe/d_lookup")
int d_lookup_kretprobe(struct pt_regs *ctx)
{
	return lookup_ret(ctx, PT_REGS_RC(ctx));
}
