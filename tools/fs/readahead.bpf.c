/* readahead, kernel side: pages the kernel read ahead, whether they were
 * used and how old they were when first used.
 *
 * Functions (fentry or kprobe, retargeted to the names the kernel has):
 * while a thread is inside the readahead functions (page_cache_ra_order,
 * page_cache_ra_unbounded; a depth per thread), the folios it allocates
 * (filemap_alloc_folio*) are born; the page cache's access function
 * (folio_mark_accessed) marks a born folio used.
 *
 * Tracepoints (kernels without fentry and kprobes that have readahead:*,
 * 6.15+): readahead:page_cache_ra_unbounded/_order give the window a
 * thread reads ahead (file, first page, pages); the pages it then adds
 * to that file's page cache in that window (filemap:
 * mm_filemap_add_to_page_cache) are born, keyed by {dev, inode, index};
 * filemap:mm_filemap_get_pages (read), mm_filemap_map_pages and
 * mm_filemap_fault (mmap) mark the pages of the range they cover used;
 * mm_filemap_delete_from_page_cache forgets evicted ones (still unused). */
#include "vmlinux.h"
#include "corebox.bpf.h"
#include "bits.bpf.h"
#include "pagecache.bpf.h"
#include "readahead.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct readahead_hist);
} hists SEC(".maps");

struct birth {
	__u64 ts;
	__u32 pages;
	__u32 pad;
};

static __always_inline struct readahead_hist *hist(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&hists, &zero);
}

static __always_inline void born(__u32 pages)
{
	struct readahead_hist *h = hist();

	if (h) {
		__sync_fetch_and_add(&h->unused, pages);
		__sync_fetch_and_add(&h->total, pages);
	}
}

static __always_inline void used(struct birth *b)
{
	struct readahead_hist *h = hist();
	__s64 age = (__s64)(bpf_ktime_get_ns() - b->ts);

	if (!h)
		return;
	__sync_fetch_and_add(&h->unused, -(__s64)b->pages);
	if (age >= 0)
		__sync_fetch_and_add(&h->slots[log2_slot(age / 1000000, READAHEAD_MAX_SLOTS)], b->pages);
}

/* ---- kernel functions: fentry/fexit or kprobe/kretprobe ---- */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, READAHEAD_MAX_ENTRIES);
	__type(key, __u32); /* thread */
	__type(value, __u32); /* depth inside the readahead functions */
} in_ra SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, READAHEAD_MAX_ENTRIES);
	__type(key, __u64); /* void * */
	__type(value, struct birth);
} birth_folio SEC(".maps");

static __always_inline int ra_enter(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), one = 1, *d;

	d = bpf_map_lookup_elem(&in_ra, &tid);
	if (d)
		__sync_fetch_and_add(d, 1);
	else
		bpf_map_update_elem(&in_ra, &tid, &one, BPF_ANY);
	return 0;
}

static __always_inline int ra_exit(void)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), *d;

	d = bpf_map_lookup_elem(&in_ra, &tid);
	if (d && *d > 1)
		__sync_fetch_and_add(d, -1);
	else if (d)
		bpf_map_delete_elem(&in_ra, &tid);
	return 0;
}

static __always_inline int alloc_done(void *folio)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 key = (__u64)(unsigned long)folio;
	struct birth b = {};

	if (!folio || !bpf_map_lookup_elem(&in_ra, &tid))
		return 0;
	b.ts = bpf_ktime_get_ns();
	b.pages = folio_pages(folio);
	bpf_map_update_elem(&birth_folio, &key, &b, BPF_ANY);
	born(b.pages);
	return 0;
}

static __always_inline int accessed(void *folio)
{
	__u64 key = (__u64)(unsigned long)folio;
	struct birth *b = bpf_map_lookup_elem(&birth_folio, &key);

	if (!b)
		return 0;
	used(b);
	bpf_map_delete_elem(&birth_folio, &key);
	return 0;
}

SEC("fentry/page_cache_ra_unbounded")
int BPF_PROG(ra_fentry)
{
	return ra_enter();
}

SEC("fexit/page_cache_ra_unbounded")
int BPF_PROG(ra_fexit)
{
	return ra_exit();
}

SEC("fentry/page_cache_ra_order")
int BPF_PROG(ra2_fentry)
{
	return ra_enter();
}

SEC("fexit/page_cache_ra_order")
int BPF_PROG(ra2_fexit)
{
	return ra_exit();
}

SEC("kprobe/page_cache_ra_unbounded")
int ra_kprobe(void *ctx)
{
	return ra_enter();
}

SEC("kretprobe/page_cache_ra_unbounded")
int ra_kretprobe(void *ctx)
{
	return ra_exit();
}

SEC("kprobe/page_cache_ra_order")
int ra2_kprobe(void *ctx)
{
	return ra_enter();
}

SEC("kretprobe/page_cache_ra_order")
int ra2_kretprobe(void *ctx)
{
	return ra_exit();
}

/* filemap_alloc_folio(_noprof)(gfp, order) */
SEC("fexit/filemap_alloc_folio_noprof")
int BPF_PROG(alloc_fexit, unsigned int gfp, unsigned int order, void *ret)
{
	return alloc_done(ret);
}

