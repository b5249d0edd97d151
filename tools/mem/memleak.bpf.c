/* memleak, kernel side: outstanding allocations by stack.
 *
 * User mode: uprobes on the allocator's entry points (the user side
 * points each program at PATH:OFFSET and restricts it to the traced
 * process) store the requested size per thread; the return probes add
 * address -> {size, time, user stack} to `allocs`; free() and munmap()
 * remove the entry.  Kernel mode: the kmem raw tracepoints do the same for kmalloc, kmem_cache, page and
 * (-P) percpu allocations, with kernel stacks.  --combined-only also
 * keeps totals per stack in `combined`, which the user side then reads
 * instead of every allocation.  The shared steps are subprograms
 * (BPF-to-BPF calls), not inlined into the 33 programs: half the size. */
#include "mem.bpf.h"
#include "events.bpf.h"
#include "stacks.bpf.h"
#include "memleak.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u64 min_size = 0;
const volatile __u64 max_size = ~0ULL;
const volatile __u64 page_size = 4096;
const volatile __u64 sample_rate = 1;
const volatile __u8 trace_all = 0;
const volatile __u8 combined_only = 0;
const volatile __u8 wa_missing_free = 0;
const volatile __u8 user_stacks = 0;
/* 1 on kernels before 6.1: kmem_cache_alloc's third argument is the size,
 * not the cache (the kmem_alloc event class) */
const volatile __u8 kmem_old = 0;

/* A thread's allocator call in progress: its size, and how many calls
 * into the allocator were made from inside it (malloc getting memory by
 * mmap, calloc calling malloc...): those are part of the outer call, not
 * allocations of their own, and must not consume its size. */
struct pending {
	__u64 size;
	__u32 depth;
	__u32 skip;    /* filtered out by -z/-Z/-s: nothing to record */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, struct pending);
} sizes SEC(".maps");

/* Not preallocated for a process's allocator: memory follows the
 * allocations actually outstanding.  Kernel mode preallocates it (the
 * user side clears the flag): no allocation from inside kmalloc. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMLEAK_ALLOCS_MAX);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, __u64);
	__type(value, struct memleak_alloc);
} allocs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MEMLEAK_COMBINED_MAX);
	__type(key, __u64);
	__type(value, struct memleak_combined);
} combined SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} memptrs SEC(".maps");

STACK_MAP(stack_traces);

static __noinline void trace(void *ctx, __u32 type, __u64 size, __u64 addr)
{
	struct memleak_trace t = { .type = type, .pid = (__u32)(bpf_get_current_pid_tgid() >> 32), .size = size,
				   .addr = addr };

	events_output(ctx, &t, sizeof(t));
}

/* The size and sampling filters: 1 when this allocation is traced. */
static __always_inline int wanted(__u64 size)
{
	if (size < min_size || size > max_size)
		return 0;
	return sample_rate <= 1 || bpf_ktime_get_ns() % sample_rate == 0;
}

/* address -> {size, now, stack}; totals per stack with --combined-only */
static __noinline void record(void *ctx, __u64 addr, __u64 size)
{
	struct memleak_alloc a = {};

	if (!addr || addr == (__u64)-1) /* NULL, MAP_FAILED */
		return;
	a.size = size;
	a.ts_ns = bpf_ktime_get_ns();
	a.stack_id = bpf_get_stackid(ctx, &stack_traces, user_stacks ? BPF_F_USER_STACK : 0);
	bpf_map_update_elem(&allocs, &addr, &a, BPF_ANY);
	if (combined_only) {
		struct memleak_combined *c, zero = {};
		__u64 sid = (__u64)a.stack_id;

		c = bpf_map_lookup_elem(&combined, &sid);
		if (!c) {
			bpf_map_update_elem(&combined, &sid, &zero, BPF_NOEXIST);
			c = bpf_map_lookup_elem(&combined, &sid);
		}
		if (c) {
			__sync_fetch_and_add(&c->size, size);
			__sync_fetch_and_add(&c->count, 1);
		}
	}
}

/* uprobe entry: the size, by thread, for the return probe */
static __noinline int alloc_enter(void *ctx, __u64 size)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct pending *p = bpf_map_lookup_elem(&sizes, &tid), fresh = {};

	if (p) { /* inside another allocator call */
		p->depth++;
		return 0;
	}
	fresh.size = size;
	fresh.skip = !wanted(size);
	bpf_map_update_elem(&sizes, &tid, &fresh, BPF_ANY);
	if (trace_all && !fresh.skip)
		trace(ctx, ML_ALLOC_ENTER, size, 0);
	return 0;
}

