/* Counting at exit: a HASH map pid -> calls, keyed by the tgid read from
 * task_struct through a CO-RE relocation; a HASH map with a struct value
 * (string, enum, bitfields, nested array); a per-CPU array (summed at
 * exit); a .bss counter; a .kconfig extern; a global subprogram. */
#include "mini.h"

char LICENSE[] SEC("license") = "GPL";

struct task_struct {
	int tgid;
} __attribute__((preserve_access_index));

enum kind { KIND_NONE = 0, KIND_GETPPID = 110 };

struct stats {
	char comm[16];
	enum kind kind;
	u32 small : 3, big : 13;
	s32 neg;
	u32 first[2];
};

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, 1024);
	__type(key, u32);
	__type(value, u64);
} calls SEC(".maps");

struct {
	__uint(type, MAP_HASH);
	__uint(max_entries, 64);
	__type(key, u32);
	__type(value, struct stats);
} info SEC(".maps");

struct {
	__uint(type, MAP_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, u64);
} percpu_calls SEC(".maps");

u64 total_calls;
extern u32 LINUX_KERNEL_VERSION __kconfig;
u32 kernel_version;

__noinline int current_tgid(void)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	int tgid = 0;

	bpf_probe_read_kernel(&tgid, sizeof(tgid), &t->tgid);
	return tgid;
}

SEC("tracepoint/syscalls/sys_enter_getppid")
int count_getppid(void *ctx)
{
	struct stats s = {};
	u32 pid, zero = 0;
	u64 one = 1, *c;

	if (!cbxrun_task(s.comm))
		return 0;
	pid = current_tgid();
	c = bpf_map_lookup_elem(&calls, &pid);
	if (c)
		__sync_fetch_and_add(c, 1);
	else
		bpf_map_update_elem(&calls, &pid, &one, 0);
	c = bpf_map_lookup_elem(&percpu_calls, &zero);
	if (c)
		*c += 1;
	s.kind = KIND_GETPPID;
	s.small = 5;
	s.big = 4097;
	s.neg = -42;
	s.first[0] = pid;
	bpf_map_update_elem(&info, &pid, &s, 0);
	__sync_fetch_and_add(&total_calls, 1);
	kernel_version = LINUX_KERNEL_VERSION;
	return 0;
}
