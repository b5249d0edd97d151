/* slabratetop, kernel side: slab cache allocations counted by cache
 * name, with their bytes, from kmem:kmem_cache_alloc.
 *
 * libbpf-tools probes kmem_cache_alloc() (a kprobe: cachep->name and
 * cachep->size).  The tracepoint (its cache name since 6.1) fires in
 * every slab cache allocation (kmem_cache_alloc and its _node and _lru
 * forms, which the kprobe misses), in the allocating task, with
 * bytes_alloc = the cache's object size with its padding (cachep->size). */
#include "corebox.bpf.h"
#include "slabratetop.h"

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 target_pid = 0;

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SLAB_MAX_ENTRIES);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, struct slabrate_key);
	__type(value, struct slabrate_val);
} slab_entries SEC(".maps");

/* include/trace/events/kmem.h (6.1+) */
struct trace_event_raw_kmem_cache_alloc___sl {
	struct trace_entry ent;
	unsigned long call_site;
	const void *ptr;
	__u32 __data_loc_name;
	__u64 bytes_req;
	__u64 bytes_alloc;
} __attribute__((preserve_access_index));

SEC("tracepoint/kmem/kmem_cache_alloc")
int slabratetop_alloc(struct trace_event_raw_kmem_cache_alloc___sl *ctx)
{
	struct slabrate_key key = {};
	struct slabrate_val *v, zero = {};
	__u32 loc;

	if (target_pid && (__u32)(bpf_get_current_pid_tgid() >> 32) != target_pid)
		return 0;
	if (!ctx->ptr)
		return 0; /* a failed allocation */
	loc = ctx->__data_loc_name;
	bpf_probe_read_kernel_str(key.name, sizeof(key.name), (char *)ctx + (loc & 0xffff));
	v = bpf_map_lookup_elem(&slab_entries, &key);
	if (!v) {
		bpf_map_update_elem(&slab_entries, &key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&slab_entries, &key);
		if (!v)
			return 0;
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->size, ctx->bytes_alloc);
	return 0;
}