static __noinline int alloc_exit(void *ctx, __u64 addr)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct pending *p = bpf_map_lookup_elem(&sizes, &tid);
	__u64 size;
	__u32 skip;

	if (!p)
		return 0; /* entry missed */
	if (p->depth) { /* a nested call returns */
		p->depth--;
		return 0;
	}
	size = p->size;
	skip = p->skip;
	bpf_map_delete_elem(&sizes, &tid);
	if (skip)
		return 0;
	record(ctx, addr, size);
	if (trace_all)
		trace(ctx, ML_ALLOC_EXIT, size, addr);
	return 0;
}

static __noinline int free_enter(void *ctx, __u64 addr)
{
	struct memleak_alloc *a = bpf_map_lookup_elem(&allocs, &addr);
	__u64 size;

	if (!a)
		return 0;
	size = a->size;
	if (combined_only) {
		__u64 sid = (__u64)a->stack_id;
		struct memleak_combined *c = bpf_map_lookup_elem(&combined, &sid);

		if (c) {
			__sync_fetch_and_add(&c->size, -size);
			__sync_fetch_and_add(&c->count, -1);
		}
	}
	bpf_map_delete_elem(&allocs, &addr);
	if (trace_all)
		trace(ctx, ML_FREE, size, addr);
	return 0;
}

/* ---- user allocators (uprobes) ---- */

#define ALLOC_P1(name)                                                          \
	SEC("uprobe") int name##_enter(struct pt_regs *ctx)                     \
	{ return alloc_enter(ctx, PT_REGS_PARM1(ctx)); }                        \
	SEC("uretprobe") int name##_exit(struct pt_regs *ctx)                   \
	{ return alloc_exit(ctx, PT_REGS_RC(ctx)); }
#define ALLOC_P2(name)                                                          \
	SEC("uprobe") int name##_enter(struct pt_regs *ctx)                     \
	{ return alloc_enter(ctx, PT_REGS_PARM2(ctx)); }                        \
	SEC("uretprobe") int name##_exit(struct pt_regs *ctx)                   \
	{ return alloc_exit(ctx, PT_REGS_RC(ctx)); }

ALLOC_P1(malloc)
ALLOC_P1(valloc)
ALLOC_P1(pvalloc)
ALLOC_P2(memalign)      /* (alignment, size) */
ALLOC_P2(aligned_alloc) /* (alignment, size) */
ALLOC_P2(mmap)          /* (addr, length, ...) */

SEC("uprobe")
int calloc_enter(struct pt_regs *ctx)
{
	return alloc_enter(ctx, PT_REGS_PARM1(ctx) * PT_REGS_PARM2(ctx));
}
SEC("uretprobe")
int calloc_exit(struct pt_regs *ctx) { return alloc_exit(ctx, PT_REGS_RC(ctx)); }

SEC("uprobe")
int realloc_enter(struct pt_regs *ctx)
{
	free_enter(ctx, PT_REGS_PARM1(ctx));
	return alloc_enter(ctx, PT_REGS_PARM2(ctx));
}
SEC("uretprobe")
int realloc_exit(struct pt_regs *ctx) { return alloc_exit(ctx, PT_REGS_RC(ctx)); }

SEC("uprobe")
int mremap_enter(struct pt_regs *ctx) /* (old, old_size, new_size, ...) */
{
	free_enter(ctx, PT_REGS_PARM1(ctx));
	return alloc_enter(ctx, PT_REGS_PARM3(ctx));
}
SEC("uretprobe")
int mremap_exit(struct pt_regs *ctx) { return alloc_exit(ctx, PT_REGS_RC(ctx)); }

SEC("uprobe")
int posix_memalign_enter(struct pt_regs *ctx) /* (void **memptr, alignment, size) */
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 memptr = PT_REGS_PARM1(ctx);

	bpf_map_update_elem(&memptrs, &tid, &memptr, BPF_ANY);
	return alloc_enter(ctx, PT_REGS_PARM3(ctx));
}
SEC("uretprobe")
int posix_memalign_exit(struct pt_regs *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 *memptr = bpf_map_lookup_elem(&memptrs, &tid), addr = 0;

	if (!memptr)
		return 0;
	bpf_probe_read_user(&addr, sizeof(addr), (void *)*memptr);
	bpf_map_delete_elem(&memptrs, &tid);
	/* non-zero return: failed, nothing was stored */
	return alloc_exit(ctx, PT_REGS_RC(ctx) == 0 ? addr : 0);
}

SEC("uprobe")
int free_enter_u(struct pt_regs *ctx) { return free_enter(ctx, PT_REGS_PARM1(ctx)); }
SEC("uprobe")
int munmap_enter(struct pt_regs *ctx) { return free_enter(ctx, PT_REGS_PARM1(ctx)); }

