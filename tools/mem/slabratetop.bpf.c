/* slabratetop, kernel side: slab cache allocations counted by cache
 * name, with their bytes, from kmem:kmem_cache_alloc.
 *
 * libbpf-tools probes kmem_cache_alloc() (a kprobe: cachep->name and
 * cachep->size).  The tracepoint fires in every slab cache allocation
 * (kmem_cache_alloc and its _node and _lru forms, which the kprobe
 * misses), in the allocating task, with bytes_alloc = the cache's object
 * size with its padding (cachep->size).  Its record names the cache in
 * newer kernels (6.18 here; not 6.1 or 6.12, the VM guests); where it
 * does not, the tool takes the same tracepoint's arguments (tp_btf, else
 * raw_tp), which carry the kmem_cache itself. */
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

/* include/trace/events/kmem.h, with the cache's name (newer kernels) */
struct trace_event_raw_kmem_cache_alloc___sl {
	struct trace_entry ent;
	unsigned long call_site;
	const void *ptr;
	__u32 __data_loc_name;
	__u64 bytes_req;
	__u64 bytes_alloc;
} __attribute__((preserve_access_index));

static __always_inline int count(struct slabrate_key *key, __u64 bytes)
{
	struct slabrate_val *v, zero = {};

	v = bpf_map_lookup_elem(&slab_entries, key);
	if (!v) {
		bpf_map_update_elem(&slab_entries, key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&slab_entries, key);
		if (!v)
			return 0;
	}
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->size, bytes);
	return 0;
}

static __always_inline bool other_pid(void)
{
	return target_pid && (__u32)(bpf_get_current_pid_tgid() >> 32) != target_pid;
}

SEC("tracepoint/kmem/kmem_cache_alloc")
int slabratetop_alloc(struct trace_event_raw_kmem_cache_alloc___sl *ctx)
{
	struct slabrate_key key = {};
	__u32 loc;

	if (other_pid() || !ctx->ptr)
		return 0; /* another process, or a failed allocation */
	loc = ctx->__data_loc_name;
	bpf_probe_read_kernel_str(key.name, sizeof(key.name), (char *)ctx + (loc & 0xffff));
	return count(&key, ctx->bytes_alloc);
}

/* Where the record has no name field (6.1, 6.12), the
 * tracepoint's arguments still pass the cache: its name and object size
 * (what the record's bytes_alloc is) are read from it. */
struct kmem_cache___sl {
	const char *name;
	unsigned int size;
} __attribute__((preserve_access_index));

SEC("tp_btf/kmem_cache_alloc")
int BPF_PROG(slabratetop_alloc_args, unsigned long call_site, const void *ptr_arg, struct kmem_cache___sl *s)
{
	struct slabrate_key key = {};
	const void *ptr = NULL;

	/* the object's address, a void * (6.1's verifier lets a program
	 * read only scalars and struct pointers from the arguments) */
	bpf_probe_read_kernel(&ptr, sizeof(ptr), (void *)ctx + sizeof(__u64));
	if (other_pid() || !ptr || !s)
		return 0;
	bpf_probe_read_kernel_str(key.name, sizeof(key.name), BPF_CORE_READ(s, name));
	return count(&key, BPF_CORE_READ(s, size));
}
