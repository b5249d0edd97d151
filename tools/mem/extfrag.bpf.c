/* extfrag, kernel side: count kmem:mm_page_alloc_extfrag events, the
 * page allocator's fallbacks (an allocation of one migrate type served
 * from another type's free lists: what mixes pageblocks and fragments
 * memory), by orders and migrate types, with -s by kernel stack. */
#include "mem.bpf.h"
#include "stacks.bpf.h"
#include "extfrag.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u8 with_stacks = 0;

struct trace_event_raw_mm_page_alloc_extfrag___m {
	int alloc_order, fallback_order;
	int alloc_migratetype, fallback_migratetype;
	int change_ownership;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, EXTFRAG_MAX_ENTRIES);
	__type(key, struct extfrag_key);
	__type(value, __u64);
} counts SEC(".maps");

STACK_MAP(stackmap);

SEC("tracepoint/kmem/mm_page_alloc_extfrag")
int extfrag(struct trace_event_raw_mm_page_alloc_extfrag___m *ctx)
{
	struct extfrag_key k = {};

	k.alloc_order = BPF_CORE_READ(ctx, alloc_order);
	k.fallback_order = BPF_CORE_READ(ctx, fallback_order);
	k.alloc_mt = BPF_CORE_READ(ctx, alloc_migratetype);
	k.fallback_mt = BPF_CORE_READ(ctx, fallback_migratetype);
	if (bpf_core_field_exists(ctx->change_ownership))
		k.change_ownership = BPF_CORE_READ(ctx, change_ownership);
	k.stack_id = with_stacks ? (int)bpf_get_stackid(ctx, &stackmap, 0) : -1;
	counts_add(&counts, &k, 1);
	return 0;
}
