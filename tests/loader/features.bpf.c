/* A BPF object exercising the loader paths the tools may not: static and
 * global subprograms shared by several programs, a bpf_loop callback,
 * .rodata/.data/.bss, .kconfig externs, a typeless __ksym, and program
 * variants switched off before load.  tests/unit/test_loader.c loads it
 * into the running kernel and checks what each program computed. */
#include "corebox.bpf.h" /* __kconfig, __ksym */

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} results SEC(".maps");

const volatile __u32 targ_tgid = 0;
__u64 bss_hits = 0;
__u64 data_val = 42;

extern __u32 LINUX_KERNEL_VERSION __kconfig;
extern int CONFIG_BPF_SYSCALL __kconfig __weak;
extern int CONFIG_COREBOX_NO_SUCH_OPTION __kconfig __weak;
extern const void _text __ksym;

static __noinline __u64 add_static(__u64 a, __u64 b)
{
	return a + b;
}

__noinline __u64 twice_global(__u64 a)
{
	return a * 2;
}

static long sum_cb(__u32 i, void *ctx)
{
	*(__u64 *)ctx += i;
	return 0;
}

static __always_inline void store(__u32 k, __u64 v)
{
	__u64 *p = bpf_map_lookup_elem(&results, &k);

	if (p)
		*p = v;
}

static __always_inline void bump(__u32 k)
{
	__u64 *p = bpf_map_lookup_elem(&results, &k);

	if (p)
		__sync_fetch_and_add(p, 1);
}

static __always_inline int mine(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == targ_tgid;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int on_tp(void *ctx)
{
	__u64 sum = 0;

	if (!mine())
		return 0;
	bump(0);
	store(1, add_static(data_val, LINUX_KERNEL_VERSION));
	store(2, twice_global(CONFIG_BPF_SYSCALL) + CONFIG_COREBOX_NO_SUCH_OPTION);
	bpf_loop(10, sum_cb, &sum, 0);
	store(3, sum);
	store(4, (__u64)&_text);
	__sync_fetch_and_add(&bss_hits, 1);
	return 0;
}

SEC("raw_tp/sys_enter")
int on_raw(__u64 *ctx)
{
	if (!mine() || ctx[1] != 110 /* getppid on x86_64 */)
		return 0;
	bump(5);
	store(6, add_static(1, 2));
	return 0;
}

SEC("tp_btf/sys_enter")
int on_btf(__u64 *ctx)
{
	if (!mine() || ctx[1] != 110)
		return 0;
	bump(7);
	store(8, twice_global(21));
	return 0;
}

/* Never loadable here (fentry is refused on these machines); the test
 * switches it off, and the loader must then ignore it entirely. */
SEC("fentry/do_nanosleep")
int on_fentry(__u64 *ctx)
{
	bump(9);
	return 0;
}