/* ---- kernel allocators (raw tracepoints) ----
 * raw_tp, not tp_btf: the allocation tracepoints pass `const void *ptr`,
 * which kernels before ~6.13 refuse to let a tp_btf program read ("arg1
 * type UNKNOWN is not a struct"); as raw_tp every argument is a u64. */

struct kmem_cache___m {
	unsigned int size;
} __attribute__((preserve_access_index));

/* An allocation seen at once (no entry/return pair, no per-thread state:
 * an interrupt's allocation may nest inside another's program). */
static __noinline int kalloc(void *ctx, __u64 ptr, __u64 size)
{
	if (wa_missing_free)
		free_enter(ctx, ptr);
	if (!wanted(size))
		return 0;
	record(ctx, ptr, size);
	if (trace_all)
		trace(ctx, ML_ALLOC_EXIT, size, ptr);
	return 0;
}

/* kmalloc(call_site, ptr, bytes_req, bytes_alloc, gfp[, node]) */
SEC("raw_tp/kmalloc")
int BPF_PROG(kmalloc, unsigned long call_site, const void *ptr, unsigned long bytes_req,
	     unsigned long bytes_alloc)
{
	return kalloc(ctx, (__u64)ptr, bytes_alloc);
}

/* before 6.1 only */
SEC("raw_tp/kmalloc_node")
int BPF_PROG(kmalloc_node, unsigned long call_site, const void *ptr, unsigned long bytes_req,
	     unsigned long bytes_alloc)
{
	return kalloc(ctx, (__u64)ptr, bytes_alloc);
}

/* 6.1+: (call_site, ptr, struct kmem_cache *s, gfp, node); before:
 * (call_site, ptr, bytes_req, bytes_alloc, gfp) */
SEC("raw_tp/kmem_cache_alloc")
int BPF_PROG(kmem_cache_alloc, unsigned long call_site, const void *ptr, void *arg2, unsigned long arg3)
{
	__u64 size = kmem_old ? arg3 : BPF_CORE_READ((struct kmem_cache___m *)arg2, size);

	return kalloc(ctx, (__u64)ptr, size);
}

SEC("raw_tp/kmem_cache_alloc_node")
int BPF_PROG(kmem_cache_alloc_node, unsigned long call_site, const void *ptr, unsigned long bytes_req,
	     unsigned long bytes_alloc)
{
	return kalloc(ctx, (__u64)ptr, bytes_alloc);
}

SEC("raw_tp/kfree")
int BPF_PROG(kfree, unsigned long call_site, const void *ptr)
{
	return free_enter(ctx, (__u64)ptr);
}

SEC("raw_tp/kmem_cache_free")
int BPF_PROG(kmem_cache_free, unsigned long call_site, const void *ptr)
{
	return free_enter(ctx, (__u64)ptr);
}

/* Pages by their struct page address (the same for alloc and free). */
SEC("raw_tp/mm_page_alloc")
int BPF_PROG(mm_page_alloc, void *page, unsigned int order)
{
	return kalloc(ctx, (__u64)page, page_size << (order & 31));
}

SEC("raw_tp/mm_page_free")
int BPF_PROG(mm_page_free, void *page)
{
	return free_enter(ctx, (__u64)page);
}

/* order-0 pages freed in batches (release_pages) */
SEC("raw_tp/mm_page_free_batched")
int BPF_PROG(mm_page_free_batched, void *page)
{
	return free_enter(ctx, (__u64)page);
}

/* -P: percpu areas (a classic tracepoint: its arguments changed in 6.2) */
struct trace_event_raw_percpu_alloc_percpu___m {
	__u64 size, bytes_alloc;
	void *ptr;
} __attribute__((preserve_access_index));

struct trace_event_raw_percpu_free_percpu___m {
	void *ptr;
} __attribute__((preserve_access_index));

SEC("tracepoint/percpu/percpu_alloc_percpu")
int percpu_alloc(struct trace_event_raw_percpu_alloc_percpu___m *ctx)
{
	__u64 size = bpf_core_field_exists(ctx->bytes_alloc) ? BPF_CORE_READ(ctx, bytes_alloc)
							      : BPF_CORE_READ(ctx, size);

	return kalloc(ctx, (__u64)BPF_CORE_READ(ctx, ptr), size);
}

SEC("tracepoint/percpu/percpu_free_percpu")
int percpu_free(struct trace_event_raw_percpu_free_percpu___m *ctx)
{
	return free_enter(ctx, (__u64)BPF_CORE_READ(ctx, ptr));
}