/* __page_cache_alloc(gfp), before 5.16 */
SEC("fexit/__page_cache_alloc")
int BPF_PROG(alloc1_fexit, unsigned int gfp, void *ret)
{
	return alloc_done(ret);
}

SEC("kretprobe/filemap_alloc_folio_noprof")
int alloc_kretprobe(struct pt_regs *ctx)
{
	return alloc_done((void *)PT_REGS_RC(ctx));
}

SEC("fentry/folio_mark_accessed")
int BPF_PROG(access_fentry, void *folio)
{
	return accessed(folio);
}

SEC("kprobe/folio_mark_accessed")
int access_kprobe(struct pt_regs *ctx)
{
	return accessed((void *)PT_REGS_PARM1(ctx));
}

/* ---- tracepoints ---- */

struct window {
	__u64 ino;
	__u64 start, end; /* pages [start, end) */
	__u32 dev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, READAHEAD_MAX_ENTRIES);
	__type(key, __u32); /* thread */
	__type(value, struct window);
} windows SEC(".maps");

struct page_key {
	__u64 ino;
	__u64 index;
	__u32 dev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, READAHEAD_MAX_ENTRIES);
	__type(key, struct page_key);
	__type(value, struct birth);
} birth_page SEC(".maps");

static __always_inline int set_window(__u32 dev, __u64 ino, __u64 start, __u64 n)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct window w = { .ino = ino, .start = start, .end = start + n, .dev = dev };

	bpf_map_update_elem(&windows, &tid, &w, BPF_ANY);
	return 0;
}

SEC("tracepoint/readahead/page_cache_ra_unbounded")
int ra_unbounded_tp(struct trace_event_raw_page_cache_ra_unbounded *ctx)
{
	return set_window(ctx->s_dev, ctx->i_ino, ctx->index, ctx->nr_to_read);
}

SEC("tracepoint/readahead/page_cache_ra_order")
int ra_order_tp(struct trace_event_raw_page_cache_ra_order *ctx)
{
	return set_window(ctx->s_dev, ctx->i_ino, ctx->index, ctx->size);
}

SEC("tracepoint/filemap/mm_filemap_add_to_page_cache")
int add_tp(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct page_key k = { .ino = ctx->i_ino, .index = ctx->index, .dev = ctx->s_dev };
	struct window *w = bpf_map_lookup_elem(&windows, &tid);
	struct birth b = {};
	__u32 order = 0;

	if (!w || w->dev != k.dev || w->ino != k.ino || k.index < w->start || k.index >= w->end)
		return 0;
	if (bpf_core_field_exists(ctx->order))
		order = ctx->order;
	b.ts = bpf_ktime_get_ns();
	b.pages = 1U << (order & 15);
	bpf_map_update_elem(&birth_page, &k, &b, BPF_ANY);
	born(b.pages);
	if (k.index + b.pages >= w->end) /* the window is done */
		bpf_map_delete_elem(&windows, &tid);
	return 0;
}

#define MAX_SCAN 64

/* Pages [first, last] of a file were accessed: the born folios among
 * them (stepping over each found folio's pages), and one that starts
 * before first and holds it (folios are naturally aligned). */
static __noinline int access_range(__u32 dev, __u64 ino, __u64 first, __u64 last)
{
	struct page_key k = { .ino = ino, .dev = dev };
	struct birth *b;
	__u64 idx = first;

	for (int k2 = 1; k2 <= 9; k2++) {
		k.index = first & ~((1ULL << k2) - 1);
		if (k.index == first)
			continue;
		b = bpf_map_lookup_elem(&birth_page, &k);
		if (b && k.index + b->pages > first) {
			used(b);
			bpf_map_delete_elem(&birth_page, &k);
			break;
		}
	}
	for (int i = 0; i < MAX_SCAN; i++) {
		__u32 step = 1;

		if (idx > last)
			break;
		k.index = idx;
		b = bpf_map_lookup_elem(&birth_page, &k);
		if (b) {
			step = b->pages ? b->pages : 1;
			used(b);
			bpf_map_delete_elem(&birth_page, &k);
		}
		idx += step > 512 ? 512 : step;
	}
	return 0;
}

SEC("tracepoint/filemap/mm_filemap_get_pages")
int get_pages_tp(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
	return access_range(ctx->s_dev, ctx->i_ino, ctx->index, ctx->last_index);
}

SEC("tracepoint/filemap/mm_filemap_map_pages")
int map_pages_tp(struct trace_event_raw_mm_filemap_op_page_cache_range *ctx)
{
	return access_range(ctx->s_dev, ctx->i_ino, ctx->index, ctx->last_index);
}

SEC("tracepoint/filemap/mm_filemap_fault")
int fault_tp(struct trace_event_raw_mm_filemap_fault *ctx)
{
	return access_range(ctx->s_dev, ctx->i_ino, ctx->index, ctx->index);
}

SEC("tracepoint/filemap/mm_filemap_delete_from_page_cache")
int delete_tp(struct trace_event_raw_mm_filemap_op_page_cache *ctx)
{
	struct page_key k = { .ino = ctx->i_ino, .index = ctx->index, .dev = ctx->s_dev };

	bpf_map_delete_elem(&birth_page, &k);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
