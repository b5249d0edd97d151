/* A map whose max_entries is absurd (a corrupted object): `corebox run`
 * must refuse it by name and size before BPF_MAP_CREATE, which would
 * spend about a minute trying to allocate it. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, MAP_ARRAY);
	__uint(max_entries, 0x7fffffff);
	__type(key, u32);
	__type(value, u64);
} huge SEC(".maps");

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_getppid(void *ctx)
{
	u32 k = 0;
	u64 *v = bpf_map_lookup_elem(&huge, &k);

	if (v)
		*v += 1;
	return 0;
}
