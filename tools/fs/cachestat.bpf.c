/* cachestat, kernel side: running counts of page cache accesses,
 * additions, buffer dirtying and page dirtying.
 *
 * Each count has a fentry and a kprobe variant on its kernel function
 * (retargeted by the user side to the name the running kernel has) and,
 * where one exists, a tracepoint variant: filemap's
 * mm_filemap_add_to_page_cache (added), block_dirty_buffer (fired by
 * mark_buffer_dirty), writeback_dirty_folio/_page (dirtied).  Accesses
 * have no tracepoint.  With tp_pages set (no access counting: hits are
 * unknown anyway) the tracepoints count pages of large folios, not calls. */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "pagecache.bpf.h"
#include "cachestat.h"

const volatile __u8 tp_pages = 0;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cachestat_counts);
} counts SEC(".maps");

static __always_inline struct cachestat_counts *c(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counts, &zero);
}

#define BUMP(field, n)                                                         \
	({                                                                     \
		struct cachestat_counts *p_ = c();                             \
		if (p_)                                                        \
			__sync_fetch_and_add(&p_->field, (n));                 \
		0;                                                             \
	})

SEC("fentry/folio_mark_accessed")
int BPF_PROG(acc_fentry)
{
	return BUMP(accessed, 1);
}

SEC("kprobe/folio_mark_accessed")
int acc_kprobe(void *ctx)
{
	return BUMP(accessed, 1);
}

SEC("fentry/filemap_add_folio")
int BPF_PROG(add_fentry)
{
	return BUMP(added, 1);
}

SEC("kprobe/filemap_add_folio")
int add_kprobe(void *ctx)
{
	return BUMP(added, 1);
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(add_tp, void *folio)
{
	return BUMP(added, tp_pages ? folio_pages(folio) : 1);
}

SEC("fentry/mark_buffer_dirty")
int BPF_PROG(mbd_fentry)
{
	return BUMP(mbd, 1);
}

SEC("kprobe/mark_buffer_dirty")
int mbd_kprobe(void *ctx)
{
	return BUMP(mbd, 1);
}

SEC("tp_btf/block_dirty_buffer")
int BPF_PROG(mbd_tp)
{
	return BUMP(mbd, 1);
}

SEC("fentry/folio_account_dirtied")
int BPF_PROG(dirt_fentry)
{
	return BUMP(dirtied, 1);
}

SEC("kprobe/folio_account_dirtied")
int dirt_kprobe(void *ctx)
{
	return BUMP(dirtied, 1);
}

SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(dirt_tp_folio, void *folio)
{
	return BUMP(dirtied, tp_pages ? folio_pages(folio) : 1);
}

SEC("tp_btf/writeback_dirty_page")
int BPF_PROG(dirt_tp_page)
{
	return BUMP(dirtied, 1);
}

char LICENSE[] SEC("license") = "GPL";
