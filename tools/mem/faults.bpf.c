/* faults, ffaults, hfaults and swapin, kernel side: count page faults by
 * user stack and comm, by file name, and hugetlb faults and swap-ins by
 * process (the BPF Performance Tools book's Chapter 7 tools).
 *
 *  faults:  the software event page-faults, one perf event per CPU (the
 *           user side opens them), else the x86 tracepoint
 *           exceptions:page_fault_user;
 *  ffaults: filemap:mm_filemap_fault (6.x), else filemap_fault() by
 *           fentry or kprobe: faults that read a file's page cache;
 *  hfaults: hugetlb_fault() by fentry or kprobe (no tracepoint exists);
 *  swapin:  swap_read_folio() / swap_readpage() likewise (the user side
 *           retargets the kf_* programs). */
#include "memcount.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_tgid = 0;

/* Local CO-RE flavors: from a fault to its file (mem.bpf.h: to its name). */
struct vm_area_struct___m {
	struct file___m *vm_file;
} __attribute__((preserve_access_index));
struct vm_fault___m {
	struct vm_area_struct___m *vma;
} __attribute__((preserve_access_index));
struct hlist_node___m {
	struct hlist_node___m *next;
} __attribute__((preserve_access_index));
struct hlist_head___m {
	struct hlist_node___m *first;
} __attribute__((preserve_access_index));
struct inode___m {
	struct hlist_head___m i_dentry;
} __attribute__((preserve_access_index));
struct address_space___m {
	struct inode___m *host;
} __attribute__((preserve_access_index));
/* d_alias, the link in the inode's i_dentry list, sits in union d_u */
struct dentry___alias {
	union {
		struct hlist_node___m d_alias;
	} d_u;
} __attribute__((preserve_access_index));

/* The key with this process's ids (and name when given); 0 when filtered. */
static __always_inline int fill_key(struct memcount_key *k)
{
	if (!mem_task_allowed(targ_tgid, 0))
		return 0;
	memcount_key_task(k);
	return 1;
}

static __always_inline int count_fault(void *ctx)
{
	struct memcount_key k = {};

	if (!fill_key(&k))
		return 0;
	k.stackid = (int)bpf_get_stackid(ctx, &stackmap, BPF_F_USER_STACK);
	counts_add(&counts, &k, 1);
	return 0;
}

SEC("perf_event")
int faults_pe(void *ctx)
{
	return count_fault(ctx);
}

SEC("tracepoint/exceptions/page_fault_user")
int faults_tp(void *ctx)
{
	return count_fault(ctx);
}

static __always_inline int count_name(const struct dentry___m *d)
{
	struct memcount_key k = {};
	const unsigned char *name;

	if (!fill_key(&k))
		return 0;
	__builtin_memset(k.comm, 0, sizeof(k.comm));
	k.pid = 0; /* by file name alone, as the book's @[file] */
	name = BPF_CORE_READ(d, d_name.name);
	if (name)
		bpf_probe_read_kernel_str(k.name, sizeof(k.name), name);
	counts_add(&counts, &k, 1);
	return 0;
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(ff_tp, struct address_space___m *mapping)
{
	struct inode___m *inode = BPF_CORE_READ(mapping, host);
	struct hlist_node___m *alias = BPF_CORE_READ(inode, i_dentry.first);
	struct dentry___m *d = NULL;

	if (alias) /* container_of(alias, struct dentry, d_u.d_alias) */
		d = (void *)((char *)alias - bpf_core_field_offset(struct dentry___alias, d_u.d_alias));
	return count_name(d);
}

static __always_inline int ff_vmf(struct vm_fault___m *vmf)
{
	return count_name(BPF_CORE_READ(vmf, vma, vm_file, f_path.dentry));
}

SEC("fentry/filemap_fault")
int BPF_PROG(ff_fentry, struct vm_fault___m *vmf)
{
	return ff_vmf(vmf);
}

SEC("kprobe/filemap_fault")
int ff_kprobe(struct pt_regs *ctx)
{
	return ff_vmf((struct vm_fault___m *)PT_REGS_PARM1(ctx));
}

static __always_inline int count_task(void)
{
	struct memcount_key k = {};

	if (!fill_key(&k))
		return 0;
	counts_add(&counts, &k, 1);
	return 0;
}

SEC("fentry/hugetlb_fault")
int BPF_PROG(kf_fentry)
{
	return count_task();
}

SEC("kprobe/hugetlb_fault")
int kf_kprobe(void *ctx)
{
	return count_task();
}
