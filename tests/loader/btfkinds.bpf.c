/* Program BTF with the kinds older kernels refuse: FLOAT, DECL_TAG,
 * TYPE_TAG (and FUNC, global FUNC, VAR/DATASEC).  tests/unit/
 * test_loader_btf.c loads it with each kind switched off
 * (COREBOX_DISABLE=btf_float,...), so the loader must sanitize the BTF it
 * uploads, and checks that the kernel took the BTF and the program ran. */
#include "corebox.bpf.h"

char LICENSE[] SEC("license") = "GPL";

struct tagged {
	int hits __attribute__((btf_decl_tag("cbx_decl")));
	int __attribute__((btf_type_tag("cbx_type"))) *ptr;
	float f;
	double d;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tagged);
} tagged_map SEC(".maps");

const volatile __u32 targ_tgid = 0;
float scale = 2.0f;
__u64 runs = 0;

__noinline int global_twice(int x)
{
	return x * 2;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int kinds(void *ctx)
{
	__u32 k = 0;
	struct tagged *t;

	if ((bpf_get_current_pid_tgid() >> 32) != targ_tgid)
		return 0;
	t = bpf_map_lookup_elem(&tagged_map, &k);
	if (t)
		t->hits += global_twice(1) - 1;
	__sync_fetch_and_add(&runs, 1);
	return 0;
}
